import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp, testConfig } from "../_helpers.ts";
import { createSignedInUser, signInAs, TEST_PASSWORD } from "../_auth.ts";
import { assertHtml, getPage, islandProps, pageText } from "../_pages.ts";
import { getOutboxEmail, insertOutboxEmail, MAX_ATTEMPTS } from "../../lib/mail/outbox.ts";
import { createSmtpTransport, deliverDueEmails } from "../../lib/mail/sender.ts";
import { OUTBOX_PAGE_SIZE } from "../../db/email_outbox_admin.ts";
import { TEMPLATE_IDS } from "../../lib/mail/render.tsx";
import type { EmailOutboxProps } from "../../islands/EmailOutbox.tsx";

/** An outbox row in a given state, `minutesAgo` old. */
async function addEmail(
  t: TestApp,
  { to = "pat@example.com", template = "password_reset", status = "queued", minutesAgo = 0 }: {
    to?: string;
    template?: string;
    status?: "queued" | "sending" | "sent" | "failed";
    minutesAgo?: number;
  } = {},
): Promise<string> {
  const id = await insertOutboxEmail(t.sql, {
    to,
    subject: `Subject for ${to}`,
    html: "<p>secret-link</p>",
    text: "secret-link",
    template,
  });
  await t.sql`
    update email_outbox set
      status = ${status},
      attempts = ${status === "failed" ? MAX_ATTEMPTS : status === "queued" ? 0 : 1},
      last_error = ${status === "failed" ? "550 Mailbox unavailable" : null},
      created_at = now() - ${minutesAgo} * interval '1 minute',
      sent_at = ${status === "sent" ? t.sql`now() - ${minutesAgo} * interval '1 minute'` : null},
      next_attempt_at = now() + interval '1 hour'
    where id = ${id}`;
  return id;
}

test("[email admin] the templates page lists every email with its trigger, recipient and 30-day count", async () => {
  const t = await createTestApp();
  try {
    const admin = await signInAs(t, "admin");
    await addEmail(t, { status: "sent", minutesAgo: 60 });
    await addEmail(t, { status: "sent", minutesAgo: 60 * 24 * 3 });
    // Older than 30 days, not sent yet, or failed: not counted.
    await addEmail(t, { status: "sent", minutesAgo: 60 * 24 * 31 });
    await addEmail(t, { status: "queued" });
    await addEmail(t, { status: "failed" });
    await addEmail(t, { template: "low_balance", status: "sent", minutesAgo: 5 });
    const res = await getPage(t, "/admin/email-templates", admin);
    assertEquals(res.status, 200);
    assertHtml(res);
    const html = await pageText(res);
    assertStringIncludes(html, "<h1>Email templates</h1>");
    assertStringIncludes(html, "Someone asks for a password reset on /forgot-password");
    const rows = html.match(/<tr><td data-label="Email">[\s\S]*?<\/tr>/g) ?? [];
    assertEquals(rows.length, TEMPLATE_IDS.length, "one row per registered template");
    const reset = rows.find((r) => r.includes('href="#template-password_reset"'))!;
    assertMatch(reset, /href="\/admin\/email-outbox\?template=password_reset"[^>]*>2<\/a>/);
    const low = rows.find((r) => r.includes('href="#template-low_balance"'))!;
    assertMatch(low, />1<\/a>/);
    const delivered = rows.find((r) => r.includes('href="#template-survey_delivered"'))!;
    assertMatch(delivered, />0<\/a>/);
    // The nav says "Emails" and marks it current.
    assertMatch(html, /href="\/admin\/email-templates" aria-current="page"[^>]*>Emails</);
    // An email sent since its last view counts at the next.
    await addEmail(t, { status: "sent", minutesAgo: 1 });
    const again = await pageText(await getPage(t, "/admin/email-templates", admin));
    const resetAgain = (again.match(/<tr><td data-label="Email">[\s\S]*?<\/tr>/g) ?? [])
      .find((r) => r.includes('href="#template-password_reset"'))!;
    assertMatch(resetAgain, /href="\/admin\/email-outbox\?template=password_reset"[^>]*>3<\/a>/);
  } finally {
    t.close();
  }
});

test("[email admin] the outbox lists each message with status, attempts and last error, never the body", async () => {
  const t = await createTestApp();
  try {
    const admin = await signInAs(t, "admin");
    const failed = await addEmail(t, { to: "fail@example.com", status: "failed", minutesAgo: 2 });
    await addEmail(t, { to: "sent@example.com", status: "sent", minutesAgo: 1 });
    const res = await getPage(t, "/admin/email-outbox", admin);
    assertEquals(res.status, 200);
    const html = await pageText(res);
    assertStringIncludes(html, "<h1>Email outbox</h1>");
    assert(!html.includes("secret-link"), "bodies (with their links) never reach the page");
    const { rows } = islandProps<EmailOutboxProps>(html, "EmailOutbox");
    assertEquals(rows.map((r) => [r.toAddress, r.status]), [
      ["sent@example.com", "sent"],
      ["fail@example.com", "failed"],
    ]);
    assertEquals(rows[1].id, failed);
    assertEquals(rows[1].attempts, MAX_ATTEMPTS);
    assertEquals(rows[1].lastError, "550 Mailbox unavailable");
    assertEquals(rows[1].templateName, "Password reset");
    assertStringIncludes(html, "Last error: 550 Mailbox unavailable");
    assertEquals((html.match(/>Retry now</g) ?? []).length, 1, "only the failed one");
    assertStringIncludes(html, 'role="region" aria-label="Outbox table"');
  } finally {
    t.close();
  }
});

