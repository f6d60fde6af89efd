/**
 * Summarises a V8 `.cpuprofile` (as written by `deno run --cpu-prof`): the functions with the
 * most self time, self time by category (which code was on the CPU), and inclusive time by
 * category (how much of the time had that code anywhere on the stack, e.g. everything React
 * calls while rendering, our components included). Figures only.
 *
 *   deno run -A bench/profile_summary.ts /tmp/prof/CPU.….cpuprofile [--last 10000] [--top 25]
 *
 * `--last <ms>` keeps only the samples of the profile's final `ms` milliseconds, so start-up,
 * seeding and warm-up before a measured load run can be left out.
 */
import { parseArgs } from "node:util";

/** One call-tree node of a V8 CPU profile. */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

/** A V8 CPU profile (Chrome DevTools format); times in microseconds. */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Categories by script URL, tested in order. A frame without a URL (a builtin or a Deno op, e.g.
 * `writeBuffer`, `digest`, `op_kv_snapshot_read`) and Deno's core async plumbing count toward
 * the nearest caller that has one, so a socket write lands with node:net and a SHA-256 with
 * WebCrypto. Self time goes to the leaf's category; inclusive time to every category with a
 * frame anywhere on the sample's stack.
 */
const CATEGORIES: { name: string; test(url: string): boolean }[] = [
  { name: "React (react-dom/server)", test: (u) => /\/react-dom[@/]/.test(u) },
  { name: "React (react core)", test: (u) => /\/react[@/]/.test(u) },
  { name: "preact", test: (u) => /\/preact(-render-to-string)?[@/]/.test(u) },
  { name: "postgres.js", test: (u) => /\/postgres([@/]|$)/.test(u) },
  { name: "PGlite", test: (u) => /pglite/.test(u) },
  { name: "Hono", test: (u) => /\/hono[@/]/.test(u) },
  { name: "zod", test: (u) => /\/zod[@/]/.test(u) },
  { name: "Deno KV", test: (u) => u.startsWith("ext:deno_kv") },
  { name: "Deno HTTP server", test: (u) => u.startsWith("ext:deno_http") },
  {
    name: "Deno Request/Response/Headers/streams",
    test: (u) => /^ext:deno_(fetch|web|webidl|url)/.test(u),
  },
  { name: "WebCrypto (digest)", test: (u) => u.startsWith("ext:deno_crypto") },
  { name: "node compat (net sockets, buffers)", test: (u) => /^(ext:deno_node|node:)/.test(u) },
  { name: "Deno runtime (other)", test: (u) => u.startsWith("ext:") },
  {
    name: "app session (lib/sessions, routes/_auth)",
    test: (u) => /\/(lib\/sessions|routes\/_auth)\.ts$/.test(u),
  },
  { name: "app components/islands", test: (u) => /\/(components|islands)\/.+\.tsx?$/.test(u) },
  { name: "app routes", test: (u) => /\/routes\/.+\.tsx?$/.test(u) },
  { name: "app db/", test: (u) => /\/db\/[a-z_]+\.ts$/.test(u) },
  { name: "app lib/", test: (u) => /\/lib\/.+\.tsx?$/.test(u) },
  { name: "app main.ts", test: (u) => /\/main\.ts$/.test(u) },
];

/** Frames that stand for the VM itself rather than code. */
const SPECIAL = new Map([
  ["(garbage collector)", "GC"],
  ["(idle)", "idle"],
  ["(program)", "V8/native (program)"],
  ["(root)", "root"],
]);

function urlCategory(url: string): string | undefined {
  if (url === "" || url.startsWith("ext:core/")) return undefined;
  return CATEGORIES.find((c) => c.test(url))?.name ?? "other";
}

