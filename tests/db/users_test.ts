import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { resetDatabase, test, testDatabase } from "../_helpers.ts";
import { cachedHash, createUser } from "../_auth.ts";
import {
  disableUser,
  enableUser,
  getUserByEmail,
  getUserById,
  getUserByIdentifier,
  getUserCredentials,
  getUserWithUnreadCount,
  insertUser,
  listUsers,
  setUserRole,
  toSessionUser,
  updateLastLogin,
  updateUserPassword,
  updateUserProfile,
  UserExistsError,
} from "../../db/users.ts";
import { insertAuditEvent, listAuditEvents } from "../../db/audit.ts";
import {
  consumePasswordResetToken,
  getPasswordResetTarget,
  insertPasswordResetToken,
} from "../../db/password_resets.ts";

async function freshDb() {
  const db = await testDatabase();
  await resetDatabase(db.sql);
  return db.sql;
}

const MISSING = "00000000-0000-4000-8000-000000000000";

test("[users] an inserted user reads back without its hash", async () => {
  const sql = await freshDb();
  const hash = await cachedHash("secret1");
  const user = await insertUser(sql, {
    email: " Pat@Example.com ",
    fullName: "Pat Client",
    role: "client",
    passwordHash: hash,
    companyName: "Acme",
    phone: "555-0100",
  });
  assertEquals(user.email, "Pat@Example.com");
  assertEquals(user.username, "Pat@Example.com");
  assertEquals(user.role, "client");
  assertEquals(user.lastLogin, null);
  assertEquals(user.disabledAt, null);
  assert(!JSON.stringify(user).includes("argon2"));
  assertEquals(await getUserById(sql, user.id), user);
  assertEquals(Object.keys(toSessionUser(user)).sort(), [
    "companyName",
    "createdAt",
    "email",
    "fullName",
    "id",
    "lastLogin",
    "phone",
    "role",
    "username",
  ]);
  assertEquals((await getUserCredentials(sql, user.id))?.passwordHash, hash);
});

test("[users] the session reads return every field the other reads do", async () => {
  const sql = await freshDb();
  const user = await insertUser(sql, {
    email: "dana@example.com",
    fullName: "Dana Surveyor",
    role: "surveyor",
    passwordHash: await cachedHash("secret1"),
    companyName: "Dana & Co",
    phone: "555-0101",
  });
  await updateLastLogin(sql, { id: user.id });
  await disableUser(sql, { id: user.id });
  const full = await getUserByEmail(sql, "dana@example.com");
  assert(full?.lastLogin && full.disabledAt && full.companyName && full.phone);
  assertEquals(await getUserById(sql, user.id), full);
  assertEquals(await getUserWithUnreadCount(sql, user.id), { ...full, unreadNotifications: 0 });
});

test("[users] emails and usernames are unique in any letter case", async () => {
  const sql = await freshDb();
  const hash = await cachedHash("secret1");
  await insertUser(sql, {
    email: "sam@example.com",
    fullName: "Sam",
    role: "client",
    passwordHash: hash,
  });
  const err = await assertRejects(() =>
    insertUser(sql, {
      email: "SAM@EXAMPLE.COM",
      fullName: "Sam 2",
      role: "client",
      passwordHash: hash,
    })
  );
  assert(err instanceof UserExistsError);
  assertEquals(err.message, "An account with this email already exists");
  const err2 = await assertRejects(() =>
    insertUser(sql, {
      email: "other@example.com",
      username: "Sam@Example.com",
      fullName: "Sam 3",
      role: "client",
      passwordHash: hash,
    })
  );
  assert(err2 instanceof UserExistsError);
  assertEquals((await listUsers(sql, { limit: 10, offset: 0 })).total, 1);
});

test("[users] lookup by email or username ignores case and prefers the email match", async () => {
  const sql = await freshDb();
  const a = await createUser(sql, { role: "client", email: "ann@example.com", username: "annie" });
  const b = await createUser(sql, {
    role: "client",
    email: "bob@example.com",
    username: "ANN@example.org",
  });
  assertEquals((await getUserByIdentifier(sql, "ANN@EXAMPLE.COM"))?.id, a.id);
  assertEquals((await getUserByIdentifier(sql, " Annie "))?.id, a.id);
  assertEquals((await getUserByIdentifier(sql, "ann@example.org"))?.id, b.id);
  assertEquals(await getUserByIdentifier(sql, "nobody"), undefined);
  assertEquals((await getUserByEmail(sql, "BOB@example.com"))?.id, b.id);
  assertEquals(await getUserByEmail(sql, "annie"), undefined, "email lookup ignores usernames");
  assert((await getUserByIdentifier(sql, "annie"))?.passwordHash.startsWith("$argon2id$"));
});

