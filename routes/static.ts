import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { etag } from "hono/etag";
import { serveStatic } from "hono/deno";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { AppEnv } from "./_env.ts";

/**
 * The folder served at /static/, found beside this module rather than in the working
 * directory, so the server and a `deno compile --include static` binary serve the same files
 * wherever they are started. serveStatic joins `root` and the request path with node:path,
 * so an absolute root works.
 */
const STATIC_ROOT = fileURLToPath(new URL("../static/", import.meta.url));
const PREFIX = "/static/";
/** esbuild's content-hashed output: the name changes whenever the bytes do. */
const HASHED = /^build\/.*-[A-Z0-9]{8,}\.(?:js|css|svg)$/i;

/** Build files that dev.ts writes `.br` and `.gz` copies of. */
const PRECOMPRESSED = /[\\/]build[\\/][^\\/]+\.(?:css|js|svg)$/;

let realRoot: string | undefined;

/**
 * Lets a request through to serveStatic only when it names a regular file whose real path is
 * inside the static folder; anything else is a 404. serveStatic already refuses `..`, `//`,
 * backslashes and `%` left after decoding, but then opens whatever the joined path names:
 * Deno.open follows a symlink in static/ out of the folder, and a symlinked directory or
 * device (/dev/zero) would be opened and streamed. Any failure to resolve the path (missing,
 * too long, a loop, no permission) is the same 404: the visitor cannot tell them apart and
 * none of them is a server fault.
 */
const confineToRoot = createMiddleware<AppEnv>(async (c, next) => {
  const relative = c.req.path.slice(PREFIX.length);
  // deno-lint-ignore no-control-regex
  if (!relative || /[%\\\u0000-\u001f\u007f]/.test(relative)) return c.notFound();
  try {
    realRoot ??= await Deno.realPath(STATIC_ROOT);
    const target = await Deno.realPath(join(realRoot, relative));
    if (!target.startsWith(realRoot + sep)) return c.notFound();
    if (!(await Deno.stat(target)).isFile) return c.notFound();
  } catch {
    return c.notFound();
  }
  await next();
});

/**
 * Serves /static/* from the static folder with Hono's serveStatic: hashed build files are
 * immutable, others revalidate hourly against their ETag (a 304 when it still matches). The
 * build writes `.br` and `.gz` copies of its stylesheet, scripts and SVG (dev.ts
 * `precompress`): those are sent as they are to clients that accept them, with their own
 * ETag, instead of being compressed on every request; the app-wide `compress()` gzips the
 * other text files. Only regular files inside static/ are served; every other path is a 404.
 */
export const staticFiles = new Hono<AppEnv>().get(
  "/static/*",
  confineToRoot,
  etag(),
  serveStatic({
    root: STATIC_ROOT,
    rewriteRequestPath: (path) => path.slice(PREFIX.length),
    precompressed: true,
    onFound: async (path, c) => {
      c.header(
        "Cache-Control",
        HASHED.test(c.req.path.slice(PREFIX.length))
          ? "public, max-age=31536000, immutable"
          : "public, max-age=3600, must-revalidate",
      );
      // Size and modification time, as nginx does: etag() then compares it without hashing
      // the whole file on every request. Without an mtime (possible in a compiled binary's
      // embedded files) etag() falls back to hashing the body.
      // A precompressed copy is another representation: its own ETag (the encoding appended),
      // and every build file that has copies says the response varies with Accept-Encoding.
      const { size, mtime } = await Deno.stat(path);
      const encoding = c.res.headers.get("Content-Encoding");
      const tag = encoding ? `-${encoding}` : "";
      if (mtime) {
        c.header("ETag", `W/"${size.toString(36)}-${mtime.getTime().toString(36)}${tag}"`);
      }
      if (!encoding && PRECOMPRESSED.test(path)) c.header("Vary", "Accept-Encoding");
    },
  }),
  (c) => c.notFound(),
);
