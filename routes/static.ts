import { Hono } from "hono";
import { gzipSync } from "node:zlib";
import type { AppEnv } from "./_env.ts";

const STATIC_DIR = new URL("../static/", import.meta.url);
const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  ico: "image/x-icon",
  woff2: "font/woff2",
  txt: "text/plain; charset=utf-8",
  map: "application/json",
};
const COMPRESSIBLE = new Set(["js", "css", "json", "svg", "txt", "map"]);

interface StaticFile {
  body: Uint8Array<ArrayBuffer>;
  gzip?: Uint8Array<ArrayBuffer>;
  type: string;
  etag: string;
}

const cache = new Map<string, StaticFile | null>();

async function load(path: string): Promise<StaticFile | null> {
  if (cache.has(path)) return cache.get(path)!;
  let file: StaticFile | null = null;
  try {
    const body = await Deno.readFile(new URL(path, STATIC_DIR));
    const ext = path.split(".").pop()!.toLowerCase();
    const digest = await crypto.subtle.digest("SHA-1", body);
    const etag = `"${
      Array.from(new Uint8Array(digest).slice(0, 8), (b) => b.toString(16).padStart(2, "0"))
        .join("")
    }"`;
    file = {
      body,
      type: TYPES[ext] ?? "application/octet-stream",
      etag,
      gzip: COMPRESSIBLE.has(ext) && body.length > 512
        ? new Uint8Array(gzipSync(body, { level: 9 }))
        : undefined,
    };
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound || err instanceof Deno.errors.IsADirectory)) {
      throw err;
    }
  }
  // Build output changes in dev; cache only what cannot change under the same name.
  if (path.startsWith("build/") && !path.endsWith("manifest.json")) cache.set(path, file);
  return file;
}

/** Serves /static/*: hashed build files immutable, others revalidated; gzip when accepted. */
export const staticFiles = new Hono<AppEnv>().get("/static/*", async (c) => {
  const path = decodeURIComponent(c.req.path.slice("/static/".length));
  if (!path || path.includes("..") || path.includes("\\") || path.startsWith("/")) {
    return c.notFound();
  }
  const file = await load(path);
  if (!file) return c.notFound();
  const isHashed = path.startsWith("build/") && /-[A-Z0-9]{8,}\.(js|css)$/i.test(path);
  const headers: Record<string, string> = {
    "Content-Type": file.type,
    "Cache-Control": isHashed
      ? "public, max-age=31536000, immutable"
      : "public, max-age=3600, must-revalidate",
    "ETag": file.etag,
    "Vary": "Accept-Encoding",
  };
  if (c.req.header("if-none-match") === file.etag) return c.body(null, 304, headers);
  if (file.gzip && /\bgzip\b/.test(c.req.header("accept-encoding") ?? "")) {
    return c.body(file.gzip, 200, { ...headers, "Content-Encoding": "gzip" });
  }
  return c.body(file.body, 200, headers);
});
