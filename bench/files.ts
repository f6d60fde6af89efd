/**
 * Survey files (issue 12): upload and download of a 20 MB deliverable through the HTTP API of
 * a production server (main.ts in its own process), on both providers that work offline:
 *
 *  1. Postgres storage (file_chunks) on the embedded PGlite, or on Postgres with DATABASE_URL
 *     (a scratch database beside it, dropped at the end);
 *  2. S3-compatible storage: an s3rver in a process of its own (tests/_s3rver.ts) on a free
 *     port, selected in the server by S3_BUCKET / S3_ENDPOINT.
 *
 * The client streams the upload (a generated body, never built in memory) and counts the
 * download as it arrives, so the memory figures are the server's: its resident memory
 * (VmRSS from /proc) sampled every 20 ms while each transfer runs, as the peak above the
 * value just before it. A server that held the file whole would grow by at least 20 MB per
 * copy; streaming keeps the growth to its buffers (a few chunks, one 5 MB S3 part).
 *
 *   deno run -A bench/files.ts        (FILES_BENCH_MB=20, FILES_BENCH_ROUNDS=3)
 *
 * Prints figures only; it checks that each download's SHA-256 matches the upload.
 */
import { createHash } from "node:crypto";
import { openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { insertUser } from "../db/users.ts";
import { insertSurveyor } from "../db/surveyors.ts";
import { hashPassword } from "../lib/passwords.ts";
import { surveyRequest } from "../tests/_fixtures.ts";
import { startS3rver } from "../tests/_s3rver.ts";
import { freePort, scratchDatabase, waitFor } from "./_server.ts";
import { DENO_RUN } from "../tests/_deno.ts";

const ROOT = new URL("../", import.meta.url);
const MB = 1024 * 1024;
const FILE_MB = Number(Deno.env.get("FILES_BENCH_MB") ?? 20);
const ROUNDS = Number(Deno.env.get("FILES_BENCH_ROUNDS") ?? 3);
const PIECE = 256 * 1024;
export const PASSWORD = "bench password for the files";
const BUCKET = "meridian-bench-files";

export async function rssMb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN) / 1024;
}

/** Runs `work` while sampling the server's RSS; returns its result, seconds and peak growth. */
export async function sampled<T>(pid: number, work: () => Promise<T>) {
  const before = await rssMb(pid);
  let peak = before;
  let isRunning = true;
  const sampler = (async () => {
    while (isRunning) {
      peak = Math.max(peak, await rssMb(pid));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const start = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - start) / 1000, before, growth: peak - before };
  } finally {
    isRunning = false;
    await sampler;
  }
}

/** The file: a PDF header then a pattern, generated piece by piece. */
export function filePieces(
  size: number,
  hash: ReturnType<typeof createHash>,
): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const piece = new Uint8Array(Math.min(PIECE, size - sent));
      for (let i = 0; i < piece.length; i++) piece[i] = (sent + i) % 251;
      if (sent === 0) piece.set(new TextEncoder().encode("%PDF-1.7\n"));
      sent += piece.length;
      hash.update(piece);
      controller.enqueue(piece);
    },
  });
}

/** A multipart body (kind, then the file) streamed around `file`. */
export function multipart(
  file: ReadableStream<Uint8Array>,
  boundary: string,
): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const head = enc.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\ndeliverable\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="plat.pdf"\r\n` +
      `Content-Type: application/pdf\r\n\r\n`,
  );
  const tail = enc.encode(`\r\n--${boundary}--\r\n`);
  const reader = file.getReader();
  let stage = 0;
  return new ReadableStream({
    async pull(controller) {
      if (stage === 0) {
        stage = 1;
        return controller.enqueue(head);
      }
      if (stage === 1) {
        const { value, done } = await reader.read();
        if (!done) return controller.enqueue(value);
        stage = 2;
        return controller.enqueue(tail);
      }
      controller.close();
    },
  });
}

export async function login(appUrl: string, email: string): Promise<string> {
  const res = await fetch(`${appUrl}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: appUrl },
    body: JSON.stringify({ identifier: email, password: PASSWORD }),
  });
  await res.body?.cancel();
  if (res.status !== 200) throw new Error(`login answered ${res.status}`);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

