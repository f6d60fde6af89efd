/**
 * Upload memory (issue 20: "an upload of 24 MB raised the server's memory by 144 MB and eight
 * parallel ones to 577 MB"): how much the server's resident memory grows while it takes one
 * 24 MB upload, and eight at once.
 *
 *  1. The whole server (main.ts in its own process, production mode, Postgres storage in
 *     file_chunks; embedded PGlite, or Postgres with DATABASE_URL in a scratch database):
 *     POST /api/surveys/{id}/files as the surveyor, the body streamed by the client.
 *  2. The multipart parsers alone, each in a small server of its own (bench/_upload_parser.ts)
 *     that reads every file part to its end and drops it: the busboy reader of lib/multipart.ts
 *     and the hand-written reader it replaced (lib/multipart.ts at UPLOAD_BENCH_LEGACY_REF, read
 *     from git; skipped when git cannot show it).
 *
 * RSS is VmRSS from /proc, sampled every 20 ms; a figure is the peak above the value just
 * before the uploads started. Each upload's SHA-256 is checked (part 1).
 *
 *   deno run -A bench/upload_memory.ts     (UPLOAD_BENCH_MB=24, UPLOAD_BENCH_PARALLEL=8)
 *
 * Figures of 2026-11-28 (2 shared cores; RSS +MB first / again / 8 at once, noisy ±20 MB):
 *
 *   parser only, busboy          34–44 /  0–10 / 23–27 (3 per upload), 14–28 MB/s
 *   parser only, hand-written    34–38 /  5–11 / 34–37 (4–5 per upload), 12–37 MB/s
 *   main.ts on Postgres, chunks sent as bytea hex     176 / – / 168, 2.3–3.6 MB/s
 *   main.ts on Postgres, chunks sent as base64         93 / 14 / 190, 4.5–5.4 MB/s
 *   main.ts on PGlite, hex → base64                   114 → 39 / 27 / 280 → 279
 *
 * Neither parser holds a file: both stay near their buffers. busboy is kept (no worse, and
 * well-kept). The server's growth came from storing: postgres.js sent every parameter as text,
 * so each 256 KB chunk became a string of 340 KB (base64) or 512 KB (hex), over V8's regular
 * object size: it lands in the large-object space, which only a major GC frees.
 *
 * Then (later the same day, load average 7–22 from other work on the machine; two or three
 * runs each, RSS +MB first / again / 8 at once):
 *
 *   Postgres, base64 (before)           53 / 14 / 129,  98 / 30 / 83;  2.2–7.4 MB/s
 *   Postgres, base64 in 4 × 64 KB       88 / 37 / 87 (one run; strings under 128 KB)
 *   Postgres, bytes in binary (now)     70 / 1.2 / 1.1,  64 / 1.9 / 53,  66 / 0.5 / 53;
 *                                       3.4–18.7 MB/s
 *   the same with 8 MB files            42 / 10 / 33 (UPLOAD_BENCH_MB=8: not a third of it)
 *   PGlite, base64 (before)             41 / 0.5 / 107,  133 / 71 / 66
 *   PGlite, bytes in binary (now)       36 / 26 / 152,  36 / 30 / 185,  41 / 9 / 66
 *   parser only, busboy, 8 at once      9–54 (1–7 per upload): the floor of this measure
 *
 * Now each chunk goes as its bytes (a bytea parameter in binary format, vendor/postgres part 6)
 * and no string is made of it: on Postgres a second upload no longer grows the server, and
 * eight at once grow it about as much as the parser alone. On PGlite the database runs in the
 * server's process and its WASM heap grows with what it has written and cached, and never
 * shrinks: its figures swing by a hundred MB from run to run either way, and this bench cannot
 * tell the two apart there.
 */
import { createHash } from "node:crypto";
import { filePieces, jobFor, login, multipart, sampled, seedAccounts } from "./files.ts";
import { freePort, scratchDatabase, waitFor } from "./_server.ts";
import { DENO_RUN } from "../tests/_deno.ts";

const ROOT = new URL("../", import.meta.url);
const MB = 1024 * 1024;
const FILE_MB = Number(Deno.env.get("UPLOAD_BENCH_MB") ?? 24);
const PARALLEL = Number(Deno.env.get("UPLOAD_BENCH_PARALLEL") ?? 8);
/** The commit whose lib/multipart.ts is the hand-written reader (before busboy). */
const LEGACY_REF = Deno.env.get("UPLOAD_BENCH_LEGACY_REF") ??
  "bbaef4340ee44e76e951e1f56b26b2a99efd9934";

/** POSTs one `FILE_MB` upload to `url`; resolves with its answer's status and JSON. */
async function postUpload(url: string, headers: Record<string, string>) {
  const hash = createHash("sha256");
  const boundary = `bench${crypto.randomUUID()}`;
  const res = await fetch(url, {
    method: "POST",
    headers: { ...headers, "content-type": `multipart/form-data; boundary=${boundary}` },
    body: multipart(filePieces(FILE_MB * MB, hash), boundary),
    duplex: "half",
  } as RequestInit);
  const body = await res.json();
  return { status: res.status, body, sha256: hash.digest("hex") };
}

/**
 * One upload (the first since the process started, when its heap grows to its working size),
 * another, then `PARALLEL` at once, sampled on `pid`; prints a row each.
 */
