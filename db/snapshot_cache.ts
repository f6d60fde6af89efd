/**
 * A page statement's result remembered with the database snapshot it was read in, and used again
 * only while no table the statement reads has changed since (issue 23).
 *
 * A statement sees exactly what its snapshot lets it see: the transactions committed before it,
 * by `pg_current_snapshot()` (its lowest running transaction, the next transaction id, and the
 * ones running in between). Every table a remembered page reads has a trigger (migration 0055)
 * that records, in `snapshot_changes`, each transaction that writes it; the record commits or
 * rolls back with the write. So a page read in snapshot S would read the same rows again while
 * no record of its tables belongs to a transaction S does not see (`pg_visible_in_snapshot`),
 * except for what it reads from the clock, which the caller bounds with `validUntil` (for the
 * available leads: the first `expires_at` among them). Each cache names its statement's tables
 * (`SnapshotCache.tables`); tests/db/snapshot_tables_test.ts reads every statement's plan and
 * fails if it reads a table missing from that list or without the trigger.
 *
 * The check is a condition of the page's own statement (`rememberedRead`), read with its viewer;
 * only when it fails does the rest of the statement run (on the embedded database, and on
 * Postgres for a page its last check found unchanged, a statement of its own before the page's:
 * `setSnapshotCheck`). The check runs in the database, so it
 * holds across instances and for writes from anywhere (another server, psql, a job), and is
 * never stale. It is by table, or, for a page that names them (`SnapshotRead.scopes`), by the
 * parts of its tables its rows depend on (migrations 0056 and 0057 record each write's: a
 * request's client, state and area, a firm, a user): a new lead in Houston reads again the
 * /leads pages of the surveyors licensed in Texas whose radius reaches Houston's cell, not
 * every surveyor's; another client's request leaves a client's dashboard remembered. A snapshot
 * older than the last pruning of the records (`pruneSnapshotChanges`, every few minutes) reads
 * the page again. What it saves is the statement of a page reloaded while its tables did
 * not change: a surveyor reloading /leads costs a user read instead of the whole lead search,
 * however busy the rest of the database is. A page remembered this way reads its data in ONE
 * statement, which returns its own snapshot (`currentSnapshot`) and the first moment its
 * reading of the clock would change (`now()` in a condition); the available leads, the surveyor
 * dashboard's leads, the client dashboard, a request's page, the surveyor directory and the
 * admin's two pages do.
 *
 * Only through a pool: a transaction sees its own writes, which are in no snapshot, so it neither
 * uses nor leaves a remembered result (a reserved connection could be inside one).
 */
import type postgres from "postgres";
import type { Db } from "./client.ts";
import { isEmptyPageRow, readWithViewer, type Viewer } from "./users.ts";

/** A remembered result and what it was read in. */
export interface SnapshotEntry<T> {
  /** `pg_current_snapshot()::text` of the statement that read `value`. */
  snapshot: string;
  /**
   * The result also holds only while `now() < validUntil` (a timestamptz as Postgres wrote it in
   * the same statement, passed back as text so no precision is lost); null: only a write ends it.
   */
  validUntil: string | null;
  value: T;
  /**
   * What the check reads for it (`SnapshotCache.changesOf`): the scopes its statement depends on,
   * per table; absent, any write to any of the cache's tables.
   */
  changes?: SnapshotChanges;
  /**
   * Set once a check found the result still true (`rememberedRead`): a pool checking adaptively
   * checks it by a statement of its own from then on.
   */
  checkedUnchanged?: boolean;
}

/** Pairs (table, scope) as two Postgres array literals of the same length. */
export interface SnapshotChanges {
  tables: string;
  scopes: string;
}

/**
 * The scopes migrations 0056 and 0057 record per table, beside '' (any write): the kinds of
 * `client:<id>`, `state:<code>`, `area:<code>:<lat>:<lng>` (a state's whole-degree cell,
 * lib/geo/cells.ts), `surveyor:<id>`, and on `users`, for any write but a sign-in's
 * `last_login`, `user:<id>` and `profile` (some user). A page may depend on these alone; on any
 * other table, on ''.
 */
export const RECORDED_SCOPES: Readonly<Record<string, readonly string[]>> = {
  surveys: ["client", "state", "area"],
  leads: ["client", "state", "area"],
  lead_purchases: ["client", "state", "area"],
  lead_recipients: ["client", "state", "area"],
  survey_assignments: ["client"],
  survey_checklist_items: ["client"],
  survey_checklists: ["client"],
  survey_events: ["client"],
  survey_files: ["client"],
  survey_message_reads: ["client"],
  survey_messages: ["client"],
  survey_proposals: ["client"],
  surveyor_reviews: ["client"],
  surveyors: ["surveyor"],
  surveyor_licence_states: ["surveyor"],
  lead_dismissals: ["surveyor"],
  users: ["profile", "user"],
};

