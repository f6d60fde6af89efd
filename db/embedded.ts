/**
 * The embedded database: PGlite in this process, served to postgres.js through pglite-socket,
 * with one writer per DATA_DIR.
 *
 * PGlite is a single Postgres backend over plain files. Two processes that open the same files
 * diverge and destroy each other's writes (issue 7: lost registrations, then `RuntimeError:
 * Aborted()` and a data directory that no longer starts). So the process that opens the files
 * first holds an OS file lock on `$DATA_DIR/pglite.lock` for as long as it runs, and records in
 * `$DATA_DIR/pglite.json` where its pglite-socket listens. The lock is `flock`-style
 * (`Deno.FsFile.tryLock`): the kernel drops it when the process ends, `kill -9` included, so it
 * never goes stale the way a pid file does; a stale pglite.json is harmless because nobody
 * believes it without the lock being held.
 *
 * - A second server on the same DATA_DIR gets `EmbeddedDatabaseInUseError` naming the first.
 * - `deno task user` / `deno task migrate` pass `shareRunning`: while another process holds the
 *   lock they connect to its pglite-socket port (postgres.js, one connection) instead of opening
 *   the files; with nobody holding it they take the lock themselves.
 */
import type postgres from "postgres";
import type { PGlite } from "@electric-sql/pglite";
import type { Database } from "./client.ts";
import { trackPgliteWasmMemory } from "../lib/memory.ts";
import { initdbInChild } from "./embedded_initdb.ts";
import { deallocateSql, PreparedStatements } from "./pglite_prepared.ts";
import { inProcessSocket } from "./pglite_connection.ts";
import { fastSeekEnd, type PgliteFsModule } from "./pglite_seek.ts";

/** What the lock holder records beside the lock: who it is and where its database listens. */
export interface EmbeddedHolder {
  pid: number;
  host: string;
  port: number;
  startedAt: string;
  /** The server's public URL, once it listens (`recordServerUrl`); commands print it. */
  url?: string;
}

/** Thrown when another process holds DATA_DIR's embedded database; the message names it. */
export class EmbeddedDatabaseInUseError extends Error {
  constructor(readonly dataDir: string, readonly holder: EmbeddedHolder | null, detail = "") {
    const who = holder
      ? `pid ${holder.pid}, database on ${holder.host}:${holder.port}`
      : "it is still starting";
    super(
      `The embedded database in ${dataDir} is in use by another Meridian process (${who})${detail}. ` +
        "Stop that process first, or set DATA_DIR to another directory.",
    );
    this.name = "EmbeddedDatabaseInUseError";
  }
}

/** Options for `openEmbeddedDatabase`. */
export interface EmbeddedOptions {
  /** DATA_DIR; the PGlite files live in `$dataDir/pglite`. */
  dataDir: string;
  /** An in-memory database: no files, so no lock. */
  memory?: boolean;
  /** Reach a running holder's database through its socket instead of failing. */
  shareRunning?: boolean;
  /**
   * In memory only: start from this data directory (a `dumpDataDir` tarball) instead of an
   * initdb; the test harness loads a migrated one (tests/_helpers.ts).
   */
  loadDataDir?: Blob;
  /** Makes the postgres.js client (the caller owns the shared client options). */
  connect(options: postgres.Options<Record<string, never>>): postgres.Sql;
}

const HOST = "127.0.0.1";
/**
 * PGlite's memory settings. Its "shared" memory is allocated (and zeroed, so made resident)
 * inside its WebAssembly memory at start, and WebAssembly memory never gives a page back: with
 * Postgres's default shared_buffers (128 MB) the embedded database held ~330 MB resident from
 * the first second (bench/memory.ts). 16 MB of buffers is a few thousand pages, more than the
 * hot rows of a single-office deployment; the files behind them stay in the OS page cache.
 * maintenance_work_mem bounds what an index build in a migration touches (default 64 MB);
 * work_mem stays at its default (4 MB per sort or hash). max_connections sizes the per-backend
 * arrays and the lock table in that shared memory: PGlite is one backend (every socket client
 * is multiplexed onto it, MAX_SOCKET_CONNECTIONS below), and 8 instead of Postgres's 100 makes
 * shared_memory_size 21 MB instead of 24.
 */
