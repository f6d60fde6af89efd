import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { resetDatabase, test, testConfig, testDatabase } from "../_helpers.ts";
import { decodeQuotedPrintable, startSmtp } from "../_smtp_fake.ts";
import { queuePasswordResetEmail } from "../../lib/mail/emails.ts";
import {
  claimDueEmails,
  getOutboxEmail,
  IN_DOUBT_NOTE,
  insertOutboxEmail,
  markEmailFailed,
  retryDelayMs,
} from "../../lib/mail/outbox.ts";
import {
  createSmtpTransport,
  deliverDueEmails,
  type MailTransport,
  startOutboxSender,
} from "../../lib/mail/sender.ts";
import type { Sql } from "../../db/client.ts";

async function freshDb() {
  const db = await testDatabase();
  await resetDatabase(db.sql);
  return db.sql;
}

const from = "Meridian <no-reply@meridian.test>";

test("[mail] a queued reset email is delivered over SMTP and marked sent", async () => {
  const sql = await freshDb();
  const smtp = await startSmtp();
  const config = testConfig({ SMTP_URL: smtp.url, MAIL_FROM: from });
  const id = await queuePasswordResetEmail(sql, {
    to: "pat@example.com",
    name: "Pat Lee",
    resetUrl: "http://localhost/reset-password?token=abc123",
  });
  const transport = createSmtpTransport(smtp.url);
  try {
    const result = await deliverDueEmails({ sql, config, transport });
    assertEquals(result, { sent: 1, retrying: 0, failed: 0 });
    assertEquals(smtp.received.length, 1);
    const message = smtp.received[0];
    assertEquals(message.from, "no-reply@meridian.test");
    assertEquals(message.to, ["pat@example.com"]);
    assertStringIncludes(message.raw, "Subject: Reset your Meridian password");
    assertStringIncludes(message.raw, "multipart/alternative");
    assertStringIncludes(decodeQuotedPrintable(message.raw), "reset-password?token=abc123");
    const row = await getOutboxEmail(sql, { id });
    assertEquals(row?.status, "sent");
    assertEquals(row?.attempts, 1);
    assert(row?.sentAt instanceof Date);
    // Nothing is left to send.
    assertEquals(await deliverDueEmails({ sql, config, transport }), {
      sent: 0,
      retrying: 0,
      failed: 0,
    });
    assertEquals(smtp.received.length, 1);
  } finally {
    transport.close?.();
    await smtp.close();
  }
});

test("[mail] a refused message stays queued with the error and a later retry time", async () => {
  const sql = await freshDb();
  const smtp = await startSmtp({ reject: true });
  const config = testConfig({ SMTP_URL: smtp.url, MAIL_FROM: from });
  const id = await queuePasswordResetEmail(sql, {
    to: "pat@example.com",
    name: "Pat",
    resetUrl: "http://localhost/reset-password?token=t",
  });
  const transport = createSmtpTransport(smtp.url);
  try {
    const result = await deliverDueEmails({ sql, config, transport });
    assertEquals(result, { sent: 0, retrying: 1, failed: 0 });
    const row = await getOutboxEmail(sql, { id });
    assertEquals(row?.status, "queued");
    assertEquals(row?.attempts, 1);
    assertMatch(row?.lastError ?? "", /Mailbox unavailable/);
    assert(row!.nextAttemptAt.getTime() > Date.now() + 20_000, "retry is pushed into the future");
    // Not due yet, so the next pass leaves it alone.
    assertEquals((await deliverDueEmails({ sql, config, transport })).retrying, 0);
    assertEquals((await getOutboxEmail(sql, { id }))?.attempts, 1);
  } finally {
    transport.close?.();
    await smtp.close();
  }
});

test("[mail] an unreachable SMTP server never loses the row; it fails only after the last attempt", async () => {
  const sql = await freshDb();
  // A port nobody listens on: grab one, then close it.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const url = `smtp://127.0.0.1:${port}`;
  const config = testConfig({ SMTP_URL: url, MAIL_FROM: from });
  const id = await insertOutboxEmail(sql, {
    to: "x@example.com",
    subject: "s",
    html: "<p>h</p>",
    text: "h",
    template: "password_changed",
  });
  const transport = createSmtpTransport(url);
  const maxAttempts = 3;
  try {
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      // Make the row due again instead of waiting out the backoff.
      await sql`update email_outbox set next_attempt_at = now() where id = ${id}`;
      const result = await deliverDueEmails({ sql, config, transport }, { maxAttempts });
      const row = await getOutboxEmail(sql, { id });
      assertEquals(row?.attempts, attempt);
      assertEquals(row?.status, attempt < maxAttempts ? "queued" : "failed");
      assertEquals(result.failed, attempt < maxAttempts ? 0 : 1);
      assert(row?.lastError, "the error is recorded");
    }
    await sql`update email_outbox set next_attempt_at = now() where id = ${id}`;
    assertEquals((await claimDueEmails(sql)).length, 0, "a failed row is not retried");
    assertEquals((await getOutboxEmail(sql, { id }))?.status, "failed");
  } finally {
    transport.close?.();
  }
});

