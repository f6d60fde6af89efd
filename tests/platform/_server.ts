/**
 * The real server (`deno run -A main.ts`) as a child process on a free port: embedded PGlite
 * in a temporary DATA_DIR, or the Postgres of DATABASE_URL when the test run has one.
 */
import { DENO_RUN } from "../_deno.ts";

/** A running server process and what it printed so far. */
export interface ServerProcess {
  child: Deno.ChildProcess;
  port: number;
  origin: string;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /**
   * The exit status, once the process has exited and its pipes are read to the end: the
   * status can resolve before the last lines it printed have been read.
   */
  exited(): Promise<Deno.CommandStatus>;
  /** Resolves once the output contains `text` (rejects after `timeoutMs`). */
  waitForOutput(text: string, timeoutMs?: number): Promise<void>;
  /** Kills the process if it still runs and removes its DATA_DIR. */
  cleanUp(): Promise<void>;
}

/** A TCP port nobody listens on right now. */
export function freePort(): number {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  return port;
}

/**
 * Starts main.ts with `env` added and resolves once it listens (rejects after
 * `startTimeoutMs`: a fresh embedded database migrates first, slow on a busy machine).
 */
export async function startServer(
  env: Record<string, string> = {},
  { startTimeoutMs = 60_000 }: { startTimeoutMs?: number } = {},
): Promise<ServerProcess> {
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-server-" });
  const port = freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = new Deno.Command(Deno.execPath(), {
    args: [...DENO_RUN, "main.ts"],
    cwd: new URL("../../", import.meta.url),
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: Deno.env.get("DATABASE_URL") ?? "",
      KV_PATH: "",
      PORT: String(port),
      PUBLIC_URL: origin,
      NODE_ENV: "test",
      LOG_REQUESTS: "0",
      ...env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const waiters = new Set<() => void>();
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      output += decoder.decode(chunk, { stream: true });
      for (const wake of waiters) wake();
    }
  };
  const pumped = Promise.all([pump(child.stdout), pump(child.stderr)]);
  let isExited = false;
  child.status.then(() => {
    isExited = true;
    for (const wake of waiters) wake();
  });
  const waitForOutput = (text: string, timeoutMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no "${text}" within ${timeoutMs} ms:\n${output}`));
      }, timeoutMs);
      const check = () => {
        if (output.includes(text)) {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        } else if (isExited) {
          clearTimeout(timer);
          waiters.delete(check);
          // The pipes may still hold the last lines: give them a moment.
          pumped.then(() =>
            output.includes(text)
              ? resolve()
              : reject(new Error(`the server exited without "${text}":\n${output}`))
          );
        }
      };
      waiters.add(check);
      check();
    });
  const server: ServerProcess = {
    child,
    port,
    origin,
    output: () => output,
    exited: async () => {
      const status = await child.status;
      await pumped;
      return status;
    },
    waitForOutput,
    async cleanUp() {
      if (!isExited) {
        try {
          child.kill("SIGKILL");
        } catch {
          // Already gone.
        }
      }
      await child.status;
      await pumped;
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
  try {
    await waitForOutput("Meridian listening on", startTimeoutMs);
  } catch (err) {
    await server.cleanUp();
    throw err;
  }
  return server;
}
