/**
 * Survey requests and their status history (survey_events).
 *
 * Reads join the client's name in the same query (no N+1) and select explicit columns. Dates
 * (`needed_by`, `*_date`) come back as YYYY-MM-DD text so no time zone can shift them.
 */
import type postgres from "postgres";
import type { Db } from "./client.ts";
import type { SessionUser } from "../lib/roles.ts";
import type { Quote } from "../lib/pricing.ts";
import { SURVEY_TYPE_INFO, type SurveyType } from "../lib/survey_types.ts";
import { STATUS_INFO, STATUS_NOTIFICATION_TITLES } from "../lib/survey_status.ts";
import { formatVisitDate } from "../lib/assignment_constants.ts";
import { insertNotification, type NewNotification } from "./notifications.ts";
import { readWithViewer, type Viewer } from "./users.ts";
import {
  currentSnapshot,
  RECORDED_SCOPES,
  rememberedRead,
  SnapshotCache,
  type SnapshotRead,
  type SnapshotScopes,
} from "./snapshot_cache.ts";
import { clientProposalsJsonColumn, leadExpiredAtColumn, proposalsFromJson } from "./proposals.ts";
import {
  checklistProgressColumn,
  checklistProgressFromJson,
  type ChecklistProgressJson,
} from "./checklists.ts";
import {
  dispatchColumns,
  type SurveyDispatchColumns,
  type SurveyDispatchReads,
  toSurveyDispatchReads,
} from "./survey_dispatch.ts";
import { type WorkingFirm, workingFirmColumn } from "./fieldwork.ts";
import { deliverablesFromJson, deliverablesJsonColumn } from "./survey_files.ts";
import { reviewFromJson, reviewJsonColumn, type SurveyorReview } from "./reviews.ts";
import {
  type MessageAccess,
  type MessageAccessColumns,
  messageAccessOf,
  messageAccessReads,
} from "./messages.ts";
import { MESSAGE_PAGE_FIRST } from "../lib/message_text.ts";
import type { SurveyFileInfo } from "../lib/survey_file_types.ts";
import type { ChecklistProgress } from "../lib/checklist_types.ts";
import type { ClientProposal } from "../lib/proposal_constants.ts";
import {
  type DashboardSurvey,
  SUPPORT_ACTOR_NAME,
  type Survey,
  type SurveyEvent,
  type SurveyListQuery,
  type SurveyRequest,
  type SurveyStatus,
} from "../lib/survey_schema.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `id` is shaped like a uuid; anything else cannot name a survey. */
export function isSurveyId(id: string): boolean {
  return UUID.test(id);
}

interface SurveyRow extends Omit<Survey, "createdAt" | "updatedAt"> {
  createdAt: Date;
  updatedAt: Date;
}

// `s` is surveys, `u` the client. Kept as one fragment so every read returns the same shape.
function surveyColumns(db: Db) {
  return db`
    s.id, s.status, s.survey_type, s.address, s.formatted_address, s.lat, s.lng,
    s.property_type, s.acreage, s.terrain, s.vegetation, s.structures, s.corners_to_set,
    s.corners_known, s.rush, s.state, s.alta_items, s.purpose, s.needed_by::text as needed_by,
    s.access_notes, s.contact_name, s.contact_phone, s.contact_email, s.notes,
    s.quoted_price_cents, s.quote, s.pricing_config_version, s.discount_code, s.discount_cents,
    s.surveyed_date::text as surveyed_date, s.completed_date::text as completed_date,
    s.scheduled_date::text as scheduled_date, s.created_at, s.updated_at, s.client_id,
    u.full_name as client_name,
    ${assignedSurveyorColumn(db)} as assigned_surveyor`;
}

/**
 * SQL for the assigned surveyor of the survey aliased `s` (`Survey.assignedSurveyor`) as a
 * JSON object, or null: for a column of a survey query.
 */
function assignedSurveyorColumn(db: Db) {
  return db`(select json_build_object(
        'surveyorId', v.id, 'name', v.principal_name, 'companyName', v.company_name,
        'phone', v.phone, 'licenseNumber', v.license_number,
        'licenseState', case when s.state = any(v.license_states) then s.state
          else v.license_states[1] end,
        'agreedPriceCents', a.agreed_price_cents, 'status', a.status,
        'scheduledDate', a.scheduled_date::text, 'source', a.source,
        'rating', v.rating, 'reviewCount', v.review_count,
        'meridianRatingSum', v.meridian_rating_sum,
        'meridianReviewCount', v.meridian_review_count)
      from survey_assignments a join surveyors v on v.id = a.surveyor_id
      where a.survey_id = s.id and a.status in ('offered', 'accepted', 'scheduled', 'completed')
      -- The open assignment (one at most: survey_assignments_open_key), else the latest
      -- completed one, so a delivered survey still names who did it.
      order by (a.status = 'completed'), a.updated_at desc
      limit 1
    )`;
}

function toSurvey(row: SurveyRow): Survey {
  const { createdAt, updatedAt, ...rest } = row;
  return {
    ...rest,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
    // The open assignment's surveyor (else the one that completed it), read in the same
    // statement as the survey.
    assignedSurveyor: row.assignedSurveyor ?? null,
  };
}

/**
 * The condition on the survey `s` that `user` may see it: none for an admin, else that it is
 * theirs. Written into the statement's text rather than comparing the role as a parameter, so
 * Postgres plans each shape for what it is (db/sql_literals.ts says why).
 */
function ownedBy(db: Db, user: Pick<SessionUser, "id" | "role">) {
  return user.role === "admin" ? db`` : db`and s.client_id = ${user.id}`;
}

/**
 * The survey with `id` if `user` may see it (an admin: any; anyone else: their own), else
 * undefined. Ownership is part of the query, so a survey the caller may not see is
 * indistinguishable from one that does not exist.
 */
export async function getSurveyForUser(
  db: Db,
  { id, user }: { id: string; user: Pick<SessionUser, "id" | "role"> },
): Promise<Survey | undefined> {
  if (!isSurveyId(id)) return undefined;
  const [row] = await db<SurveyRow[]>`
    select ${surveyColumns(db)}
    from surveys s join users u on u.id = s.client_id
    where s.id = ${id} ${ownedBy(db, user)}`;
  return row && toSurvey(row);
}

