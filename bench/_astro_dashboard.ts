/**
 * Issue 23's like-for-like Astro dashboard: a client's /client-dashboard on Astro 5 SSR (node
 * adapter, standalone, `output: "server"`, @astrojs/react for the islands), doing per request
 * what Meridian's does, on the same Postgres database as Meridian's server in the bench.
 *
 * The project is bench/astro_dashboard/ with the astro.config.mjs below, copied at bench time
 * next to the Astro install (`prepareAstro`, bench/_astro.ts; never inside the repository) and
 * built there. How it matches Meridian, and why:
 *
 * - Session: Meridian hashes the cookie's session id (SHA-256, hex) and reads the record from
 *   Deno KV, which node cannot open. The Astro page hashes the same cookie with node:crypto and
 *   looks the hash up in `bench_astro_sessions` (created here in the scratch database, one row
 *   per seeded client's session): one Postgres statement where Meridian makes a local KV read,
 *   a cost Astro pays and Meridian does not.
 * - Data: Meridian's own db functions, imported by the page through Vite (`@meridian/…`):
 *   `getUserWithUnreadCount` (the user and the bell's count in one statement, as the sessions
 *   middleware reads them) and `listClientSurveysWithEvents` (the page, the count, the
 *   timelines and the proposals in one statement), on a postgres.js pool set up as
 *   db/client.ts sets up Meridian's (npm's postgres.js 3.4.9: Meridian's vendored copy talks
 *   through Deno.connect). So both sides send the same SQL, not a copy of it.
 * - Markup: the server-only parts are .astro components written from Meridian's components
 *   (layout, page header, empty state, pager, survey card, progress tracker, surveyor contact),
 *   using Meridian's domain helpers for every value they show (labels, prices, dates, the
 *   tracker's steps), as an Astro developer with this codebase would. The islands are
 *   Meridian's own islands/*.tsx with the same hydration (`client:idle` for the bell and
 *   sign-out, `client:load` for the navigation and the toaster, `client:visible` for cancel and
 *   proposals); the price breakdown is Meridian's React component rendered on the server only.
 *   Vite dedupes React, so Meridian's files and Astro's renderer share one copy. Modules whose
 *   import graph cannot load under node are not imported: components/react_server.ts (picks a
 *   React build with Deno.env at import) is shimmed by the project's Vite config, and
 *   components/Proposals.tsx (its imports reach the jsx-email mail templates) is why the card
 *   repeats its three-line `firstProposalAt`.
 * - Headers: the bench passes the headers Meridian's own dashboard answered with (security
 *   headers and Cache-Control), which the project's middleware sets on every answer, with a
 *   fresh X-Request-Id as Meridian's.
 *
 * Astro's own defaults are kept where Meridian has no equivalent: `compressHTML` (on by
 * default, what an Astro site ships), its island wrappers and inline island runtime (which
 * Meridian's `script-src 'self'` policy would block in a browser; the bench sends the same
 * header and measures the server only).
 */
import postgres from "postgres";
import { ASTRO_PACKAGES, type AstroServer, buildAndStartAstro, prepareAstro } from "./_astro.ts";

const ROOT = new URL("../", import.meta.url);
const TEMPLATE = new URL("./astro_dashboard/", import.meta.url);
/** Meridian's backends and Astro's share a database; this tells Astro's apart. */
export const ASTRO_APPLICATION_NAME = "meridian_astro_dashboard";
/** npm's postgres.js at the version Meridian's vendored copy is built from. */
const POSTGRES_PACKAGE = "postgres@3.4.9";

/**
 * The project's astro.config.mjs (written here, not kept in bench/astro_dashboard/, where
 * `deno check` would resolve its npm imports against deno.json). MERIDIAN_ROOT, set at build,
 * is the checkout whose islands, helpers and db functions the pages import as "@meridian/…".
 */
const ASTRO_CONFIG = `// Written by bench/_astro_dashboard.ts.
import { defineConfig } from "astro/config";
import node from "@astrojs/node";
import react from "@astrojs/react";

const meridian = process.env.MERIDIAN_ROOT;
if (!meridian) throw new Error("MERIDIAN_ROOT is not set (bench/_astro_dashboard.ts sets it)");
const shim = new URL("./src/react_server_shim.js", import.meta.url).pathname;

export default defineConfig({
  output: "server",
  adapter: node({ mode: "standalone" }),
  integrations: [react()],
  devToolbar: { enabled: false },
  vite: {
    resolve: {
      alias: [{ find: /^@meridian\\//, replacement: meridian + "/" }],
      // Meridian's files resolve "react" from its own node_modules: one React, this project's.
      dedupe: ["react", "react-dom"],
    },
    plugins: [{
      // Meridian's components/react_server.ts picks its vendored React build with Deno.env at
      // import; the helpers imported from its component files only need it to load.
      name: "meridian-react-server-shim",
      enforce: "pre",
      resolveId(source, importer) {
        if (!source.endsWith("/react_server.ts") || !importer?.startsWith(meridian)) return null;
        return shim;
      },
    }],
  },
});
`;

