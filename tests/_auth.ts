/**
 * Test helpers for accounts: real users with real argon2id hashes, and session cookies.
 *
 * - `createUser(sql, {role})` inserts a user (hash cached per password, so it is cheap).
 * - `signIn(t, {identifier, password})` goes through POST /api/login (counts toward its rate
 *   limit of 10 per 3 minutes per IP) and returns the cookie.
 * - `signInAs(t, role)` / `createSignedInUser(t, {role})` create a user and open a session for
 *   it directly in KV: no password check, no rate limit, so a test may sign in many users.
 *
 * The returned cookie string is what `t.request(..., { cookie })` takes.
 */
import type { Sql } from "../db/client.ts";
import { insertUser, type User } from "../db/users.ts";
import { hashPassword } from "../lib/passwords.ts";
import {
  createSession,
  hashToken,
  sessionCookie,
  type SessionRecord,
  sessionTimeouts,
} from "../lib/sessions.ts";
import { keys } from "../db/kv.ts";
import type { Role } from "../lib/roles.ts";
import type { TestApp } from "./_helpers.ts";

/** Password given to test users unless a test picks one. */
export const TEST_PASSWORD = "correct horse battery";

/** A user created by `createUser`, with the plain password it was created with. */
export interface TestUser extends User {
  password: string;
}

/** Options for `createUser`; everything but `role` has a unique or fixed default. */
export interface CreateUserOptions {
  role: Role;
  email?: string;
  username?: string;
  password?: string;
  fullName?: string;
  companyName?: string | null;
  phone?: string | null;
}

const hashes = new Map<string, Promise<string>>();
let counter = 0;

/** The argon2id hash of `password`, computed once per test process. */
export function cachedHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, hash = hashPassword(password));
  return hash;
}

/**
 * Inserts a user with a real argon2id hash. The email defaults to a unique
 * `{role}{n}@example.test`, the username to the email, the password to `TEST_PASSWORD`.
 */
export async function createUser(sql: Sql, options: CreateUserOptions): Promise<TestUser> {
  const n = ++counter;
  const password = options.password ?? TEST_PASSWORD;
  const email = options.email ??
    `${options.role}${n}.${crypto.randomUUID().slice(0, 8)}@example.test`;
  const user = await insertUser(sql, {
    email,
    username: options.username,
    fullName: options.fullName ??
      `Test ${options.role[0].toUpperCase()}${options.role.slice(1)} ${n}`,
    role: options.role,
    passwordHash: await cachedHash(password),
    companyName: options.companyName ?? null,
    phone: options.phone ?? null,
  });
  return { ...user, password };
}

/** The `name=value` pair of the session cookie in a response's Set-Cookie, or null. */
export function sessionCookieFrom(t: TestApp, res: Response): string | null {
  const { name } = sessionCookie(t.deps.config);
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    const eq = pair.indexOf("=");
    if (pair.slice(0, eq) === name && pair.slice(eq + 1) !== "") return pair;
  }
  return null;
}

/** Whether `res` tells the browser to delete the session cookie (`Max-Age=0`). */
export function clearsSessionCookie(t: TestApp, res: Response): boolean {
  const { name } = sessionCookie(t.deps.config);
  return res.headers.getSetCookie().some((line) =>
    line.startsWith(`${name}=;`) && /;\s*Max-Age=0\b/i.test(line)
  );
}

/**
 * Signs in through POST /api/login and returns the session cookie. Throws with the response
 * text when the login does not succeed.
 */
export async function signIn(
  t: TestApp,
  { identifier, password }: { identifier: string; password: string },
): Promise<string> {
  const res = await t.request("POST", "/api/login", { body: { identifier, password } });
  const text = await res.text();
  const cookie = res.status === 200 ? sessionCookieFrom(t, res) : null;
  if (!cookie) throw new Error(`signIn(${identifier}) failed: ${res.status} ${text}`);
  return cookie;
}

/** A session cookie for `user`, opened directly in KV (no password check, no rate limit). */
export async function sessionFor(
  t: TestApp,
  user: Pick<User, "id" | "role">,
  { impersonatorId = null }: { impersonatorId?: string | null } = {},
): Promise<string> {
  const { id } = await createSession(t.kv, {
    userId: user.id,
    impersonatorId,
    ip: "127.0.0.1",
    userAgent: "tests",
    timeouts: sessionTimeouts({ impersonatorId }, user.role),
    role: user.role,
  });
  return `${sessionCookie(t.deps.config).name}=${id}`;
}

/** The KV hash and stored record of the session behind `cookie` (`entry.value` null: none). */
export async function sessionRecord(t: TestApp, cookie: string) {
  const hash = await hashToken(cookie.split("=")[1]);
  return { hash, entry: await t.kv.get<SessionRecord>(keys.session(hash)) };
}

/** Overwrites fields of the stored session behind `cookie` (its clocks, its role…). */
export async function rewriteSession(t: TestApp, cookie: string, patch: Partial<SessionRecord>) {
  const { hash, entry } = await sessionRecord(t, cookie);
  if (!entry.value) throw new Error("rewriteSession: the session does not exist");
  await t.kv.set(keys.session(hash), { ...entry.value, ...patch });
}

/** Creates a user (see `createUser`) and returns it with a signed-in session cookie. */
export async function createSignedInUser(
  t: TestApp,
  options: CreateUserOptions,
): Promise<{ user: TestUser; cookie: string }> {
  const user = await createUser(t.sql, options);
  return { user, cookie: await sessionFor(t, user) };
}

/** Creates a user of `role` (or with `options`) and returns only its session cookie. */
export async function signInAs(t: TestApp, role: Role | CreateUserOptions): Promise<string> {
  const options = typeof role === "string" ? { role } : role;
  return (await createSignedInUser(t, options)).cookie;
}
