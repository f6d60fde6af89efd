/**
 * A local S3 stand-in (s3rver) in a process of its own, for the S3 storage tests.
 *
 * Not in the test's own process: s3rver brings koa, whose dependencies `require()` three
 * packages (generator-function, async-function, async-generator-function) that Deno resolves to
 * ES modules ("module-sync" in their exports), and Deno 2.9.6's synchronous load of a required
 * ES module now and then never returned. Imported by a test file, it did so while `deno test`
 * evaluated the server isolate's modules: the suite sat silent from its start, every thread
 * asleep, a blocking-pool thread's stack holding one of those three packages' paths. That was
 * 1 CI rehearsal in 4; and starting the embedded and the Postgres suite side by side from fresh
 * copies (a filter matching no test), 10 starts of 44 hung with s3rver imported by this test
 * file, 0 of 26 with it started here. A start that hangs here costs this child, which is
 * stopped and started again.
 *
 * The child is tests/_s3rver_process.ts, which no test module imports.
 */
import { DENO_RUN } from "./_deno.ts";

/** A running stand-in: its port, and how to stop it. */
export interface S3rverProcess {
  port: number;
  stop(): Promise<void>;
}

/** How long a start may take before it is taken as hung: s3rver is up in about a second. */
const START_LIMIT_MS = 20_000;

/** Starts the stand-in serving `bucket` from `directory`; a start that hangs is tried again, once. */
export async function startS3rver(directory: string, bucket: string): Promise<S3rverProcess> {
  for (let attempt = 1;; attempt++) {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        ...DENO_RUN,
        new URL("./_s3rver_process.ts", import.meta.url).pathname,
        directory,
        bucket,
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const stdin = child.stdin.getWriter();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const first = await Promise.race([
      firstLine(reader),
      new Promise<"timeout">((resolve) =>
        timer = setTimeout(() => resolve("timeout"), START_LIMIT_MS)
      ),
    ]).finally(() => clearTimeout(timer));
    if (first !== "timeout" && first !== undefined) {
      const { port } = JSON.parse(first) as { port: number };
      return {
        port,
        async stop() {
          await stdin.close().catch(() => {});
          await reader.cancel();
          await child.status;
        },
      };
    }
    child.kill("SIGKILL");
    await reader.cancel();
    await child.status;
    if (first !== "timeout" || attempt === 2) {
      throw new Error(
        first === "timeout"
          ? `s3rver did not start in ${START_LIMIT_MS / 1000} s, twice`
          : "s3rver exited before it listened",
      );
    }
  }
}

/** The first line `reader` gives, or undefined if it ends first. */
async function firstLine(reader: ReadableStreamDefaultReader<string>): Promise<string | undefined> {
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) return undefined;
    text += value;
  }
  return text.slice(0, text.indexOf("\n"));
}
