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

test("[health] /readyz reuses a passing check for a second and shares one check among concurrent probes", async () => {
  const inner = await openKv(":memory:");
  let probeWrites = 0;
  const t = await createTestApp({
    deps: {
      kv: faultyKv(inner, (key, write) => {
        if (write && key[0] === "health") probeWrites++;
        return null;
      }),
    },
  });
  try {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => t.request("GET", "/readyz")),
    );
    assertEquals(answers.map((r) => r.status), Array(10).fill(200));
    for (const res of answers) {
      assertEquals(await res.json(), { status: "ok", checks: { postgres: true, kv: true } });
    }
    assertEquals(probeWrites, 1, "ten concurrent probes, one KV round trip");
    const again = await t.request("GET", "/readyz");
    assertEquals(again.status, 200);
    await again.body?.cancel();
    // Unless this machine stalled for a second between the two, the answer was reused.
    assert(probeWrites <= 2);
  } finally {
    t.close();
    inner.close();
  }
});

test("[health] a failing /readyz check is not reused: the next probe sees the recovery", async () => {
  const inner = await openKv(":memory:");
  let isLocked = true;
  const t = await createTestApp({
    deps: { kv: faultyKv(inner, (_key, write) => write && isLocked ? "locked" : null) },
  });
  try {
    const down = await t.request("GET", "/readyz");
    assertEquals(down.status, 503);
    assertEquals((await down.json()).checks, { postgres: true, kv: false });
    isLocked = false;
    const up = await t.request("GET", "/readyz");
    assertEquals(up.status, 200);
    assertEquals((await up.json()).checks, { postgres: true, kv: true });
  } finally {
    t.close();
    inner.close();
  }
});