/**
 * What a request's page (/survey/{id}) shows of it, in one statement: the survey as
 * `getSurveyForUser` returns it (undefined under the same rule), its timeline as
 * `listSurveyEvents` filters it for `user`, its proposals as `listSurveyProposals`, when its
 * lead's offer window ran out (`leadExpiredAtColumn`), the firm working it
 * (`workingFirmColumn`), its checklist progress as `getChecklistProgress`, its deliverables as
 * `listSurveyFiles` lists them (admins: always; the client: once it is completed), its review
 * (`reviewJsonColumn`, once completed), and its conversations as `getMessageAccess` answers
 * `user` with the first page of `thread` (a lower-case firm id, lib/messages.ts
 * preferredThreadId) or the first thread. Six round trips were a third of the page's database
 * work in the driver (bench/messages_page.ts); each statement more costs CPU in the process and
 * in its Postgres backend even when pipelined (issue 23).
 */
export async function getSurveyPageData(
  db: Db,
  input: SurveyPageInput,
): Promise<SurveyPageData | undefined> {
  const read = surveyPageRead(db, input);
  if (!read) return undefined;
  const [row] = await read.statement;
  return row ? read.finish(row as SurveyPageRow) : undefined;
}

/**
 * `getSurveyPageData` for `user` with the signed-in user `viewerId` and their unread count
 * read in the same statement (db/users.ts `readWithViewer`): the page reads its viewer
 * (routes/_auth.ts `ownViewerPage`). `user` is who the page is read for, which the caller
 * must check is the viewer as read (its id and role) before it uses `data`.
 */
export async function getSurveyPageDataWithViewer(
  db: Db,
  input: SurveyPageInput & { viewerId: string },
): Promise<{ viewer?: Viewer; data?: SurveyPageData }> {
  const read = surveyPageRead(db, input);
  if (!read) {
    const { viewer } = await readWithViewer(db, input.viewerId, db`select 1 as none where false`);
    return { ...(viewer && { viewer }) };
  }
  // Remembered by snapshot (db/snapshot_cache.ts): a reload while none of its tables has been
  // written is the page read last, with its viewer read anew. Its one reading of the clock is
  // the lead's expiry (`leadExpiredAtColumn`): the page holds until that expiry, when it is still
  // to come.
  // A request the user may not see is read every time.
  const { id, user, thread } = input;
  const { viewer, value } = await rememberedRead(
    db,
    surveyPagesRead,
    `${id} ${user.id} ${user.role} ${thread ?? ""}`,
    input.viewerId,
    read.statement,
    ([row]: SurveyPageRow[]) => {
      if (!row) return undefined;
      const value = read.finish(row);
      return {
        value,
        snapshot: row.snapshot,
        validUntil: row.validUntil,
        scopes: surveyPageScopes(row.clientId, user.role, value),
      };
    },
  );
  return { ...(viewer && { viewer }), ...(value && { data: value }) };
}

/** The request pages last read (`getSurveyPageDataWithViewer`): some 10 KB each. */
const surveyPagesRead = new SnapshotCache<SurveyPageData>(200, [
  "lead_purchases",
  "lead_recipients",
  "leads",
  "survey_assignments",
  "survey_checklist_items",
  "survey_checklists",
  "survey_events",
  "survey_files",
  "survey_message_reads",
  "survey_messages",
  "survey_proposals",
  "surveyor_reviews",
  "surveyors",
  "surveys",
  "technicians",
  "users",
]);

/** The request page's tables whose rows are recorded by their request's client. */
const surveyPageClientTables = surveyPagesRead.tables.filter((t) =>
  RECORDED_SCOPES[t]?.includes("client")
);

/**
 * What a request's page depends on (db/snapshot_cache.ts `SnapshotRead.scopes`): every part of
 * the request it reads, by its client (another client's requests leave it remembered; the same
 * client's others read it again, which is rare); for a client or an admin, the firms it shows
 * (the assigned and working firm, the proposals', the conversations', and the dispatch card's
 * buyers and assignment: the statement reads firms only through those, so another firm comes
 * into the page only by a write to the request); users but for sign-ins (it shows several
 * users' names, never when anyone last signed in: tests/db/snapshot_tables_test.ts reads its
 * plan). The crews (a technician's firm), by any write.
 */
function surveyPageScopes(
  clientId: string,
  role: SessionUser["role"],
  page: SurveyPageData,
): SnapshotScopes {
  const client = [`client:${clientId}`];
  const scopes: Record<string, string[]> = Object.fromEntries(
    surveyPageClientTables.map((t) => [t, client]),
  );
  scopes.users = ["profile"];
  // A surveyor's own firm is read by their account (db/messages.ts): not scoped for them.
  if (role === "client" || role === "admin") {
    const firms = new Set<string>();
    const add = (id: string | null | undefined) => id && firms.add(id);
    add(page.survey.assignedSurveyor?.surveyorId);
    add(page.workingSurveyorId);
    add(page.firm?.surveyorId);
    for (const proposal of page.proposals) add(proposal.surveyor.id);
    for (const thread of page.messages?.threads ?? []) add(thread.surveyorId);
    add(page.messages?.firstPage?.surveyorId);
    for (const buyer of page.dispatch?.buyers ?? []) add(buyer.surveyorId);
    add(page.dispatch?.assignment?.surveyorId);
    scopes.surveyors = [...firms].map((id) => `surveyor:${id}`);
  }
  return scopes;
}

/** Whose page of which request `getSurveyPageData` reads, and which conversation first. */
export interface SurveyPageInput {
  id: string;
  user: Pick<SessionUser, "id" | "role">;
  thread?: string | null;
}

/** What `getSurveyPageData` returns for a request the user may see. */
export interface SurveyPageData {
  survey: Survey;
  events: SurveyEvent[];
  proposals: ClientProposal[];
  leadExpiredAt: string | null;
  firm: WorkingFirm | undefined;
  progress: ChecklistProgress | undefined;
  deliverables: SurveyFileInfo[];
  review: SurveyorReview | undefined;
  /** The firm doing or having done the job (db/survey_access.ts workingSurveyorId), or null. */
  workingSurveyorId: string | null;
  /** What `getMessageAccess` answers, with the first page (lib/messages.ts loadMessagesCard). */
  messages: MessageAccess | undefined;
  /** For admins only: what the dispatch card shows (db/survey_dispatch.ts). */
  dispatch: SurveyDispatchReads | undefined;
}