export const PGLITE_SETTINGS: readonly string[] = [
  "shared_buffers=16MB",
  "maintenance_work_mem=16MB",
  "max_connections=8",
];
// The server's pool, a `deno task user` and a `deno task migrate` at once, with room to spare;
// the cycle queue below serialises them, so more connections never means concurrent queries.
const MAX_SOCKET_CONNECTIONS = 8;
// How long a CLI waits for a lock holder that is still starting (PGlite + migrations) to record
// its port, or for one that is stopping to let go of the lock.
const SHARE_WAIT_MS = 20_000;
const SHARE_POLL_MS = 100;

/** `$dataDir/pglite.lock`, the file whose OS lock marks the one writer. */
export function lockPath(dataDir: string): string {
  return `${dataDir}/pglite.lock`;
}

/** `$dataDir/pglite.json`, where the lock holder records its pid and socket port. */
export function holderPath(dataDir: string): string {
  return `${dataDir}/pglite.json`;
}

/** The holder recorded in DATA_DIR, or null when there is none (or it is half written). */
export async function readHolder(dataDir: string): Promise<EmbeddedHolder | null> {
  try {
    const value = JSON.parse(await Deno.readTextFile(holderPath(dataDir)));
    if (
      Number.isInteger(value?.pid) && typeof value?.host === "string" &&
      Number.isInteger(value?.port) && value.port > 0
    ) {
      return value as EmbeddedHolder;
    }
  } catch {
    // Missing or being replaced: the same as no holder recorded yet.
  }
  return null;
}

/**
 * Adds `url` (the server's public URL) to the holder record this process wrote, so commands
 * run beside the server print the URL that works. Does nothing unless this process holds it.
 */
export async function recordServerUrl(dataDir: string, url: string): Promise<void> {
  const holder = await readHolder(dataDir);
  if (holder?.pid !== Deno.pid) return;
  const info = holderPath(dataDir);
  await Deno.writeTextFile(`${info}.tmp`, JSON.stringify({ ...holder, url }) + "\n");
  await Deno.rename(`${info}.tmp`, info);
}

/**
 * Opens the embedded database. In memory: a private PGlite. On disk: takes DATA_DIR's lock and
 * opens the files, or, with `shareRunning`, connects to the process that holds the lock.
 * Throws `EmbeddedDatabaseInUseError` when another process holds the lock (and, with
 * `shareRunning`, cannot be reached within a few seconds).
 */
export async function openEmbeddedDatabase(options: EmbeddedOptions): Promise<Database> {
  if (options.memory) {
    const db = await serve(undefined, options.connect, options.loadDataDir);
    return { sql: db.sql, kind: "pglite", close: db.close, dumpDataDir: db.dumpDataDir };
  }
  await Deno.mkdir(options.dataDir, { recursive: true });
  const deadline = Date.now() + SHARE_WAIT_MS;
  for (;;) {
    const lock = await Deno.open(lockPath(options.dataDir), {
      read: true,
      write: true,
      create: true,
    });
    if (await lock.tryLock(true)) return await openLocked(options, lock);
    lock.close();
    const holder = await readHolder(options.dataDir);
    if (!options.shareRunning) throw new EmbeddedDatabaseInUseError(options.dataDir, holder);
    if (holder) {
      const shared = await connectToHolder(holder, options.connect);
      if (shared) return shared;
    }
    if (Date.now() >= deadline) {
      throw new EmbeddedDatabaseInUseError(
        options.dataDir,
        holder,
        holder ? ", but its database did not answer" : "",
      );
    }
    await new Promise((resolve) => setTimeout(resolve, SHARE_POLL_MS));
  }
}

async function openLocked(options: EmbeddedOptions, lock: Deno.FsFile): Promise<Database> {
  const info = holderPath(options.dataDir);
  try {
    // Whatever a previous holder left (it may have been killed) is not true any more.
    await Deno.remove(info).catch(() => {});
    const dataDir = `${options.dataDir}/pglite`;
    // A first start makes the files in a child process (db/embedded_initdb.ts): initdb's own
    // PGlite instance is then never resident here beside the one that serves.
    await initdbInChild(dataDir, PGLITE_SETTINGS);
    await Deno.mkdir(dataDir, { recursive: true });
    const db = await serve(dataDir, options.connect);
    const holder: EmbeddedHolder = {
      pid: Deno.pid,
      host: HOST,
      port: db.port,
      startedAt: new Date().toISOString(),
    };
    // Written aside and renamed so a reader never sees half a file.
    await Deno.writeTextFile(`${info}.tmp`, JSON.stringify(holder) + "\n");
    await Deno.rename(`${info}.tmp`, info);
    return {
      sql: db.sql,
      kind: "pglite",
      async close() {
        try {
          await db.close();
        } finally {
          await Deno.remove(info).catch(() => {});
          lock.close();
        }
      },
    };
  } catch (err) {
    lock.close();
    throw err;
  }
}

