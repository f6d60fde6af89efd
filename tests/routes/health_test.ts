import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { faultyKv, type KvFault } from "../_kv_faults.ts";
import { openKv } from "../../db/kv.ts";

async function readyz(fault: (key: Deno.KvKey, write: boolean) => KvFault) {
  const inner = await openKv(":memory:");
  const t = await createTestApp({ deps: { kv: faultyKv(inner, fault) } });
  try {
    const res = await t.request("GET", "/readyz");
    return { res, body: await res.json(), inner };
  } finally {
    t.close();
  }
}

test("[health] /readyz writes a short-lived probe to KV and reads it back", async () => {
  const { res, body, inner } = await readyz(() => null);
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("cache-control"), "no-store");
  assertEquals(body, { status: "ok", checks: { postgres: true, kv: true } });
  const probes = await Array.fromAsync(inner.list({ prefix: ["health"] }));
  assertEquals(probes.length, 1, "one probe key per process, written on every check");
  inner.close();
});

test("[health] /readyz is 503 when KV reads but cannot be written (a locked file)", async () => {
  // What another process's exclusive lock on the KV file does: reads pass, writes fail.
  const { res, body, inner } = await readyz((_key, write) => write ? "locked" : null);
  assertEquals(res.status, 503);
  assertEquals(body, { status: "unavailable", checks: { postgres: true, kv: false } });
  inner.close();
});

test("[health] /readyz answers 503 when KV does not answer at all", async () => {
  const { res, body, inner } = await readyz((key) => key[0] === "health" ? "hang" : null);
  assertEquals(res.status, 503);
  assert(body.checks.postgres);
  assertEquals(body.checks.kv, false);
  inner.close();
});