// A row of the request page's statement.
type SurveyPageRow =
  & SurveyRow
  & Partial<SurveyDispatchColumns>
  & MessageAccessColumns
  & {
    timeline: TimelineJson[] | null;
    proposals: Record<string, unknown>[] | null;
    leadExpiredAt: Date | null;
    workingFirm: { surveyor_id: string; company_name: string; phone: string | null } | null;
    checklistProgress: ChecklistProgressJson | null;
    deliverables: Parameters<typeof deliverablesFromJson>[0];
    review: Parameters<typeof reviewFromJson>[0];
    /** The statement's snapshot and how long its row holds (db/snapshot_cache.ts). */
    snapshot: string;
    validUntil: string | null;
    /** Set when read with its viewer (`readWithViewer`); not the survey's. */
    sessionViewer?: unknown;
  };

// The request page's statement for `user` and how its row becomes the page's data; undefined
// for an id that cannot be a request's.
function surveyPageRead(db: Db, { id, user, thread = null }: SurveyPageInput) {
  if (!isSurveyId(id)) return undefined;
  const isAdmin = user.role === "admin";
  const messageOptions = { user, firstPage: { preferred: thread, limit: MESSAGE_PAGE_FIRST } };
  const messages = messageAccessReads(db, messageOptions);
  const statement = db`
    select ${surveyColumns(db)},
      ${timelineJsonColumn(db, user)} as timeline,
      ${clientProposalsJsonColumn(db)} as proposals,
      ${leadExpiredAtColumn(db)} as lead_expired_at,
      ${workingFirmColumn(db)} as working_firm,
      ${checklistProgressColumn(db)} as checklist_progress,
      -- A client's deliverables are theirs to see once the survey is completed, not before.
      case when ${isAdmin ? db`true` : db`s.status = 'completed'`}
        then ${deliverablesJsonColumn(db)} end as deliverables,
      case when s.status = 'completed' then ${reviewJsonColumn(db)} end as review,
      ${currentSnapshot(db)} as snapshot,
      (select l.expires_at::text from leads l where l.survey_id = s.id and l.expires_at > now())
        as valid_until
      ${messages.columns}
      ${isAdmin ? db`, ${dispatchColumns(db)}` : db``}
    from surveys s join users u on u.id = s.client_id
    ${messages.join}
    where s.id = ${id} ${ownedBy(db, user)}`;
  return {
    statement,
    finish: (row: SurveyPageRow) => surveyPageData(row, isAdmin, messageOptions),
  };
}

function surveyPageData(
  row: SurveyPageRow,
  isAdmin: boolean,
  messageOptions: Parameters<typeof messageAccessOf>[2],
): SurveyPageData {
  const {
    sessionViewer: _viewer,
    snapshot: _snapshot,
    validUntil: _validUntil,
    timeline,
    proposals,
    leadExpiredAt,
    workingFirm,
    checklistProgress,
    deliverables,
    review,
    leadId,
    workingSurveyorId,
    assignedTechnicianId,
    technicianName,
    technicianFirmId,
    callerSurveyorId,
    threads,
    firstSurveyorId,
    firstMessages,
    dispatchNearbySurveyors,
    dispatchFoundAt,
    dispatchLead,
    dispatchOffered,
    dispatchBuyers,
    dispatchAssignment,
    ...survey
  } = row;
  const shown = toSurvey(survey);
  return {
    survey: shown,
    events: (timeline ?? []).map(fromTimelineJson),
    proposals: proposalsFromJson(proposals),
    leadExpiredAt: leadExpiredAt ? leadExpiredAt.toISOString() : null,
    firm: workingFirm
      ? {
        surveyorId: workingFirm.surveyor_id,
        companyName: workingFirm.company_name,
        phone: workingFirm.phone,
      }
      : undefined,
    progress: checklistProgress ? checklistProgressFromJson(checklistProgress) : undefined,
    deliverables: deliverablesFromJson(deliverables),
    review: reviewFromJson(review),
    workingSurveyorId,
    messages: messageAccessOf(
      { ...shown, address: shown.formattedAddress ?? shown.address },
      {
        leadId,
        workingSurveyorId,
        assignedTechnicianId,
        technicianName,
        technicianFirmId,
        callerSurveyorId,
        threads,
        firstSurveyorId,
        firstMessages,
      },
      messageOptions,
    ),
    dispatch: isAdmin
      ? toSurveyDispatchReads({
        dispatchNearbySurveyors: dispatchNearbySurveyors ?? null,
        dispatchFoundAt: dispatchFoundAt ?? null,
        dispatchLead: dispatchLead ?? null,
        dispatchOffered: dispatchOffered ?? null,
        dispatchBuyers: dispatchBuyers ?? null,
        dispatchAssignment: dispatchAssignment ?? null,
      })
      : undefined,
  };
}

/** The survey a client created with `requestId`, or undefined. */
export async function getSurveyByRequestId(
  db: Db,
  { clientId, requestId }: { clientId: string; requestId: string },
): Promise<Survey | undefined> {
  const [row] = await db<SurveyRow[]>`
    select ${surveyColumns(db)}
    from surveys s join users u on u.id = s.client_id
    where s.client_id = ${clientId} and s.client_request_id = ${requestId}`;
  return row && toSurvey(row);
}

// Key space of the per-client submission lock (two-int advisory locks never collide with
// the single-bigint lock db/migrate.ts takes).
const SUBMISSION_LOCK_SPACE = 5;

/**
 * Serialises one client's submissions until the transaction ends, so a retried request sees
 * the first one's survey instead of racing it (e.g. for the last use of a discount code).
 * Different clients never wait for each other, barring a hash collision.
 */
export async function lockClientSubmissions(
  db: Db,
  { clientId }: { clientId: string },
): Promise<void> {
  await db`select pg_advisory_xact_lock(${SUBMISSION_LOCK_SPACE}, hashtext(${clientId}))`;
}

/** Everything `insertSurvey` stores. */
export interface NewSurvey {
  /** Chosen by the caller so a discount redemption can name the survey before it exists. */
  id: string;
  clientId: string;
  request: SurveyRequest;
  quote: Quote;
  pricingConfigVersion: number;
  parcel?: unknown;
}

/**
 * Inserts a survey in status `requested` and returns its id, or undefined when this client
 * already has a survey with the same `request.requestId` (a retried submission; the unique
 * constraint decides, so two racing retries cannot both insert).
 */
