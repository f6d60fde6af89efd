/**
 * The database driver's transport alone (issue 23, vendor/postgres/README.md part 7): the CPU a
 * page-like round of queries costs this process through each way postgres.js can reach the
 * database, in alternating rounds in one process so every transport sees the same load:
 *   - "deno"     Deno.connect, the patched default for plaintext TCP / unix sockets;
 *   - "node:net" Deno's node:net compat socket, what postgres.js used before (passed through
 *                postgres.js's `socket` option, exactly as it built one itself);
 *   - on PGlite also "in-process": postgres.js handed PGlite directly
 *     (db/pglite_connection.ts), no TCP and no pglite-socket in between.
 * A "page" is one small query, then four in parallel (50 rows of ~200 bytes, 3 rows, a count,
 * two parameters), like a signed-in page's reads. CPU is process.cpuUsage (user + system) per
 * page; with DATABASE_URL the Postgres server's CPU is another process's and not counted, on
 * PGlite the database's work is in this process and counted. Figures only.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scratch deno run -A bench/driver.ts
 *   deno run -A bench/driver.ts                      # embedded PGlite (in memory)
 *   BENCH_PAGES=500 BENCH_ROUNDS=5 deno run -A bench/driver.ts
 */
import process from "node:process";
import net from "node:net";
import postgres from "postgres";
import { percentile } from "./_stats.ts";

const PAGES = Number(Deno.env.get("BENCH_PAGES") ?? 400);
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 4);
const url = Deno.env.get("DATABASE_URL") || undefined;

type Client = { name: string; sql: postgres.Sql };

function nodeNetSocket(host: string, port: number) {
  // What postgres.js's connect() did with node:net before part 7 (connect, then the startup
  // message is written once connected; node:net buffers writes made before that).
  return () => {
    const socket = new net.Socket();
    socket.connect(port, host);
    return socket;
  };
}

/** postgres.js's `socket` option (a function returning the socket), missing from its types. */
function socketOption(socket: () => unknown): object {
  return { socket };
}

const common = { max: 1, onnotice: () => {} } as const;
const clients: Client[] = [];
let close = async () => {};

if (url) {
  const { hostname, port } = new URL(url);
  const host = hostname || "localhost";
  const portNumber = Number(port || 5432);
  clients.push({ name: "deno", sql: postgres(url, common) });
  clients.push({
    name: "node:net",
    sql: postgres(url, { ...common, ...socketOption(nodeNetSocket(host, portNumber)) }),
  });
} else {
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const embedded = await import("../db/embedded.ts");
  const { inProcessSocket } = await import("../db/pglite_connection.ts");
  const pg = await PGlite.create(undefined, {
    startParams: [
      ...PGlite.defaultStartParams,
      ...embedded.PGLITE_SETTINGS.flatMap((s) => ["-c", s]),
    ],
  });
  const server = new PGLiteSocketServer({ db: pg, port: 0, host: "127.0.0.1", maxConnections: 8 });
  const queue = new embedded.CycleQueue(pg);
  (server as unknown as { queryQueue: unknown }).queryQueue = queue;
  await server.start();
  const port = Number(server.getServerConn().split(":").pop());
  const tcp = { host: "127.0.0.1", port, username: "postgres", database: "postgres" };
  clients.push({ name: "deno", sql: postgres({ ...common, ...tcp }) });
  clients.push({
    name: "node:net",
    sql: postgres({ ...common, ...tcp, ...socketOption(nodeNetSocket(tcp.host, port)) }),
  });
  clients.push({
    name: "in-process",
    sql: postgres({ ...common, ...tcp, ...socketOption(() => inProcessSocket(queue)) }),
  });
  close = async () => {
    await server.stop();
    await pg.close();
  };
}

async function page(sql: postgres.Sql, i: number): Promise<void> {
  await sql`select ${i}::int as id, 'session' as kind, now() as at`;
  await Promise.all([
    sql`select g as id, repeat('m', 160) as body, now() as created_at, g % 2 = 0 as from_client
        from generate_series(1, 50) g`,
    sql`select g as id, 'Firm ' || g as name from generate_series(1, 3) g`,
    sql`select count(*)::int as n from generate_series(1, 10)`,
    sql`select ${"x"}::text as a, ${i}::int as b`,
  ]);
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

// BENCH_ONLY=deno (or node:net, in-process) keeps one transport, for a --cpu-prof run.
const only = Deno.env.get("BENCH_ONLY");
if (only) {
  for (const c of clients.filter((c) => c.name !== only)) await c.sql.end({ timeout: 5 });
  clients.splice(0, clients.length, ...clients.filter((c) => c.name === only));
}

const perPage = new Map<string, number[]>(clients.map((c) => [c.name, []]));
const wallPerPage = new Map<string, number[]>(clients.map((c) => [c.name, []]));
for (const c of clients) for (let i = 0; i < 50; i++) await page(c.sql, i); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  // Alternate the order too, so neither transport always runs right after the other.
  const order = round % 2 === 0 ? clients : [...clients].reverse();
  for (const c of order) {
    const cpu = cpuMs();
    const wall = performance.now();
    for (let i = 0; i < PAGES; i++) await page(c.sql, i);
    perPage.get(c.name)!.push((cpuMs() - cpu) / PAGES);
    wallPerPage.get(c.name)!.push((performance.now() - wall) / PAGES);
  }
}

const load = Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
console.log(
  `Driver transport, ${url ? "Postgres (server CPU not counted)" : "PGlite (counted)"}, ` +
    `${ROUNDS} rounds × ${PAGES} pages (1 + 4 parallel queries), load ${load} on ` +
    `${navigator.hardwareConcurrency} cores:`,
);
for (const c of clients) {
  const cpu = [...perPage.get(c.name)!].sort((a, b) => a - b);
  const wall = [...wallPerPage.get(c.name)!].sort((a, b) => a - b);
  console.log(
    `  ${c.name.padEnd(10)} CPU per page median ${percentile(cpu, 0.5).toFixed(3)} ms ` +
      `(min ${cpu[0].toFixed(3)}, max ${cpu.at(-1)!.toFixed(3)}), ` +
      `wall median ${percentile(wall, 0.5).toFixed(3)} ms`,
  );
}
if (only) {
  // One transport in this process: its memory after the run is comparable across runs.
  const { rss, heapUsed } = Deno.memoryUsage();
  console.log(
    `  resident ${(rss / 2 ** 20).toFixed(1)} MB, JS heap ${(heapUsed / 2 ** 20).toFixed(1)} MB`,
  );
}
for (const c of clients) await c.sql.end({ timeout: 5 });
await close();
