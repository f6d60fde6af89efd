/**
 * Reads of the admin console (/admin, routes/admin_pages.tsx): each tab's page with the
 * numbers its tabs show (pending return requests, firms waiting for a licence check).
 *
 * A tab reads them in as few statements as it can, not one small statement each pipelined
 * with Promise.all: every statement costs CPU in this process and in its Postgres backend
 * (issue 23: three small ones ~275 µs of CPU against ~160 µs as one).
 */
import type { Db } from "./client.ts";
import type { Role } from "../lib/roles.ts";
import {
  readWithViewer,
  type User,
  usersPageFrom,
  type UsersPageRow,
  usersPageStatement,
  type Viewer,
} from "./users.ts";
import { currentSnapshot, rememberedRead, SnapshotCache } from "./snapshot_cache.ts";
import { pendingRefundRequestsCountColumn } from "./refunds.ts";
import { licenceChecksCountColumn } from "./surveyor_licences.ts";

/** What the console's tabs count: their badges. */
export interface AdminConsoleCounts {
  /** Pending return requests (db/refunds.ts `pendingRefundRequestsCountColumn`). */
  pendingReturns: number;
  /** Firms waiting for a licence check (db/surveyor_licences.ts `licenceChecksCountColumn`). */
  licenceChecks: number;
}

/**
 * The users tab in one statement: the tabs' counts, and the page of users and their total as
 * `listUsers` reads them (the total and counts also past the last page).
 */
export async function getAdminConsoleUsers(
  db: Db,
  input: {
    role?: Role;
    limit: number;
    offset: number;
    /**
     * Also read this user and their unread count in the statement (`viewer`, db/users.ts
     * `readWithViewer`): the page reads its viewer (routes/_auth.ts `ownViewerPage`).
     */
    viewerId?: string;
  },
): Promise<{ viewer?: Viewer; users: User[]; total: number; counts: AdminConsoleCounts }> {
  const { role, limit, offset, viewerId } = input;
  // Remembered by snapshot (db/snapshot_cache.ts): reloaded while none of its tables has been
  // written (a sign-in writes `users.last_login`), the tab is the one read last, with its admin
  // read anew. It reads nothing from the clock.
  const { viewer, value } = await rememberedRead(
    db,
    consoleUsersRead,
    `${viewerId} ${role} ${limit} ${offset}`,
    viewerId,
    usersPageStatement(db, {
      role,
      limit,
      offset,
      columns: db`,
        ${pendingRefundRequestsCountColumn(db)} as pending_returns,
        ${licenceChecksCountColumn(db)} as licence_checks,
        ${currentSnapshot(db)} as snapshot`,
    }),
    (rows: UsersPageRow[]) => {
      const { users, total, first } = usersPageFrom<AdminConsoleCounts & { snapshot: string }>(
        rows,
      );
      if (!first) return undefined;
      const counts = { pendingReturns: first.pendingReturns, licenceChecks: first.licenceChecks };
      return { value: { users, total, counts }, snapshot: first.snapshot, validUntil: null };
    },
  );
  return {
    ...(viewer && { viewer }),
    ...(value ?? { users: [], total: 0, counts: { pendingReturns: 0, licenceChecks: 0 } }),
  };
}

/** The console's users tabs last read (`getAdminConsoleUsers`): some 10 KB each. */
const consoleUsersRead = new SnapshotCache<
  { users: User[]; total: number; counts: AdminConsoleCounts }
>(50, ["lead_refund_requests", "surveyor_licence_states", "surveyors", "users"]);

/**
 * The tabs' counts in one statement, for the tabs whose list is read by another module; with
 * `viewerId`, that user and their unread count too (as `getAdminConsoleUsers`).
 */
export async function countAdminConsoleWaiting(
  db: Db,
  { viewerId }: { viewerId?: string } = {},
): Promise<AdminConsoleCounts & { viewer?: Viewer }> {
  const statement = db`
    select ${pendingRefundRequestsCountColumn(db)} as pending_returns,
      ${licenceChecksCountColumn(db)} as licence_checks`;
  const { rows: [row], viewer } = await readWithViewer<AdminConsoleCounts>(
    db,
    viewerId,
    statement,
  );
  return {
    ...(viewer && { viewer }),
    pendingReturns: row?.pendingReturns ?? 0,
    licenceChecks: row?.licenceChecks ?? 0,
  };
}
