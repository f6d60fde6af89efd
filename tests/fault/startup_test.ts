/**
 * Starting while Postgres is down: the server says what it waits for, waits a bounded time
 * (DATABASE_WAIT_SECONDS), then stops with one line and a failure exit code; and
 * `waitForPostgres` carries on as soon as Postgres answers.
 */
import postgres from "postgres";
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { PostgresStartError, waitForPostgres } from "../../db/client.ts";
import { DENO_RUN } from "../_deno.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const url = Deno.env.get("DATABASE_URL") || undefined;

function test(name: string, fn: () => Promise<void>, { needsPostgres = false } = {}): void {
  Deno.test({
    name,
    fn,
    ignore: needsPostgres && !url,
    sanitizeResources: false,
    sanitizeOps: false,
  });
}

/** A loopback port nothing listens on (taken from the OS, then released). */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

for (
  const [what, script] of [
    ["the server", MAIN],
    ["deno task migrate", new URL("../../db/migrate.ts", import.meta.url).pathname],
    ["deno task user", new URL("../../lib/cli/user.ts", import.meta.url).pathname],
  ]
) {
  test(`[startup] with Postgres down ${what} waits, then exits with one line`, async () => {
    await startWithPostgresDown(script);
  });
}

async function startWithPostgresDown(script: string): Promise<void> {
  const port = closedPort();
  const dataDir = await Deno.makeTempDir({ prefix: "meridian_startup_" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [...DENO_RUN, script, ...(script === MAIN ? [] : ["help"])],
      env: {
        NODE_ENV: "production",
        LOG_REQUESTS: "0",
        PORT: "0",
        DATA_DIR: dataDir,
        DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/meridian`,
        DATABASE_WAIT_SECONDS: "1",
        NO_COLOR: "1",
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr).trim();
    assertEquals(out.code, 1, `stdout:\n${stdout}\nstderr:\n${stderr}`);
    assert(
      stdout.includes(`Waiting for Postgres at 127.0.0.1:${port}… (up to 1 s)`),
      `stdout:\n${stdout}`,
    );
    assertEquals(
      stderr,
      `Postgres at 127.0.0.1:${port} did not answer within 1 s (ECONNREFUSED); giving up.`,
    );
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
}

test("[startup] waitForPostgres goes on once Postgres answers", async () => {
  const target = new URL(url!);
  const upstream = { hostname: target.hostname, port: Number(target.port || 5432) };
  const port = closedPort();
  const sql = postgres(url!, { port, max: 1, onnotice: () => {} });
  let listener: Deno.Listener | undefined;
  const waits: string[] = [];
  try {
    await waitForPostgres(sql, {
      timeoutMs: 60_000,
      retryMs: 50,
      onWait(where) {
        waits.push(where);
        // Postgres "comes up" on that port only now: a proxy to the real server.
        listener = Deno.listen({ hostname: "127.0.0.1", port });
        forward(listener, upstream);
      },
    });
    assertEquals(waits, [`${upstream.hostname}:${port}`]);
    const [{ ok }] = await sql<{ ok: number }[]>`select 1 as ok`;
    assertEquals(ok, 1);
  } finally {
    await sql.end({ timeout: 1 });
    listener?.close();
  }
}, { needsPostgres: true });

test("[startup] a database that does not exist fails at once with one line", async () => {
  const sql = postgres(url!, { database: "meridian_no_such_database", onnotice: () => {} });
  try {
    const err = await waitForPostgres(sql, { timeoutMs: 60_000, onWait: () => {} })
      .then(() => undefined, (e) => e);
    assert(err instanceof PostgresStartError, String(err));
    assertMatch(
      err.message,
      /^Cannot use Postgres at .+: .*meridian_no_such_database.* \(3D000\)$/,
    );
  } finally {
    await sql.end({ timeout: 1 });
  }
}, { needsPostgres: true });

async function forward(listener: Deno.Listener, to: { hostname: string; port: number }) {
  try {
    for await (const conn of listener) {
      Deno.connect(to).then((upstream) => {
        conn.readable.pipeTo(upstream.writable).catch(() => {});
        upstream.readable.pipeTo(conn.writable).catch(() => {});
      }, () => conn.close());
    }
  } catch {
    // The listener was closed.
  }
}