export async function insertSurvey(db: Db, input: NewSurvey): Promise<string | undefined> {
  const r = input.request;
  const q = input.quote;
  const [row] = await db<{ id: string }[]>`
    insert into surveys (
      id, client_id, client_request_id, status, survey_type, address, formatted_address,
      place_id, lat, lng, parcel, property_type, acreage, terrain, vegetation, structures,
      corners_to_set, corners_known, rush, state, alta_items, purpose, needed_by, access_notes,
      contact_name, contact_phone, contact_email, notes, quoted_price_cents, quote,
      pricing_config_version, discount_code, discount_cents
    ) values (
      ${input.id}, ${input.clientId}, ${r.requestId}, 'requested', ${r.surveyType}, ${r.address},
      ${r.formattedAddress ?? null}, ${r.placeId ?? null}, ${r.lat ?? null}, ${r.lng ?? null},
      ${input.parcel === undefined ? null : db.json(input.parcel as postgres.JSONValue)},
      ${r.propertyType}, ${r.acreage ?? null}, ${r.terrain ?? null}, ${r.vegetation ?? null},
      ${r.structures ?? 0}, ${r.cornersToSet ?? 0}, ${r.cornersKnown ?? null},
      ${r.rush}, ${r.state},
      ${db.array(r.altaItems ?? [])}::text[], ${r.purpose}, ${r.neededBy ?? null},
      ${r.accessNotes ?? null}, ${r.contactName}, ${r.contactPhone}, ${r.contactEmail ?? null},
      ${r.notes ?? null}, ${q.totalCents}, ${db.json(q as unknown as postgres.JSONValue)},
      ${input.pricingConfigVersion}, ${q.discount?.code ?? null}, ${q.discount?.amountCents ?? 0}
    )
    on conflict (client_id, client_request_id) do nothing
    returning id`;
  return row?.id;
}

/** Filters and paging for `listSurveys`. `clientId` restricts to one client's surveys. */
export interface SurveyListInput extends Partial<Omit<SurveyListQuery, "page" | "pageSize">> {
  clientId?: string;
  page: number;
  pageSize: number;
}

/**
 * `SurveyListInput` with its search's clients found (`withSearchClients`): the ids of the users
 * whose name or email contains `q`, or "many" past `SEARCH_CLIENTS_MAX`.
 */
type ResolvedListInput = SurveyListInput & { searchClients?: string[] | "many" };

/** Clients a search names by id at most; past it, the statement finds them itself. */
const SEARCH_CLIENTS_MAX = 500;

function clientsMatching(db: Db, pattern: string) {
  return db`select c.id from users c where c.full_name ilike ${pattern} or c.email ilike ${pattern}`;
}

/**
 * A search's clients, read before the list. The search matches a request by its address or by
 * its client's name or email; with the clients a subquery in the condition, the planner could
 * neither combine the three into one bitmap of index scans (migration 0058's trigram indexes and
 * the client index) nor tell how few requests an unusual name or address keeps, and walked the
 * whole `created_at` index filtering each row: 137 ms for ten matches among 100,000 requests on
 * the embedded database. Given the ids as a value, it picks per search: the bitmap and a sort
 * for a rare text (2 ms), the index walk for a common one, which stops at the page's last row
 * (bench/surveys_list.ts). A text that names more than `SEARCH_CLIENTS_MAX` users keeps the
 * subquery: such a list would be long, and that search keeps most requests anyway.
 */
async function withSearchClients(db: Db, input: SurveyListInput): Promise<ResolvedListInput> {
  if (!input.q) return input;
  const rows = await db<{ id: string }[]>`
    ${clientsMatching(db, likePattern(input.q))} limit ${SEARCH_CLIENTS_MAX + 1}`;
  return {
    ...input,
    searchClients: rows.length > SEARCH_CLIENTS_MAX ? "many" : rows.map((r) => r.id),
  };
}

// LIKE treats % and _ as wildcards and \ as the escape; a search for "50%" means the text.
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

function listConditions(db: Db, input: ResolvedListInput) {
  const parts: postgres.PendingQuery<postgres.Row[]>[] = [];
  if (input.clientId) parts.push(db`s.client_id = ${input.clientId}`);
  if (input.status) parts.push(db`s.status = ${input.status}`);
  if (input.surveyType) parts.push(db`s.survey_type = ${input.surveyType}`);
  // Whole UTC days, `to` inclusive.
  if (input.from) parts.push(db`s.created_at >= (${input.from}::timestamp at time zone 'UTC')`);
  if (input.to) {
    parts.push(
      db`s.created_at < (${input.to}::timestamp at time zone 'UTC') + interval '1 day'`,
    );
  }
  if (input.q) {
    const pattern = likePattern(input.q);
    const clients = input.searchClients;
    const byClient = clients === undefined || clients === "many"
      ? db`or s.client_id in (${clientsMatching(db, pattern)})`
      : clients.length > 0
      ? db`or s.client_id = any(${clients}::uuid[])`
      : db``;
    parts.push(db`(
      s.address ilike ${pattern} or s.formatted_address ilike ${pattern} ${byClient}
    )`);
  }
  if (parts.length === 0) return db`true`;
  return parts.reduce((acc, part) => db`${acc} and ${part}`);
}

/** The ids and times of the page `input` asks for, newest first. */
function pageOf(db: Db, input: ResolvedListInput) {
  const offset = (input.page - 1) * input.pageSize;
  return db`
    select s.id, s.created_at from surveys s
    where ${listConditions(db, input)}
    order by s.created_at desc, s.id desc
    limit ${input.pageSize} offset ${offset}`;
}

/**
 * The number of surveys matching `input`. With no filter but status and type it is read from
 * survey_counts (kept exact by triggers; at most 48 rows), so even the unfiltered admin list
 * never counts 100,000 rows. A client's list, a date range or a search counts the matching
 * rows, which those filters keep to an index range or a scan that is already being paid for.
 */
async function countSurveys(db: Db, input: ResolvedListInput): Promise<number> {
  const [{ total }] = await db<{ total: number }[]>`
    select ${surveyCountColumn(db, input)} as total`;
  return total;
}

// `countSurveys`'s figure as a scalar subquery (an int), also read inside `getAdminDashboard`.
function surveyCountColumn(db: Db, input: ResolvedListInput) {
  if (!input.clientId && !input.from && !input.to && !input.q) {
    return db`(
      select coalesce(sum(n), 0)::int from survey_counts
      where (${input.status ?? null}::text is null or status = ${input.status ?? null})
        and (${input.surveyType ?? null}::text is null or survey_type = ${input.surveyType ?? null})
    )`;
  }
  return db`(select count(*)::int from surveys s where ${listConditions(db, input)})`;
}

