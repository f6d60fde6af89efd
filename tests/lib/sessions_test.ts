import { assert, assertEquals, assertMatch, assertNotEquals } from "../_assert.ts";
import { keys, openKv } from "../../db/kv.ts";
import {
  ADMIN_SESSION_TIMEOUTS,
  createSession,
  deleteSession,
  hashToken,
  isSessionIdShape,
  listUserSessionHashes,
  readSession,
  revokeUserSessions,
  SECURE_SESSION_COOKIE_NAME,
  SESSION_COOKIE_NAME,
  sessionCookie,
  sessionExpiry,
  sessionTimeouts,
  touchSession,
  USER_SESSION_TIMEOUTS,
} from "../../lib/sessions.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 0, 1);
const ALICE = "00000000-0000-4000-8000-00000000000a";
const BOB = "00000000-0000-4000-8000-00000000000b";
const ADMIN = "00000000-0000-4000-8000-0000000000ad";

function open(kv: Deno.Kv, userId: string, opts: { impersonatorId?: string; now?: number } = {}) {
  return createSession(kv, {
    userId,
    impersonatorId: opts.impersonatorId,
    ip: "203.0.113.9",
    userAgent: "Test/1.0",
    timeouts: USER_SESSION_TIMEOUTS,
    now: opts.now ?? T0,
  });
}

Deno.test("[sessions] ids are 256 random bits and only their SHA-256 is stored", async () => {
  const kv = await openKv(":memory:");
  const { id, idHash, record } = await open(kv, ALICE);
  assertMatch(id, /^[A-Za-z0-9_-]{43}$/);
  assert(isSessionIdShape(id));
  assertEquals(idHash, await hashToken(id));
  assertMatch(idHash, /^[0-9a-f]{64}$/);
  assertEquals((await kv.get(keys.session(id))).value, null, "raw id must not be a key");
  assertEquals((await kv.get(keys.session(idHash))).value, record);
  assertEquals(record, {
    userId: ALICE,
    impersonatorId: null,
    createdAt: T0,
    lastSeenAt: T0,
    ip: "203.0.113.9",
    userAgent: "Test/1.0",
  });
  const dump: unknown[] = [];
  for await (const e of kv.list({ prefix: [] })) dump.push(e.key, e.value);
  assert(!JSON.stringify(dump).includes(id), "the raw id appears nowhere in KV");
  const other = await open(kv, ALICE);
  assertNotEquals(other.id, id);
  kv.close();
});

Deno.test("[sessions] reading accepts only well-formed, known ids", async () => {
  const kv = await openKv(":memory:");
  const { id, idHash } = await open(kv, ALICE);
  assertEquals((await readSession(kv, id))?.idHash, idHash);
  assertEquals(await readSession(kv, id.slice(1)), null);
  assertEquals(await readSession(kv, id + "x"), null);
  assertEquals(await readSession(kv, "A".repeat(43)), null);
  assertEquals(await readSession(kv, idHash), null, "the stored hash is not a usable id");
  kv.close();
});

Deno.test("[sessions] user sessions expire after 7 idle days or 30 days in all", () => {
  const record = {
    userId: ALICE,
    impersonatorId: null,
    createdAt: T0,
    lastSeenAt: T0,
    ip: "",
    userAgent: "",
  };
  const timeouts = sessionTimeouts(record, "client");
  assertEquals(timeouts, USER_SESSION_TIMEOUTS);
  assertEquals(sessionExpiry(record, timeouts, T0 + 7 * DAY - 1), null);
  assertEquals(sessionExpiry(record, timeouts, T0 + 7 * DAY), "idle");
  const active = { ...record, lastSeenAt: T0 + 29 * DAY };
  assertEquals(sessionExpiry(active, timeouts, T0 + 30 * DAY - 1), null);
  assertEquals(sessionExpiry(active, timeouts, T0 + 30 * DAY), "absolute");
});

Deno.test("[sessions] admin sessions expire after 30 idle minutes or 12 hours in all", () => {
  const record = {
    userId: ADMIN,
    impersonatorId: null,
    createdAt: T0,
    lastSeenAt: T0,
    ip: "",
    userAgent: "",
  };
  const timeouts = sessionTimeouts(record, "admin");
  assertEquals(timeouts, ADMIN_SESSION_TIMEOUTS);
  assertEquals(sessionExpiry(record, timeouts, T0 + 30 * MINUTE - 1), null);
  assertEquals(sessionExpiry(record, timeouts, T0 + 30 * MINUTE), "idle");
  const active = { ...record, lastSeenAt: T0 + 12 * HOUR - MINUTE };
  assertEquals(sessionExpiry(active, timeouts, T0 + 12 * HOUR), "absolute");
});

Deno.test("[sessions] an admin's impersonation session keeps the admin's limits", () => {
  const record = {
    userId: ALICE,
    impersonatorId: ADMIN,
    createdAt: T0,
    lastSeenAt: T0,
    ip: "",
    userAgent: "",
  };
  assertEquals(sessionTimeouts(record, "client"), ADMIN_SESSION_TIMEOUTS);
  assertEquals(sessionExpiry(record, sessionTimeouts(record, "client"), T0 + 31 * MINUTE), "idle");
});

