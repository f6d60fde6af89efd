/**
 * Users. The password hash is read only by `getUserByIdentifier`/`getUserCredentials`
 * (for lib/passwords.ts); every other function returns the public shape without it.
 */
import type postgres from "postgres";
import type { Db } from "./client.ts";
import { type Role, ROLES, type SessionUser } from "../lib/roles.ts";
import { roleLiteral } from "./sql_literals.ts";

export { ROLES };

/** A user as the app sees it: the public shape plus whether the account is disabled. */
export interface User extends SessionUser {
  /** ISO time the account was disabled, or null while it is active. */
  disabledAt: string | null;
}

/** A user with the stored argon2id hash, for sign-in and password changes only. */
export interface UserWithPassword extends User {
  passwordHash: string;
}

/** Thrown by `insertUser` when the email or username is already taken (any letter case). */
export class UserExistsError extends Error {
  constructor() {
    super("An account with this email already exists");
  }
}

const publicColumns = [
  "id",
  "username",
  "email",
  "fullName",
  "role",
  "companyName",
  "phone",
  "createdAt",
  "lastLogin",
  "disabledAt",
];

// The session reads below (every signed-in request) spell `publicColumns` out in their SQL:
// `${db(publicColumns)}` makes postgres.js transform and escape the list again on every call
// (~6 µs, bench/signed_in_pages.ts --profile --path /api/user). tests/db/users_test.ts checks
// that the two lists stay the same.

interface UserRow {
  id: string;
  username: string;
  email: string;
  fullName: string;
  role: Role;
  companyName: string | null;
  phone: string | null;
  createdAt: Date;
  lastLogin: Date | null;
  disabledAt: Date | null;
  passwordHash?: string;
}

function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    fullName: row.fullName,
    role: row.role,
    companyName: row.companyName,
    phone: row.phone,
    createdAt: row.createdAt.toISOString(),
    lastLogin: row.lastLogin ? row.lastLogin.toISOString() : null,
    disabledAt: row.disabledAt ? row.disabledAt.toISOString() : null,
  };
}

/** The public `SessionUser` shape of `user` (drops `disabledAt` and anything else). */
export function toSessionUser(user: User): SessionUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    fullName: user.fullName,
    role: user.role,
    companyName: user.companyName,
    phone: user.phone,
    createdAt: user.createdAt,
    lastLogin: user.lastLogin,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `id` is shaped like a uuid (anything else cannot be a user id). */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/** The user with `id`, or undefined (also for a string that is not a uuid). */
export async function getUserById(db: Db, id: string): Promise<User | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db<UserRow[]>`
    select id, username, email, full_name, role, company_name, phone, created_at, last_login,
      disabled_at
    from users where id = ${id}`;
  return row && toUser(row);
}

/**
 * The user with `id` and how many of their notifications are unread, read in one statement
 * (the unread count through its partial index), or undefined. What the sessions middleware
 * reads per signed-in page, so the page's bell badge costs no query of its own.
 */
export async function getUserWithUnreadCount(
  db: Db,
  id: string,
): Promise<(User & { unreadNotifications: number }) | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db<(UserRow & { unreadNotifications: number })[]>`
    select id, username, email, full_name, role, company_name, phone, created_at, last_login,
      disabled_at,
      (select count(*)::int from notifications n where n.user_id = users.id and not n.is_read)
        as unread_notifications
    from users where id = ${id}`;
  return row && { ...toUser(row), unreadNotifications: row.unreadNotifications };
}

/** The signed-in user as a page reads them: the user and how many of their notifications are unread. */
export type Viewer = User & { unreadNotifications: number };

// The viewer as `readWithViewer`'s statement spells it in JSON: snake_case keys, times as text.
interface ViewerJson {
  id: string;
  username: string;
  email: string;
  full_name: string;
  role: Role;
  company_name: string | null;
  phone: string | null;
  created_at: string;
  last_login: string | null;
  disabled_at: string | null;
  unread_notifications: number;
}