test("[users] malformed or unknown ids are simply not found", async () => {
  const sql = await freshDb();
  assertEquals(await getUserById(sql, "not-a-uuid"), undefined);
  assertEquals(await getUserById(sql, MISSING), undefined);
  assertEquals(await updateUserProfile(sql, { id: "x", fullName: "Y" }), undefined);
  assertEquals(await updateUserPassword(sql, { id: MISSING, passwordHash: "h" }), false);
  assertEquals(await setUserRole(sql, { id: MISSING, role: "admin" }), undefined);
  assertEquals(await disableUser(sql, { id: MISSING }), undefined);
});

test("[users] profile updates change only the given fields", async () => {
  const sql = await freshDb();
  const u = await createUser(sql, { role: "surveyor", companyName: "Old Co", phone: "555-0101" });
  const renamed = await updateUserProfile(sql, { id: u.id, fullName: "New Name" });
  assertEquals([renamed?.fullName, renamed?.companyName, renamed?.phone], [
    "New Name",
    "Old Co",
    "555-0101",
  ]);
  const cleared = await updateUserProfile(sql, { id: u.id, companyName: null });
  assertEquals([cleared?.fullName, cleared?.companyName, cleared?.phone], [
    "New Name",
    null,
    "555-0101",
  ]);
  const phoned = await updateUserProfile(sql, { id: u.id, phone: "555-0199" });
  assertEquals(phoned?.phone, "555-0199");
});

test("[users] role changes report the previous role", async () => {
  const sql = await freshDb();
  const u = await createUser(sql, { role: "client" });
  const result = await setUserRole(sql, { id: u.id, role: "technician" });
  assertEquals(result?.previousRole, "client");
  assertEquals(result?.user.role, "technician");
  assertEquals((await getUserById(sql, u.id))?.role, "technician");
});

test("[users] the role check refuses unknown roles", async () => {
  const sql = await freshDb();
  const u = await createUser(sql, { role: "client" });
  await assertRejects(() => sql`update users set role = 'superuser' where id = ${u.id}`);
  assertEquals((await getUserById(sql, u.id))?.role, "client");
});

test("[users] disabling keeps the first time and enabling clears it", async () => {
  const sql = await freshDb();
  const u = await createUser(sql, { role: "client" });
  const first = await disableUser(sql, { id: u.id });
  assert(first?.disabledAt);
  const again = await disableUser(sql, { id: u.id });
  assertEquals(again?.disabledAt, first?.disabledAt);
  assertEquals((await enableUser(sql, { id: u.id }))?.disabledAt, null);
});

test("[users] last login is stamped", async () => {
  const sql = await freshDb();
  const u = await createUser(sql, { role: "client" });
  const after = await updateLastLogin(sql, { id: u.id });
  assert(after?.lastLogin && !Number.isNaN(Date.parse(after.lastLogin)));
});

test("[users] the list is paginated, newest first, filterable by role", async () => {
  const sql = await freshDb();
  const made = [];
  for (let i = 0; i < 5; i++) {
    made.push(await createUser(sql, { role: i % 2 ? "surveyor" : "client" }));
  }
  const page1 = await listUsers(sql, { limit: 2, offset: 0 });
  const page2 = await listUsers(sql, { limit: 2, offset: 2 });
  const page3 = await listUsers(sql, { limit: 2, offset: 4 });
  assertEquals(page1.total, 5);
  assertEquals(
    [...page1.users, ...page2.users, ...page3.users].map((u) => u.id).sort(),
    made.map((u) => u.id).sort(),
  );
  assertEquals(page3.users.length, 1);
  assert(page1.users[0].createdAt >= page1.users[1].createdAt);
  const surveyors = await listUsers(sql, { role: "surveyor", limit: 10, offset: 0 });
  assertEquals(surveyors.total, 2);
  assert(surveyors.users.every((u) => u.role === "surveyor"));
  // Past the last page: no one, but the total is still the filter's.
  assertEquals(await listUsers(sql, { limit: 10, offset: 50 }), { users: [], total: 5 });
  assertEquals(
    await listUsers(sql, { role: "surveyor", limit: 2, offset: 2 }),
    { users: [], total: 2 },
  );
});

