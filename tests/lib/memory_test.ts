import { assertEquals } from "../_assert.ts";
import { NODE_MODULES_AS_IS } from "../_deno.ts";

// collectStartupGarbage runs only under the start task's V8 flag, so it is tried in a process of
// its own started like the server (deno.json's `start` flags).
async function runWithServerFlags(code: string): Promise<{ code: number; stdout: string }> {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  const v8 = (config.tasks.start as string).split(/\s+/).find((a) => a.startsWith("--v8-flags="));
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", NODE_MODULES_AS_IS, ...(v8 ? [v8] : []), code],
    cwd: new URL("../../", import.meta.url).pathname,
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