/** What the Astro dashboard needs from the bench. */
export interface AstroDashboardSetup {
  /** The database Meridian's server uses (the sessions table is created in it). */
  databaseUrl: string;
  /** The signed-in clients: their `meridian_session=…` cookie and user id. */
  sessions: { cookie: string; userId: string }[];
  /** Headers every answer carries (Meridian's security headers, Cache-Control). */
  headers: [string, string][];
  /** The stylesheet's URL on Meridian's pages. */
  css: string;
  /** Surveys per dashboard page (routes/survey_pages.tsx CLIENT_PAGE_SIZE). */
  pageSize: number;
}

/** `name@version` of an npm package as deno.json imports it (React, zod: one version each side). */
async function denoJsonPackage(name: string): Promise<string> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const spec = String(config.imports[name] ?? "");
  if (!spec.startsWith(`npm:${name}@`)) throw new Error(`deno.json imports no npm:${name}@…`);
  return spec.slice("npm:".length);
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyTree(`${from}/${entry.name}`, `${to}/${entry.name}`);
    else await Deno.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}

/**
 * Stores each session's SHA-256 (hex, as Meridian keys its KV records) in
 * `bench_astro_sessions`, valid for a day, replacing what was there.
 */
async function storeSessions(setup: AstroDashboardSetup): Promise<void> {
  const sql = postgres(setup.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql`
      create table if not exists bench_astro_sessions (
        token_hash text primary key,
        user_id uuid not null references users (id),
        expires_at timestamptz not null)`;
    await sql`truncate bench_astro_sessions`;
    for (const { cookie, userId } of setup.sessions) {
      const token = cookie.slice(cookie.indexOf("=") + 1);
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
      const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
      await sql`
        insert into bench_astro_sessions (token_hash, user_id, expires_at)
        values (${hash}, ${userId}, now() + interval '1 day')`;
    }
    await sql`analyze bench_astro_sessions`;
  } finally {
    await sql.end();
  }
}

/**
 * Builds bench/astro_dashboard/ next to the Astro install and starts it on Meridian's
 * database. Undefined (and a line saying why) when Astro or its packages are not installed
 * and BENCH_ASTRO is not 1, node/npm are missing, or the build fails.
 */
export async function startAstroDashboard(
  setup: AstroDashboardSetup,
): Promise<AstroServer | undefined> {
  const react = await denoJsonPackage("react");
  const packages = [
    "@astrojs/react@4.4.2", // the last for Astro 5
    react,
    await denoJsonPackage("react-dom"),
    await denoJsonPackage("zod"),
    POSTGRES_PACKAGE,
  ];
  const dir = await prepareAstro(packages);
  if (!dir) return undefined;
  await storeSessions(setup);
  const project = `${dir}/dashboard`;
  for (const generated of ["src", "dist", "astro.config.mjs"]) {
    await Deno.remove(`${project}/${generated}`, { recursive: true }).catch(() => {});
  }
  await copyTree(TEMPLATE.pathname.replace(/\/$/, ""), project);
  await Deno.writeTextFile(`${project}/astro.config.mjs`, ASTRO_CONFIG);
  // Astro bundles the integrations its package.json lists into the server build (its
  // renderer's virtual modules break when node loads them from node_modules instead).
  const dependencies = Object.fromEntries([...ASTRO_PACKAGES, ...packages].map((spec) => {
    const at = spec.lastIndexOf("@");
    return [spec.slice(0, at), spec.slice(at + 1)];
  }));
  await Deno.writeTextFile(
    `${project}/package.json`,
    JSON.stringify({
      name: "meridian-astro-bench-dashboard",
      private: true,
      type: "module",
      dependencies,
    }),
  );
  return await buildAndStartAstro(dir, project, {
    readyPath: "/healthz",
    env: {
      MERIDIAN_ROOT: ROOT.pathname.replace(/\/$/, ""),
      DATABASE_URL: setup.databaseUrl,
      PGAPPNAME: ASTRO_APPLICATION_NAME,
      BENCH_ASTRO_HEADERS: JSON.stringify(setup.headers),
      MERIDIAN_CSS: setup.css,
      MERIDIAN_CLIENT_PAGE_SIZE: String(setup.pageSize),
    },
  });
}

/** A page reduced to what the visitor gets, for comparing Meridian's with Astro's. */
export interface VisibleMarkup {
  /** The markup with each island as `<island NAME hydrate="…">…</island>` and no scripts. */
  markup: string;
  /** Each island's props, in page order, as JSON with sorted keys. */
  props: string[];
}

/** Where two strings first differ: a few characters of each from there. */
export function firstDifference(a: string, b: string, names = ["a", "b"]): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const at = Math.max(0, i - 30);
  return `at ${i}: ${names[0]} "${a.slice(at, i + 50)}", ${names[1]} "${b.slice(at, i + 50)}"`;
}

function sortedJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v) =>
      v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
        : v,
  );
}

/** Astro's island props attribute (astro/runtime/server/serialize.js) back to plain values. */
function astroProps(value: unknown): unknown {
  if (!Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, astroProps(v)]));
  }
  const [type, inner] = value as [number, unknown];
  if (type === 1) return (inner as unknown[]).map(astroProps); // an array
  if (type === 0 && inner && typeof inner === "object") return astroProps(inner); // an object
  if (type === 0) return inner;
  throw new Error(`Astro prop of type ${type} not handled`);
}

function unescapeAttribute(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** Index just past the element opened at `start` (its `tag` counted for nesting). */
function elementEnd(html: string, start: number, tag: string): number {
  const pattern = new RegExp(`<(/?)${tag}\\b[^>]*>`, "g");
  pattern.lastIndex = start;
  let depth = 0;
  for (let m = pattern.exec(html); m; m = pattern.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return pattern.lastIndex;
  }
  throw new Error(`<${tag}> at ${start} is not closed`);
}

/** React's useId values inside an island start with its root's prefix; masked as `<prefix>`. */
function maskPrefix(inner: string, prefix: string): string {
  return prefix
    ? inner.replace(/="([^"]*)"/g, (_m, v: string) => `="${v.replaceAll(prefix, "<prefix>")}"`)
    : inner;
}

/**
 * What both servers send a visitor, with the ways two renderers spell the same page made
 * alike: each island wrapper (Meridian's `<div data-island data-id data-src data-hydrate>`
 * followed by its props script, Astro's `<astro-island uid prefix component-url renderer-url
 * props ssr client opts await-children>`) becomes `<island NAME hydrate="…">` around the
 * island's own markup, whose React useId prefix (`i0-`, `r0`) is masked and whose props are
 * compared apart, decoded from either spelling (Astro's end marker `<!--astro:end-->` dropped);
 * every other `<script>`, `<style>` and `<link rel="modulepreload">` is dropped (the island
 * loaders: Meridian's module scripts and preloads, Astro's inline runtime and its
 * `astro-island{display:contents}`); React's `<!-- -->` text separators are dropped and numeric
 * character references decoded (React writes `'` as `&#x27;`, Astro as `&#39;`, Meridian's
 * renderer characters above U+00FF as references); whitespace runs become one space and a space
 * next to a tag is dropped (Astro's compressHTML leaves one where a template breaks a line;
 * Meridian's React output has none between tags). Ids, times and asset names are not masked:
 * both servers read the same rows and link the same stylesheet.
 */
export function visibleMarkup(html: string): VisibleMarkup {
  const props: string[] = [];
  let out = "";
  let i = 0;
  const island =
    /<div data-island="([^"]+)" data-id="([^"]*)"[^>]*? data-hydrate="([^"]+)"[^>]*>|<astro-island\b([^>]*)>/g;
  for (let m = island.exec(html); m; m = island.exec(html)) {
    out += html.slice(i, m.index);
    const isAstro = m[4] !== undefined;
    const end = elementEnd(html, m.index, isAstro ? "astro-island" : "div");
    const closing = isAstro ? "</astro-island>".length : "</div>".length;
    let inner = html.slice(m.index + m[0].length, end - closing);
    let name: string, hydrate: string, prefix: string;
    i = end;
    if (isAstro) {
      const attr = (n: string) =>
        unescapeAttribute(new RegExp(`\\b${n}="([^"]*)"`).exec(m![4])?.[1] ?? "");
      name = JSON.parse(attr("opts")).name;
      hydrate = attr("client");
      prefix = attr("prefix");
      props.push(sortedJson(astroProps(JSON.parse(attr("props") || "{}"))));
      inner = inner.replace(/<template data-astro-template[^>]*>[\s\S]*?<\/template>/g, "");
    } else {
      [name, prefix, hydrate] = [m[1], m[2], m[3]];
      const script = /^<script type="application\/json">([\s\S]*?)<\/script>/.exec(html.slice(i));
      if (script) {
        props.push(sortedJson(JSON.parse(script[1])));
        i += script[0].length;
      }
    }
    out += `<island ${name} hydrate="${hydrate}">${maskPrefix(inner, prefix)}</island>`;
    island.lastIndex = i;
  }
  out += html.slice(i);
  const markup = out
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "")
    .replace(/<style\b[^>]*>[\s\S]*?<\/style>/g, "")
    .replace(/<link rel="modulepreload"[^>]*>/g, "")
    .replace(/<!-- -->|<!--astro:end-->/g, "")
    .replace(
      /&#(x[0-9a-f]+|\d+);/gi,
      (_m, code: string) =>
        String.fromCodePoint(code[0] === "x" ? parseInt(code.slice(1), 16) : Number(code)),
    )
    .replace(/\s+/g, " ").replace(/> /g, ">").replace(/ </g, "<");
  return { markup, props };
}