Deno.test("[sessions] lastSeenAt is written at most once a minute", async () => {
  const kv = await openKv(":memory:");
  const { id, idHash } = await open(kv, ALICE);
  const first = (await readSession(kv, id))!;
  assertEquals(await touchSession(kv, first, USER_SESSION_TIMEOUTS, T0 + 59_999), false);
  assertEquals((await readSession(kv, id))!.versionstamp, first.versionstamp);
  assertEquals(await touchSession(kv, first, USER_SESSION_TIMEOUTS, T0 + MINUTE), true);
  const second = (await readSession(kv, id))!;
  assertEquals(second.record.lastSeenAt, T0 + MINUTE);
  assertEquals(second.record.createdAt, T0);
  assertEquals(second.idHash, idHash);
  kv.close();
});

Deno.test("[sessions] a touch racing a logout cannot bring the session back", async () => {
  const kv = await openKv(":memory:");
  const { id, idHash } = await open(kv, ALICE);
  const loaded = (await readSession(kv, id))!;
  await deleteSession(kv, idHash);
  assertEquals(await touchSession(kv, loaded, USER_SESSION_TIMEOUTS, T0 + HOUR), false);
  assertEquals(await readSession(kv, id), null);
  kv.close();
});

Deno.test("[sessions] deleting removes the record and its index entries", async () => {
  const kv = await openKv(":memory:");
  const { id, idHash } = await open(kv, ALICE, { impersonatorId: ADMIN });
  assertEquals(await listUserSessionHashes(kv, ALICE), [idHash]);
  assertEquals(await listUserSessionHashes(kv, ADMIN), [idHash]);
  assertEquals(await deleteSession(kv, idHash), true);
  assertEquals(await readSession(kv, id), null);
  assertEquals(await listUserSessionHashes(kv, ALICE), []);
  assertEquals(await listUserSessionHashes(kv, ADMIN), []);
  assertEquals(await deleteSession(kv, idHash), false);
  kv.close();
});

Deno.test("[sessions] revoking a user ends all their sessions but the one kept", async () => {
  const kv = await openKv(":memory:");
  const a1 = await open(kv, ALICE);
  const a2 = await open(kv, ALICE);
  const a3 = await open(kv, ALICE);
  const b1 = await open(kv, BOB);
  assertEquals(await revokeUserSessions(kv, ALICE, { except: a2.idHash }), 2);
  assertEquals(await readSession(kv, a1.id), null);
  assertEquals(await readSession(kv, a3.id), null);
  assert(await readSession(kv, a2.id));
  assert(await readSession(kv, b1.id), "another user's session survives");
  assertEquals(await listUserSessionHashes(kv, ALICE), [a2.idHash]);
  assertEquals(await revokeUserSessions(kv, ALICE), 1);
  assertEquals(await readSession(kv, a2.id), null);
  kv.close();
});

Deno.test("[sessions] revoking an admin also ends the impersonation sessions they started", async () => {
  const kv = await openKv(":memory:");
  const own = await open(kv, ADMIN);
  const asAlice = await open(kv, ALICE, { impersonatorId: ADMIN });
  const alicesOwn = await open(kv, ALICE);
  assertEquals(await revokeUserSessions(kv, ADMIN), 2);
  assertEquals(await readSession(kv, own.id), null);
  assertEquals(await readSession(kv, asAlice.id), null);
  assert(await readSession(kv, alicesOwn.id));
  assertEquals(await listUserSessionHashes(kv, ALICE), [alicesOwn.idHash]);
  kv.close();
});

Deno.test("[sessions] the absolute clock can be carried into a new session", async () => {
  const kv = await openKv(":memory:");
  const { record } = await createSession(kv, {
    userId: ALICE,
    impersonatorId: ADMIN,
    ip: "",
    userAgent: "",
    timeouts: ADMIN_SESSION_TIMEOUTS,
    createdAt: T0 - 11 * HOUR,
    now: T0,
  });
  assertEquals(record.createdAt, T0 - 11 * HOUR);
  assertEquals(record.lastSeenAt, T0);
  assertEquals(sessionExpiry(record, ADMIN_SESSION_TIMEOUTS, T0 + HOUR), "absolute");
  kv.close();
});

Deno.test("[sessions] the cookie is __Host- and Secure only behind https", () => {
  assertEquals(sessionCookie({ PUBLIC_URL: "http://localhost:8000" }), {
    name: SESSION_COOKIE_NAME,
    secure: false,
  });
  assertEquals(sessionCookie({ PUBLIC_URL: "https://meridian.example" }), {
    name: SECURE_SESSION_COOKIE_NAME,
    secure: true,
  });
  assertEquals(SESSION_COOKIE_NAME, "meridian_session");
  assertEquals(SECURE_SESSION_COOKIE_NAME, "__Host-meridian_session");
});