/**
 * One page of surveys, newest first, with the number matching the filters.
 *
 * Paging is by offset because the API and the admin table speak in page numbers. A deferred
 * join keeps deep pages fast at 100,000+ rows (bench/surveys_list.ts): the offset is walked
 * over the narrow `(…, created_at desc, id desc)` index of the filter (an index-only scan),
 * and only the page's rows are then read and joined to the client's name. The total comes
 * from `countSurveys` (a counter table, not a count, for the admin list). The free-text
 * search `q` is answered by trigram indexes (migration 0058), but for a text of one or two
 * characters, which no trigram narrows: that one scans.
 */
export async function listSurveys(
  db: Db,
  query: SurveyListInput,
): Promise<{ surveys: Survey[]; total: number }> {
  const input = await withSearchClients(db, query);
  const [rows, total] = await Promise.all([
    db<SurveyRow[]>`
      with page as (${pageOf(db, input)})
      select ${surveyColumns(db)}
      from page p
      join surveys s on s.id = p.id
      join users u on u.id = s.client_id
      order by p.created_at desc, p.id desc`,
    countSurveys(db, input),
  ]);
  return { surveys: rows.map(toSurvey), total };
}

/** A row of the admin dashboard's surveys table (islands/AdminSurveys.tsx `AdminSurveyRow`). */
export interface AdminSurveyListRow {
  id: string;
  status: SurveyStatus;
  surveyType: SurveyType;
  /** The formatted address, else the address as typed. */
  address: string;
  clientName: string;
  quotedPriceCents: number | null;
  createdAt: string;
}

/**
 * `listSurveys` for the admin dashboard's table: the same page of the same filters and the
 * same total, but only the seven columns the table shows. The full survey (its quote, its
 * assigned surveyor's subquery, some forty columns) was read for every row and dropped by
 * `toAdminRow`: turning those rows into objects was 8 % of the page's CPU
 * (bench/signed_in_pages.ts). Later pages come from GET /api/surveys, whose full rows the
 * island slices with `toAdminRow` into these same fields.
 */
export async function listAdminSurveyRows(
  db: Db,
  query: SurveyListInput,
): Promise<{ rows: AdminSurveyListRow[]; total: number }> {
  const input = await withSearchClients(db, query);
  const [rows, total] = await Promise.all([adminSurveyRows(db, input), countSurveys(db, input)]);
  return { rows, total };
}

/**
 * What /admin-dashboard reads, in one statement: the table's page as `listAdminSurveyRows`
 * reads it, its total, and the requests by status as `countSurveysByStatus` reads them (the
 * total and counts also past the last page: the page is a lateral join on them, as in
 * db/lead_market.ts `availableLeads`). Filtered by status alone (or not at all), the total is
 * the counts' own figure (the same survey_counts rows `countSurveys` would sum); otherwise it
 * is counted in the same statement. One statement, not three pipelined: each costs CPU here
 * and in its Postgres backend (issue 23: three small ones ~275 µs against ~160 µs as one).
 */
export async function getAdminDashboard(
  db: Db,
  query: SurveyListInput,
  { viewerId }: {
    /**
     * Also read this user and their unread count in the statement (`viewer`, db/users.ts
     * `readWithViewer`): the page reads its viewer (routes/_auth.ts `ownViewerPage`).
     */
    viewerId?: string;
  } = {},
): Promise<{
  /** With `viewerId`: that user as `getUserWithUnreadCount` reads them, or undefined. */
  viewer?: Viewer;
  rows: AdminSurveyListRow[];
  total: number;
  counts: Partial<Record<SurveyStatus, number>>;
}> {
  const input = await withSearchClients(db, query);
  const fromCounts = !input.clientId && !input.surveyType && !input.from && !input.to &&
    !input.q;
  const statement = db`
    with ${adminPageCte(db, input)}
    select c.counts, c.total, ${currentSnapshot(db)} as snapshot, r.*
    from (
      select coalesce(jsonb_object_agg(status, count), '{}'::jsonb) as counts,
        ${fromCounts ? db`null::int` : surveyCountColumn(db, input)} as total
      from (${statusCountsQuery(db)}) x
    ) c
    left join lateral (${adminRowsSelect(db)}) r on true
    order by r.created_at desc, r.id desc`;
  const finish = (rows: AdminDashboardRow[]) => {
    if (rows.length === 0) return undefined;
    const { counts, total, snapshot } = rows[0];
    return {
      value: {
        rows: rows.filter((r) => r.id != null).map((r) => toAdminSurveyRow(r as AdminSurveyRowRow)),
        total: total ??
          (input.status
            ? counts[input.status] ?? 0
            : Object.values(counts).reduce((a, b) => a + (b ?? 0), 0)),
        counts,
      },
      snapshot,
      validUntil: null,
    };
  };
  const empty = { rows: [], total: 0, counts: {} };
  if (input.q) {
    // A search is not remembered: its clients were read by a statement of their own
    // (`withSearchClients`), before the page's, whose snapshot would then vouch for a list of
    // clients it did not read.
    const { viewer, rows } = await readWithViewer<AdminDashboardRow>(db, viewerId, statement);
    if (viewerId !== undefined && !viewer) return empty;
    return { ...(viewer && { viewer }), ...(finish(rows)?.value ?? empty) };
  }
  // Remembered by snapshot (db/snapshot_cache.ts): reloaded while none of its tables has been
  // written, the page is the one read last, with its admin read anew. It reads nothing from the
  // clock.
  const { viewer, value } = await rememberedRead(
    db,
    adminDashboardRead,
    `${viewerId} ${JSON.stringify(input)}`,
    viewerId,
    statement,
    finish,
  );
  return { ...(viewer && { viewer }), ...(value ?? empty) };
}

type AdminDashboardRow = Partial<AdminSurveyRowRow> & {
  counts: Partial<Record<SurveyStatus, number>>;
  total: number | null;
  snapshot: string;
};

/** /admin-dashboard's pages last read (`getAdminDashboard`): some 8 KB each. */
const adminDashboardRead = new SnapshotCache<{
  rows: AdminSurveyListRow[];
  total: number;
  counts: Partial<Record<SurveyStatus, number>>;
}>(50, ["survey_counts", "surveys", "users"]);

type AdminSurveyRowRow = Omit<AdminSurveyListRow, "createdAt"> & { createdAt: Date };

// The admin table's page as a CTE named `page`: the deferred join of `listSurveys`, whose
// offset walks the filter's narrow index; `adminRowsSelect` then reads the page's rows.
function adminPageCte(db: Db, input: ResolvedListInput) {
  return db`page as (${pageOf(db, input)})`;
}