test("[mail] backoff doubles from 30 seconds and is capped at an hour", () => {
  assertEquals(retryDelayMs(1), 30_000);
  assertEquals(retryDelayMs(2), 60_000);
  assertEquals(retryDelayMs(3), 120_000);
  assertEquals(retryDelayMs(20), 60 * 60_000);
});

test("[mail] a row left 'sending' by a crashed sender is picked up once its lease lapses", async () => {
  const sql = await freshDb();
  const id = await insertOutboxEmail(sql, {
    to: "x@example.com",
    subject: "s",
    html: "<p>h</p>",
    text: "h",
    template: "password_changed",
  });
  const [claimed] = await claimDueEmails(sql, { leaseMs: 60_000 });
  assertEquals(claimed.id, id);
  assertEquals(claimed.status, "sending");
  // While the lease runs, nobody else takes it.
  assertEquals((await claimDueEmails(sql)).length, 0);
  await sql`update email_outbox set next_attempt_at = now() - interval '1 second' where id = ${id}`;
  const [again] = await claimDueEmails(sql);
  assertEquals(again.id, id);
  assertEquals(again.attempts, 2);
  // A failure report for a row someone else holds is ignored rather than clobbering it.
  await sql`update email_outbox set status = 'sent' where id = ${id}`;
  assertEquals(await markEmailFailed(sql, { id, error: "late" }), undefined);
  assertEquals((await getOutboxEmail(sql, { id }))?.status, "sent");
});

test("[mail] two senders claiming at once never get the same row", async () => {
  const sql = await freshDb();
  for (let i = 0; i < 6; i++) {
    await insertOutboxEmail(sql, {
      to: `u${i}@example.com`,
      subject: "s",
      html: "h",
      text: "h",
      template: "password_changed",
    });
  }
  const [a, b] = await Promise.all([
    claimDueEmails(sql, { limit: 4 }),
    claimDueEmails(sql, { limit: 4 }),
  ]);
  const ids = [...a, ...b].map((r) => r.id);
  assertEquals(new Set(ids).size, ids.length);
  assertEquals(ids.length, 6);
});

test("[mail] startOutboxSender delivers queued mail in the background and stops cleanly", async () => {
  const sql = await freshDb();
  const smtp = await startSmtp();
  const config = testConfig({ SMTP_URL: smtp.url, MAIL_FROM: from });
  await queuePasswordResetEmail(sql, {
    to: "a@example.com",
    name: "A",
    resetUrl: "http://localhost/reset-password?token=one",
  });
  const stop = startOutboxSender({ sql, config }, { intervalMs: 20 });
  try {
    await smtp.waitFor(1);
    await queuePasswordResetEmail(sql, {
      to: "b@example.com",
      name: "B",
      resetUrl: "http://localhost/reset-password?token=two",
    });
    await smtp.waitFor(2);
    assertEquals(smtp.received.map((m) => m.to[0]).sort(), ["a@example.com", "b@example.com"]);
  } finally {
    await stop();
    await smtp.close();
  }
  const [{ count }] = await sql<{ count: number }[]>`
    select count(*)::int as count from email_outbox where status = 'sent'`;
  assertEquals(count, 2);
});

test("[mail] without SMTP the email stays readable in the outbox", async () => {
  const sql = await freshDb();
  const id = await queuePasswordResetEmail(sql, {
    to: "pat@example.com",
    name: "Pat",
    resetUrl: "http://localhost/reset-password?token=readable",
  });
  const row = await getOutboxEmail(sql, { id });
  assertEquals(row?.status, "queued");
  assertEquals(row?.template, "password_reset");
  assertStringIncludes(row?.text ?? "", "http://localhost/reset-password?token=readable");
  assertStringIncludes(row?.html ?? "", "http://localhost/reset-password?token=readable");
});

test("[mail] an email queued in a rolled-back transaction is never stored", async () => {
  const sql = await freshDb();
  await sql.begin(async (tx) => {
    await queuePasswordResetEmail(tx, {
      to: "gone@example.com",
      name: "Gone",
      resetUrl: "http://localhost/reset-password?token=x",
    });
    await tx`select 1/0`;
  }).catch(() => {});
  const [{ count }] = await sql<{ count: number }[]>`
    select count(*)::int as count from email_outbox`;
  assertEquals(count, 0);
});