test("[email admin] the outbox filters by status and template and pages by keyset", async () => {
  const t = await createTestApp();
  try {
    const admin = await signInAs(t, "admin");
    for (let i = 0; i < OUTBOX_PAGE_SIZE + 2; i++) {
      await addEmail(t, { to: `q${i}@example.com`, status: "queued", minutesAgo: i });
    }
    await addEmail(t, { to: "f@example.com", status: "failed", template: "low_balance" });
    await addEmail(t, { to: "g@example.com", status: "failed", template: "password_reset" });

    const failedOnly = islandProps<EmailOutboxProps>(
      await pageText(await getPage(t, "/admin/email-outbox?status=failed", admin)),
      "EmailOutbox",
    );
    assertEquals(failedOnly.rows.map((r) => r.toAddress).sort(), [
      "f@example.com",
      "g@example.com",
    ]);
    const both = islandProps<EmailOutboxProps>(
      await pageText(
        await getPage(t, "/admin/email-outbox?status=failed&template=low_balance", admin),
      ),
      "EmailOutbox",
    );
    assertEquals(both.rows.map((r) => r.toAddress), ["f@example.com"]);

    const first = await pageText(await getPage(t, "/admin/email-outbox?status=queued", admin));
    const page1 = islandProps<EmailOutboxProps>(first, "EmailOutbox").rows;
    assertEquals(page1.length, OUTBOX_PAGE_SIZE);
    assertEquals(page1[0].toAddress, "q0@example.com");
    const older = first.match(/href="(\/admin\/email-outbox\?status=queued&amp;before=[^"]+)"/);
    assert(older, "an Older link that keeps the filter");
    const second = await pageText(await getPage(t, older[1].replaceAll("&amp;", "&"), admin));
    const page2 = islandProps<EmailOutboxProps>(second, "EmailOutbox").rows;
    assertEquals(page2.map((r) => r.toAddress), [
      `q${OUTBOX_PAGE_SIZE}@example.com`,
      `q${OUTBOX_PAGE_SIZE + 1}@example.com`,
    ]);
    assert(!second.includes(">Older<"), "the last page has no Older link");
    assertStringIncludes(second, ">Newest<");

    // Filters from a hand-edited URL that are not ours are dropped, not a failure.
    const odd = await getPage(t, "/admin/email-outbox?status=lost&template=%3Cb%3E", admin);
    assertEquals(odd.status, 200);
    assertEquals(
      islandProps<EmailOutboxProps>(await pageText(odd), "EmailOutbox").rows.length,
      OUTBOX_PAGE_SIZE,
    );
    // A cursor that is no outbox row starts again from the newest.
    const stale = await getPage(
      t,
      "/admin/email-outbox?status=queued&before=00000000-0000-4000-8000-000000000000",
      admin,
    );
    assertEquals(stale.status, 302);
    assertEquals(stale.headers.get("location"), "/admin/email-outbox?status=queued");
  } finally {
    t.close();
  }
});

test("[email admin] the pages and the retry are for admins only", async () => {
  const t = await createTestApp();
  try {
    const id = await addEmail(t, { status: "failed" });
    for (const role of ["client", "surveyor", "technician"] as const) {
      const cookie = await signInAs(t, role);
      for (const path of ["/admin/email-templates", "/admin/email-outbox"]) {
        assertEquals((await getPage(t, path, cookie)).status, 403, `${role} ${path}`);
      }
      const res = await t.request("POST", `/api/admin/email-outbox/${id}/retry`, { cookie });
      assertEquals(res.status, 403, role);
    }
    const anonymous = await t.request("POST", `/api/admin/email-outbox/${id}/retry`);
    assertEquals(anonymous.status, 401);
    assertEquals((await getOutboxEmail(t.sql, { id }))?.status, "failed", "nothing changed");
  } finally {
    t.close();
  }
});

