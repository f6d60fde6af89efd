/**
 * /api/forgot-password answers before it looks the email up (so its timing cannot tell a known
 * email from an unknown one) and does the token and email work afterwards, from a stored
 * request that survives a crash. bench/forgot_password.ts measures the timing; these tests
 * check that the email still arrives, once, and only for an enabled account.
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createUser } from "../_auth.ts";
import { countRows, expectJson } from "../_fixtures.ts";
import { listAuditEvents } from "../../db/audit.ts";
import { insertPasswordResetRequest } from "../../db/password_resets.ts";
import { backgroundWork } from "../../lib/background.ts";
import { processPasswordResetRequests } from "../../lib/password_reset.ts";
import { FORGOT_PASSWORD_MESSAGE } from "../../routes/auth_api.ts";

async function resetEmails(t: TestApp, to: string): Promise<string[]> {
  const rows = await t.sql<{ text: string }[]>`
    select text from email_outbox
    where lower(to_address) = lower(${to}) and template = 'password_reset'
    order by created_at`;
  return rows.map((r) => r.text);
}

function forgot(t: TestApp, email: string, headers: Record<string, string> = {}) {
  return t.request("POST", "/api/forgot-password", { body: { email }, headers });
}

/** What a client can see of an answer, but the per-request id and date. */
async function visible(res: Response) {
  const headers = [...res.headers].filter(([name]) => !["date", "x-request-id"].includes(name));
  return { status: res.status, headers, body: await res.text() };
}

test("[forgot password] known, unknown and disabled emails get the same answer; only the enabled account gets the email", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client" });
  const disabled = await createUser(t.sql, { role: "client" });
  await t.sql`update users set disabled_at = now() where id = ${disabled.id}`;
  const answers = [];
  for (const email of [user.email, "nobody@example.com", disabled.email]) {
    answers.push(await visible(await forgot(t, email)));
  }
  assertEquals(answers[0].status, 200);
  assertEquals(JSON.parse(answers[0].body), { message: FORGOT_PASSWORD_MESSAGE });
  assertEquals(answers[1], answers[0]);
  assertEquals(answers[2], answers[0]);

  await backgroundWork(t.deps).settled();
  const [mail, ...more] = await resetEmails(t, user.email);
  assert(mail && /\/reset-password\?token=[A-Za-z0-9_-]{43}/.test(mail), "the reset link arrives");
  assertEquals(more, [], "exactly one email");
  assertEquals(await resetEmails(t, "nobody@example.com"), []);
  assertEquals(await resetEmails(t, disabled.email), []);
  assertEquals(await countRows(t, "password_reset_requests"), 0, "every request handled");
  t.close();
});

test("[forgot password] the audit log still says where each request came from", async () => {
  const t = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const user = await createUser(t.sql, { role: "client" });
  const headers = { "x-forwarded-for": "203.0.113.9", "user-agent": "ResetTester/1.0" };
  await expectJson(await forgot(t, user.email, headers), 200);
  await expectJson(await forgot(t, "nobody@example.com", headers), 200);
  await backgroundWork(t.deps).settled();
  const events = await listAuditEvents(t.sql, { event: "password_reset_requested" });
  // Passes may run at once, so the two rows can land in either order.
  assertEquals(
    events.map((e) => [e.targetId, e.ip, e.userAgent, e.details])
      .sort((a, b) => (a[0] === null ? 1 : 0) - (b[0] === null ? 1 : 0)),
    [
      [user.id, "203.0.113.9", "ResetTester/1.0", {}],
      [null, "203.0.113.9", "ResetTester/1.0", { matched: false }],
    ],
  );
  t.close();
});

test("[forgot password] a request stored before the process died is sent by the next pass", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client" });
  // What an answered request leaves behind when the process dies before its work commits.
  await insertPasswordResetRequest(t.sql, { email: user.email, ip: "192.0.2.1", userAgent: "x" });
  assertEquals(await resetEmails(t, user.email), []);
  // Anyone's next request runs a pass, which takes the leftover too.
  await expectJson(await forgot(t, "somebody-else@example.com"), 200);
  await backgroundWork(t.deps).settled();
  assertEquals((await resetEmails(t, user.email)).length, 1);
  assertEquals(await countRows(t, "password_reset_requests"), 0);
  assertEquals(await countRows(t, "password_reset_tokens"), 1);
  t.close();
});

test("[forgot password] passes running at once handle each request exactly once", async () => {
  const t = await createTestApp();
  const users = [];
  for (let i = 0; i < 6; i++) users.push(await createUser(t.sql, { role: "client" }));
  for (const user of users) {
    await insertPasswordResetRequest(t.sql, { email: user.email, ip: null, userAgent: null });
  }
  const publicUrl = t.deps.config.PUBLIC_URL;
  const handled = await Promise.all([
    processPasswordResetRequests(t.sql, { publicUrl }),
    processPasswordResetRequests(t.sql, { publicUrl }),
    processPasswordResetRequests(t.sql, { publicUrl }),
  ]);
  assertEquals(handled.reduce((a, b) => a + b, 0), 6);
  for (const user of users) assertEquals((await resetEmails(t, user.email)).length, 1);
  assertEquals(await countRows(t, "password_reset_tokens"), 6);
  t.close();
});

test("[forgot password] requests for one account handled at once leave only the newest link live", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client" });
  for (let i = 0; i < 4; i++) {
    await insertPasswordResetRequest(t.sql, { email: user.email, ip: null, userAgent: null });
  }
  const publicUrl = t.deps.config.PUBLIC_URL;
  await Promise.all([1, 2, 3, 4].map(() => processPasswordResetRequests(t.sql, { publicUrl })));
  assertEquals((await resetEmails(t, user.email)).length, 4);
  assertEquals(await countRows(t, "password_reset_tokens"), 1);
  t.close();
});

test("[forgot password] a request left over for longer than a link lasts is recorded, not sent", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client" });
  await insertPasswordResetRequest(t.sql, { email: user.email, ip: null, userAgent: null });
  await t.sql`update password_reset_requests set created_at = now() - interval '61 minutes'`;
  const handled = await processPasswordResetRequests(t.sql, {
    publicUrl: t.deps.config.PUBLIC_URL,
  });
  assertEquals(handled, 1);
  assertEquals(await resetEmails(t, user.email), []);
  assertEquals(await countRows(t, "password_reset_requests"), 0);
  const [event] = await listAuditEvents(t.sql, { event: "password_reset_requested" });
  assertEquals(event.details, { expired: true });
  t.close();
});

test("[forgot password] bad input stores no request", async () => {
  const t = await createTestApp();
  for (const email of ["", "nope", 5, "a\u0000b@example.com", "x".repeat(300) + "@example.com"]) {
    const res = await t.request("POST", "/api/forgot-password", { body: { email } });
    assertEquals(res.status, 400, String(email).slice(0, 20));
    await res.body?.cancel();
  }
  await backgroundWork(t.deps).settled();
  assertEquals(await countRows(t, "password_reset_requests"), 0);
  assertEquals(await countRows(t, "audit_log"), 0);
  t.close();
});