async function connectToHolder(
  holder: EmbeddedHolder,
  connect: EmbeddedOptions["connect"],
): Promise<Database | null> {
  const sql = connect({
    host: holder.host,
    port: holder.port,
    max: 1,
    username: "postgres",
    database: "postgres",
    connect_timeout: 5,
  });
  try {
    await sql`select 1`;
  } catch {
    // Refused or closed: the holder is starting, stopping, or the record is from a dead one.
    await sql.end({ timeout: 0 }).catch(() => {});
    return null;
  }
  return { sql, kind: "pglite", close: () => sql.end({ timeout: 5 }) };
}

/**
 * PGlite behind pglite-socket on a free local port (for the CLIs), and this process's
 * one-connection pool on it in process (db/pglite_connection.ts, through the same queue).
 */
async function serve(
  dataDir: string | undefined,
  connect: EmbeddedOptions["connect"],
  loadDataDir?: Blob,
): Promise<
  { sql: postgres.Sql; port: number; close(): Promise<void>; dumpDataDir(): Promise<Blob> }
> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  // cube: surveyor matching by distance (the geo_* functions of 0008, lib/matching.ts), the
  // same SQL and GiST index as on Postgres; pg_trgm: the directory's name search. A data
  // directory made before 0025 has earthdistance too; 0025 drops it without loading it.
  const [{ cube }, { pg_trgm }] = await Promise.all([
    import("@electric-sql/pglite/contrib/cube"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
  ]);
  const pg = await PGlite.create(dataDir, {
    loadDataDir,
    extensions: { cube, pg_trgm },
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ["-c", s])],
  });
  trackPgliteWasmMemory(() => pg.Module.wasmMemory.buffer.byteLength);
  // A relation file's size without node:fs fstatSync (on disk, a quarter of /leads' time;
  // db/pglite_seek.ts).
  const closeSizers = fastSeekEnd(pg.Module as unknown as PgliteFsModule);
  const server = new PGLiteSocketServer({
    db: pg,
    port: 0,
    host: HOST,
    maxConnections: MAX_SOCKET_CONNECTIONS,
  });
  // pglite-socket 0.2.17 multiplexes connections one protocol *message* at a time: between one
  // client's Parse and its Sync another client's Bind runs, replacing the unnamed portal (two
  // postgres.js clients over it got `portal "" does not exist` and each other's rows, 334
  // failures in 3,500 queries). CycleQueue hands PGlite to another connection only when the
  // current one is idle, so the CLI can share the server's database safely. The field is
  // TypeScript-private, not #private; tests/db/embedded_lock_test.ts fails if that changes.
  const queue = new CycleQueue(pg);
  (server as unknown as { queryQueue: CycleQueue }).queryQueue = queue;
  await server.start();
  const port = Number(server.getServerConn().split(":").pop());
  // PGlite is a single session: one connection per client, so its transactions never interleave.
  // This process's own pool reaches PGlite in process (db/pglite_connection.ts), through the
  // same queue as the CLIs on the socket; host and port only name it in errors.
  const sql = connect({
    host: HOST,
    port,
    max: 1,
    username: "postgres",
    database: "postgres",
    // Never recycled (postgres.js's default is every 30 to 60 minutes): a connection in process
    // has nothing to refresh, and a new one prepares every statement again.
    max_lifetime: 0,
    // postgres.js's `socket` option (a function returning the socket) is missing from its types.
    ...({ socket: () => inProcessSocket(queue) } as object),
  });
  changeFeeds.set(sql, { sql, queue, listening: new Map() });
  return {
    sql,
    port,
    // Uncompressed: gzip made the migrated test database 5.5 MB instead of 43 MB, but loaded
    // no faster (2.5 s against 2.2–2.6 s, load average 7.9).
    dumpDataDir: () => pg.dumpDataDir("none"),
    async close() {
      await sql.end({ timeout: 5 });
      await server.stop();
      await pg.close();
      closeSizers();
      trackPgliteWasmMemory(undefined);
    },
  };
}

