/**
 * `deno task bench`: starts the production server and measures, in one run,
 *  1. the landing page against a bare Deno.serve returning the same bytes (wrk, 64 connections),
 *  2. the JavaScript each public page loads (raw and gzip, from the build manifest),
 *  3. the per-endpoint benchmarks in bench/*.ts that exist (address suggestions, pricing,
 *     survey lists, forgot-password timing, signed-in pages, find-surveyors, the surveyor
 *     directory at 50,000 records, the lead market at 10,000 open leads, 20 MB survey files up
 *     and down on both storage providers), each printing its own
 *     figures.
 * Prints figures only; it asserts nothing.
 */
import { ensureBuild } from "../lib/assets.ts";
import { PUBLIC_PAGES } from "../lib/public_pages.ts";
import { freePort, waitFor } from "./_server.ts";
import { DENO_RUN } from "../tests/_deno.ts";

const ROOT = new URL("../", import.meta.url);
const DURATION = Deno.env.get("BENCH_DURATION") ?? "10s";
const CONNECTIONS = Number(Deno.env.get("BENCH_CONNECTIONS") ?? 64);

interface WrkResult {
  rps: number;
  p50: string;
  p99: string;
}

async function wrk(url: string): Promise<WrkResult> {
  const out = await new Deno.Command("wrk", {
    args: ["-t1", `-c${CONNECTIONS}`, `-d${DURATION}`, "--latency", url],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN);
  const p50 = /\s50%\s+(\S+)/.exec(text)?.[1] ?? "?";
  const p99 = /\s99%\s+(\S+)/.exec(text)?.[1] ?? "?";
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1];
  if (non2xx) console.warn(`  warning: ${non2xx} non-2xx responses from ${url}`);
  return { rps, p50, p99 };
}

function spawn(args: string[], env: Record<string, string> = {}) {
  return new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT.pathname,
    env,
    stdout: "null",
    stderr: "inherit",
  }).spawn();
}

async function hasWrk(): Promise<boolean> {
  try {
    const out = await new Deno.Command("wrk", {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    })
      .output();
    return out.code === 0 || out.code === 1;
  } catch {
    return false;
  }
}

async function landingVsBare(appUrl: string) {
  console.log(
    `\n## Landing page vs bare Deno.serve (wrk, ${CONNECTIONS} connections, ${DURATION})`,
  );
  if (!(await hasWrk())) {
    console.log("  wrk not found (apt-get install -y wrk); skipped");
    return;
  }
  const landing = await fetch(appUrl + "/");
  const html = await landing.arrayBuffer();
  const file = await Deno.makeTempFile({ suffix: ".html" });
  await Deno.writeFile(file, new Uint8Array(html));
  // The bare server sends the same body and the same headers (date and length aside).
  const sent = [...landing.headers].filter(([k]) => k !== "date" && k !== "content-length");
  const headersFile = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(headersFile, JSON.stringify(sent));
  const barePort = freePort();
  const bare = spawn([
    ...DENO_RUN,
    "bench/bare_server.ts",
    file,
    headersFile,
    String(barePort),
  ]);
  const bareUrl = `http://127.0.0.1:${barePort}`;
  await waitFor(bareUrl + "/");
  // Warm both, then alternate so drift affects both sides alike.
  await wrk(bareUrl + "/");
  await wrk(appUrl + "/");
  const results = { bare: [] as WrkResult[], app: [] as WrkResult[] };
  for (let round = 0; round < 2; round++) {
    results.bare.push(await wrk(bareUrl + "/"));
    results.app.push(await wrk(appUrl + "/"));
  }
  bare.kill("SIGTERM");
  await bare.status;
  await Deno.remove(file);
  await Deno.remove(headersFile);
  const best = (rs: WrkResult[]) => rs.reduce((a, b) => (b.rps > a.rps ? b : a));
  const b = best(results.bare);
  const a = best(results.app);
  console.log(`  body bytes: ${html.byteLength}; headers: ${sent.length} (same on both sides)`);
  console.log(`  bare Deno.serve : ${b.rps.toFixed(0)} req/s  p50 ${b.p50}  p99 ${b.p99}`);
  console.log(`  Meridian /      : ${a.rps.toFixed(0)} req/s  p50 ${a.p50}  p99 ${a.p99}`);
  console.log(`  ratio           : ${(a.rps / b.rps).toFixed(2)}× (target ≥ 0.80×)`);
}

async function pageJavaScript(appUrl: string) {
  console.log("\n## JavaScript per public page (from the build manifest)");
  const manifest = await ensureBuild();
  const pages = [...PUBLIC_PAGES, "/create-survey", "/auth"];
  console.log("  page                                   files   raw KB   gzip KB");
  for (const path of pages) {
    const res = await fetch(appUrl + path);
    const html = await res.text();
    const urls = new Set<string>();
    for (const m of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) urls.add(m[1]);
    for (const m of html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)) urls.add(m[1]);
    for (const m of html.matchAll(/data-src="([^"]+)"/g)) urls.add(m[1]);
    let raw = 0;
    let gzip = 0;
    for (const url of urls) {
      const size = manifest.sizes[url];
      if (size) {
        raw += size.raw;
        gzip += size.gzip;
      }
    }
    const label = urls.size === 0 ? "none" : String(urls.size);
    console.log(
      `  ${(path + ` (${res.status})`).padEnd(38)} ${label.padStart(5)} ${
        (raw / 1024).toFixed(1).padStart(8)
      } ${(gzip / 1024).toFixed(1).padStart(9)}`,
    );
  }
  console.log("  budget: landing ≤ 75 KB gzip; pages without islands 0 bytes");
}

async function endpointBenches() {
  for (
    const name of [
      "address_suggestions",
      "calculate_price",
      "surveys_list",
      "forgot_password",
      "signed_in_pages",
      "find_surveyors",
      "surveyors_list",
      "lead_market",
      "mail_sender",
      "files",
    ]
  ) {
    const path = new URL(`bench/${name}.ts`, ROOT);
    try {
      await Deno.stat(path);
    } catch {
      continue;
    }
    console.log(`\n## ${name}`);
    const out = await new Deno.Command(Deno.execPath(), {
      args: [...DENO_RUN, path.pathname],
      cwd: ROOT.pathname,
      env: { NODE_ENV: "production", LOG_REQUESTS: "0" },
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!out.success) console.log(`  ${name} failed (exit ${out.code})`);
  }
}

if (import.meta.main) {
  await ensureBuild();
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-bench-" });
  const port = freePort();
  const server = spawn([...DENO_RUN, "main.ts"], {
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: Deno.env.get("DATABASE_URL") ?? "",
  });
  const appUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor(appUrl + "/healthz");
    console.log(`# Meridian benchmarks (${new Date().toISOString()}, ${Deno.build.target})`);
    await landingVsBare(appUrl);
    await pageJavaScript(appUrl);
  } finally {
    server.kill("SIGTERM");
    await server.status;
    await Deno.remove(dataDir, { recursive: true });
  }
  await endpointBenches();
}
