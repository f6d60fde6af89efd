/**
 * Email throughput: messages/s from the outbox to a local SMTP server (tests/_smtp_fake.ts on
 * loopback, each DATA answered after BENCH_SMTP_DELAY_MS, default 30 ms, standing in for a
 * remote server's round trips). Runs the same backlog twice:
 *
 *  - "one at a time": the old sender (one message and one SMTP connection per message, in turn);
 *  - "pooled": the sender as it is (nodemailer pool, MAIL_CONCURRENCY messages at once);
 *  - "pooled, hand-offs in KV": the same with the app's Deno KV (a file, as main.ts opens it),
 *    where each message's hand-off is noted before and after the SMTP accept (issue 20).
 *
 *   deno run -A bench/mail_sender.ts
 *   DATABASE_URL=postgres://… deno run -A bench/mail_sender.ts
 *
 * With DATABASE_URL it works in a scratch database next to the given one and drops it at the
 * end. BENCH_MESSAGES sets the backlog (default 300). Prints figures; asserts nothing.
 */
import { openDatabase } from "../db/client.ts";
import { openKv } from "../db/kv.ts";
import { migrate } from "../db/migrate.ts";
import { insertOutboxEmail } from "../lib/mail/outbox.ts";
import {
  createSmtpTransport,
  deliverDueEmails,
  MAIL_CONCURRENCY,
  type MailTransport,
} from "../lib/mail/sender.ts";
import { startSmtp } from "../tests/_smtp_fake.ts";
import { scratchDatabase } from "./_server.ts";

const MESSAGES = Number(Deno.env.get("BENCH_MESSAGES") ?? 300);
const DELAY_MS = Number(Deno.env.get("BENCH_SMTP_DELAY_MS") ?? 30);
// About the size of a lead email: a few KB of HTML and its text part.
const HTML = `<p>${"A new survey request near you. ".repeat(150)}</p>`;
const TEXT = "A new survey request near you. ".repeat(60);

const scratch = await scratchDatabase("meridian_bench_mail");
const db = await openDatabase(
  { DATA_DIR: ".data/bench", DATABASE_URL: scratch.url },
  { memory: true },
);
const config = {
  SMTP_URL: "",
  MAIL_FROM: "Meridian <no-reply@meridian.test>",
  PUBLIC_URL: "http://localhost",
};

async function run(
  label: string,
  transportFor: (url: string) => MailTransport,
  concurrency: number,
  kv?: Deno.Kv,
) {
  await db.sql`delete from email_outbox`;
  for (let i = 0; i < MESSAGES; i++) {
    await insertOutboxEmail(db.sql, {
      to: `surveyor${i}@bench.test`,
      subject: "New survey request",
      html: HTML,
      text: TEXT,
      template: "lead_offer",
    });
  }
  const smtp = await startSmtp({ delayMs: DELAY_MS });
  const transport = transportFor(smtp.url);
  const start = performance.now();
  let sent = 0;
  try {
    while (true) {
      const r = await deliverDueEmails(
        { sql: db.sql, kv, config: { ...config, SMTP_URL: smtp.url }, transport },
        { concurrency },
      );
      sent += r.sent;
      if (r.sent + r.retrying + r.failed === 0) break;
    }
  } finally {
    transport.close?.();
  }
  const seconds = (performance.now() - start) / 1000;
  await smtp.close();
  console.log(
    `  ${label.padEnd(34)} ${sent}/${MESSAGES} sent in ${seconds.toFixed(2)} s: ` +
      `${(sent / seconds).toFixed(1)} messages/s over ${smtp.connections} SMTP connection(s)`,
  );
}

try {
  await migrate(db.sql);
  console.log(
    `  ${MESSAGES} messages, SMTP answers DATA after ${DELAY_MS} ms, database: ${
      scratch.url ? "Postgres" : "PGlite"
    }`,
  );
  await run("one at a time (before)", (url) => createSmtpTransport(url, { pool: false }), 1);
  await run(
    `pooled, ${MAIL_CONCURRENCY} at once, no KV`,
    (url) => createSmtpTransport(url),
    MAIL_CONCURRENCY,
  );
  const kvDir = await Deno.makeTempDir({ prefix: "bench-mail-kv-" });
  const kv = await openKv(`${kvDir}/kv.sqlite3`);
  try {
    await run(
      `pooled, hand-offs in KV (now)`,
      (url) => createSmtpTransport(url),
      MAIL_CONCURRENCY,
      kv,
    );
  } finally {
    kv.close();
    await Deno.remove(kvDir, { recursive: true });
  }
} finally {
  await db.close();
  await scratch.drop();
}