test("[audit] rows are appended and cannot be rewritten", async () => {
  const sql = await freshDb();
  const u = await createUser(sql, { role: "client" });
  await insertAuditEvent(sql, {
    event: "login_succeeded",
    actorId: u.id,
    targetId: u.id,
    ip: "198.51.100.7",
    userAgent: "x".repeat(2000),
  });
  const [row] = await listAuditEvents(sql, { userId: u.id });
  assertEquals(row.event, "login_succeeded");
  assertEquals(row.ip, "198.51.100.7");
  assertEquals(row.userAgent?.length, 512);
  assert(row.createdAt.endsWith("Z"));
  await assertRejects(() => sql`update audit_log set event = 'logout'`);
  await assertRejects(() => sql`delete from audit_log`);
  assertEquals((await listAuditEvents(sql)).length, 1);
});

test("[password resets] a token is single use, one per user, and expires", async () => {
  const sql = await freshDb();
  const u = await createUser(sql, { role: "client" });
  await insertPasswordResetToken(sql, { userId: u.id, tokenHash: "h1" });
  await insertPasswordResetToken(sql, { userId: u.id, tokenHash: "h2" });
  assertEquals(await getPasswordResetTarget(sql, { tokenHash: "h1" }), undefined, "older voided");
  assertEquals((await getPasswordResetTarget(sql, { tokenHash: "h2" }))?.email, u.email);
  assertEquals(await consumePasswordResetToken(sql, { tokenHash: "h2" }), {
    userId: u.id,
    purpose: "reset",
  });
  assertEquals(await consumePasswordResetToken(sql, { tokenHash: "h2" }), undefined);
  await insertPasswordResetToken(sql, { userId: u.id, tokenHash: "h3" });
  await sql`update password_reset_tokens set expires_at = now() - interval '1 second'`;
  assertEquals(await getPasswordResetTarget(sql, { tokenHash: "h3" }), undefined);
  assertEquals(await consumePasswordResetToken(sql, { tokenHash: "h3" }), undefined);
  assertEquals((await sql`select count(*)::int as n from password_reset_tokens`)[0].n, 0);
});

test("[password resets] a disabled user's token does not work", async () => {
  const sql = await freshDb();
  const u = await createUser(sql, { role: "client" });
  await insertPasswordResetToken(sql, { userId: u.id, tokenHash: "h1" });
  await disableUser(sql, { id: u.id });
  assertEquals(await getPasswordResetTarget(sql, { tokenHash: "h1" }), undefined);
  assertEquals(await consumePasswordResetToken(sql, { tokenHash: "h1" }), undefined);
});

test("[password resets] a new token lasts one hour", async () => {
  const sql = await freshDb();
  const u = await createUser(sql, { role: "client" });
  await insertPasswordResetToken(sql, { userId: u.id, tokenHash: "h1" });
  const [{ minutes }] = await sql<{ minutes: number }[]>`
    select round(extract(epoch from expires_at - created_at) / 60)::int as minutes
    from password_reset_tokens`;
  assertEquals(minutes, 60);
});

test("[password resets] an invitation token says so and lasts a week; a reset after it replaces it", async () => {
  const sql = await freshDb();
  const u = await createUser(sql, { role: "technician" });
  await insertPasswordResetToken(sql, { userId: u.id, tokenHash: "i1", purpose: "invitation" });
  assertEquals((await getPasswordResetTarget(sql, { tokenHash: "i1" }))?.purpose, "invitation");
  const [{ days }] = await sql<{ days: number }[]>`
    select round(extract(epoch from expires_at - created_at) / 86400)::int as days
    from password_reset_tokens`;
  assertEquals(days, 7);
  await insertPasswordResetToken(sql, { userId: u.id, tokenHash: "r1" });
  assertEquals(await getPasswordResetTarget(sql, { tokenHash: "i1" }), undefined);
  assertEquals((await getPasswordResetTarget(sql, { tokenHash: "r1" }))?.purpose, "reset");
  assertEquals(await consumePasswordResetToken(sql, { tokenHash: "r1" }), {
    userId: u.id,
    purpose: "reset",
  });
  await assertRejects(() =>
    sql`insert into password_reset_tokens (token_hash, user_id, purpose, expires_at)
      values ('x', ${u.id}, 'other', now())`
  );
});