function shortUrl(url: string): string {
  return url
    .replace(/^file:\/\/.*?\/node_modules\/\.deno\/[^/]+\/node_modules\//, "npm:")
    .replace(/^file:\/\/\/work\/[^/]+\//, "");
}

/** The summary's figures: top self-time functions, self and inclusive ms per category. */
export interface ProfileSummary {
  windowMs: number;
  samples: number;
  top: { name: string; category: string; selfMs: number }[];
  selfByCategory: [string, number][];
  inclusiveByCategory: [string, number][];
}

/** Computes the summary of `profile`, optionally only its last `lastMs` milliseconds. */
export function summarizeProfile(
  profile: CpuProfile,
  { lastMs, top = 25 }: { lastMs?: number; top?: number } = {},
): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Sample i lasts from its timestamp to the next one (how DevTools reads the deltas).
  const stamps: number[] = [];
  let t = profile.startTime;
  for (const d of profile.timeDeltas) stamps.push(t += d);
  const from = lastMs === undefined ? -Infinity : profile.endTime - lastMs * 1000;
  const selfByNode = new Map<number, number>();
  let total = 0;
  let count = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    if (stamps[i] < from) continue;
    const next = i + 1 < stamps.length ? stamps[i + 1] : profile.endTime;
    const us = Math.max(0, next - stamps[i]);
    selfByNode.set(profile.samples[i], (selfByNode.get(profile.samples[i]) ?? 0) + us);
    total += us;
    count++;
  }
  const memo = new Map<number, string>();
  const categoryOf = (id: number): string => {
    let category = memo.get(id);
    if (category !== undefined) return category;
    const frame = byId.get(id)!.callFrame;
    const up = parent.get(id);
    category = SPECIAL.get(frame.functionName) ?? urlCategory(frame.url) ??
      (up === undefined ? "builtins" : categoryOf(up));
    memo.set(id, category);
    return category;
  };
  const selfByFunction = new Map<string, { category: string; us: number }>();
  const selfByCategory = new Map<string, number>();
  const inclusiveByCategory = new Map<string, number>();
  for (const [id, us] of selfByNode) {
    const frame = byId.get(id)!.callFrame;
    const category = categoryOf(id);
    const key = `${frame.functionName || "(anonymous)"}  ${shortUrl(frame.url)}${
      frame.url ? `:${frame.lineNumber + 1}` : ""
    }`;
    const entry = selfByFunction.get(key) ?? { category, us: 0 };
    entry.us += us;
    selfByFunction.set(key, entry);
    selfByCategory.set(category, (selfByCategory.get(category) ?? 0) + us);
    const onStack = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      onStack.add(categoryOf(n));
    }
    for (const c of onStack) inclusiveByCategory.set(c, (inclusiveByCategory.get(c) ?? 0) + us);
  }
  const ms = (us: number) => us / 1000;
  const sorted = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, ms(v)] as [string, number]);
  return {
    windowMs: ms(total),
    samples: count,
    top: [...selfByFunction]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, top)
      .map(([name, { category, us }]) => ({ name, category, selfMs: ms(us) })),
    selfByCategory: sorted(selfByCategory),
    inclusiveByCategory: sorted(inclusiveByCategory),
  };
}

/** Prints `summary` as three tables, with percentages of the busy (non-idle) time. */
export function printProfileSummary(summary: ProfileSummary): void {
  const idle = summary.selfByCategory.find(([c]) => c === "idle")?.[1] ?? 0;
  const busy = summary.windowMs - idle;
  const pct = (v: number) => `${(100 * v / busy).toFixed(1).padStart(5)} %`;
  console.log(
    `  window ${summary.windowMs.toFixed(0)} ms, ${summary.samples} samples; busy ${
      busy.toFixed(0)
    } ms (${(100 * busy / summary.windowMs).toFixed(0)} %), idle ${idle.toFixed(0)} ms`,
  );
  console.log("  self time by category (% of busy time):");
  for (const [c, v] of summary.selfByCategory) {
    if (c !== "idle" && c !== "root") {
      console.log(`    ${c.padEnd(44)} ${v.toFixed(0).padStart(7)} ms ${pct(v)}`);
    }
  }
  console.log("  inclusive time by category (on the stack anywhere; overlaps):");
  for (const [c, v] of summary.inclusiveByCategory) {
    if (!["idle", "root", "GC", "V8/native (program)"].includes(c)) {
      console.log(`    ${c.padEnd(44)} ${v.toFixed(0).padStart(7)} ms ${pct(v)}`);
    }
  }
  console.log("  top functions by self time:");
  for (const { name, category, selfMs } of summary.top) {
    if (category === "idle") continue;
    console.log(
      `    ${selfMs.toFixed(0).padStart(6)} ms ${pct(selfMs)}  ${name}  [${category}]`,
    );
  }
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: { last: { type: "string" }, top: { type: "string" } },
  });
  if (positionals.length !== 1) {
    console.error(
      "Usage: deno run -A bench/profile_summary.ts FILE.cpuprofile [--last MS] [--top N]",
    );
    Deno.exit(2);
  }
  const profile: CpuProfile = JSON.parse(await Deno.readTextFile(positionals[0]));
  printProfileSummary(summarizeProfile(profile, {
    lastMs: values.last === undefined ? undefined : Number(values.last),
    top: values.top === undefined ? undefined : Number(values.top),
  }));
}