interface ChangeFeed {
  sql: postgres.Sql;
  queue: CycleQueue;
  /** Channels LISTENed on (the LISTEN's completion), by name. */
  listening: Map<string, Promise<void>>;
}

const changeFeeds = new WeakMap<postgres.Sql, ChangeFeed>();

/**
 * On the embedded database (the server's own PGlite, not a CLI's connection to it): calls
 * `onChange` whenever a transaction that sent a notification on `channel` (`pg_notify`)
 * commits, from any connection — the server's pool or a CLI through pglite-socket. Resolves,
 * once PGlite listens on the channel, to a function that stops the calls; on Postgres (or a
 * shared connection) `undefined`: there the caller must read what it needs itself.
 *
 * Exact, not eventual: PGlite is one session, so a notification comes out in the output of the
 * very protocol cycle that committed (NotificationResponse before ReadyForQuery), and
 * `CycleQueue` calls `onChange` before it hands those bytes to the writer's connection. So by
 * the time any writer learns its change committed, `onChange` has run.
 */
export async function embeddedChangeFeed(
  sql: postgres.Sql,
  channel: string,
  onChange: () => void,
): Promise<(() => void) | undefined> {
  const feed = changeFeeds.get(sql);
  if (!feed || !/^[a-z_]+$/.test(channel)) return undefined;
  const stop = feed.queue.onNotification(channel, onChange);
  let listening = feed.listening.get(channel);
  if (!listening) {
    // Through the pool, so it runs between other connections' transactions, not inside one.
    listening = sql.unsafe(`listen ${channel}`).then(() => {});
    feed.listening.set(channel, listening);
    listening.catch(() => feed.listening.delete(channel));
  }
  try {
    await listening;
  } catch (err) {
    stop();
    throw err;
  }
  return stop;
}

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData(data: Uint8Array): void;
  resolve(bytes: number): void;
  reject(err: Error): void;
}

interface QueuedReset {
  handlerId: number;
  reset: true;
  resolve(): void;
}

// A Sync message: ends an extended-protocol cycle a disconnected client left open.
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);
const READY_FOR_QUERY = 0x5a;
const IDLE = 0x49;

/**
 * pglite-socket's query queue, serialising per protocol cycle instead of per message: the
 * connection whose message ran last keeps PGlite until PGlite answers ReadyForQuery with status
 * idle (so after its Sync or simple Query, and outside a transaction block). Same interface as
 * pglite-socket's own QueryQueueManager, which PGLiteSocketHandler calls.
 */
export class CycleQueue {
  #queue: (QueuedMessage | QueuedReset)[] = [];
  #running = false;
  #owner: number | null = null;
  #listeners = new Map<string, Set<() => void>>();
  // What each connection prepared by name: deallocated when it goes (db/pglite_prepared.ts).
  #prepared = new PreparedStatements();

  /** Serialises `db` for every connection of one socket server. */
  constructor(private readonly db: PGlite) {}

  /** Calls `fn` for each NotificationResponse on `channel` PGlite answers; returns a stop. */
  onNotification(channel: string, fn: () => void): () => void {
    let set = this.#listeners.get(channel);
    if (!set) this.#listeners.set(channel, set = new Set());
    set.add(fn);
    return () => set.delete(fn);
  }

