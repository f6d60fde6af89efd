/**
 * Surveyor records (one per licensed surveyor or firm), their ordered contacts, their
 * append-only contact history, places converted into prospects, and the work sent to them.
 *
 * Contacts live in a jsonb array on the row and are addressed by index, as the spec's API
 * does. Every contact edit is ONE update statement on the row (`||`, `jsonb_set`, `-`), with
 * the index-in-range condition in its `where`: concurrent edits serialise on the row lock and
 * each sees the list as the previous one left it, so no entry is ever lost, and an index out
 * of range changes nothing.
 */
import type postgres from "postgres";
import type { Db } from "./client.ts";
import { integerLiteral } from "./sql_literals.ts";
import { isUuid, type Viewer } from "./users.ts";
import { currentSnapshot, rememberedRead, SnapshotCache } from "./snapshot_cache.ts";
import { remembered } from "../lib/remembered.ts";
import { townFromAddress } from "../lib/address_parts.ts";
import type { SurveyType } from "../lib/survey_types.ts";
import type { SurveyStatus } from "../lib/survey_schema.ts";
import type { StateCode } from "../lib/survey_options.ts";
import {
  type ContactHistoryEntry,
  type ContactHistoryInput,
  type ContactInput,
  DEFAULT_SURVEYOR_PAGE_SIZE,
  MAX_CONTACTS,
  MAX_SURVEYOR_PAGE_SIZE,
  type NewSurveyorInput,
  type Place,
  type Surveyor,
  SURVEYOR_STATUSES,
  type SurveyorContact,
  type SurveyorListQuery,
  type SurveyorListResponse,
  type SurveyorRow as DirectoryRow,
  type SurveyorSource,
  type SurveyorStatus,
  type SurveyorUpdate,
} from "../lib/surveyor_schema.ts";
import type { VerifiedVia } from "../lib/surveyor_constants.ts";

/** True when `id` is shaped like a uuid; anything else cannot name a surveyor. */
export function isSurveyorId(id: string): boolean {
  return isUuid(id);
}

/**
 * Thrown by `addContact` when the surveyor already has `MAX_CONTACTS` contacts (the route
 * answers 409). Nothing is changed.
 */
export class TooManyContactsError extends Error {
  constructor() {
    super(`A surveyor can have at most ${MAX_CONTACTS} contacts`);
    this.name = "TooManyContactsError";
  }
}