test("[mail] a transport that throws is recorded per row; other rows still go out", async () => {
  const sql = await freshDb();
  const config = testConfig({ MAIL_FROM: from });
  for (const to of ["ok1@example.com", "bad@example.com", "ok2@example.com"]) {
    await insertOutboxEmail(sql, { to, subject: "s", html: "h", text: "h", template: "t" });
  }
  const delivered: string[] = [];
  const transport: MailTransport = {
    send(message) {
      if (message.to === "bad@example.com") return Promise.reject(new Error("boom"));
      delivered.push(message.to);
      assertEquals(message.from, from);
      assertMatch(message.messageId, /^<[0-9a-f-]+@localhost>$/);
      return Promise.resolve();
    },
  };
  const result = await deliverDueEmails({ sql, config, transport });
  assertEquals(result, { sent: 2, retrying: 1, failed: 0 });
  assertEquals(delivered.sort(), ["ok1@example.com", "ok2@example.com"]);
});

/**
 * `sql`, except that while `fails(text)` holds for a statement's text that statement rejects
 * the way a dropped connection does (the database restarting under it).
 */
function flakySql(sql: Sql, fails: (text: string) => boolean): Sql {
  return new Proxy(sql, {
    apply(target, thisArg, args: unknown[]) {
      const strings = args[0];
      if (Array.isArray(strings) && "raw" in strings && fails(strings.join("?"))) {
        return Promise.reject(
          Object.assign(new Error("write CONNECTION_CLOSED 127.0.0.1:5432"), {
            code: "CONNECTION_CLOSED",
          }),
        );
      }
      return Reflect.apply(target, thisArg, args);
    },
  }) as Sql;
}

async function insertEmail(sql: Sql, to = "pat@example.com") {
  return await insertOutboxEmail(sql, {
    to,
    subject: "Your survey is booked",
    html: "<p>h</p>",
    text: "h",
    template: "password_changed",
  });
}

test("[mail] a database error while recording a delivered message does not deliver it twice", async () => {
  const sql = await freshDb();
  const smtp = await startSmtp();
  const config = testConfig({ SMTP_URL: smtp.url, MAIL_FROM: from });
  const id = await insertEmail(sql);
  const transport = createSmtpTransport(smtp.url);
  let isDown = true;
  const flaky = flakySql(sql, (text) => isDown && /set\s+status\s*=\s*'sent'/.test(text));
  try {
    const first = await deliverDueEmails({ sql: flaky, config, transport });
    assertEquals(first.sent, 1, "the mail server accepted it");
    assertEquals(smtp.received.length, 1);
    // The database is back; time passes (any backoff or lease is over) and passes run again.
    isDown = false;
    for (let pass = 0; pass < 3; pass++) {
      await sql`update email_outbox set next_attempt_at = now() where id = ${id}`;
      await deliverDueEmails({ sql: flaky, config, transport });
    }
    assertEquals(smtp.received.length, 1, "the recipient got the email once");
    const row = await getOutboxEmail(sql, { id });
    assertEquals(row?.status, "sent");
    assertEquals(row?.attempts, 1);
  } finally {
    transport.close?.();
    await smtp.close();
  }
});

test("[mail] while the database stays down after a hand-off, nothing is claimed or sent again", async () => {
  const sql = await freshDb();
  const smtp = await startSmtp();
  const config = testConfig({ SMTP_URL: smtp.url, MAIL_FROM: from });
  const id = await insertEmail(sql);
  const real = createSmtpTransport(smtp.url);
  let isDown = false;
  // The database goes away right after the mail server accepted the message.
  const transport: MailTransport = {
    async send(message) {
      await real.send(message);
      isDown = true;
    },
  };
  const flaky = flakySql(sql, () => isDown);
  try {
    assertEquals((await deliverDueEmails({ sql: flaky, config, transport })).sent, 1);
    const error = await deliverDueEmails({ sql: flaky, config, transport }).then(
      () => undefined,
      (e) => e,
    );
    assert(error instanceof Error, "a pass that cannot record what it knows claims nothing");
    isDown = false;
    await sql`update email_outbox set next_attempt_at = now() where id = ${id}`;
    await deliverDueEmails({ sql: flaky, config, transport });
    assertEquals(smtp.received.length, 1);
    assertEquals((await getOutboxEmail(sql, { id }))?.status, "sent");
  } finally {
    real.close?.();
    await smtp.close();
  }
});