async function measure(
  label: string,
  pid: number,
  upload: () => Promise<{ status: number; body: Record<string, unknown>; sha256: string }>,
  isOk: (r: { status: number; body: Record<string, unknown>; sha256: string }) => boolean,
) {
  // The parallel round twice: memory a database keeps (PGlite's WASM heap never shrinks)
  // shows as growth in the first round only; memory held per upload shows in both.
  const rounds = [[1, "first"], [1, "again"], [PARALLEL, "at once"], [PARALLEL, "again"]] as const;
  for (const [count, when] of rounds) {
    // Let the previous round's garbage go before measuring from a quiet baseline.
    await new Promise((r) => setTimeout(r, 1500));
    const run = await sampled(pid, () => Promise.all(Array.from({ length: count }, upload)));
    const failed = run.result.filter((r) => !isOk(r));
    console.log(
      `  ${label.padEnd(36)} ${String(count).padStart(2)} x ${FILE_MB} MB ${when.padEnd(7)} ${
        run.growth.toFixed(1).padStart(8)
      } MB ${(run.growth / count).toFixed(1).padStart(8)} MB ${
        ((count * FILE_MB) / run.seconds).toFixed(1).padStart(8)
      } MB/s ${run.before.toFixed(0).padStart(6)} MB${
        failed.length
          ? `  ${failed.length} FAILED: ${failed[0].status} ${JSON.stringify(failed[0].body)}`
          : ""
      }`,
    );
  }
}

async function wholeServer() {
  const scratch = await scratchDatabase("meridian_bench_uploads");
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-uploads-" });
  const { surveyorId } = await seedAccounts(scratch.url, dataDir);
  const port = freePort();
  const server = new Deno.Command(Deno.execPath(), {
    args: [...DENO_RUN, "main.ts"],
    cwd: ROOT.pathname,
    env: {
      NODE_ENV: "production",
      LOG_REQUESTS: "0",
      AUTO_DISPATCH: "0",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: scratch.url ?? "",
      // Room for every round's files on one survey.
      SURVEY_STORAGE_QUOTA_MB: String(FILE_MB * (PARALLEL + 2) * 2),
      FIRM_STORAGE_QUOTA_MB: String(FILE_MB * (PARALLEL + 2) * 2),
    },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const appUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${appUrl}/healthz`);
    const surveyId = await jobFor(appUrl, surveyorId);
    const cookie = await login(appUrl, "files-surveyor@bench.test");
    await measure(
      "main.ts, Postgres storage",
      server.pid,
      () => postUpload(`${appUrl}/api/surveys/${surveyId}/files`, { origin: appUrl, cookie }),
      (r) => r.status === 201 && (r.body.file as { sha256: string }).sha256 === r.sha256,
    );
  } finally {
    server.kill("SIGTERM");
    await server.status;
    await Deno.remove(dataDir, { recursive: true });
    await scratch.drop();
  }
}

/** The parser-only server for `module` (a lib/multipart.ts), measured. */
async function parserOnly(label: string, module: string) {
  const port = freePort();
  const server = new Deno.Command(Deno.execPath(), {
    args: [...DENO_RUN, "bench/_upload_parser.ts", module, String(port)],
    cwd: ROOT.pathname,
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const url = `http://127.0.0.1:${port}/`;
  try {
    await waitFor(url);
    await measure(
      label,
      server.pid,
      () => postUpload(url, {}),
      (r) => r.status === 200 && r.body.bytes === FILE_MB * MB,
    );
  } finally {
    server.kill("SIGTERM");
    await server.status;
  }
}

/** The hand-written reader from git, in a temporary file, or undefined when git cannot show it. */
async function legacyParser(): Promise<string | undefined> {
  const out = await new Deno.Command("git", {
    args: ["show", `${LEGACY_REF}:lib/multipart.ts`],
    cwd: ROOT.pathname,
    stdout: "piped",
    stderr: "null",
  }).output().catch(() => undefined);
  if (!out?.success) return undefined;
  const path = await Deno.makeTempFile({ prefix: "legacy_multipart_", suffix: ".ts" });
  await Deno.writeFile(path, out.stdout);
  return path;
}

if (import.meta.main) {
  const kind = Deno.env.get("DATABASE_URL") ? "Postgres" : "embedded PGlite";
  console.log(`# Upload memory: ${FILE_MB} MB files, 1 and ${PARALLEL} at once (${kind})`);
  console.log(
    `  ${"server".padEnd(36)} uploads               RSS +MB  per upload  throughput  RSS before`,
  );
  await wholeServer();
  await parserOnly(
    "parser only: busboy (lib/multipart.ts)",
    new URL("lib/multipart.ts", ROOT).href,
  );
  const legacy = await legacyParser();
  if (legacy) {
    try {
      await parserOnly("parser only: hand-written (before)", `file://${legacy}`);
    } finally {
      await Deno.remove(legacy);
    }
  } else {
    console.log(`  (the hand-written parser at ${LEGACY_REF} is not in this checkout's git)`);
  }
  console.log(
    `  (RSS +MB: the process's peak resident memory above its value before the uploads; a ` +
      `server holding each file whole would grow by at least ${FILE_MB} MB per upload)`,
  );
}
