/**
 * `deno run -A bench/lighthouse.ts [path …]`: Lighthouse (mobile, its default throttling) on
 * public pages of a production server on a scratch embedded database (or a scratch Postgres
 * database beside DATABASE_URL), in Debian's Chromium. Prints the four category scores per page
 * and every audit under 0.9 that counts towards them. Lighthouse is a Node program: it runs
 * through `npx` from the npm registry (pinned), in a folder outside the checkout
 * (`LIGHTHOUSE_DIR`, default ~/.cache/meridian-lighthouse), so nothing of it is in the project's
 * dependencies. Without paths: the landing page, a service page, /for-surveyors and the
 * first state, town and firm pages the sitemap lists once the demo network is seeded
 * (`BENCH_DEMO=0` skips the seeding). Figures only; it asserts nothing.
 */
import { freePort, scratchDatabase, waitFor } from "./_server.ts";
import { DENO_RUN } from "../tests/_deno.ts";

const LIGHTHOUSE = "lighthouse@13.5.0";
const CHROMIUM = Deno.env.get("CHROME_PATH") ?? "/usr/bin/chromium";
const ROOT = new URL("../", import.meta.url);
const HOME = Deno.env.get("HOME") ?? "/tmp";
const TOOL_DIR = Deno.env.get("LIGHTHOUSE_DIR") ?? `${HOME}/.cache/meridian-lighthouse`;

interface Audit {
  id: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
}
interface Report {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, Audit>;
  runtimeError?: { message: string };
}

async function ensureLighthouse(): Promise<string> {
  const bin = `${TOOL_DIR}/node_modules/.bin/lighthouse`;
  try {
    await Deno.stat(bin);
    return bin;
  } catch { /* install below */ }
  await Deno.mkdir(TOOL_DIR, { recursive: true });
  await Deno.writeTextFile(`${TOOL_DIR}/package.json`, '{"private":true}');
  const out = await new Deno.Command("npm", {
    args: ["install", "--no-audit", "--no-fund", LIGHTHOUSE],
    cwd: TOOL_DIR,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return bin;
}

async function sitemapPages(base: string): Promise<string[]> {
  const found: string[] = [];
  const seen = new Set<string>();
  const robots = await (await fetch(`${base}/robots.txt`)).text();
  const queue = [...robots.matchAll(/^Sitemap:\s*(\S+)/gim)].map((m) =>
    `${base}${new URL(m[1]).pathname}`
  );
  while (queue.length && seen.size < 10) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const res = await fetch(url);
    if (!res.ok) {
      await res.body?.cancel();
      continue;
    }
    const xml = await res.text();
    for (const m of xml.matchAll(/<loc>([^<]+)<\/loc>/g)) {
      const loc = new URL(m[1]);
      const path = loc.pathname;
      if (xml.includes("<sitemapindex")) queue.push(`${base}${path}`);
      else found.push(path);
    }
  }
  return found;
}

async function audit(bin: string, url: string): Promise<Report> {
  // A file, not stdout: lighthouse exits before a pipe drains, cutting reports at 64 KB.
  const file = await Deno.makeTempFile({ prefix: "meridian-lighthouse-", suffix: ".json" });
  await new Deno.Command(bin, {
    args: [
      url,
      "--quiet",
      "--output=json",
      `--output-path=${file}`,
      "--form-factor=mobile",
      "--only-categories=performance,accessibility,best-practices,seo",
      "--chrome-flags=--headless=new --no-sandbox",
    ],
    env: { CHROME_PATH: CHROMIUM },
    stdout: "null",
    stderr: "piped",
  }).output();
  try {
    return JSON.parse(await Deno.readTextFile(file)) as Report;
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}

const bin = await ensureLighthouse();
const db = await scratchDatabase("meridian_lighthouse");
const dataDir = await Deno.makeTempDir({ prefix: "meridian-lighthouse-" });
const port = freePort();
const server = new Deno.Command(Deno.execPath(), {
  args: [...DENO_RUN, "main.ts"],
  cwd: ROOT,
  env: {
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: db.url ?? "",
  },
  stdout: "null",
  stderr: "null",
}).spawn();
const base = `http://127.0.0.1:${port}`;
try {
  await waitFor(`${base}/readyz`);
  if (Deno.env.get("BENCH_DEMO") !== "0") {
    await new Deno.Command(Deno.execPath(), {
      args: [...DENO_RUN, "lib/cli/seed.ts", "--demo"],
      cwd: ROOT,
      env: { DATA_DIR: dataDir, DATABASE_URL: db.url ?? "" },
      stdout: "null",
      stderr: "null",
    }).output();
  }
  let paths = Deno.args;
  if (!paths.length) {
    const listed = await sitemapPages(base);
    paths = ["/", "/services/boundary-surveys", "/for-surveyors"];
    const state = listed.find((p) => /^\/land-surveyors\/[a-z]{2}$/.test(p));
    const town = listed.find((p) => /^\/land-surveyors\/[a-z]{2}\/[^/]+$/.test(p));
    const serviceTown = listed.find((p) => /^\/services\/[^/]+\/[a-z]{2}\/[^/]+$/.test(p));
    const firm = listed.find((p) => p.startsWith("/firms/"));
    for (const p of [state, town, serviceTown, firm]) if (p) paths.push(p);
  }
  console.log(`Lighthouse ${LIGHTHOUSE}, mobile, ${CHROMIUM}; load ${await load()}`);
  console.log("| page | performance | accessibility | best practices | SEO |");
  console.log("|---|---|---|---|---|");
  const below: string[] = [];
  for (const path of paths) {
    const report = await audit(bin, `${base}${path}`);
    if (report.runtimeError) {
      console.log(`| ${path} | ${report.runtimeError.message} | | | |`);
      continue;
    }
    const score = (k: string) => {
      const s = report.categories[k]?.score;
      return s == null ? "–" : String(Math.round(s * 100));
    };
    console.log(
      `| ${path} | ${score("performance")} | ${score("accessibility")} | ${
        score("best-practices")
      } | ${score("seo")} |`,
    );
    const counted = new Set(
      Object.values(report.categories).flatMap((c) =>
        c.auditRefs.filter((r) => r.weight > 0).map((r) => r.id)
      ),
    );
    for (const a of Object.values(report.audits)) {
      if (counted.has(a.id) && a.score !== null && a.score < 0.9) {
        below.push(`  ${path}: ${a.id} ${a.score} ${a.displayValue ?? ""}`);
      }
    }
  }
  if (below.length) console.log(`Audits under 0.9:\n${below.join("\n")}`);
} finally {
  server.kill("SIGTERM");
  await server.status;
  await db.drop();
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}

async function load(): Promise<string> {
  const text = await Deno.readTextFile("/proc/loadavg").catch(() => "?");
  return text.split(" ").slice(0, 3).join(" ");
}
