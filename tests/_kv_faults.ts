/**
 * KV faults for tests.
 *
 * - `faultyKv(kv, fault)` wraps a real KV: calls that touch a key `fault` picks fail the way
 *   Deno KV fails on a file another process has locked (`TypeError: database is locked`), or
 *   never answer (`"hang"`), so one step of a flow can be broken and the rest left working.
 * - `lockKvFile(path)` has another process hold SQLite's exclusive lock on a real KV file
 *   (node:sqlite `BEGIN EXCLUSIVE`) until `release()`: what an operator meets when a second
 *   writer holds the file.
 */
import { NODE_MODULES_AS_IS } from "./_deno.ts";

/** How a faulty call fails: rejects like a locked file, or never settles. */
export type KvFault = "locked" | "hang" | null;

/** SQLite's message when another connection holds the write lock, as Deno KV throws it. */
export const LOCKED_MESSAGE = "database is locked";

const WRITE_METHODS = new Set(["set", "delete", "check", "sum", "min", "max", "enqueue"]);

function fail(fault: Exclude<KvFault, null>): Promise<never> {
  return fault === "hang" ? new Promise<never>(() => {}) : Promise.reject(
    new TypeError(LOCKED_MESSAGE),
  );
}

function keysOf(method: string, args: unknown[]): Deno.KvKey[] {
  if (method === "check") return (args as { key: Deno.KvKey }[]).map((c) => c.key);
  return [args[0] as Deno.KvKey];
}

/**
 * `kv` with faults: `fault(key, write)` is asked for every key a call reads (`write` false) or
 * writes (`write` true; an atomic commit asks for each key it sets, deletes or checks) and
 * returns how that call fails, or null to let it through.
 */
export function faultyKv(
  kv: Deno.Kv,
  fault: (key: Deno.KvKey, write: boolean) => KvFault,
): Deno.Kv {
  const firstFault = (keys: Deno.KvKey[], write: boolean) =>
    keys.map((k) => fault(k, write)).find((f) => f !== null) ?? null;
  return new Proxy(kv, {
    get(target, prop) {
      if (prop === "get" || prop === "getMany") {
        return (
          key: Deno.KvKey | Deno.KvKey[],
          options?: { consistency?: Deno.KvConsistencyLevel },
        ) => {
          const keys = prop === "get" ? [key as Deno.KvKey] : key as Deno.KvKey[];
          const f = firstFault(keys, false);
          // deno-lint-ignore no-explicit-any
          return f ? fail(f) : (target as any)[prop](key, options);
        };
      }
      if (prop === "set" || prop === "delete") {
        return (key: Deno.KvKey, ...rest: unknown[]) => {
          const f = firstFault([key], true);
          // deno-lint-ignore no-explicit-any
          return f ? fail(f) : (target as any)[prop](key, ...rest);
        };
      }
      if (prop === "atomic") {
        return () => {
          const op = target.atomic();
          const touched: Deno.KvKey[] = [];
          const proxy: Deno.AtomicOperation = new Proxy(op, {
            get(o, p) {
              if (p === "commit") {
                return () => {
                  const f = firstFault(touched, true);
                  return f ? fail(f) : o.commit();
                };
              }
              const value = Reflect.get(o, p);
              if (typeof value !== "function") return value;
              return (...args: unknown[]) => {
                if (WRITE_METHODS.has(String(p))) touched.push(...keysOf(String(p), args));
                const result = value.apply(o, args);
                return result === o ? proxy : result;
              };
            },
          });
          return proxy;
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Another process holding a KV file's exclusive SQLite lock. */
export interface KvFileLock {
  /** Commits the holder's empty transaction and waits for it to exit. */
  release(): Promise<void>;
}

const HOLDER = `
import { DatabaseSync } from "node:sqlite";
const db = new DatabaseSync(Deno.args[0]);
db.exec("BEGIN EXCLUSIVE");
console.log("locked");
for await (const _ of Deno.stdin.readable) break;
db.exec("COMMIT");
db.close();
`;

/** Starts a process that takes `BEGIN EXCLUSIVE` on the SQLite file at `path` and holds it. */
export async function lockKvFile(path: string): Promise<KvFileLock> {
  const script = await Deno.makeTempFile({ prefix: "kv-lock-", suffix: ".ts" });
  await Deno.writeTextFile(script, HOLDER);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", NODE_MODULES_AS_IS, "--allow-read", "--allow-write", script, path],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const first = await lines.read();
  if (!first.value?.includes("locked")) {
    child.kill();
    throw new Error(`the KV lock holder did not start: ${first.value}`);
  }
  return {
    async release() {
      const stdin = child.stdin.getWriter();
      await stdin.write(new TextEncoder().encode("\n"));
      await stdin.close();
      while (!(await lines.read()).done);
      await child.status;
      await Deno.remove(script);
    },
  };
}