/** The accounts (admin, client, surveyor with its firm's record), stored before the server starts. */
export async function seedAccounts(databaseUrl: string | undefined, dataDir: string) {
  const db = await openDatabase({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
  try {
    await migrate(db.sql);
    const passwordHash = await hashPassword(PASSWORD);
    const user = (role: "admin" | "client" | "surveyor") =>
      insertUser(db.sql, {
        email: `files-${role}@bench.test`,
        fullName: `Bench ${role}`,
        role,
        passwordHash,
      });
    await user("admin");
    await user("client");
    const surveyorUser = await user("surveyor");
    const surveyor = await insertSurveyor(db.sql, {
      companyName: "Bench Surveying",
      email: "office@bench-surveying.test",
      licenseStates: ["TX"],
      surveyTypes: ["boundary"],
      status: "active",
      inNetwork: true,
      lat: 30.3,
      lng: -97.75,
      userId: surveyorUser.id,
    });
    return { surveyorId: surveyor.id };
  } finally {
    await db.close();
  }
}

/** Through the API: the client requests a survey, the admin assigns the firm, it accepts. */
export async function jobFor(appUrl: string, surveyorId: string): Promise<string> {
  const call = async (cookie: string, method: string, path: string, body: unknown) => {
    const res = await fetch(`${appUrl}${path}`, {
      method,
      headers: { "content-type": "application/json", origin: appUrl, cookie },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${json.message}`);
    return json;
  };
  const client = await login(appUrl, "files-client@bench.test");
  const admin = await login(appUrl, "files-admin@bench.test");
  const surveyor = await login(appUrl, "files-surveyor@bench.test");
  const created = await call(client, "POST", "/api/surveys", surveyRequest());
  const surveyId = created.survey?.id ?? created.id;
  await call(admin, "POST", `/api/surveys/${surveyId}/assign/${surveyorId}`, { agreedPrice: 900 });
  await call(surveyor, "PATCH", `/api/surveys/${surveyId}/assignment/${surveyorId}/status`, {
    status: "accepted",
  });
  return surveyId;
}

async function runProvider(label: string, env: Record<string, string>) {
  const scratch = await scratchDatabase("meridian_bench_files");
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-files-" });
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
      ...env,
    },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const appUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${appUrl}/healthz`);
    const surveyId = await jobFor(appUrl, surveyorId);
    const cookie = await login(appUrl, "files-surveyor@bench.test");
    const size = FILE_MB * MB;
    console.log(`\n### ${label}: ${FILE_MB} MB file, ${ROUNDS} rounds`);
    console.log("  round   upload MB/s  RSS +MB   download MB/s  RSS +MB   server RSS before");
    for (let round = 1; round <= ROUNDS; round++) {
      const hash = createHash("sha256");
      const boundary = `bench${crypto.randomUUID()}`;
      const up = await sampled(server.pid, async () => {
        const res = await fetch(`${appUrl}/api/surveys/${surveyId}/files`, {
          method: "POST",
          headers: {
            origin: appUrl,
            cookie,
            "content-type": `multipart/form-data; boundary=${boundary}`,
          },
          body: multipart(filePieces(size, hash), boundary),
          duplex: "half",
        } as RequestInit);
        const body = await res.json();
        if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${body.message}`);
        return body.file as { id: string; sha256: string };
      });
      const uploadedHash = hash.digest("hex");
      const down = await sampled(server.pid, async () => {
        const res = await fetch(`${appUrl}/api/files/${up.result.id}`, { headers: { cookie } });
        if (res.status !== 200) throw new Error(`download answered ${res.status}`);
        const back = createHash("sha256");
        let bytes = 0;
        for await (const chunk of res.body!) {
          bytes += chunk.byteLength;
          back.update(chunk);
        }
        return { bytes, sha256: back.digest("hex") };
      });
      const isSame = up.result.sha256 === uploadedHash && down.result.sha256 === uploadedHash &&
        down.result.bytes === size;
      console.log(
        `  ${String(round).padStart(5)} ${(FILE_MB / up.seconds).toFixed(1).padStart(13)} ${
          up.growth.toFixed(1).padStart(8)
        } ${(FILE_MB / down.seconds).toFixed(1).padStart(15)} ${
          down.growth.toFixed(1).padStart(8)
        } ${up.before.toFixed(0).padStart(14)} MB${isSame ? "" : "  CHECKSUM MISMATCH"}`,
      );
    }
    console.log(
      `  (RSS +MB: the server's peak resident memory above its value before the transfer; one ` +
        `whole copy of the file would be +${FILE_MB} MB)`,
    );
  } finally {
    server.kill("SIGTERM");
    await server.status;
    await Deno.remove(dataDir, { recursive: true });
    await scratch.drop();
  }
}

if (import.meta.main) {
  const kind = Deno.env.get("DATABASE_URL") ? "Postgres" : "embedded PGlite";
  console.log(`# Survey files: ${FILE_MB} MB through the HTTP API (${kind})`);
  await runProvider(`Postgres storage (file_chunks) on ${kind}`, {});
  const directory = await Deno.makeTempDir({ prefix: "meridian-files-s3-" });
  const s3 = await startS3rver(directory, BUCKET);
  const port = s3.port;
  try {
    await runProvider("S3 storage (s3rver on loopback)", {
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "1",
    });
  } finally {
    await s3.stop();
    await Deno.remove(directory, { recursive: true });
  }
}