function adminRowsSelect(db: Db) {
  return db`
    select s.id, s.status, s.survey_type,
      coalesce(nullif(s.formatted_address, ''), s.address) as address,
      u.full_name as client_name, s.quoted_price_cents, s.created_at
    from page p
    join surveys s on s.id = p.id
    join users u on u.id = s.client_id`;
}

function toAdminSurveyRow(r: AdminSurveyRowRow): AdminSurveyListRow {
  return {
    id: r.id,
    status: r.status,
    surveyType: r.surveyType,
    address: r.address,
    clientName: r.clientName,
    quotedPriceCents: r.quotedPriceCents,
    createdAt: r.createdAt.toISOString(),
  };
}

async function adminSurveyRows(db: Db, input: ResolvedListInput): Promise<AdminSurveyListRow[]> {
  const rows = await db<AdminSurveyRowRow[]>`
    with ${adminPageCte(db, input)}
    ${adminRowsSelect(db)}
    order by p.created_at desc, p.id desc`;
  return rows.map(toAdminSurveyRow);
}

/** What a status change needs to know about a survey. */
export interface LockedSurvey {
  id: string;
  status: SurveyStatus;
  clientId: string;
  surveyType: SurveyType;
  address: string;
  surveyedDate: string | null;
}

/** The survey's status and owner, locked until the transaction ends (for a status change). */
export async function lockSurvey(
  db: Db,
  { id }: { id: string },
): Promise<LockedSurvey | undefined> {
  if (!isSurveyId(id)) return undefined;
  const [row] = await db<LockedSurvey[]>`
    select id, status, client_id, survey_type, address, surveyed_date::text as surveyed_date
    from surveys where id = ${id} for update`;
  return row;
}

/**
 * Moves a survey from `from` to `to`, setting the dates given (others keep their values).
 * The `status = from` condition makes it a compare-and-set: returns false, changing nothing,
 * when the survey is no longer in `from`.
 */
export async function updateSurveyStatus(
  db: Db,
  input: {
    id: string;
    from: SurveyStatus;
    to: SurveyStatus;
    surveyedDate?: string;
    completedDate?: string;
    scheduledDate?: string;
    /** Forget the visit date (an unassigned or replaced surveyor's booking). */
    clearScheduledDate?: boolean;
  },
): Promise<boolean> {
  const rows = await db`
    update surveys set
      status = ${input.to},
      surveyed_date = coalesce(${input.surveyedDate ?? null}::date, surveyed_date),
      completed_date = coalesce(${input.completedDate ?? null}::date, completed_date),
      scheduled_date = ${
    input.clearScheduledDate
      ? db`null`
      : db`coalesce(${input.scheduledDate ?? null}::date, scheduled_date)`
  },
      updated_at = now()
    where id = ${input.id} and status = ${input.from}
    returning id`;
  return rows.length === 1;
}

/**
 * Records a status change (from null for the creation of the request). A note is internal
 * (admins only) unless `isNoteVisibleToClient`.
 */
export async function insertSurveyEvent(
  db: Db,
  input: {
    surveyId: string;
    actorId: string | null;
    fromStatus: SurveyStatus | null;
    toStatus: SurveyStatus;
    note?: string | null;
    isNoteVisibleToClient?: boolean;
  },
): Promise<void> {
  const note = input.note ?? null;
  await db`
    insert into survey_events
      (survey_id, actor_id, from_status, to_status, note, is_note_visible_to_client)
    values (${input.surveyId}, ${input.actorId}, ${input.fromStatus}, ${input.toStatus},
      ${note}, ${note !== null && input.isNoteVisibleToClient === true})`;
}

/** The client's notification for a status change, when the default sentence is not the news. */
export interface StatusChangeNotice {
  kind: NewNotification["kind"];
  title: string;
  body: string;
}

/**
 * Changes a locked survey's status inside `tx` — the one way every status change is recorded
 * (the status API, dispatch, assignments): compare-and-set update, the timeline event and the
 * client's notification (`notice` replaces the default "is now: {label}" one; null sends
 * none). Returns false, writing nothing, when the survey is no longer in `survey.status`.
 */
export async function applySurveyStatusChange(
  tx: Db,
  input: {
    survey: Pick<LockedSurvey, "id" | "status" | "clientId" | "surveyType" | "address">;
    to: SurveyStatus;
    actorId: string | null;
    note?: string;
    isNoteVisibleToClient?: boolean;
    surveyedDate?: string;
    completedDate?: string;
    scheduledDate?: string;
    clearScheduledDate?: boolean;
    notice?: StatusChangeNotice | null;
  },
): Promise<boolean> {
  const { survey, to } = input;
  const changed = await updateSurveyStatus(tx, {
    id: survey.id,
    from: survey.status,
    to,
    surveyedDate: input.surveyedDate,
    completedDate: input.completedDate,
    scheduledDate: input.scheduledDate,
    clearScheduledDate: input.clearScheduledDate,
  });
  if (!changed) return false;
  await insertSurveyEvent(tx, {
    surveyId: survey.id,
    actorId: input.actorId,
    fromStatus: survey.status,
    toStatus: to,
    note: input.note,
    isNoteVisibleToClient: input.isNoteVisibleToClient,
  });
  if (input.notice === null) return true;
  const typeName = SURVEY_TYPE_INFO[survey.surveyType].name;
  await insertNotification(tx, {
    userId: survey.clientId,
    kind: input.notice?.kind ?? "survey_status_changed",
    title: input.notice?.title ?? STATUS_NOTIFICATION_TITLES[to],
    body: input.notice?.body ??
      defaultStatusNoticeBody(typeName, survey.address, to, input.scheduledDate),
    link: `/survey/${survey.id}`,
  });
  return true;
}

/**
 * The client's default notice of a status change: "Your {type} request for {address} is now:
 * {label}.", with the day when it is the visit's ("…is now: Scheduled, for Tuesday, March 3,
 * 2026.").
 */
function defaultStatusNoticeBody(
  typeName: string,
  address: string,
  to: SurveyStatus,
  scheduledDate: string | undefined,
): string {
  const day = to === "scheduled" && scheduledDate ? `, for ${formatVisitDate(scheduledDate)}` : "";
  return `Your ${typeName} request for ${address} is now: ${STATUS_INFO[to].label}${day}.`;
}

/** Who is reading a timeline: admins see it all, anyone else the client's view. */
export type TimelineViewer = Pick<SessionUser, "id" | "role">;

