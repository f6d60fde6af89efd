import { assert, assertEquals } from "../_assert.ts";
import { NODE_MODULES_AS_IS, startTaskCommand } from "../_deno.ts";

/** The start task's V8 flags and the environment it sets (deno.json), `deno task start` as run. */
async function startTask(): Promise<{ v8: string[]; env: Record<string, string> }> {
  const { env, args } = await startTaskCommand(new URL("../../", import.meta.url));
  return { v8: args.filter((a) => a.startsWith("--v8-flags=")), env };
}

// collectStartupGarbage runs only under the start task's V8 flag, so it is tried in a process of
// its own started like the server (deno.json's `start` flags and environment; `env` adds to it).
async function runWithServerFlags(
  code: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string }> {
  const task = await startTask();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", NODE_MODULES_AS_IS, ...task.v8, code],
    cwd: new URL("../../", import.meta.url).pathname,
    env: { ...task.env, ...env },
    stdout: "piped",
    stderr: "inherit",
    // A process held open by a timer is killed (and fails the test) instead of hanging it.
    signal: AbortSignal.timeout(20_000),
  }).output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout).trim() };
}

Deno.test({
  name: "[memory] after start-up the server collects and trims its native heap, and can still exit",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const memory = new URL("../../lib/memory.ts", import.meta.url).href;
    // The periodic trim must not keep a stopping server alive: the process ends by itself.
    const { code, stdout } = await runWithServerFlags(
      `import { collectStartupGarbage, trimNativeHeap } from "${memory}";
       console.log(collectStartupGarbage(), trimNativeHeap());`,
    );
    assertEquals(code, 0);
    assertEquals(stdout, "true true");
  },
});

Deno.test({
  name: "[memory] the heap is compacted once when requests stop, never while they keep coming",
  async fn() {
    const memory = new URL("../../lib/memory.ts", import.meta.url).href;
    // Each compacting collection the server asks V8 for is recorded; the check runs every 100 ms.
    const { code, stdout } = await runWithServerFlags(
      `const real = globalThis.__meridianGc;
       const compactions = [];
       globalThis.__meridianGc = (options) => {
         if (options?.flavor === "last-resort") compactions.push(Date.now());
         return real(options);
       };
       const { compactWhenQuiet, countAnsweredRequest } = await import("${memory}");
       const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
       const seen = [];
       compactWhenQuiet(100);
       await wait(350);
       seen.push(compactions.length); // no request answered yet: nothing to compact
       countAnsweredRequest();
       await wait(350);
       seen.push(compactions.length); // a quiet check after the request: one compaction
       await wait(350);
       seen.push(compactions.length); // still quiet: not again
       const busy = setInterval(countAnsweredRequest, 5);
       await wait(500);
       seen.push(compactions.length); // a request every 5 ms: none while they come
       clearInterval(busy);
       await wait(350);
       seen.push(compactions.length); // they stopped: one more
       console.log(seen.join(" "));`,
    );
    assertEquals(code, 0);
    assertEquals(stdout, "0 1 1 1 2");
  },
});

Deno.test("[memory] the compiled binary runs with the start task's V8 flags", async () => {
  const { SERVER_V8_FLAGS } = await import("../../scripts/compile.ts");
  const { v8 } = await startTask();
  assertEquals(v8.length, 1);
  assertEquals(v8[0].slice("--v8-flags=".length).split(",").sort(), [...SERVER_V8_FLAGS].sort());
});

Deno.test({
  name: "[memory] the server's threads share two malloc arenas, not one each",
  ignore: Deno.build.os !== "linux",
  async fn() {
    // Six threads (workers) read files and hash, each allocating through glibc's malloc; then
    // the process counts its thread arenas: anonymous read-write mappings that start on a 64 MB
    // boundary (glibc's HEAP_MAX_SIZE), the main arena being the brk heap. With two arenas that
    // counts one, and now and then another mapping or two that happens to start on the boundary
    // (1–3 over twelve runs); glibc's own limit, eight arenas per core, gave 15–17.
    const code = `const source = 'self.onmessage = async () => { for (let i = 0; i < 50; i++) {' +
         ' await Deno.readFile("deno.lock"); await crypto.subtle.digest("SHA-256", new Uint8Array(1e5)); }' +
         ' self.postMessage(0); };';
       const url = URL.createObjectURL(new Blob([source], { type: "application/javascript" }));
       const workers = Array.from({ length: 6 }, () => new Worker(url, { type: "module" }));
       await Promise.all(workers.map((w) => new Promise((done) => {
         w.onmessage = done;
         w.postMessage(0);
       })));
       let arenas = 0;
       for (const line of Deno.readTextFileSync("/proc/self/maps").split("\\n")) {
         const [range, perms, , , , name] = line.trim().split(/\\s+/);
         if (!range || name) continue;
         const [start, end] = range.split("-").map((hex) => parseInt(hex, 16));
         if (start % 2 ** 26 === 0 && end - start <= 2 ** 26 && perms.startsWith("rw")) arenas++;
       }
       workers.forEach((w) => w.terminate());
       console.log(arenas);`;
    const asStarted = Number((await runWithServerFlags(code)).stdout);
    const unlimited = Number((await runWithServerFlags(code, { MALLOC_ARENA_MAX: "64" })).stdout);
    assert(asStarted <= 4, `${asStarted} thread arenas as the server starts`);
    assert(unlimited >= 10, `${unlimited} arenas without the limit, ${asStarted} with`);
  },
});