test("[mail] every try of a message carries the same Message-ID, also after an unknown outcome", async () => {
  const sql = await freshDb();
  const smtp = await startSmtp();
  const id = await insertEmail(sql);
  const seen: string[] = [];
  // The connection drops after the data went out: nobody knows whether it was delivered.
  const unknown: MailTransport = {
    send(message) {
      seen.push(message.messageId);
      return Promise.reject(new Error("Connection closed unexpectedly"));
    },
  };
  const firstConfig = testConfig({ MAIL_FROM: from, PUBLIC_URL: "https://meridian.example" });
  assertEquals(
    (await deliverDueEmails({ sql, config: firstConfig, transport: unknown })).retrying,
    1,
  );
  // The retry runs on another instance, whose public address differs.
  await sql`update email_outbox set next_attempt_at = now() where id = ${id}`;
  const secondConfig = testConfig({
    SMTP_URL: smtp.url,
    MAIL_FROM: from,
    PUBLIC_URL: "https://www.meridian.example",
  });
  const transport = createSmtpTransport(smtp.url);
  try {
    assertEquals((await deliverDueEmails({ sql, config: secondConfig, transport })).sent, 1);
    assertEquals(seen, [`<${id}@meridian.example>`]);
    assertStringIncludes(smtp.received[0].raw, `Message-ID: <${id}@meridian.example>`);
    assertEquals((await getOutboxEmail(sql, { id }))?.messageId, `<${id}@meridian.example>`);
  } finally {
    transport.close?.();
    await smtp.close();
  }
});

test("[mail] a row whose sender died mid-send is retried with the same Message-ID and marked in doubt", async () => {
  const sql = await freshDb();
  const id = await insertEmail(sql);
  const [first] = await claimDueEmails(sql, { messageDomain: "meridian.example" });
  // The process dies here; the lease lapses.
  await sql`update email_outbox set next_attempt_at = now() - interval '1 second' where id = ${id}`;
  const [again] = await claimDueEmails(sql, { messageDomain: "elsewhere.example" });
  assertEquals(again.messageId, first.messageId);
  assert(again.attemptId && again.attemptId !== first.attemptId, "a new claim, a new attempt id");
  assertEquals(again.lastError, IN_DOUBT_NOTE);
  // The first try's late failure report no longer touches the row the second try holds.
  assertEquals(
    await markEmailFailed(sql, { id, attemptId: first.attemptId, error: "late" }),
    undefined,
  );
  assertEquals((await getOutboxEmail(sql, { id }))?.status, "sending");
});

test("[mail] a pass sends several messages at once, bounded, over a few pooled connections", async () => {
  const sql = await freshDb();
  const config = testConfig({ MAIL_FROM: from });
  for (let i = 0; i < 12; i++) await insertEmail(sql, `u${i}@example.com`);
  let inFlight = 0;
  let most = 0;
  const slow: MailTransport = {
    async send() {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
    },
  };
  const result = await deliverDueEmails({ sql, config, transport: slow }, { concurrency: 4 });
  assertEquals(result.sent, 12);
  assertEquals(most, 4, "four at a time, never more");

  const smtp = await startSmtp();
  const transport = createSmtpTransport(smtp.url, { maxConnections: 3 });
  try {
    for (let i = 0; i < 12; i++) await insertEmail(sql, `v${i}@example.com`);
    assertEquals((await deliverDueEmails({ sql, config, transport })).sent, 12);
    assertEquals(smtp.received.length, 12);
    assert(smtp.connections <= 3, `12 messages over ${smtp.connections} connections`);
  } finally {
    transport.close?.();
    await smtp.close();
  }
});

test("[mail] a restarted sender retries its own in-doubt emails at once; another sender's wait", async () => {
  const sql = await freshDb();
  const smtp = await startSmtp();
  const config = testConfig({ SMTP_URL: smtp.url, MAIL_FROM: from });
  const mine = await insertEmail(sql, "mine@example.com");
  await claimDueEmails(sql, { limit: 1, worker: "host-a:8000", messageDomain: "localhost" });
  const theirs = await insertEmail(sql, "theirs@example.com");
  await claimDueEmails(sql, { limit: 1, worker: "host-b:8000", messageDomain: "localhost" });
  // host-a's process died mid-send and starts again.
  const { log } = console;
  console.log = () => {};
  const stop = startOutboxSender({ sql, config }, { intervalMs: 10, worker: "host-a:8000" });
  try {
    const timeout = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 3000));
    assertEquals(await Promise.race([smtp.waitFor(1).then(() => "sent"), timeout]), "sent");
  } finally {
    await stop();
    console.log = log;
    await smtp.close();
  }
  assertEquals(smtp.received.map((m) => m.to[0]), ["mine@example.com"]);
  assertStringIncludes(smtp.received[0].raw, `Message-ID: <${mine}@localhost>`);
  const row = await getOutboxEmail(sql, { id: mine });
  assertEquals([row?.status, row?.attempts], ["sent", 2]);
  assertEquals((await getOutboxEmail(sql, { id: theirs }))?.status, "sending");
});