/** Scopes per table, as a page names what its rows depend on (`SnapshotRead.scopes`). */
export type SnapshotScopes = Readonly<Partial<Record<string, readonly string[]>>>;

// A scope as the triggers write it: a kind, and for all but `profile` a value (an id, a state's
// code, or a state's code and a cell: nothing an array literal would need quoted).
const SCOPE =
  /^(profile|(client|state|surveyor|user):[A-Za-z0-9-]+|area:[A-Za-z0-9]+:-?\d+:-?\d+)$/;

// Only a pool has `begin`: postgres.js's transactions and reserved connections do not.
function isPool(db: Db): boolean {
  return typeof (db as { begin?: unknown }).begin === "function";
}

/**
 * Remembered results by key, per pool (one map per database the process reaches: tests open
 * many), the `maxEntries` most recently used in each, of a statement that reads `tables` (every
 * table, views and functions resolved, that its plan reads).
 */
export class SnapshotCache<T> {
  #pools = new WeakMap<object, Map<string, SnapshotEntry<T>>>();
  /** Any write to any of `tables`: what an entry with no `changes` is checked by. */
  readonly wholeTables: SnapshotChanges;

  constructor(readonly maxEntries: number, readonly tables: readonly string[]) {
    if (tables.length === 0 || tables.some((t) => !/^[a-z_][a-z0-9_]*$/.test(t))) {
      throw new Error(`SnapshotCache: table names expected, got ${JSON.stringify(tables)}`);
    }
    this.wholeTables = this.changesOf({});
  }

  /**
   * The pairs a result depending on `scopes` is checked by: each table of `tables` named there,
   * by each of its scopes (a truncate, which has no rows to tell, moves the records' horizon:
   * migration 0056); every other, by '' (any write). Throws for a table not among `tables`, or
   * a scope migrations 0056 and 0057 do not record for it (a page's mistake, which would leave
   * its page stale).
   */
  changesOf(scopes: SnapshotScopes): SnapshotChanges {
    const tables: string[] = [];
    const kept: string[] = [];
    for (const table of Object.keys(scopes)) {
      if (!this.tables.includes(table)) {
        throw new Error(`SnapshotCache: scopes for ${table}, which it does not read`);
      }
    }
    for (const table of this.tables) {
      const named = scopes[table];
      if (!named) {
        tables.push(table);
        kept.push('""');
        continue;
      }
      for (const scope of named) {
        if (!(SCOPE.test(scope) && RECORDED_SCOPES[table]?.includes(scope.split(":")[0]))) {
          throw new Error(`SnapshotCache: ${table} records no scope ${JSON.stringify(scope)}`);
        }
        tables.push(table);
        kept.push(`"${scope}"`);
      }
    }
    return { tables: `{${tables.join(",")}}`, scopes: `{${kept.join(",")}}` };
  }

  /** What `key` read last through this pool, or undefined (always so in a transaction). */
  get(db: Db, key: string): SnapshotEntry<T> | undefined {
    if (!isPool(db)) return undefined;
    const entries = this.#pools.get(db);
    const entry = entries?.get(key);
    if (entry) {
      entries!.delete(key);
      entries!.set(key, entry);
    }
    return entry;
  }

  /**
   * Remembers `entry` for `key` on this pool; nothing in a transaction. Entries read in other
   * snapshots stay: a commit to tables they do not read leaves them true.
   */
  set(db: Db, key: string, entry: SnapshotEntry<T>): void {
    if (!isPool(db)) return;
    let entries = this.#pools.get(db);
    if (!entries) this.#pools.set(db, entries = new Map());
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > this.maxEntries) entries.delete(entries.keys().next().value!);
  }
}

/** The statement's own snapshot, as text: `SnapshotEntry.snapshot`. */
export function currentSnapshot(db: Db): postgres.PendingQuery<postgres.Row[]> {
  return db`pg_current_snapshot()::text`;
}

/**
 * SQL, a boolean: whether a new run of the statement that read `entry`, a statement reading
 * `cache.tables`, would read it again: before `validUntil`, and either nothing has committed
 * since (the same snapshot: a comparison of text, the common case on a quiet database), or no
 * transaction the entry's snapshot does not see has written one of those tables, and that
 * snapshot is not older than the records' last pruning.
 */