// The timeline columns over survey_events `e` as `viewer` may see them, filtered here so an
// internal note or a staff member's name never leaves the database for anyone but an admin. A
// client sees their own name on their own changes, SUPPORT_ACTOR_NAME on the rest. The actor's
// name is a lookup by key per event, and for a client only on their own events (the CASE reads
// it for no other): a join to users made Postgres hash the whole users table for every
// survey's timeline on small databases (the 10-request dashboard's largest cost in Postgres).
function timelineColumns(db: Db, viewer: TimelineViewer) {
  const actorName = db`(select a.full_name from users a where a.id = e.actor_id)`;
  if (viewer.role === "admin") {
    return db`e.id, e.from_status, e.to_status, e.note, e.is_note_visible_to_client,
      ${actorName} as actor_name, e.created_at`;
  }
  return db`e.id, e.from_status, e.to_status,
    case when e.is_note_visible_to_client then e.note end as note,
    (e.is_note_visible_to_client and e.note is not null) as is_note_visible_to_client,
    case when e.actor_id = ${viewer.id} then ${actorName} else ${SUPPORT_ACTOR_NAME} end
      as actor_name,
    e.created_at`;
}

/**
 * SQL for the timeline of the survey aliased `s` as `viewer` may see it, as a JSON array oldest
 * first (null when it has no events): for a column of a survey query.
 */
function timelineJsonColumn(db: Db, viewer: TimelineViewer) {
  return db`(select json_agg(ev order by ev.created_at, ev.id) from (
      select ${timelineColumns(db, viewer)}
      from survey_events e
      where e.survey_id = s.id
    ) ev)`;
}

