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
 * - A reload with nothing changed: Meridian sends the bytes it sent last
 *   (routes/_remembered_pages.ts); so does this page (src/remembered.js: compared with
 *   Meridian's `sameData`, kept by the middleware, the same bounds), as an Astro developer
 *   would do it. Next's App Router pages cannot answer with stored bytes, so Next's side
 *   renders every view.
 * - Headers: the bench passes the headers Meridian's own dashboard answered with (security
 *   headers and Cache-Control), which the project's middleware sets on every answer, with a
 *   fresh X-Request-Id as Meridian's.
 *
 * Astro's own defaults are kept where Meridian has no equivalent: `compressHTML` (on by
 * default, what an Astro site ships), its island wrappers and inline island runtime (which
 * Meridian's `script-src 'self'` policy would block in a browser; the bench sends the same
 * header and measures the server only).
 */
import {
  ASTRO_PACKAGES,
  type AstroServer,
  buildAndStartAstro,
  type NodeRun,
  prepareAstro,
} from "./_astro.ts";
import {
  copyTree,
  type DashboardSetup,
  denoJsonPackage,
  POSTGRES_PACKAGE,
  storeSessions,
} from "./_dashboard_shared.ts";

const ROOT = new URL("../", import.meta.url);
const TEMPLATE = new URL("./astro_dashboard/", import.meta.url);
/** Meridian's backends and Astro's share a database; this tells Astro's apart. */
export const ASTRO_APPLICATION_NAME = "meridian_astro_dashboard";

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

/**
 * Builds bench/astro_dashboard/ next to the Astro install and starts it on Meridian's
 * database. Undefined (and a line saying why) when Astro or its packages are not installed
 * and BENCH_ASTRO is not 1, node/npm are missing, or the build fails.
 */
export async function startAstroDashboard(
  setup: DashboardSetup,
  run?: NodeRun,
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
    run,
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