function fromViewerJson(v: ViewerJson): Viewer {
  return {
    id: v.id,
    username: v.username,
    email: v.email,
    fullName: v.full_name,
    role: v.role,
    companyName: v.company_name,
    phone: v.phone,
    createdAt: new Date(v.created_at).toISOString(),
    lastLogin: v.last_login ? new Date(v.last_login).toISOString() : null,
    disabledAt: v.disabled_at ? new Date(v.disabled_at).toISOString() : null,
    unreadNotifications: v.unread_notifications,
  };
}

/**
 * Runs `page` (a whole statement) with the user `viewerId` and their unread count, as
 * `getUserWithUnreadCount` reads them, in the same statement: what a page that reads its own
 * viewer runs (routes/_auth.ts `ownViewerPage`), one statement instead of two. The page's rows
 * come back as `page` alone returns them, in its order (the page is the inner side of a
 * nested loop under the viewer's one row, which keeps the order its own `order by` gave), each
 * with one more column, `sessionViewer`, that callers must not pass on. No user with that id:
 * no viewer and no rows. No `viewerId`: `page` alone, and no viewer. `page` must return at
 * least one row that is not all nulls when it returns any (the page statements' driving rows: a
 * total, counts): a lone row of nulls is taken for an empty page.
 */
export async function readWithViewer<R extends postgres.Row>(
  db: Db,
  viewerId: string | undefined,
  page: postgres.PendingQuery<postgres.Row[]>,
): Promise<{ viewer: Viewer | undefined; rows: R[] }> {
  // No viewer asked for: the page alone, as its read ran it before.
  if (viewerId === undefined) return { viewer: undefined, rows: await page as unknown as R[] };
  if (!isUuid(viewerId)) return { viewer: undefined, rows: [] };
  // `offset 0` keeps the viewer's subquery from being pulled up into the join: pulled up, its
  // JSON and unread count were computed again for every row of the page (25 times on
  // /surveyors). The JSON rides on the first row only (`row_number() over ()` counts the rows
  // in the order the join gives them, the page's).
  const rows = await db<(R & { sessionViewer: ViewerJson | null })[]>`
    select case when row_number() over () = 1 then v.session_viewer end as session_viewer, p.*
    from (
      select json_build_object(
        'id', id, 'username', username, 'email', email, 'full_name', full_name, 'role', role,
        'company_name', company_name, 'phone', phone, 'created_at', created_at,
        'last_login', last_login, 'disabled_at', disabled_at,
        'unread_notifications',
          (select count(*)::int from notifications n where n.user_id = users.id and not n.is_read)
      ) as session_viewer
      from users where id = ${viewerId}
      offset 0
    ) v
    left join lateral (${page}) p on true`;
  if (rows.length === 0) return { viewer: undefined, rows: [] };
  const viewer = fromViewerJson(rows[0].sessionViewer!);
  if (rows.length === 1 && isEmptyPageRow(rows[0])) return { viewer, rows: [] };
  return { viewer, rows };
}

/** The left join's row when the page returned none: every column but the viewer is null. */
export function isEmptyPageRow(row: postgres.Row): boolean {
  for (const key in row) if (key !== "sessionViewer" && row[key] !== null) return false;
  return true;
}

/** The user whose email matches `email` in any letter case, or undefined. */
export async function getUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [row] = await db<UserRow[]>`
    select ${db(publicColumns)} from users where lower(email) = lower(${email.trim()})`;
  return row && toUser(row);
}

/**
 * The user whose email or username matches `identifier` (any letter case), with the password
 * hash, or undefined. An email match wins over a username match.
 */
export async function getUserByIdentifier(
  db: Db,
  identifier: string,
): Promise<UserWithPassword | undefined> {
  const id = identifier.trim();
  const [row] = await db<UserRow[]>`
    select ${db(publicColumns)}, password_hash from users
    where lower(email) = lower(${id}) or lower(username) = lower(${id})
    order by (lower(email) = lower(${id})) desc
    limit 1`;
  return row && { ...toUser(row), passwordHash: row.passwordHash! };
}

/** The user with `id` and the password hash, or undefined. */
export async function getUserCredentials(
  db: Db,
  id: string,
): Promise<UserWithPassword | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db<UserRow[]>`
    select ${db(publicColumns)}, password_hash from users where id = ${id}`;
  return row && { ...toUser(row), passwordHash: row.passwordHash! };
}