/** A surveyor as `surveyorColumns` reads it (`toSurveyor` makes the record). */
export interface SurveyorRow extends Omit<Surveyor, "createdAt" | "updatedAt"> {
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The record's columns of the `surveyors` row in scope, one fragment so every read (and a
 * page's statement, db/surveyor_record.ts) returns the same shape.
 */
export function surveyorColumns(db: Db) {
  return db`
    id, company_name, principal_name, license_number, license_states, email, phone, website,
    address, city, state, zip, lat, lng, service_radius_miles, survey_types, in_network,
    status, source, place_id, rating, review_count, user_id, contacts, notes, is_demo,
    created_at, updated_at,
    array(
      select ls.state from surveyor_licence_states ls
      where ls.surveyor_id = surveyors.id and ls.status = 'pending' order by ls.state
    ) as pending_license_states,
    array(
      select ls.state from surveyor_licence_states ls
      where ls.surveyor_id = surveyors.id and ls.status = 'rejected' order by ls.state
    ) as rejected_license_states,
    pending_license_number`;
}

/** `surveyorColumns`' row as the record. */
export function toSurveyor(row: SurveyorRow): Surveyor {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The surveyor with `id`, or undefined (also for an id that is not a uuid). */
export async function getSurveyor(db: Db, { id }: { id: string }): Promise<Surveyor | undefined> {
  if (!isSurveyorId(id)) return undefined;
  const [row] = await db<SurveyorRow[]>`
    select ${surveyorColumns(db)} from surveyors where id = ${id}`;
  return row && toSurveyor(row);
}

/** The surveyor record linked to the account `userId`, or undefined. */
export async function getSurveyorByUserId(
  db: Db,
  { userId }: { userId: string },
): Promise<Surveyor | undefined> {
  if (!isSurveyorId(userId)) return undefined;
  const [row] = await db<SurveyorRow[]>`
    select ${surveyorColumns(db)} from surveyors where user_id = ${userId}`;
  return row && toSurveyor(row);
}

/** The surveyor converted from the place `placeId`, or undefined. */
export async function getSurveyorByPlaceId(
  db: Db,
  { placeId }: { placeId: string },
): Promise<Surveyor | undefined> {
  const [row] = await db<SurveyorRow[]>`
    select ${surveyorColumns(db)} from surveyors where place_id = ${placeId}`;
  return row && toSurveyor(row);
}

// LIKE treats % and _ as wildcards and \ as the escape; a search for "50%" means the text.
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`;
}

// The search, state and type filters: what the counts are computed over.
function searchConditions(
  db: Db,
  query: Pick<SurveyorListQuery, "q" | "state" | "surveyType">,
) {
  const parts: postgres.PendingQuery<postgres.Row[]>[] = [];
  if (query.q) {
    // Exactly the expression of surveyors_search_idx (gin trigram), so the index serves it.
    parts.push(
      db`lower(company_name || ' ' || coalesce(city, '')) like ${likePattern(query.q)}`,
    );
  }
  if (query.state) parts.push(db`state = ${query.state}`);
  if (query.surveyType) parts.push(db`survey_types @> array[${query.surveyType}]::text[]`);
  if (parts.length === 0) return db`true`;
  return parts.reduce((acc, part) => db`${acc} and ${part}`);
}

// The status and in-network filters, applied to the page but not to the counts. Spelled out
// only when set, so every plan is made for the filters actually given.
function listFilter(db: Db, query: Pick<SurveyorListQuery, "status" | "inNetworkOnly">) {
  if (query.status && query.inNetworkOnly) {
    return db`status = ${query.status} and in_network`;
  }
  if (query.status) return db`status = ${query.status}`;
  if (query.inNetworkOnly) return db`in_network`;
  return db`true`;
}

/**
 * One page of the directory, ordered by company name (case-insensitive) then id, with the
 * number of records matching every filter (`total`) and the `counts` for the search, state
 * and type filters alone (so the status and in-network chips can show what they would give).
 *
 * `q` matches any part of the company name or city, case-insensitively, through the gin
 * trigram index `surveyors_search_idx`. Without a search the page is an index-only walk of
 * `surveyors_directory_idx` (or `surveyors_directory_state_idx` with a state), which carry
 * every filtered column, with a deferred join: the offset is walked over index entries and only
 * the page's rows are read in full (the first page, with no offset to walk, reads its rows in
 * the walk itself). The counts are sums over the trigger-kept surveyor_counts
 * table, or one aggregate over the matches of a search (0010_surveyor_directory.sql), read in
 * the same statement as the page.
 */
export async function listSurveyors(
  db: Db,
  query: SurveyorListQuery,
): Promise<SurveyorListResponse> {
  const { agg, rows } = await readDirectory<SurveyorRow>(db, query, surveyorColumns(db));
  return {
    surveyors: rows.map(toSurveyor),
    total: agg.total,
    page: query.page,
    pageSize: query.pageSize,
    counts: countsOf(agg),
  };
}

function countsOf(agg: CountsRow): SurveyorListResponse["counts"] {
  const byStatus = Object.fromEntries(
    SURVEYOR_STATUSES.map((s) => [s, agg[s]]),
  ) as Record<SurveyorStatus, number>;
  return { total: agg.all, inNetwork: agg.inNetwork, byStatus };
}

/**
 * What the directory table shows of a record: lib/surveyor_schema.ts `SurveyorRow`, the type the
 * island's `toSurveyorRow` makes from a whole `Surveyor` (its contacts reduced to their number and
 * the primary, else first, contact's name).
 */
export type SurveyorDirectoryRow = DirectoryRow;

/**
 * `listSurveyors` as the /surveyors page shows it, in one statement: the same page, total and
 * counts, but each record as its table row, read as such, and the coverage map's points
 * (`listSurveyorLocations(query, mapLimit)`) with them. The page renders 13 of a record's 31
 * columns; this reads only those, with the contact count and main contact computed in SQL,
 * instead of every record's contacts, notes, addresses and licence states (two subqueries a
 * row).
 */
export async function listSurveyorDirectory(
  db: Db,
  query: SurveyorListQuery,
  mapLimit: number,
  { viewerId }: {
    /**
     * Also read this user and their unread count in the statement (`viewer`, db/users.ts
     * `readWithViewer`): the page reads its viewer (routes/_auth.ts `ownViewerPage`).
     */
    viewerId?: string;
  } = {},
): Promise<
  SurveyorDirectory & {
    /** With `viewerId`: that user as `getUserWithUnreadCount` reads them, or undefined. */
    viewer?: Viewer;
  }
> {
  // Remembered by snapshot (db/snapshot_cache.ts): a reload while none of its tables has been
  // written is the directory read last, with its viewer read anew. Nothing in it reads the clock.
  // The first contact marked primary, else the first contact: toSurveyorRow's choice.
  const columns = db`id, company_name, principal_name, city, state, status, in_network,
    survey_types, service_radius_miles, rating, review_count,
    jsonb_array_length(contacts) as contact_count,
    coalesce(
      jsonb_path_query_first(contacts, '$[*] ? (@.isPrimary == true)'),
      contacts -> 0
    ) ->> 'name' as main_contact`;
  const { viewer, value } = await rememberedRead(
    db,
    directoryRead,
    `${JSON.stringify(query)} ${mapLimit}`,
    viewerId,
    directoryStatement(db, query, columns, mapLimit),
    (result: DirectoryStatementRow<SurveyorDirectoryRow>[]) => {
      const { agg, rows, located, snapshot } = directoryFrom(result);
      if (snapshot === undefined) return undefined;
      const value = {
        rows,
        total: agg.total,
        page: query.page,
        pageSize: query.pageSize,
        counts: countsOf(agg),
        located,
      };
      return { value, snapshot, validUntil: null };
    },
  );
  return {
    ...(viewer && { viewer }),
    ...(value ?? {
      rows: [],
      total: 0,
      page: query.page,
      pageSize: query.pageSize,
      counts: countsOf(countsRow(NO_COUNTS)),
      located: [],
    }),
  };
}

type SurveyorDirectory = Omit<SurveyorListResponse, "surveyors"> & {
  rows: SurveyorDirectoryRow[];
  located: readonly SurveyorLocation[];
};

/** The directory pages last read (`listSurveyorDirectory`): some 30 KB each with the map. */
const directoryRead = new SnapshotCache<SurveyorDirectory>(50, ["surveyor_counts", "surveyors"]);

/** Where a directory record's office is, for the coverage map: what a map point needs. */
export interface SurveyorLocation {
  id: string;
  companyName: string;
  lat: number | null;
  lng: number | null;
  inNetwork: boolean;
  status: SurveyorStatus;
}

/**
 * The first `limit` records matching `query`, in the directory's order (A to Z, as page 1 of
 * `listSurveyors`), with only their name, office location, network and status: the coverage
 * map's points, without reading every column (contacts, notes, licence states) of a hundred
 * rows that only become dots. The same index walk as `listSurveyors`, answered from the index.
 */
export async function listSurveyorLocations(
  db: Db,
  query: Omit<SurveyorListQuery, "page" | "pageSize">,
  limit: number,
): Promise<SurveyorLocation[]> {
  return await db<SurveyorLocation[]>`${locationsQuery(db, query, limit)}`;
}

function locationsQuery(
  db: Db,
  query: Omit<SurveyorListQuery, "page" | "pageSize">,
  limit: number,
) {
  // The directory indexes carry these columns (0051), so without a search this is an
  // index-only walk that stops after `limit` entries, with no heap read per point.
  return db`
    select id, company_name, lat, lng, in_network, status from surveyors
    where ${searchConditions(db, query)} and ${listFilter(db, query)}
    order by lower(company_name), id
    limit ${limitClause(db, limit)}`;
}

// The page sizes the directory and its map use, written into their statements as literals.
// With `limit $1` Postgres plans a prepared statement again on every run: its generic plan has
// to guess the limit, costs more than the custom one, and is never chosen. With `limit 25` the
// generic plan is the custom one and is kept after five runs (0.06–0.09 ms of Postgres CPU per
// statement saved on /surveyors). Only these constants become literals (a statement each); any
// other limit stays a parameter.
const LITERAL_LIMITS = new Set([DEFAULT_SURVEYOR_PAGE_SIZE, MAX_SURVEYOR_PAGE_SIZE]);

function limitClause(db: Db, limit: number) {
  return LITERAL_LIMITS.has(limit) ? integerLiteral(db, limit) : db`${limit}`;
}

// The counts as `to_json` spells the counts' row.
type CountsJson = Record<"total" | "all" | "in_network" | SurveyorStatus, number>;

// The counts of a statement that returned no row (its viewer does not exist).
const NO_COUNTS: CountsJson = {
  total: 0,
  all: 0,
  in_network: 0,
  prospect: 0,
  invited: 0,
  pending: 0,
  active: 0,
  paused: 0,
};

// A map point as `json_build_object` spells it in `readDirectory`.
type LocationJson = Omit<SurveyorLocation, "companyName" | "inNetwork"> & {
  company_name: string;
  in_network: boolean;
};

// The counts for `query` and its page of `columns` (over `surveyors`), with the first
// `mapLimit` records' map points when asked, in ONE statement: each statement costs CPU in the
// process and in its Postgres backend even when pipelined (issue 23). The counts' row `c` is
// joined to the page (`pageQuery`, lateral: the page's bounds come from c.total); the counts and
// the points ride on the first row only, as JSON. The counts and the page are read in the same
// snapshot, so a record added or removed in between can no longer shift the page by one row.
async function readDirectory<R extends postgres.Row & { id: string }>(
  db: Db,
  query: SurveyorListQuery,
  columns: postgres.PendingQuery<postgres.Row[]>,
): Promise<{ agg: CountsRow; rows: R[] }> {
  return directoryFrom<R>(
    await directoryStatement(db, query, columns) as unknown as DirectoryStatementRow<R>[],
  );
}

// `readDirectory`'s statement; with `mapLimit`, the map's points too.
function directoryStatement(
  db: Db,
  query: SurveyorListQuery,
  columns: postgres.PendingQuery<postgres.Row[]>,
  mapLimit?: number,
): postgres.PendingQuery<postgres.Row[]> {
  const counts = query.q ? countMatches(db, query) : countFromCounters(db, query);
  // `json_agg(l)` names each point's keys after the subquery's columns, and takes the rows in
  // the subquery's order (its index walk, A to Z): no `json_build_object` per point and no
  // second sort of what the walk already sorted: the first page's statement over 5,000 records
  // (bench/signed_in_pages.ts's directory) ran in 0.47–0.50 ms in Postgres, now 0.34–0.36 ms
  // (pg_stat_statements, 2,000 runs, two alternating rounds).
  // The points come as JSON text, read by `locationsOf`: the same text, the same array.
  const located = mapLimit === undefined ? db`null::text` : db`(
      select coalesce(json_agg(l), '[]'::json)::text
      from (${locationsQuery(db, query, mapLimit)}) l
    )`;
  return db`
    select
      case when row_number() over w = 1 then to_json(c) end as directory,
      case when row_number() over w = 1 then ${located} end as located_json,
      case when row_number() over w = 1 then ${currentSnapshot(db)} end as snapshot,
      r.*
    from (${counts}) c
    left join lateral (${pageQuery(db, query, columns)}) r on true
    window w as (order by lower(r.company_name), r.id)
    order by lower(r.company_name), r.id`;
}

type DirectoryStatementRow<R> =
  & { directory: CountsJson | null; locatedJson: string | null; snapshot: string | null }
  & R;

// The directory from its statement's rows: one row at least (the counts' own, with no record
// when none is on the page), unless a viewer read with it does not exist.
function directoryFrom<R extends postgres.Row & { id: string }>(
  result: DirectoryStatementRow<R>[],
): {
  agg: CountsRow;
  rows: R[];
  located: readonly SurveyorLocation[];
  /** The statement's snapshot (db/snapshot_cache.ts); undefined: no rows. */
  snapshot?: string;
} {
  const first = result.find((r) => r.directory);
  const c = first?.directory ?? NO_COUNTS;
  return {
    agg: countsRow(c),
    rows: result.filter((r) => r.id !== null).map((
      { directory: _, locatedJson: _located, snapshot: _snapshot, sessionViewer: _viewer, ...row }:
        & DirectoryStatementRow<R>
        & { sessionViewer?: unknown },
    ) => row as unknown as R),
    located: locationsOf(first?.locatedJson ?? "[]"),
    ...(first?.snapshot && { snapshot: first.snapshot }),
  };
}

function countsRow(c: CountsJson): CountsRow {
  return {
    total: c.total,
    all: c.all,
    inNetwork: c.in_network,
    prospect: c.prospect,
    invited: c.invited,
    pending: c.pending,
    active: c.active,
    paused: c.paused,
  };
}

/**
 * The map's points from their JSON text, remembered by the text (the last 20): a reload of the
 * directory with the same first hundred firms gets the same frozen array, so neither it nor the
 * map drawn from it (components/UsMap.tsx remembers a points array's JSON) parses or writes
 * 10 KB of JSON again (~0.1 ms of /surveyors).
 */
const locationsOf = remembered((json: string): readonly SurveyorLocation[] =>
  Object.freeze(
    (JSON.parse(json) as LocationJson[]).map((l) =>
      Object.freeze({
        id: l.id,
        companyName: l.company_name,
        lat: l.lat,
        lng: l.lng,
        inNetwork: l.in_network,
        status: l.status,
      })
    ),
  ), 20);

// The page's rows, as a subquery of `readDirectory`'s statement (c.total: the number matching
// every filter). A page past the middle is read from the end (descending, then put back in
// order), so no page walks more than half the matching index entries, and the planner never
// prefers sorting the whole table to walking most of the index. Both walks are written; the
// condition on c.total that keeps one out holds only the counts' values, so Postgres tests it
// once and never starts that walk. Each walk's limit is the page size, so the planner expects a
// page of rows and joins them to the table by primary key; the last page, shorter, is cut from
// the page read from the end, and a page past the end is cut to nothing.
function pageQuery(
  db: Db,
  query: SurveyorListQuery,
  columns: postgres.PendingQuery<postgres.Row[]>,
) {
  const offset = (query.page - 1) * query.pageSize;
  if (offset === 0 && !query.q) {
    // The first page without a search: the index walk gives the order and stops after the
    // page, so reading each row in the same walk is what the deferred join would do, without
    // the join and the second plan (0.4 -> 0.1 ms of Postgres CPU for the directory's page).
    return db`
      select ${columns} from surveyors
      where ${searchConditions(db, query)} and ${listFilter(db, query)}
      order by lower(company_name), id
      limit ${limitClause(db, query.pageSize)}`;
  }
  // offset + pageSize / 2 > total / 2, in integers.
  const fromEnd = db`${2 * offset + query.pageSize}::int > c.total`;
  return db`
    select ${columns}
    from (
      (select id, lower(company_name) as sort_name from surveyors
        where ${searchConditions(db, query)} and ${listFilter(db, query)} and not (${fromEnd})
        order by lower(company_name), id
        limit ${limitClause(db, query.pageSize)} offset ${offset}::int)
      union all
      (select id, sort_name from (
          select id, lower(company_name) as sort_name from surveyors
          where ${searchConditions(db, query)} and ${listFilter(db, query)} and ${fromEnd}
          order by lower(company_name) desc, id desc
          limit ${limitClause(db, query.pageSize)}
          offset greatest(c.total - ${offset + query.pageSize}::int, 0)
        ) last
        order by sort_name desc, id desc
        limit greatest(c.total - ${offset}::int, 0))
    ) page join surveyors using (id)`;
}

type CountsRow = Record<"total" | "all" | "inNetwork" | SurveyorStatus, number>;

// A search counts its matches (the trigram index bounds them).
function countMatches(db: Db, query: SurveyorListQuery) {
  return db<CountsRow[]>`
    select
      count(*) filter (where ${listFilter(db, query)})::int as total,
      count(*)::int as all,
      count(*) filter (where in_network)::int as in_network,
      count(*) filter (where status = 'prospect')::int as prospect,
      count(*) filter (where status = 'invited')::int as invited,
      count(*) filter (where status = 'pending')::int as pending,
      count(*) filter (where status = 'active')::int as active,
      count(*) filter (where status = 'paused')::int as paused
    from surveyors where ${searchConditions(db, query)}`;
}

// Without a search the counts are sums over surveyor_counts (kept exact by triggers,
// 0010_surveyor_directory.sql): a few hundred rows, however many surveyors.
function countFromCounters(db: Db, query: SurveyorListQuery) {
  const state = query.state ?? null;
  return db<CountsRow[]>`
    select
      coalesce(sum(n) filter (where ${listFilter(db, query)}), 0)::int as total,
      coalesce(sum(n), 0)::int as all,
      coalesce(sum(n) filter (where in_network), 0)::int as in_network,
      coalesce(sum(n) filter (where status = 'prospect'), 0)::int as prospect,
      coalesce(sum(n) filter (where status = 'invited'), 0)::int as invited,
      coalesce(sum(n) filter (where status = 'pending'), 0)::int as pending,
      coalesce(sum(n) filter (where status = 'active'), 0)::int as active,
      coalesce(sum(n) filter (where status = 'paused'), 0)::int as paused
    from surveyor_counts
    where survey_type = ${query.surveyType ?? ""}
      and (${state}::text is null or state = ${state})`;
}

/** Everything `insertSurveyor` accepts: the admin's fields plus how the record came to be. */
export type InsertSurveyorInput = NewSurveyorInput & {
  source?: SurveyorSource;
  placeId?: string | null;
  userId?: string | null;
  isDemo?: boolean;
  contacts?: ContactInput[];
  /**
   * The admin adding the record: an active record is verified by them (via 'admin'). Without
   * one, an active record is verified via 'seed' (a command made it).
   */
  verifiedBy?: string | null;
};

/**
 * The verification columns of a record made active by `actorId` (an admin; null: a command),
 * as a set-list fragment of an update: an earlier verification is kept, else this one is
 * recorded now. Reads the row's old values, so it belongs in the statement that sets the status.
 */
function verifyOnActivate(db: Db, actorId: string | null) {
  const via: VerifiedVia = actorId ? "admin" : "seed";
  return db`
    verified_at = coalesce(verified_at, now()),
    verified_by = case when verified_at is null then ${actorId}::uuid else verified_by end,
    verified_via = coalesce(verified_via, ${via})`;
}

/**
 * The verification columns for a record moved to `status` (set-list fragment of an update):
 * recorded on the way to active, cleared on the way to prospect, invited or pending (the
 * licence is to be checked again), kept for paused. See SURVEYOR_STATUSES for the model.
 */
function verificationForStatus(db: Db, status: SurveyorStatus, actorId: string | null) {
  if (status === "active") return verifyOnActivate(db, actorId);
  if (status === "paused") return null;
  return db`verified_at = null, verified_by = null, verified_via = null`;
}

function toContact(input: ContactInput): SurveyorContact {
  return {
    name: input.name,
    title: input.title ?? null,
    email: input.email ?? null,
    phone: input.phone ?? null,
    isPrimary: input.isPrimary ?? false,
  };
}

/**
 * Inserts a surveyor record and returns it. Defaults: status prospect, source manual, not in
 * network, service radius 50 miles. An active record is inserted verified (now, by
 * `verifiedBy` via 'admin', or via 'seed' without one). Throws the database's unique violation
 * when `placeId` or `userId` already belongs to another record.
 */
export async function insertSurveyor(db: Db, input: InsertSurveyorInput): Promise<Surveyor> {
  const contacts = (input.contacts ?? []).slice(0, MAX_CONTACTS).map(toContact);
  const isActive = input.status === "active";
  const verifiedBy = isActive ? input.verifiedBy ?? null : null;
  const verifiedVia: VerifiedVia | null = isActive ? (verifiedBy ? "admin" : "seed") : null;
  const [row] = await db<SurveyorRow[]>`
    insert into surveyors (
      company_name, principal_name, license_number, license_states, email, phone, website,
      address, city, state, zip, lat, lng, service_radius_miles, survey_types, in_network,
      status, source, place_id, rating, review_count, user_id, contacts, notes, is_demo,
      verified_at, verified_by, verified_via
    ) values (
      ${input.companyName}, ${input.principalName ?? null}, ${input.licenseNumber ?? null},
      ${db.array(input.licenseStates ?? [])}::text[], ${input.email ?? null},
      ${input.phone ?? null}, ${input.website ?? null}, ${input.address ?? null},
      ${input.city ?? null}, ${input.state ?? null}, ${input.zip ?? null},
      ${input.lat ?? null}, ${input.lng ?? null}, ${input.serviceRadiusMiles ?? 50},
      ${db.array(input.surveyTypes ?? [])}::text[], ${input.inNetwork ?? false},
      ${input.status ?? "prospect"}, ${input.source ?? "manual"}, ${input.placeId ?? null},
      ${input.rating ?? null}, ${input.reviewCount ?? null}, ${input.userId ?? null},
      ${db.json(contacts as unknown as postgres.JSONValue)}, ${input.notes ?? null},
      ${input.isDemo ?? false}, ${isActive ? db`now()` : null}, ${verifiedBy}, ${verifiedVia}
    )
    returning ${surveyorColumns(db)}`;
  return toSurveyor(row);
}

// Field → column for updateSurveyor; arrays need an explicit text[] cast.
const UPDATE_COLUMNS: Record<keyof SurveyorUpdate, { column: string; isArray?: boolean }> = {
  companyName: { column: "company_name" },
  principalName: { column: "principal_name" },
  licenseNumber: { column: "license_number" },
  licenseStates: { column: "license_states", isArray: true },
  email: { column: "email" },
  phone: { column: "phone" },
  website: { column: "website" },
  address: { column: "address" },
  city: { column: "city" },
  state: { column: "state" },
  zip: { column: "zip" },
  lat: { column: "lat" },
  lng: { column: "lng" },
  serviceRadiusMiles: { column: "service_radius_miles" },
  surveyTypes: { column: "survey_types", isArray: true },
  inNetwork: { column: "in_network" },
  status: { column: "status" },
  rating: { column: "rating" },
  reviewCount: { column: "review_count" },
  notes: { column: "notes" },
};

/**
 * Sets the fields present in `update` (a field given as null is cleared; one left out keeps
 * its value) and `updated_at`; returns the record, or undefined when there is no such
 * surveyor. A status sets the verification with it (`verificationForStatus`): making a record
 * active that was never verified records it as verified now by `actorId` (the admin; without
 * one, via 'seed').
 */
export async function updateSurveyor(
  db: Db,
  { id, update, actorId = null }: { id: string; update: SurveyorUpdate; actorId?: string | null },
): Promise<Surveyor | undefined> {
  if (!isSurveyorId(id)) return undefined;
  const sets: postgres.PendingQuery<postgres.Row[]>[] = [db`updated_at = now()`];
  const verification = update.status && verificationForStatus(db, update.status, actorId);
  if (verification) sets.push(verification);
  for (const [key, value] of Object.entries(update)) {
    const spec = UPDATE_COLUMNS[key as keyof SurveyorUpdate];
    if (!spec || value === undefined) continue;
    sets.push(
      spec.isArray
        ? db`${db(spec.column)} = ${db.array((value ?? []) as string[])}::text[]`
        : db`${db(spec.column)} = ${value as string | number | boolean | null}`,
    );
  }
  const [row] = await db<SurveyorRow[]>`
    update surveyors set ${sets.reduce((acc, part) => db`${acc}, ${part}`)}
    where id = ${id}
    returning ${surveyorColumns(db)}`;
  return row && toSurveyor(row);
}

/**
 * Moves the given records that are still prospects to 'invited' (one statement; records in any
 * other status are left as they are). Returns the ids it moved.
 */
export async function markProspectsInvited(
  db: Db,
  { ids }: { ids: string[] },
): Promise<string[]> {
  const valid = ids.filter(isSurveyorId);
  if (valid.length === 0) return [];
  const rows = await db<{ id: string }[]>`
    update surveyors set status = 'invited', updated_at = now()
    where id = any(${db.array(valid)}::uuid[]) and status = 'prospect'
    returning id`;
  return rows.map((r) => r.id);
}

// Largest index worth sending to the database: anything above is out of range anyway.
function isContactIndex(index: number): boolean {
  return Number.isInteger(index) && index >= 0 && index < MAX_CONTACTS;
}

// `contacts` with isPrimary false on every entry but the one at `keep` (-1: all of them), in
// order. Used inside the same update statement as the edit itself.
function clearPrimary(db: Db, keep: number) {
  return db`(
    select coalesce(
      jsonb_agg(
        case when t.ord - 1 = ${keep}::int then t.e
          else jsonb_set(t.e, '{isPrimary}', 'false'::jsonb) end
        order by t.ord
      ),
      '[]'::jsonb
    )
    from jsonb_array_elements(contacts) with ordinality as t(e, ord)
  )`;
}

/**
 * Appends a contact to the surveyor's list (one statement: `contacts || [contact]`); a
 * primary one clears the flag on the others in the same statement. Returns the record, or
 * undefined when there is no such surveyor. Throws `TooManyContactsError` (changing nothing)
 * when the list already holds `MAX_CONTACTS`.
 */
export async function addContact(
  db: Db,
  { id, contact }: { id: string; contact: ContactInput },
): Promise<Surveyor | undefined> {
  if (!isSurveyorId(id)) return undefined;
  const entry = toContact(contact);
  const base = entry.isPrimary ? clearPrimary(db, -1) : db`contacts`;
  const [row] = await db<SurveyorRow[]>`
    update surveyors
    set contacts = ${base} || jsonb_build_array(${
    db.json(entry as unknown as postgres.JSONValue)
  }::jsonb),
      updated_at = now()
    where id = ${id} and jsonb_array_length(contacts) < ${MAX_CONTACTS}
    returning ${surveyorColumns(db)}`;
  if (row) return toSurveyor(row);
  const [exists] = await db`select 1 from surveyors where id = ${id}`;
  if (exists) throw new TooManyContactsError();
  return undefined;
}

/**
 * Merges `update` into the contact at `index` (fields left out keep their values; title,
 * email and phone given as null are cleared). Setting isPrimary clears it on the others in the
 * same statement. Returns the record, or undefined when there is no such surveyor or no
 * contact at `index` (then nothing changes).
 */
export async function updateContact(
  db: Db,
  { id, index, update }: { id: string; index: number; update: Partial<ContactInput> },
): Promise<Surveyor | undefined> {
  if (!isSurveyorId(id) || !isContactIndex(index)) return undefined;
  const patch: Record<string, string | boolean | null> = {};
  if (update.name !== undefined) patch.name = update.name;
  for (const key of ["title", "email", "phone"] as const) {
    if (update[key] !== undefined) patch[key] = update[key] ?? null;
  }
  if (update.isPrimary !== undefined) patch.isPrimary = update.isPrimary;
  const base = update.isPrimary === true ? clearPrimary(db, index) : db`contacts`;
  const [row] = await db<SurveyorRow[]>`
    update surveyors
    set contacts = jsonb_set(
        ${base}, array[${String(index)}]::text[],
        (contacts -> ${index}::int) || ${db.json(patch)}::jsonb
      ),
      updated_at = now()
    where id = ${id} and ${index}::int < jsonb_array_length(contacts)
    returning ${surveyorColumns(db)}`;
  return row && toSurveyor(row);
}

/**
 * Removes the contact at `index` (the later ones move up one). Returns the record, or
 * undefined when there is no such surveyor or no contact at `index` (then nothing changes).
 */
export async function removeContact(
  db: Db,
  { id, index }: { id: string; index: number },
): Promise<Surveyor | undefined> {
  if (!isSurveyorId(id) || !isContactIndex(index)) return undefined;
  const [row] = await db<SurveyorRow[]>`
    update surveyors set contacts = contacts - ${index}::int, updated_at = now()
    where id = ${id} and ${index}::int < jsonb_array_length(contacts)
    returning ${surveyorColumns(db)}`;
  return row && toSurveyor(row);
}

type HistoryRow = Omit<ContactHistoryEntry, "createdAt"> & { createdAt: Date };

function toHistoryEntry(row: HistoryRow): ContactHistoryEntry {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

/**
 * Appends an entry to the surveyor's contact history, written by `authorId`, and returns it
 * (with the author's name), or undefined when there is no such surveyor.
 */
export async function addContactHistory(
  db: Db,
  { surveyorId, authorId, entry }: {
    surveyorId: string;
    authorId: string | null;
    entry: ContactHistoryInput;
  },
): Promise<ContactHistoryEntry | undefined> {
  if (!isSurveyorId(surveyorId)) return undefined;
  const [row] = await db<HistoryRow[]>`
    with inserted as (
      insert into surveyor_contact_history
        (surveyor_id, channel, summary, outcome, next_follow_up, author_id)
      select id, ${entry.channel}, ${entry.summary}, ${entry.outcome ?? null},
        ${entry.nextFollowUp ?? null}::date, ${authorId}
      from surveyors where id = ${surveyorId}
      returning id, channel, summary, outcome, next_follow_up, author_id, created_at
    )
    select i.id, i.channel, i.summary, i.outcome, i.next_follow_up::text as next_follow_up,
      u.full_name as author_name, i.created_at
    from inserted i left join users u on u.id = i.author_id`;
  return row && toHistoryEntry(row);
}

/** Most entries `listContactHistory` returns at once. */
export const MAX_HISTORY_PAGE = 200;

/**
 * The surveyor's contact history, newest first, at most `limit` entries (default 50, at most
 * `MAX_HISTORY_PAGE`); `before` (an ISO time, the `createdAt` of the last entry already
 * shown) gives the next older page.
 */
export async function listContactHistory(
  db: Db,
  { surveyorId, limit = 50, before }: { surveyorId: string; limit?: number; before?: string },
): Promise<ContactHistoryEntry[]> {
  if (!isSurveyorId(surveyorId)) return [];
  const cursor = before && !Number.isNaN(Date.parse(before)) ? before : null;
  const [row] = await db<{ history: HistoryJson[] }[]>`
    select ${contactHistoryJsonColumn(db, { limit, before: cursor })} as history
    from surveyors where id = ${surveyorId}`;
  return contactHistoryFromJson(row?.history ?? []);
}

/** An entry as `contactHistoryJsonColumn` gives it: its time as JSON writes it. */
export type HistoryJson = Omit<ContactHistoryEntry, "createdAt"> & { createdAt: string };

/**
 * SQL for the contact history of the `surveyors` row in scope as a JSON array, newest first,
 * at most `limit` entries (`listContactHistory`'s bounds), older than `before` (an ISO time)
 * when given: a column of a page's statement (db/surveyor_record.ts) or of
 * `listContactHistory`'s. `contactHistoryFromJson` turns it into entries.
 */
export function contactHistoryJsonColumn(
  db: Db,
  { limit = 50, before = null }: { limit?: number; before?: string | null },
) {
  const take = Math.max(1, Math.min(MAX_HISTORY_PAGE, Math.trunc(limit) || 50));
  return db`coalesce((select json_agg(json_build_object('id', h.id, 'channel', h.channel,
        'summary', h.summary, 'outcome', h.outcome, 'nextFollowUp', h.next_follow_up::text,
        'authorName', u.full_name, 'createdAt', h.created_at)
        order by h.created_at desc, h.id desc)
      from (
        select * from surveyor_contact_history h
        where h.surveyor_id = surveyors.id
          and (${before}::timestamptz is null or h.created_at < ${before}::timestamptz)
        order by h.created_at desc, h.id desc
        limit ${take}
      ) h left join users u on u.id = h.author_id), '[]'::json)`;
}

/** `contactHistoryJsonColumn`'s JSON as entries. */
export function contactHistoryFromJson(rows: HistoryJson[]): ContactHistoryEntry[] {
  return rows.map((h) => ({ ...h, createdAt: new Date(h.createdAt).toISOString() }));
}

/**
 * Makes a prospect record from a business the places provider found (status prospect,
 * source place, not in network) and returns it with `created: true`; when the place was
 * converted before (even by a concurrent call) returns that record with `created: false`.
 * The partial unique index on place_id decides, so two racing calls never make two records.
 */
export async function insertSurveyorFromPlace(
  db: Db,
  { place }: { place: Place },
): Promise<{ surveyor: Surveyor; created: boolean }> {
  const [row] = await db<SurveyorRow[]>`
    insert into surveyors (
      company_name, phone, website, address, city, state, zip, lat, lng, rating, review_count,
      license_states, status, source, place_id, in_network
    ) values (
      ${place.name}, ${place.phone ?? null}, ${place.website ?? null}, ${place.address ?? null},
      ${place.city ?? null}, ${place.state ?? null}, ${place.zip ?? null}, ${place.lat},
      ${place.lng}, ${place.rating ?? null}, ${place.reviewCount ?? null},
      ${db.array(place.state ? [place.state] : [])}::text[], 'prospect', 'place',
      ${place.placeId}, false
    )
    on conflict (place_id) where place_id is not null do nothing
    returning ${surveyorColumns(db)}`;
  if (row) return { surveyor: toSurveyor(row), created: true };
  const existing = await getSurveyorByPlaceId(db, { placeId: place.placeId });
  if (!existing) throw new Error(`place ${place.placeId} conflicted but no record has it`);
  return { surveyor: existing, created: false };
}

/** A survey assigned to a surveyor, without the client's personal data. */
export interface SurveyorWorkSurvey {
  id: string;
  surveyType: SurveyType;
  status: SurveyStatus;
  city: string | null;
  state: StateCode;
  quotedPriceCents: number | null;
  /** YYYY-MM-DD or null. */
  scheduledDate: string | null;
  /** ISO timestamp. */
  createdAt: string;
}

/** A lead offered to a surveyor and what became of it; no client name, contact or street. */
export interface SurveyorWorkLead {
  leadId: string;
  surveyId: string;
  surveyType: SurveyType;
  city: string | null;
  state: StateCode;
  priceCents: number;
  leadStatus: "open" | "closed";
  kind: "notified" | "invited";
  outcome: "sent" | "viewed" | "purchased" | "claimed" | "declined" | "expired";
  distanceMiles: number | null;
  /** ISO timestamp. */
  notifiedAt: string;
}

/** Most surveys and most leads `listSurveyorWork` returns. */
export const SURVEYOR_WORK_LIMIT = 100;

/**
 * The surveys assigned to the surveyor and the leads sent to them, each newest first and at
 * most `SURVEYOR_WORK_LIMIT`. Only the city and state of each property are given: never the
 * client's name, phone, email or street address.
 */
export async function listSurveyorWork(
  db: Db,
  { surveyorId }: { surveyorId: string },
): Promise<{ surveys: SurveyorWorkSurvey[]; leads: SurveyorWorkLead[] }> {
  if (!isSurveyorId(surveyorId)) return { surveys: [], leads: [] };
  const [row] = await db<SurveyorWorkJson[]>`
    select ${surveyorWorkJsonColumns(db)} from surveyors where id = ${surveyorId}`;
  return surveyorWorkFromJson(row ?? { workSurveys: [], workLeads: [] });
}

/** `surveyorWorkJsonColumns`' two columns. */
export interface SurveyorWorkJson {
  workSurveys: (Omit<SurveyorWorkSurvey, "city"> & { place: string | null })[];
  workLeads: (Omit<SurveyorWorkLead, "city"> & { place: string | null })[];
}

/**
 * SQL for two columns of a statement over the `surveyors` row in scope: `work_surveys`, the
 * surveys assigned to it, and `work_leads`, the leads sent to it, each a JSON array newest
 * first of at most `SURVEYOR_WORK_LIMIT` with the property's address, which
 * `surveyorWorkFromJson` cuts to its town (db/surveyor_record.ts, `listSurveyorWork`).
 */
export function surveyorWorkJsonColumns(db: Db) {
  return db`
    coalesce((select json_agg(json_build_object('id', w.id, 'surveyType', w.survey_type,
        'status', w.status, 'state', w.state, 'quotedPriceCents', w.quoted_price_cents,
        'scheduledDate', w.scheduled_date::text, 'createdAt', w.created_at,
        'place', coalesce(w.formatted_address, w.address))
        order by w.created_at desc, w.id desc)
      from (
        select * from surveys w where w.assigned_surveyor_id = surveyors.id
        order by w.created_at desc, w.id desc
        limit ${SURVEYOR_WORK_LIMIT}
      ) w), '[]'::json) as work_surveys,
    coalesce((select json_agg(json_build_object('leadId', o.lead_id, 'surveyId', o.survey_id,
        'surveyType', o.survey_type, 'state', o.state, 'priceCents', o.price_cents,
        'leadStatus', o.lead_status, 'kind', o.kind, 'outcome', o.outcome,
        'distanceMiles', o.distance_miles, 'notifiedAt', o.notified_at, 'place', o.place)
        order by o.notified_at desc, o.lead_id desc)
      from (
        select l.id as lead_id, w.id as survey_id, w.survey_type, w.state, l.price_cents,
          l.status as lead_status, r.kind, r.outcome, r.distance_miles, r.notified_at,
          coalesce(w.formatted_address, w.address) as place
        from lead_recipients r
        join leads l on l.id = r.lead_id
        join surveys w on w.id = l.survey_id
        where r.surveyor_id = surveyors.id
        order by r.notified_at desc, r.lead_id desc
        limit ${SURVEYOR_WORK_LIMIT}
      ) o), '[]'::json) as work_leads`;
}

/** `surveyorWorkJsonColumns`' JSON as the work: towns, not addresses; ISO times. */
export function surveyorWorkFromJson(
  { workSurveys, workLeads }: SurveyorWorkJson,
): { surveys: SurveyorWorkSurvey[]; leads: SurveyorWorkLead[] } {
  return {
    surveys: workSurveys.map(({ place, createdAt, ...s }) => ({
      ...s,
      city: townFromAddress(place, s.state),
      createdAt: new Date(createdAt).toISOString(),
    })),
    leads: workLeads.map(({ place, notifiedAt, ...l }) => ({
      ...l,
      city: townFromAddress(place, l.state),
      notifiedAt: new Date(notifiedAt).toISOString(),
    })),
  };
}
