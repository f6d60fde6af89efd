import { assert, assertEquals } from "../_assert.ts";
import { approximateHeapBytes } from "../../lib/heap_size.ts";

const row = (i: number) => ({
  id: `3f1c2a9e-0000-4000-8000-${String(i).padStart(12, "0")}`,
  title: `Boundary survey at ${i} Main St`,
  priceCents: 45_000 + i,
  createdAt: new Date(1_700_000_000_000 + i),
});

Deno.test("[heap size] grows with what a value holds, in proportion", () => {
  const ten = approximateHeapBytes(Array.from({ length: 10 }, (_, i) => row(i)));
  const thousand = approximateHeapBytes(Array.from({ length: 1_000 }, (_, i) => row(i)));
  assert(ten > 10 * 100, `ten rows of some 150 bytes each: ${ten}`);
  assert(thousand > 90 * ten && thousand < 110 * ten, `${thousand} against ${ten}`);
});

Deno.test("[heap size] an object reached twice is counted once, and a cycle ends", () => {
  const shared = row(1);
  const once = approximateHeapBytes([shared]);
  assertEquals(approximateHeapBytes([shared, shared]), once + 8);
  assert(approximateHeapBytes([shared, row(1)]) > once + 100);
  const cycle: Record<string, unknown> = { name: "a" };
  cycle.self = cycle;
  assert(approximateHeapBytes(cycle) < 200);
  const byId = new Map([[shared.id, shared]]);
  const copied = new Map([[shared.id, row(1)]]);
  assert(
    approximateHeapBytes({ rows: [shared], byId }) <
      approximateHeapBytes({ rows: [shared], byId: copied }) - 150,
    "a Map of the same rows adds only its table",
  );
});

Deno.test("[heap size] text above Latin-1 takes two bytes a unit, and buffers their length", () => {
  assertEquals(approximateHeapBytes("é".repeat(100)) - approximateHeapBytes(""), 100);
  assertEquals(approximateHeapBytes("€".repeat(100)) - approximateHeapBytes(""), 200);
  assert(approximateHeapBytes(new Uint8Array(10_000)) > 10_000);
  assertEquals(approximateHeapBytes([1, 2, true, null, undefined]), 24 + 5 * 8);
  assertEquals(approximateHeapBytes([1.5]), 24 + 8 + 16);
});