/**
 * Inserts a user. `username` defaults to the email. With `isSigningIn` (self-registration,
 * which opens a session) `lastLogin` is set to now: registering is the first sign-in.
 * Throws `UserExistsError` when the email or username is taken in any letter case.
 */
export async function insertUser(
  db: Db,
  input: {
    email: string;
    username?: string;
    fullName: string;
    role: Role;
    passwordHash: string;
    companyName?: string | null;
    phone?: string | null;
    isSigningIn?: boolean;
  },
): Promise<User> {
  const email = input.email.trim();
  try {
    const [row] = await db<UserRow[]>`
      insert into users (
        username, email, full_name, role, company_name, phone, password_hash, last_login
      )
      values (
        ${input.username?.trim() || email}, ${email}, ${input.fullName}, ${input.role},
        ${input.companyName ?? null}, ${input.phone ?? null}, ${input.passwordHash},
        case when ${input.isSigningIn ?? false} then now() end
      )
      returning ${db(publicColumns)}`;
    return toUser(row);
  } catch (err) {
    if ((err as { code?: string }).code === "23505") throw new UserExistsError();
    throw err;
  }
}

/**
 * Updates the given profile fields (an omitted field is left alone; null clears company or
 * phone). Returns the updated user, or undefined when there is none with `id`.
 */
export async function updateUserProfile(
  db: Db,
  input: { id: string; fullName?: string; companyName?: string | null; phone?: string | null },
): Promise<User | undefined> {
  if (!isUuid(input.id)) return undefined;
  const hasCompany = input.companyName !== undefined;
  const hasPhone = input.phone !== undefined;
  const [row] = await db<UserRow[]>`
    update users set
      full_name = coalesce(${input.fullName ?? null}, full_name),
      company_name = case when ${hasCompany} then ${
    input.companyName ?? null
  } else company_name end,
      phone = case when ${hasPhone} then ${input.phone ?? null} else phone end
    where id = ${input.id}
    returning ${db(publicColumns)}`;
  return row && toUser(row);
}

/** Stores a new password hash. Returns false when there is no user with `id`. */
export async function updateUserPassword(
  db: Db,
  input: { id: string; passwordHash: string },
): Promise<boolean> {
  if (!isUuid(input.id)) return false;
  const rows = await db`
    update users set password_hash = ${input.passwordHash} where id = ${input.id} returning id`;
  return rows.length === 1;
}

/** What a profile phone may look like (the profile API's rule): 7–30 digits and separators. */
export const PROFILE_PHONE_PATTERN = /^[0-9+()\-.\s]{7,30}$/;

/**
 * Stores `phone` as the user's profile phone if they have none yet (null or blank) and it
 * fits `PROFILE_PHONE_PATTERN`, so a phone typed elsewhere (the request flow) never overwrites
 * one the user chose, and the profile form can save what it shows. Returns true when stored.
 */
export async function fillEmptyPhone(
  db: Db,
  input: { id: string; phone: string },
): Promise<boolean> {
  const phone = input.phone.trim();
  if (!isUuid(input.id) || !PROFILE_PHONE_PATTERN.test(phone)) return false;
  const rows = await db`
    update users set phone = ${phone}
    where id = ${input.id} and coalesce(trim(phone), '') = ''
    returning id`;
  return rows.length === 1;
}

/** Sets `last_login` to now. Returns the updated user, or undefined. */
export async function updateLastLogin(db: Db, input: { id: string }): Promise<User | undefined> {
  if (!isUuid(input.id)) return undefined;
  const [row] = await db<UserRow[]>`
    update users set last_login = now() where id = ${input.id}
    returning ${db(publicColumns)}`;
  return row && toUser(row);
}

/**
 * Changes a user's role. Returns the updated user and the role it had before, or undefined
 * when there is no user with `id`.
 */
export async function setUserRole(
  db: Db,
  input: { id: string; role: Role },
): Promise<{ user: User; previousRole: Role } | undefined> {
  if (!isUuid(input.id)) return undefined;
  const [row] = await db<(UserRow & { previousRole: Role })[]>`
    with previous as (select id, role from users where id = ${input.id} for update)
    update users set role = ${input.role}
    from previous where users.id = previous.id
    returning ${db(publicColumns.map((c) => `users.${c}`))}, previous.role as previous_role`;
  return row && { user: toUser(row), previousRole: row.previousRole };
}