export function unchangedSince(
  db: Db,
  entry: SnapshotEntry<unknown>,
  cache: Pick<SnapshotCache<unknown>, "wholeTables">,
): postgres.PendingQuery<postgres.Row[]> {
  const { tables, scopes } = entry.changes ?? cache.wholeTables;
  return db`(now() < ${entry.validUntil ?? "infinity"}::text::timestamptz
    and (pg_current_snapshot()::text = ${entry.snapshot}
      or snapshot_scopes_unchanged(${entry.snapshot}::text::pg_snapshot,
        ${tables}::text[], ${scopes}::text[])))`;
}

/** How long a pruning horizon waits before the records below it are deleted. */
export const SNAPSHOT_PRUNE_AFTER = "5 minutes";

/**
 * Deletes the records of `snapshot_changes` below the horizon taken at the last pruning, once
 * that is `SNAPSHOT_PRUNE_AFTER` old, and takes the next horizon (the oldest transaction still
 * running now); otherwise nothing. A page remembered in a snapshot older than the deleted
 * records is read again at its next view (`unchangedSince`), so this never lets a page show
 * stale data; it bounds the table to the writes of about ten minutes, and a remembered page's
 * life to as long. Safe beside other instances pruning (the horizon's row is locked and moved
 * once). Returns how many records went. The job worker runs it every minute.
 */
export async function pruneSnapshotChanges(db: Db): Promise<number> {
  const result = await db`
    with moved as (
      update snapshot_prune
      set pruned_below = greatest(pruned_below, next_below),
        next_below = pg_snapshot_xmin(pg_current_snapshot()),
        next_at = now()
      where next_at <= now() - ${SNAPSHOT_PRUNE_AFTER}::interval
      returning pruned_below)
    delete from snapshot_changes where xid < (select pruned_below from moved)`;
  return result.count;
}

/**
 * How a pool's remembered pages are checked: by a statement of their own, before the page's and
 * only then (`"apart"`), by the gate in the page's statement (`"gate"`), or by the one that
 * suits each page's last check (`"adaptive"`: apart once a check found it unchanged, by the gate
 * while it is read anew). Each is the cheaper somewhere, measured with bench/signed_in_pages.ts
 * (CPU per view, server and database):
 * - PGlite runs Postgres's executor in WebAssembly, and sets up the gated plan whole at every
 *   view (every node initialised, then skipped by the one-time filter): reloaded with nothing
 *   changed, /leads cost 3.94 ms with the gate against 1.35 ms with a check of its own, the
 *   surveyor directory 2.97 against 1.50 (server and database); the reads alone, in process
 *   (`--check-cost`), 0.73-0.93 ms against 0.17-0.26. A second statement costs no round trip
 *   there (the pool reaches PGlite in process): after a write the check apart cost 0.92-1.10x
 *   what the gate did. The embedded database checks apart (db/client.ts `openDatabase`).
 * - On Postgres the gated plan's set-up costs the backend too: the client dashboard reloaded
 *   with nothing changed took 217-323 µs of its backend's CPU a view by the gate against
 *   107-157 µs apart, one connection, in process (the demo network's busiest client). Under
 *   continuous commits, though, a second statement is a round trip more on each side: the
 *   check of its own cost the client dashboards and request pages 35-60% more CPU than before
 *   pages were remembered, where the gate costs what the page's statement alone did
 *   (0.86-1.13x). So Postgres checks adaptively: a page found unchanged is likely unchanged at
 *   its next view (a reload, a quiet marketplace), one just read anew likely changes again. On
 *   the demo network every page remembered by snapshot went from 1.8-3.1x `GET /api/user` to
 *   1.4-2.0x (bench/every_page.ts); under continuous writes to what the client dashboards show
 *   (BENCH_CHURN=1, back to back) the 3-request dashboard cost 4.59 ms a view adaptively and
 *   4.39 ms by the gate.
 */
export type SnapshotCheck = "apart" | "gate" | "adaptive";

const checks = new WeakMap<object, SnapshotCheck>();

/**
 * How `sql`'s remembered pages are checked: as set (a Postgres deployment's SNAPSHOT_CHECK,
 * db/client.ts), else adaptively (Postgres's way).
 */
function checkOf(sql: object): SnapshotCheck {
  return checks.get(sql) ?? "adaptive";
}

/** Sets how `sql`'s remembered pages are checked (see above); returns what it was. */
export function setSnapshotCheck(sql: object, check: SnapshotCheck): SnapshotCheck {
  const was = checkOf(sql);
  checks.set(sql, check);
  return was;
}

let checkObserver: ((way: "apart" | "gate", unchanged: boolean) => void) | undefined;

/**
 * Tests only: `fn` is told how each check of a remembered value ran and whether it found the
 * value unchanged; undefined stops it.
 */
export function observeSnapshotChecks(fn: typeof checkObserver): void {
  checkObserver = fn;
}

