/**
 * A local SMTP server for tests (smtp-server on port 0): records what it receives, or refuses
 * every message with `reject`. `delayMs` holds each answer to DATA that long, like a remote
 * server; `connections` counts the SMTP connections opened. Used by the mail sender tests, the
 * email wording tests and bench/mail_sender.ts.
 */
import { SMTPServer } from "smtp-server";

/** One message the fake SMTP server received. */
export interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A local SMTP server that records what it receives; `reject` makes it refuse messages. */
export async function startSmtp({ reject = false, delayMs = 0 } = {}) {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const stats = { connections: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onConnect(_session, callback) {
      stats.connections++;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Uint8Array[] = [];
      stream.on("data", (c: Uint8Array) => chunks.push(c));
      stream.on("end", async () => {
        if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
        if (reject) {
          const err = Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 });
          return callback(err);
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: new TextDecoder().decode(
            chunks.reduce((all, c) => new Uint8Array([...all, ...c]), new Uint8Array()),
          ),
        });
        callback();
        waiters.splice(0).forEach((w) => w());
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** SMTP connections opened so far. */
    get connections() {
      return stats.connections;
    },
    /** Resolves once `n` messages have arrived; throws after `timeoutMs` without them. */
    async waitFor(n: number, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new Error(`${received.length} of ${n} emails arrived in ${timeoutMs} ms`);
        }
        let timer: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((r) => {
          waiters.push(r);
          timer = setTimeout(r, left);
        });
        clearTimeout(timer);
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Undoes quoted-printable body encoding (soft line breaks and =XX escapes). */
export function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(
    /=([0-9A-F]{2})/g,
    (_, hex) => String.fromCharCode(parseInt(hex, 16)),
  );
}