/**
 * Disables a user (keeps the first disable time when already disabled). Returns the user, or
 * undefined when there is none with `id`. Sessions live in KV: the caller ends them.
 */
export async function disableUser(db: Db, input: { id: string }): Promise<User | undefined> {
  if (!isUuid(input.id)) return undefined;
  const [row] = await db<UserRow[]>`
    update users set disabled_at = coalesce(disabled_at, now()) where id = ${input.id}
    returning ${db(publicColumns)}`;
  return row && toUser(row);
}

/** Re-enables a disabled user. Returns the user, or undefined when there is none with `id`. */
export async function enableUser(db: Db, input: { id: string }): Promise<User | undefined> {
  if (!isUuid(input.id)) return undefined;
  const [row] = await db<UserRow[]>`
    update users set disabled_at = null where id = ${input.id}
    returning ${db(publicColumns)}`;
  return row && toUser(row);
}

/** One page of users, newest first, optionally of one role, with the total count. */
export async function listUsers(
  db: Db,
  input: { role?: Role; limit: number; offset: number },
): Promise<{ users: User[]; total: number }> {
  const { users, total } = await listUsersWith(db, { ...input, columns: db`` });
  return { users, total };
}

/**
 * `listUsers`'s page and total with `columns` (`, (select …) as name, …`: read once, beside
 * the total), in one statement; `first` is its first row, which holds those columns
 * (camelCased) even when the page is empty (past the last page).
 *
 * One statement, not a list and a count pipelined: each statement costs CPU here and in its
 * Postgres backend (issue 23: three small ones ~275 µs against ~160 µs as one). The page is a
 * lateral join on the count (db/lead_market.ts `availableLeads`), so the total still comes
 * back with no row to carry it: `count(*) over ()` would be lost past the last page.
 */
export async function listUsersWith<T extends object>(
  db: Db,
  input: UsersPageInput & {
    /** Also read this user and their unread count in the statement (`readWithViewer`). */
    viewerId?: string;
  },
): Promise<{ viewer?: Viewer; users: User[]; total: number; first: T | undefined }> {
  const { rows, viewer } = await readWithViewer<UsersPageRow>(
    db,
    input.viewerId,
    usersPageStatement(db, input),
  );
  return { ...(viewer && { viewer }), ...usersPageFrom<T>(rows) };
}

/** A row of `usersPageStatement`: a user's (or none's, past the last page), with the columns. */
export type UsersPageRow = Partial<UserRow> & { total: number };

/** What `listUsersWith` lists: the page, and `columns` read beside the total. */
interface UsersPageInput {
  role?: Role;
  limit: number;
  offset: number;
  columns: postgres.PendingQuery<postgres.Row[]>;
}

/** `listUsersWith`'s statement, to read another way (db/admin_console.ts remembers it). */
export function usersPageStatement(
  db: Db,
  input: UsersPageInput,
): postgres.PendingQuery<postgres.Row[]> {
  // The role filter is in the text (`roleLiteral`): the four roles differ in size by orders
  // of magnitude, and a plan made for any role fits none of them.
  const where = input.role ? db`where role = ${roleLiteral(db, input.role)}` : db``;
  return db`
    select c.*, r.*
    from (
      select count(*)::int as total ${input.columns}
      from users ${where}
    ) c
    left join lateral (
      select ${db(publicColumns)} from users
      ${where}
      order by created_at desc, id
      limit ${input.limit} offset ${input.offset}
    ) r on true
    order by r.created_at desc, r.id`;
}

/** `listUsersWith`'s page from `usersPageStatement`'s rows. */
export function usersPageFrom<T extends object>(
  rows: UsersPageRow[],
): { users: User[]; total: number; first: T | undefined } {
  return {
    users: rows.filter((r) => r.id != null).map((r) => toUser(r as UserRow)),
    total: rows[0]?.total ?? 0,
    first: rows[0] as unknown as T | undefined,
  };
}