  #notify = (channel: string): void => {
    for (const fn of this.#listeners.get(channel) ?? []) {
      try {
        fn();
      } catch (err) {
        console.error("pglite: a notification listener failed", err);
      }
    }
  };

  /** Runs `message` from connection `handlerId` when its turn comes; resolves to bytes sent. */
  enqueue(handlerId: number, message: Uint8Array, onData: (d: Uint8Array) => void) {
    this.#prepared.see(handlerId, message);
    return new Promise<number>((resolve, reject) => {
      this.#queue.push({ handlerId, message, onData, resolve, reject });
      this.#run();
    });
  }

  /** Messages waiting (pglite-socket's stats). */
  getQueueLength(): number {
    return this.#queue.length;
  }

  /** Drops a disconnected connection's waiting messages. */
  clearQueueForHandler(handlerId: number): void {
    this.#queue = this.#queue.filter((item) => {
      if (item.handlerId !== handlerId || "reset" in item) return true;
      item.reject(new Error("Handler disconnected"));
      return false;
    });
  }

  /**
   * After a connection goes: if it held PGlite mid-cycle or in a transaction, end the cycle and
   * roll back, then let the others in. Runs in the queue so it cannot race a message in flight.
   */
  clearTransactionIfNeeded(handlerId: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#queue.push({ handlerId, reset: true, resolve });
      this.#run();
    });
  }

  async #run(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      for (;;) {
        const index = this.#owner === null
          ? 0
          : this.#queue.findIndex((item) => item.handlerId === this.#owner);
        if (index < 0 || index >= this.#queue.length) break;
        const [item] = this.#queue.splice(index, 1);
        if ("reset" in item) {
          if (this.#owner === item.handlerId) await this.#reset();
          await this.#deallocate(item.handlerId);
          item.resolve();
          continue;
        }
        const tail = new LastMessage(this.#notify);
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data) => {
                bytes += data.length;
                // Before the bytes go on: notifications are seen before the writer's
                // ReadyForQuery (embeddedChangeFeed).
                tail.push(data);
                item.onData(data);
              },
            })
          );
        } catch (err) {
          // The connection's reset (when pglite-socket drops it) puts PGlite back in order.
          this.#owner = item.handlerId;
          item.reject(err as Error);
          continue;
        }
        this.#owner = tail.isIdleReady() ? null : item.handlerId;
        item.resolve(bytes);
      }
    } finally {
      this.#running = false;
    }
  }

  /**
   * Deallocates what connection `handlerId` prepared by name, once it has gone: PGlite is one
   * session, so nothing else would (db/pglite_prepared.ts). Runs in the queue, between cycles.
   */
  async #deallocate(handlerId: number): Promise<void> {
    const statements = deallocateSql(this.#prepared.takeAll(handlerId));
    if (!statements.length) return;
    try {
      await this.db.exec(statements.join(";\n"));
    } catch {
      // A name that never got prepared (its Parse failed) stops the batch: one at a time then,
      // each one's error (already gone) ignored.
      for (const statement of statements) await this.db.exec(statement).catch(() => {});
    }
  }

  async #reset(): Promise<void> {
    try {
      await this.db.runExclusive(() =>
        this.db.execProtocolRawStream(SYNC, { onRawData: () => {} })
      );
      if (this.db.isInTransaction()) await this.db.exec("ROLLBACK");
    } catch (err) {
      console.error("pglite: could not reset after a client left", err);
    }
    this.#owner = null;
  }
}

const NOTIFICATION_RESPONSE = 0x41;

/**
 * Follows backend message framing across chunks to see what the last message was, and passes
 * the channel of each NotificationResponse to `onNotification`.
 */
class LastMessage {
  #header = new Uint8Array(5);
  #headerBytes = 0;
  #bodyLeft = 0;
  #type = 0;
  #firstBodyByte = -1;
  /** A NotificationResponse's body so far (process id, channel, payload). */
  #notification: number[] | null = null;

  constructor(private readonly onNotification: (channel: string) => void = () => {}) {}

  push(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.#bodyLeft > 0) {
        if (this.#firstBodyByte < 0) this.#firstBodyByte = chunk[i];
        const n = Math.min(this.#bodyLeft, chunk.length - i);
        if (this.#notification) this.#notification.push(...chunk.subarray(i, i + n));
        this.#bodyLeft -= n;
        i += n;
        if (this.#bodyLeft === 0) this.#endMessage();
        continue;
      }
      this.#header[this.#headerBytes++] = chunk[i++];
      if (this.#headerBytes === 5) {
        this.#type = this.#header[0];
        this.#bodyLeft = new DataView(this.#header.buffer).getInt32(1) - 4;
        this.#headerBytes = 0;
        this.#firstBodyByte = -1;
        this.#notification = this.#type === NOTIFICATION_RESPONSE ? [] : null;
        if (this.#bodyLeft === 0) this.#endMessage();
      }
    }
  }

  #endMessage(): void {
    const body = this.#notification;
    if (!body) return;
    this.#notification = null;
    const end = body.indexOf(0, 4);
    if (end < 0) return;
    this.onNotification(new TextDecoder().decode(new Uint8Array(body.slice(4, end))));
  }

  /** True when the output ended with ReadyForQuery, status idle (not in a transaction). */
  isIdleReady(): boolean {
    return this.#headerBytes === 0 && this.#bodyLeft === 0 &&
      this.#type === READY_FOR_QUERY && this.#firstBodyByte === IDLE;
  }
}
