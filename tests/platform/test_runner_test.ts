/**
 * tests/_run.ts, the test command's runner: it must choose the same files `deno test` would, so
 * that no test file is silently left out, and keep the files that cannot share an isolate apart.
 */
import { assert, assertEquals } from "../_assert.ts";
import { groupModule, isolateOf, silenceLimitMs, testFiles, watchSilence } from "../_run.ts";

const ROOT = new URL("../../", import.meta.url);

/** Every file below tests/ whose name `deno test` takes for a test, found independently. */
async function testFilesOnDisk(dir = "tests/"): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
    if (entry.name.startsWith(".")) continue;
    if (entry.isDirectory) found.push(...await testFilesOnDisk(`${dir}${entry.name}/`));
    else if (/_test\.tsx?$/.test(entry.name)) found.push(`${dir}${entry.name}`);
  }
  return found.sort();
}

Deno.test("[test runner] the whole suite is every test file under tests/, each once", async () => {
  const files = await testFiles([], []);
  assertEquals([...files].sort(), await testFilesOnDisk());
  assert(files.includes("tests/platform/test_runner_test.ts"));
});

Deno.test("[test runner] paths and --ignore choose files as deno test does", async () => {
  const withoutE2e = await testFiles([], ["tests/e2e/", "tests/platform/multi_instance_test.ts"]);
  const all = await testFiles([], []);
  assert(withoutE2e.length > 0);
  assert(!withoutE2e.some((f) => f.startsWith("tests/e2e/")));
  assert(!withoutE2e.includes("tests/platform/multi_instance_test.ts"));
  const e2e = await testFiles(["tests/e2e", "tests/platform/multi_instance_test.ts"], []);
  assert(e2e.every((f) => f.startsWith("tests/e2e/") || f.endsWith("multi_instance_test.ts")));
  // The two CI stages on Postgres together run the whole suite, nothing twice.
  assertEquals([...withoutE2e, ...e2e].sort(), [...all].sort());
  // A file named on the command line runs whatever its name (the fault test's is not *_test).
  assertEquals(await testFiles(["tests/fault/postgres_restart.ts"], []), [
    "tests/fault/postgres_restart.ts",
  ]);
});

Deno.test("[test runner] island tests share an isolate of their own, the DOM installed first; e2e tests share theirs", async () => {
  assertEquals(await isolateOf("tests/routes/bad_input_test.ts"), "server");
  assertEquals(await isolateOf("tests/islands/AuthForm_test.tsx"), "islands");
  assertEquals(await isolateOf("tests/e2e/accounts_test.ts"), "e2e");
  // Every file that installs the DOM is kept from the server's tests, whatever folder it is in.
  for (const file of await testFilesOnDisk()) {
    const text = await Deno.readTextFile(new URL(file, ROOT));
    if (/^\s*setupDom\(/m.test(text)) assertEquals(await isolateOf(file), "islands", file);
  }
  const islands = groupModule("islands", ["tests/islands/a_test.tsx", "tests/islands/b_test.tsx"]);
  assertEquals(islands.split("\n").filter((l) => l.startsWith("import")), [
    'import "../../tests/islands/_dom_setup.ts";',
    'import "../../tests/islands/a_test.tsx";',
    'import "../../tests/islands/b_test.tsx";',
  ]);
  assert(!groupModule("server", ["tests/routes/a_test.ts"]).includes("_dom_setup"));
});

/** A child deno that prints a line (unless `silent`) and then, if `hang`, waits forever. */
function child(hang: boolean, silent = false): Deno.ChildProcess {
  const code = (silent ? "" : `console.log("[child] a test that waits ..."); `) +
    (hang ? "setInterval(() => {}, 1000);" : "");
  return new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

Deno.test("[test runner] a suite that prints nothing for the limit is stopped as hung", async () => {
  const hung = child(true);
  const watch = watchSilence(hung, 1500);
  // Were it not stopped, this test would end it (and fail) rather than hang itself.
  const backstop = setTimeout(() => hung.kill("SIGKILL"), 15_000);
  const status = await hung.status;
  clearTimeout(backstop);
  await watch.done;
  assertEquals(watch.stopped, "silence", "the hung child was stopped");
  assertEquals(status.success, false);
  assertEquals(status.signal, "SIGTERM");

  const quick = child(false);
  const fine = watchSilence(quick, 1500);
  assertEquals((await quick.status).code, 0);
  await fine.done;
  assertEquals(fine.stopped, false, "a child that ends in time is left alone");
});

Deno.test("[test runner] a deno test that prints nothing after it started is stopped as such", async () => {
  const silent = child(true, true);
  const watch = watchSilence(silent, 60_000, 1500);
  const backstop = setTimeout(() => silent.kill("SIGKILL"), 15_000);
  const status = await silent.status;
  clearTimeout(backstop);
  await watch.done;
  assertEquals(watch.stopped, "start");
  assertEquals(status.signal, "SIGTERM");
});

Deno.test("[test runner] the silence limit is TEST_SILENCE_LIMIT_S seconds, 600 unless set", () => {
  assertEquals(silenceLimitMs(undefined), 600_000);
  assertEquals(silenceLimitMs("90"), 90_000);
  assertEquals(silenceLimitMs("soon"), 600_000);
  assertEquals(silenceLimitMs("0"), 600_000);
});