test("[email admin] Retry now re-queues a failed email for the sender, which delivers it", async () => {
  const t = await createTestApp();
  try {
    const admin = await signInAs(t, "admin");
    const id = await addEmail(t, { to: "retry@example.com", status: "failed" });
    const res = await t.request("POST", `/api/admin/email-outbox/${id}/retry`, { cookie: admin });
    assertEquals(res.status, 200);
    assertStringIncludes(res.headers.get("content-type") ?? "", "application/json");
    const body = await res.json();
    assertEquals(body.message, "Email queued again");
    assertEquals(body.email.status, "queued");
    const row = await getOutboxEmail(t.sql, { id });
    assertEquals(row?.status, "queued");
    assert(row!.nextAttemptAt.getTime() <= Date.now() + 1000, "due now");

    // The ordinary sender picks it up on its next pass.
    const delivered: string[] = [];
    const result = await deliverDueEmails({
      sql: t.sql,
      config: testConfig(),
      transport: { send: (m) => Promise.resolve(void delivered.push(m.to)) },
    });
    assertEquals(result.sent, 1);
    assertEquals(delivered, ["retry@example.com"]);
    assertEquals((await getOutboxEmail(t.sql, { id }))?.status, "sent");

    // Sent now: a second retry is refused and sends nothing twice.
    const again = await t.request("POST", `/api/admin/email-outbox/${id}/retry`, {
      cookie: admin,
    });
    assertEquals(again.status, 409);
    assertMatch((await again.json()).message, /already sent; only failed emails can be retried/);
  } finally {
    t.close();
  }
});

test("[email admin] a retried email that fails again is failed again at once, with the new error", async () => {
  const t = await createTestApp();
  try {
    const admin = await signInAs(t, "admin");
    const id = await addEmail(t, { status: "failed" });
    await t.request("POST", `/api/admin/email-outbox/${id}/retry`, { cookie: admin });
    const result = await deliverDueEmails({
      sql: t.sql,
      config: testConfig(),
      transport: { send: () => Promise.reject(new Error("421 Try again later")) },
    });
    assertEquals(result.failed, 1);
    const row = await getOutboxEmail(t.sql, { id });
    assertEquals(row?.status, "failed");
    assertEquals(row?.attempts, MAX_ATTEMPTS + 1);
    assertEquals(row?.lastError, "421 Try again later");
  } finally {
    t.close();
  }
});

test("[email admin] retry: 404 for unknown or malformed ids, 409 for queued and sending emails", async () => {
  const t = await createTestApp();
  try {
    const admin = await signInAs(t, "admin");
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", "1%00"]) {
      const res = await t.request("POST", `/api/admin/email-outbox/${id}/retry`, {
        cookie: admin,
      });
      assertEquals(res.status, 404, id);
      assertEquals((await res.json()).message, "Email not found");
    }
    for (const status of ["queued", "sending"] as const) {
      const id = await addEmail(t, { status });
      const res = await t.request("POST", `/api/admin/email-outbox/${id}/retry`, {
        cookie: admin,
      });
      assertEquals(res.status, 409, status);
      assertMatch((await res.json()).message, /already waiting to be sent/);
      const row = await getOutboxEmail(t.sql, { id });
      assertEquals(row?.status, status, "unchanged");
    }
  } finally {
    t.close();
  }
});

test("[email admin] an SMTP server that hangs never blocks a request, and its email stays queued", async () => {
  const t = await createTestApp();
  // A server that accepts connections and never says a word: the sender waits on it.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let listening = true;
  const port = (listener.addr as Deno.NetAddr).port;
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })().catch(() => {});
  const transport = createSmtpTransport(`smtp://127.0.0.1:${port}`);
  try {
    const { user, cookie } = await createSignedInUser(t, {
      role: "client",
      email: "stuck@example.com",
    });
    const first = await insertOutboxEmail(t.sql, {
      to: "first@example.com",
      subject: "s",
      html: "h",
      text: "h",
      template: "password_changed",
    });
    // The sender claims the first email and hangs on the silent server.
    const pass = deliverDueEmails({ sql: t.sql, config: testConfig(), transport });
    const connectBy = Date.now() + 10_000;
    while (held.length === 0) {
      assert(Date.now() < connectBy, "the sender connected to the silent server");
      await new Promise((r) => setTimeout(r, 10));
    }

    const started = performance.now();
    const res = await t.request("POST", "/api/user/password", {
      cookie,
      body: { currentPassword: TEST_PASSWORD, newPassword: "a brand new passphrase 42" },
    });
    const elapsed = performance.now() - started;
    assertEquals(res.status, 200);
    assert(elapsed < 2000, `answered in ${Math.round(elapsed)} ms while SMTP hangs`);
    const [queued] = await t.sql<{ status: string }[]>`
      select status from email_outbox where to_address = ${user.email}`;
    assertEquals(queued?.status, "queued", "the new email waits in the outbox");

    // The server drops the connection and goes away (the pooled transport would otherwise
    // connect again and wait out its 30 s greeting timeout): the claimed email is not lost, it
    // waits for a retry.
    listener.close();
    listening = false;
    for (const conn of held) conn.close();
    const result = await pass;
    assertEquals(result.retrying, 1);
    const row = await getOutboxEmail(t.sql, { id: first });
    assertEquals(row?.status, "queued");
    assert(row?.lastError, "the error is recorded");
  } finally {
    transport.close?.();
    if (listening) listener.close();
    await accepting;
    t.close();
  }
});