/** What a page's rows give `rememberedRead` to remember; undefined: nothing to show. */
export interface SnapshotRead<T> {
  value: T;
  /** The statement's `currentSnapshot`. */
  snapshot: string;
  /** The first moment its reading of the clock would change (`SnapshotEntry.validUntil`). */
  validUntil: string | null;
  /**
   * The only scopes of these tables its rows depend on (`SnapshotCache.changesOf`): a page
   * whose rows of a table are all of one client, one surveyor, some states, names them; a write
   * to that table elsewhere then leaves it remembered. A table not named: any write.
   */
  scopes?: SnapshotScopes;
}

/**
 * A page's data: `statement`'s rows, read with the user `viewerId` and their unread count when
 * given (db/users.ts `readWithViewer`), made into the page's value by `finish`; or, when `cache`
 * holds what the statement read last for `key` and none of its tables has been written since nor
 * has its time run out (`unchangedSince`), that value, with the viewer read anew.
 *
 * Checked by the gate, the page's statement runs under a condition Postgres tests once before
 * anything in it runs (a one-time filter on the lateral subquery): unchanged, it returns a
 * single row saying so and the page's statement never starts; changed, the page's rows come as
 * they would alone. So a page read after a write costs what it cost before plus the gate, and a
 * reload that finds nothing changed costs about a user read, but for the gated plan's set-up.
 * Checked apart (`setSnapshotCheck`: always on the embedded database; on Postgres once a check
 * found the value unchanged), the check is read with the viewer first, and the page's statement
 * runs alone only if it fails.
 * `statement` must return its `currentSnapshot` (on its first row, at least) for `finish`.
 * An unknown viewer gets no value.
 */
export async function rememberedRead<T, R extends postgres.Row>(
  db: Db,
  cache: SnapshotCache<T>,
  key: string,
  viewerId: string | undefined,
  statement: postgres.PendingQuery<postgres.Row[]>,
  finish: (rows: R[]) => SnapshotRead<T> | undefined,
): Promise<{ viewer?: Viewer; value: T | undefined }> {
  const known = cache.get(db, key);
  const check = checkOf(db);
  if (known && (check === "apart" || (check === "adaptive" && known.checkedUnchanged))) {
    const checked = await readWithViewer<{ unchanged: boolean }>(
      db,
      viewerId,
      db`select ${unchangedSince(db, known, cache)} as unchanged`,
    );
    const viewer = checked.viewer;
    if (viewerId !== undefined && !viewer) return { value: undefined };
    checkObserver?.("apart", Boolean(checked.rows[0].unchanged));
    if (checked.rows[0].unchanged) return { ...(viewer && { viewer }), value: known.value };
    const value = remember(finish(await statement as unknown as R[]));
    return { ...(viewer && { viewer }), value };
  }
  const { viewer, rows } = await readWithViewer<R & { snapshotUnchanged?: boolean }>(
    db,
    viewerId,
    known
      ? db`
        select g.snapshot_unchanged, r.*
        from (select ${unchangedSince(db, known, cache)} as snapshot_unchanged) g
        left join lateral (select * from (${statement}) s where not g.snapshot_unchanged) r on true`
      : statement,
  );
  if (viewerId !== undefined && !viewer) return { value: undefined };
  let page: R[] = rows;
  if (known) {
    checkObserver?.("gate", Boolean(rows[0].snapshotUnchanged));
    if (rows[0].snapshotUnchanged) {
      known.checkedUnchanged = true;
      return { ...(viewer && { viewer }), value: known.value };
    }
    page = rows.map(({ snapshotUnchanged: _, ...row }) => row as unknown as R);
    // The gate's row alone: the page's statement returned none.
    if (page.length === 1 && isEmptyPageRow(page[0])) page = [];
  }
  return { ...(viewer && { viewer }), value: remember(finish(page)) };

  function remember(read: SnapshotRead<T> | undefined): T | undefined {
    if (read) {
      observer?.(cache as SnapshotCache<unknown>, statement, read.scopes);
      cache.set(db, key, {
        snapshot: read.snapshot,
        validUntil: read.validUntil,
        value: read.value,
        ...(read.scopes && { changes: cache.changesOf(read.scopes) }),
      });
    }
    return read?.value;
  }
}

let observer:
  | ((
    cache: SnapshotCache<unknown>,
    statement: postgres.PendingQuery<postgres.Row[]>,
    scopes: SnapshotScopes | undefined,
  ) => void)
  | undefined;

/**
 * Tests only: `fn` is told each page `rememberedRead` remembers, with its cache, its statement
 * and the scopes it depends on (tests/db/snapshot_tables_test.ts reads each statement's plan);
 * undefined stops it.
 */
export function observeRememberedReads(fn: typeof observer): void {
  observer = fn;
}
