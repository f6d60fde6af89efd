/**
 * What the benchmarks that start servers or databases share: a free port, waiting for a URL
 * to answer, a scratch Postgres database (when DATABASE_URL is set) dropped afterwards, and
 * whether a command or a path exists.
 */
import postgres from "postgres";
import { startTaskCommand } from "../tests/_deno.ts";

/** A loopback port nothing listens on (taken from the OS, then released). */
export function freePort(): number {
  const listener = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Resolves once `url` answers 2xx; throws after `timeoutMs`. */
export async function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      if (res.ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

/**
 * A new database beside DATABASE_URL's, named `{prefix}_{time}`, and a way to drop it; with no
 * DATABASE_URL, no URL (the embedded database) and nothing to drop. BENCH_KEEP_DB=1 keeps it
 * (its name is printed).
 */
export async function scratchDatabase(
  prefix = "meridian_bench",
): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const base = Deno.env.get("DATABASE_URL");
  if (!base) return { url: undefined, drop: async () => {} };
  const name = `${prefix}_${Date.now()}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      if (Deno.env.get("BENCH_KEEP_DB") === "1") {
        // To look into the seeded data afterwards (EXPLAIN a page's statement, say).
        console.error(`kept the scratch database ${name} (BENCH_KEEP_DB=1)`);
        await admin.end();
        return;
      }
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * The V8 flags `deno task start` runs the server with (`--v8-flags=…` in the checkout's
 * deno.json, or none), so a bench measures the server as it is deployed: the young generation's
 * size, for one, changes how often it collects.
 */
export async function startTaskV8Flags(root: string | URL): Promise<string[]> {
  const { args } = await startTaskCommand(root);
  return args.filter((arg) => arg.startsWith("--v8-flags="));
}

/**
 * The environment `deno task start` sets before `deno` (`NODE_ENV=production MALLOC_ARENA_MAX=2`
 * in the checkout's deno.json), for the same reason: the malloc arenas change what the server
 * holds. A variable set in the bench's own environment wins (`MALLOC_ARENA_MAX=16`: glibc's
 * default on 2 cores).
 */
export async function startTaskEnv(root: string | URL): Promise<Record<string, string>> {
  const { env } = await startTaskCommand(root);
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) => [name, Deno.env.get(name) ?? value]),
  );
}

/** Whether `name` runs (`name --version`, or `name arg`). */
export async function hasCommand(name: string, arg = "--version"): Promise<boolean> {
  try {
    await new Deno.Command(name, { args: [arg], stdout: "null", stderr: "null" }).output();
    return true;
  } catch {
    return false;
  }
}

/** Whether `path` exists. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The session cookie (`name=value`) of `email` signed in through `/api/login` at `url`. */
export async function signInCookie(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/login`, {
    method: "POST",
    headers: { origin: new URL(url).origin, "content-type": "application/json" },
    body: JSON.stringify({ identifier: email, password }),
  });
  await res.body?.cancel();
  if (res.status !== 200) throw new Error(`sign-in as ${email}: ${res.status}`);
  const pair = res.headers.getSetCookie().map((c) => c.split(";")[0])
    .find((c) => /^(__Host-)?meridian_session=./.test(c));
  if (!pair) throw new Error(`sign-in as ${email}: no session cookie`);
  return pair;
}

/**
 * A production server's environment in a bench: listening on `port`, its PUBLIC_URL the origin
 * the bench calls, data under `dataDir`, on `databaseUrl` (none: the embedded database), no
 * request log.
 */
export function benchServerEnv(
  port: number,
  dataDir: string,
  databaseUrl: string | undefined,
): Record<string, string> {
  return {
    NODE_ENV: "production",
    LOG_REQUESTS: "0",
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl ?? "",
  };
}

/**
 * Spawns `command` (a server), waits until `readyUrl` answers 2xx and returns its pid and a
 * `stop` that signals it (SIGTERM by default) and waits for it to exit. A server that does not
 * come up is killed, if it has not exited already (a start-up error, printed on its stderr), and
 * the wait's error thrown.
 */
export async function spawnServer(
  command: Deno.Command,
  readyUrl: string,
  readyTimeoutMs?: number,
): Promise<{ pid: number; stop(signal?: Deno.Signal): Promise<void> }> {
  const child = command.spawn();
  try {
    await waitFor(readyUrl, readyTimeoutMs);
  } catch (err) {
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    await child.status;
    throw err;
  }
  return {
    pid: child.pid,
    async stop(signal: Deno.Signal = "SIGTERM") {
      child.kill(signal);
      await child.status;
    },
  };
}