/** A survey's timeline as `viewer` may see it (see `timelineColumns`), oldest first. */
export async function listSurveyEvents(
  db: Db,
  { surveyId, viewer }: { surveyId: string; viewer: TimelineViewer },
): Promise<SurveyEvent[]> {
  const rows = await db<(Omit<SurveyEvent, "createdAt"> & { createdAt: Date })[]>`
    select ${timelineColumns(db, viewer)}
    from survey_events e
    where e.survey_id = ${surveyId}
    order by e.created_at, e.id`;
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** Deletes the surveys with these ids (their events go with them); returns how many. */
export async function deleteSurveys(db: Db, { ids }: { ids: string[] }): Promise<number> {
  const valid = ids.filter(isSurveyId);
  if (valid.length === 0) return 0;
  const rows = await db`delete from surveys where id in ${db(valid)} returning id`;
  return rows.length;
}

/**
 * The timelines of several surveys in one query (the client dashboard's progress trackers),
 * as `viewer` may see them, keyed by survey id, each oldest first. Surveys without events are
 * absent from the map.
 */
export async function listSurveyEventsForSurveys(
  db: Db,
  { surveyIds, viewer }: { surveyIds: string[]; viewer: TimelineViewer },
): Promise<Map<string, SurveyEvent[]>> {
  const byId = new Map<string, SurveyEvent[]>();
  const ids = surveyIds.filter(isSurveyId);
  if (ids.length === 0) return byId;
  const rows = await db<(Omit<SurveyEvent, "createdAt"> & { surveyId: string; createdAt: Date })[]>`
    select e.survey_id, ${timelineColumns(db, viewer)}
    from survey_events e
    where e.survey_id in ${db(ids)}
    order by e.survey_id, e.created_at, e.id`;
  for (const { surveyId, createdAt, ...event } of rows) {
    const list = byId.get(surveyId) ?? [];
    list.push({ ...event, createdAt: createdAt.toISOString() });
    byId.set(surveyId, list);
  }
  return byId;
}

/** A row of `listClientSurveysWithEvents`' statement; `id` is null past the last page. */
interface DashboardRow {
  total: number;
  snapshot: string;
  validUntil: string | null;
  id: string | null;
  status: SurveyStatus;
  surveyType: SurveyType;
  address: string;
  formattedAddress: string | null;
  quotedPriceCents: number | null;
  quote: Quote;
  scheduledDate: string | null;
  createdAt: Date;
  assignedSurveyor: Survey["assignedSurveyor"];
  timeline: TimelineJson[] | null;
  proposals: Record<string, unknown>[] | null;
  leadExpiredAt: Date | null;
}

/**
 * One page of a client's surveys, newest first, with how many they have, each survey's
 * timeline as `viewer` may see it, its proposals and when its lead ran out: the client
 * dashboard's data in one statement, with only the columns its cards show (`DashboardSurvey`;
 * `listSurveys` + `listSurveyEventsForSurveys` + `listProposalsForSurveys` read the same values
 * in more). The count is the statement's driving row, so a page past the end still reports the
 * total. Timelines come back as JSON arrays aggregated per survey over the (survey_id,
 * created_at, id) index, oldest first; every survey of the page is in the map, with [] when it
 * has no events.
 *
 * The client's id reaches the planner only through a one-row CTE, so every client's statement
 * costs the same to it: Postgres then settles on one generic plan for the prepared statement.
 * With the id in plain sight, the custom plan of a client with no or one request looked
 * cheaper than the generic one, so the statement was planned again at every execution (~1.3 ms
 * of Postgres CPU per page, more than running it; bench/signed_in_pages.ts).
 */
export async function listClientSurveysWithEvents(
  db: Db,
  { clientId, viewer, page, pageSize, withClient = false }: {
    clientId: string;
    viewer: TimelineViewer;
    page: number;
    pageSize: number;
    /**
     * Also read the client's own user row and unread count in the statement (`client`,
     * db/users.ts `readWithViewer`): the page reads its viewer (routes/_auth.ts `ownViewerPage`).
     * (The result is `client`: `viewer` above is whom the timelines are filtered for.)
     */
    withClient?: boolean;
  },
): Promise<{ client?: Viewer } & ClientSurveysPage> {
  // Remembered by snapshot (db/snapshot_cache.ts): a dashboard reloaded while none of its
  // tables has been written is the one read last, with its client read anew. Its one reading of
  // the clock is the lead's expiry (`leadExpiredAtColumn`): the page holds until the next expiry
  // among the client's leads.
  const { viewer: client, value } = await rememberedRead(
    db,
    clientSurveysRead,
    `${clientId} ${viewer.id} ${viewer.role} ${page} ${pageSize}`,
    withClient ? clientId : undefined,
    clientSurveysStatement(db, { clientId, viewer, page, pageSize }),
    (rows: DashboardRow[]) => {
      const read = clientSurveysFrom(rows);
      return read && { ...read, scopes: clientSurveysScopes(clientId, viewer, read.value) };
    },
  );
  return {
    ...(client && { client }),
    ...(value ?? {
      surveys: [],
      total: 0,
      events: new Map(),
      proposals: new Map(),
      leadExpiredAt: new Map(),
    }),
  };
}

interface ClientSurveysPage {
  surveys: DashboardSurvey[];
  total: number;
  events: Map<string, SurveyEvent[]>;
  proposals: Map<string, ClientProposal[]>;
  /** Per survey, when its lead's offer window ran out (ISO), else null (`leadExpiredAtColumn`). */
  leadExpiredAt: Map<string, string | null>;
}

/** The client dashboards last read (`listClientSurveysWithEvents`): some 20 KB each. */
const clientSurveysRead = new SnapshotCache<ClientSurveysPage>(200, [
  "leads",
  "survey_assignments",
  "survey_events",
  "survey_proposals",
  "surveyors",
  "surveys",
  "users",
]);

/**
 * What a client's dashboard depends on (db/snapshot_cache.ts `SnapshotRead.scopes`): their own
 * requests and their parts; the firms it shows (each request's assigned firm and the firms that
 * sent proposals: the statement reads firms only through those rows, so another firm can only
 * come into the page by a write to the client's own); of users, only the viewer's own name
 * when not an admin (the one actor's name a client's timeline shows: `timelineColumns`), any
 * name for an admin.
 */
function clientSurveysScopes(
  clientId: string,
  viewer: TimelineViewer,
  page: ClientSurveysPage,
): SnapshotScopes {
  const client = [`client:${clientId}`];
  const firms = new Set<string>();
  for (const survey of page.surveys) {
    if (survey.assignedSurveyor) firms.add(survey.assignedSurveyor.surveyorId);
  }
  for (const proposals of page.proposals.values()) {
    for (const proposal of proposals) firms.add(proposal.surveyor.id);
  }
  return {
    leads: client,
    survey_assignments: client,
    survey_events: client,
    survey_proposals: client,
    surveys: client,
    surveyors: [...firms].map((id) => `surveyor:${id}`),
    users: viewer.role === "admin" ? ["profile"] : [`user:${viewer.id}`],
  };
}

function clientSurveysStatement(
  db: Db,
  { clientId, viewer, page, pageSize }: {
    clientId: string;
    viewer: TimelineViewer;
    page: number;
    pageSize: number;
  },
): postgres.PendingQuery<postgres.Row[]> {
  const offset = (page - 1) * pageSize;
  return db`
    with client as (select ${clientId}::uuid as id), page as (
      select s.id, s.status, s.survey_type, s.address, s.formatted_address, s.quoted_price_cents,
        s.quote, s.scheduled_date, s.created_at, s.state, s.lat, s.lng
      from surveys s
      where s.client_id = (select id from client)
      order by s.created_at desc, s.id desc
      limit ${pageSize} offset ${offset}
    ), total as (
      select count(*)::int as total, ${currentSnapshot(db)} as snapshot,
        (select min(l.expires_at)::text from surveys s join leads l on l.survey_id = s.id
          where s.client_id = (select id from client) and l.expires_at > now()) as valid_until
      from surveys s where s.client_id = (select id from client)
    )
    select t.total, t.snapshot, t.valid_until, r.*
    from total t left join lateral (
      select s.id, s.status, s.survey_type, s.address, s.formatted_address, s.quoted_price_cents,
        s.quote, s.scheduled_date::text as scheduled_date, s.created_at,
        ${assignedSurveyorColumn(db)} as assigned_surveyor,
        ${timelineJsonColumn(db, viewer)} as timeline,
        ${clientProposalsJsonColumn(db)} as proposals,
        ${leadExpiredAtColumn(db)} as lead_expired_at
      from page s
    ) r on true
    order by r.created_at desc, r.id desc`;
}

// The dashboard from its statement's rows: it always returns the count's row, so none is
// nothing to show (no user with the viewer's id).
function clientSurveysFrom(rows: DashboardRow[]): SnapshotRead<ClientSurveysPage> | undefined {
  if (rows.length === 0) return undefined;
  const surveys: DashboardSurvey[] = [];
  const events = new Map<string, SurveyEvent[]>();
  const proposals = new Map<string, ClientProposal[]>();
  const leadExpiredAt = new Map<string, string | null>();
  for (const row of rows) {
    const id = row.id;
    if (id === null) continue;
    // Built field by field: a spread of the row with its extra columns deleted was a tenth of
    // the read's CPU in the driver's process.
    surveys.push({
      id,
      status: row.status,
      surveyType: row.surveyType,
      address: row.address,
      formattedAddress: row.formattedAddress,
      quotedPriceCents: row.quotedPriceCents,
      quote: row.quote,
      scheduledDate: row.scheduledDate,
      createdAt: row.createdAt.toISOString(),
      assignedSurveyor: row.assignedSurveyor ?? null,
    });
    events.set(id, row.timeline ? row.timeline.map(fromTimelineJson) : []);
    proposals.set(id, proposalsFromJson(row.proposals));
    leadExpiredAt.set(id, row.leadExpiredAt ? row.leadExpiredAt.toISOString() : null);
  }
  return {
    value: { surveys, total: rows[0].total, events, proposals, leadExpiredAt },
    snapshot: rows[0].snapshot,
    validUntil: rows[0].validUntil,
  };
}

// A timeline row as json_agg spells it: snake_case keys, the time as JSON text.
interface TimelineJson {
  id: string;
  from_status: SurveyStatus | null;
  to_status: SurveyStatus;
  note: string | null;
  is_note_visible_to_client: boolean;
  actor_name: string | null;
  created_at: string;
}

function fromTimelineJson(row: TimelineJson): SurveyEvent {
  return {
    id: row.id,
    fromStatus: row.from_status,
    toStatus: row.to_status,
    note: row.note,
    isNoteVisibleToClient: row.is_note_visible_to_client,
    actorName: row.actor_name,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/**
 * How many surveys are in each status (the admin overview); statuses with none are absent.
 * Read from the trigger-kept survey_counts table: a few dozen rows, however many surveys.
 */
export async function countSurveysByStatus(db: Db): Promise<Partial<Record<SurveyStatus, number>>> {
  const rows = await db<{ status: SurveyStatus; count: number }[]>`${statusCountsQuery(db)}`;
  return Object.fromEntries(rows.map((r) => [r.status, r.count]));
}

// `countSurveysByStatus`'s rows (status, count), also read inside `getAdminDashboard`.
function statusCountsQuery(db: Db) {
  return db`
    select status, sum(n)::int as count from survey_counts group by status having sum(n) > 0`;
}
