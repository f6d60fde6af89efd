/**
 * Exactly-once email under faults (issue 20): the SMTP server accepts a message, the database
 * fails when the sender records it, and the process restarts before the database is back. The
 * restart is a fresh copy of lib/mail/sender.ts (its own module instance, so nothing the dead
 * process held in memory survives) over the same KV file, reopened.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { resetDatabase, test, testConfig, testDatabase } from "../_helpers.ts";
import { startSmtp } from "../_smtp_fake.ts";
import { faultyKv } from "../_kv_faults.ts";
import { keys, openKv } from "../../db/kv.ts";
import type { Sql } from "../../db/client.ts";
import { getOutboxEmail, insertOutboxEmail } from "../../lib/mail/outbox.ts";
import { getMailHandoff } from "../../lib/mail/handoff.ts";
import type * as SenderModule from "../../lib/mail/sender.ts";

const from = "Meridian <no-reply@meridian.test>";
let instances = 0;

/** lib/mail/sender.ts as a process that just started would load it: no memory of earlier runs. */
async function freshSender(): Promise<typeof SenderModule> {
  return await import(`../../lib/mail/sender.ts?process=${++instances}`);
}

/** A database that rejects, as a restarting Postgres does, every statement `isDown` picks. */
function flakySql(sql: Sql, isDown: (text: string) => boolean): Sql {
  return new Proxy(sql, {
    apply(target, thisArg, args: unknown[]) {
      const strings = args[0];
      if (Array.isArray(strings) && "raw" in strings && isDown(strings.join("?"))) {
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

async function setUp() {
  const { sql } = await testDatabase();
  await resetDatabase(sql);
  const dir = await Deno.makeTempDir({ prefix: "mail-handoff-" });
  const id = await insertOutboxEmail(sql, {
    to: "pat@example.com",
    subject: "Your survey is booked",
    html: "<p>Booked</p>",
    text: "Booked",
    template: "survey_booked",
  });
  return { sql, kvPath: `${dir}/kv.sqlite3`, dir, id };
}

function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const { log, error } = console;
  console.log = console.error = () => {};
  return fn().finally(() => {
    console.log = log;
    console.error = error;
  });
}

test("[mail fault] accepted by SMTP, database down, process restarted: delivered once, row ends sent", async () => {
  const { sql, kvPath, dir, id } = await setUp();
  const smtp = await startSmtp();
  const config = testConfig({ SMTP_URL: smtp.url, MAIL_FROM: from });
  const worker = "host-a:8000";
  let isDown = false;
  try {
    // First process: the server accepts the message; then the database goes away.
    const first = await freshSender();
    const kv1 = await openKv(kvPath);
    const transport1 = first.createSmtpTransport(smtp.url);
    const accepting: SenderModule.MailTransport = {
      async send(message) {
        await transport1.send(message);
        isDown = true;
      },
    };
    const flaky = flakySql(sql, () => isDown);
    const pass = await quietly(() =>
      first.deliverDueEmails({ sql: flaky, kv: kv1, config, transport: accepting }, { worker })
    );
    assertEquals(pass.sent, 1);
    assertEquals(smtp.received.length, 1);
    assertEquals((await getMailHandoff(kv1, { id }))?.state, "accepted");
    // The process dies: its memory and its KV handle are gone.
    transport1.close?.();
    kv1.close();

    // Second process, same KV file, while the database is still down: it sends nothing.
    const second = await freshSender();
    const kv2 = await openKv(kvPath);
    const transport2 = second.createSmtpTransport(smtp.url);
    try {
      const failed = await quietly(() =>
        second.deliverDueEmails({ sql: flaky, kv: kv2, config, transport: transport2 }, {
          worker,
        })
      ).then(() => undefined, (e) => e);
      assert(failed instanceof Error, "a pass that cannot record the hand-off claims nothing");
      // The database is back; the lease this worker held is over (as a restart releases it).
      isDown = false;
      for (let i = 0; i < 3; i++) {
        await sql`update email_outbox set next_attempt_at = now() where id = ${id}`;
        await quietly(() =>
          second.deliverDueEmails({ sql: flaky, kv: kv2, config, transport: transport2 }, {
            worker,
          })
        );
      }
      assertEquals(smtp.received.length, 1, "the recipient got the email once");
      const row = await getOutboxEmail(sql, { id });
      assertEquals(row?.status, "sent");
      assertEquals(row?.attempts, 1);
      assertEquals(await getMailHandoff(kv2, { id }), undefined, "KV forgets it once recorded");
    } finally {
      transport2.close?.();
      kv2.close();
    }
  } finally {
    await smtp.close();
    await Deno.remove(dir, { recursive: true });
  }
});

test("[mail fault] a restarted sender that claims a row KV records as accepted marks it sent without sending", async () => {
  const { sql, kvPath, dir, id } = await setUp();
  const smtp = await startSmtp();
  const config = testConfig({ SMTP_URL: smtp.url, MAIL_FROM: from });
  try {
    // What a dead process left: the row claimed and 'sending', KV saying the server took it.
    const [claimed] = await sql<{ attemptId: string; messageId: string }[]>`
      update email_outbox set status = 'sending', attempts = 1, attempt_id = gen_random_uuid(),
        message_id = '<' || id::text || '@localhost>', claimed_by = 'host-a:8000',
        next_attempt_at = now() + interval '5 minutes'
      where id = ${id} returning attempt_id, message_id`;
    const kv = await openKv(kvPath);
    await kv.set(keys.mailHandoff(id), {
      state: "accepted",
      attemptId: claimed.attemptId,
      messageId: claimed.messageId,
      at: Date.now(),
    });
    const sender = await freshSender();
    const stop = sender.startOutboxSender(
      { sql, kv, config },
      { intervalMs: 10, worker: "host-a:8000" },
    );
    try {
      for (let i = 0; i < 200 && (await getOutboxEmail(sql, { id }))?.status !== "sent"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      await quietly(stop);
      kv.close();
    }
    assertEquals((await getOutboxEmail(sql, { id }))?.status, "sent");
    assertEquals(smtp.received.length, 0, "accepted once is never sent again");
  } finally {
    await smtp.close();
    await Deno.remove(dir, { recursive: true });
  }
});

test("[mail fault] when KV cannot note the hand-off, nothing is sent and the row is retried later", async () => {
  const { sql, kvPath, dir, id } = await setUp();
  const smtp = await startSmtp();
  const config = testConfig({ SMTP_URL: smtp.url, MAIL_FROM: from });
  const kv = await openKv(kvPath);
  let isLocked = true;
  const locked = faultyKv(
    kv,
    (key) => isLocked && key[0] === keys.mailHandoffsPrefix()[0] ? "locked" : null,
  );
  const sender = await freshSender();
  const transport = sender.createSmtpTransport(smtp.url);
  try {
    // Another process holds the KV file: the claimed row is not handed over.
    const pass = await quietly(() =>
      sender.deliverDueEmails({ sql, kv: locked, config, transport })
    );
    assertEquals(pass, { sent: 0, retrying: 1, failed: 0 });
    assertEquals(smtp.received.length, 0);
    const row = await getOutboxEmail(sql, { id });
    assertEquals(row?.status, "queued");
    assertMatch(row?.lastError ?? "", /^Not sent: the hand-off could not be noted in KV/);

    isLocked = false;
    await sql`update email_outbox set next_attempt_at = now() where id = ${id}`;
    assertEquals(
      (await quietly(() => sender.deliverDueEmails({ sql, kv: locked, config, transport }))).sent,
      1,
    );
    assertEquals(smtp.received.length, 1);
    assertStringIncludes(smtp.received[0].raw, `Message-ID: <${id}@localhost>`);
    assertEquals((await getOutboxEmail(sql, { id }))?.status, "sent");
  } finally {
    transport.close?.();
    kv.close();
    await smtp.close();
    await Deno.remove(dir, { recursive: true });
  }
});

test("[mail fault] a claim whose answer was lost in a database restart is sent as soon as the database is back", async () => {
  const { sql, kvPath, dir, id } = await setUp();
  const smtp = await startSmtp();
  const config = testConfig({ SMTP_URL: smtp.url, MAIL_FROM: from });
  const kv = await openKv(kvPath);
  let loseNextClaim = true;
  // The claim commits, then the connection drops before its answer arrives.
  const lossy = new Proxy(sql, {
    apply(target, self, args: unknown[]) {
      const result = Reflect.apply(target, self, args);
      const text = Array.isArray(args[0]) ? (args[0] as string[]).join("?") : "";
      if (loseNextClaim && /status = 'sending',\s+attempts = attempts \+ 1/.test(text)) {
        loseNextClaim = false;
        return Promise.resolve(result).then(() =>
          Promise.reject(
            Object.assign(new Error("write CONNECTION_CLOSED 127.0.0.1:5432"), {
              code: "CONNECTION_CLOSED",
            }),
          )
        );
      }
      return result;
    },
  }) as Sql;
  const sender = await freshSender();
  const stop = sender.startOutboxSender(
    { sql: lossy, kv, config },
    { intervalMs: 10, worker: "host-a:8000" },
  );
  try {
    const outcome = await quietly(() => smtp.waitFor(1, 5000).then(() => "sent", () => "timeout"));
    assertEquals(outcome, "sent", "sent within seconds, not after its 5-minute lease");
    assertEquals(loseNextClaim, false, "the first claim's answer was lost");
  } finally {
    await quietly(stop);
    kv.close();
    await smtp.close();
    await Deno.remove(dir, { recursive: true });
  }
  assertEquals(smtp.received.length, 1);
  const row = await getOutboxEmail(sql, { id });
  assertEquals([row?.status, row?.attempts], ["sent", 2]);
});
