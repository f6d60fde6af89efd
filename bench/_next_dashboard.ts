/**
 * Issue 23's like-for-like Next.js dashboard: a client's /client-dashboard on Next.js 16 (App
 * Router, `next build` + `next start`, production), doing per request what Meridian's does, on
 * the same Postgres database as Meridian's server in the bench.
 *
 * The project is bench/next_dashboard/ with the next.config.mjs below, copied at bench time
 * below the Next install (BENCH_NEXT_DIR, default $TMPDIR/meridian-next-bench; BENCH_NEXT=1
 * installs it with npm; never inside the repository) and built there. How it matches
 * Meridian, as bench/_astro_dashboard.ts does for Astro:
 *
 * - Session: the page (a React Server Component, `dynamic = "force-dynamic"`) reads the
 *   `meridian_session` cookie with next/headers' cookies(), hashes it with node:crypto and looks
 *   the hash up in `bench_astro_sessions` (bench/_dashboard_shared.ts; the Astro side's table).
 * - Data: Meridian's own `getUserWithUnreadCount` and `listClientSurveysWithEvents`, imported
 *   from the checkout (`@meridian/…`, a bundler alias; `experimental.externalDir`), on a
 *   postgres.js pool set up as db/client.ts sets up Meridian's, whose backends carry
 *   NEXT_APPLICATION_NAME (PGAPPNAME) so their CPU counts as Next's.
 * - Markup: Meridian's components where a Server Component can render them (PageHeader,
 *   EmptyState, Pager, Logo, StatusBadge, SurveyorContact, QuoteBreakdown); the layout, the
 *   card and the tracker written from Meridian's (theirs render pieces through Meridian's own
 *   renderToString and HTML cache, and AppLayout.tsx and SurveyCard.tsx import islands, which
 *   Next refuses in the server graph) with Meridian's helpers for every value; ROLE_NAV and
 *   CLIENT_PAGE_SIZE passed by the bench. The islands are Meridian's islands/*.tsx as client
 *   components ('use client' in app/islands.jsx). components/react_server.ts (picks a React
 *   build with Deno.env at import; imported by the helpers' modules, never called) is replaced
 *   by a stub.
 * - Headers: the headers Meridian's dashboard answered with, set by the project's proxy.js
 *   (Next 16's middleware) on every answer, with a fresh X-Request-Id.
 *
 * Next's defaults are kept where Meridian has no equivalent: its React (the canary build Next
 * bundles for the App Router, not deno.json's), the RSC payload inlined in the page, every
 * client component hydrated at load, Turbopack (its default bundler; BENCH_NEXT_WEBPACK=1
 * builds with webpack).
 */
import { type NodeServer, prepareNpmInstall, startNodeServer, succeeds } from "./_astro.ts";
import {
  copyTree,
  type DashboardSetup,
  denoJsonPackage,
  POSTGRES_PACKAGE,
  storeSessions,
} from "./_dashboard_shared.ts";

const ROOT = new URL("../", import.meta.url);
const TEMPLATE = new URL("./next_dashboard/", import.meta.url);
/** Meridian's backends and Next's share a database; this tells Next's apart. */
export const NEXT_APPLICATION_NAME = "meridian_next_dashboard";
/** Next.js itself; 16.x runs on Node >= 20.9. */
const NEXT_PACKAGE = "next@16.4.6";

/**
 * The project's next.config.mjs (written here, not kept in bench/next_dashboard/, where `deno
 * check` would type-check it against deno.json). MERIDIAN_ROOT, set at build, is the checkout
 * whose islands, components, helpers and db functions the pages import as "@meridian/…", for
 * Turbopack (Next 16's default: an alias relative to the project, the common ancestor as its
 * root) and for webpack (BENCH_NEXT_WEBPACK=1).
 */
const NEXT_CONFIG = `// Written by bench/_next_dashboard.ts.
import path from "node:path";

const meridian = process.env.MERIDIAN_ROOT;
if (!meridian) throw new Error("MERIDIAN_ROOT is not set (bench/_next_dashboard.ts sets it)");
const here = path.dirname(new URL(import.meta.url).pathname);
const stub = path.join(here, "react_server_stub.js");
const relative = path.relative(here, meridian);
const [a, b] = [here.split("/"), meridian.split("/")];
let shared = 0;
while (shared < a.length && a[shared] === b[shared]) shared++;

export default {
  poweredByHeader: false,
  // Meridian's files are outside the project: compiled as the project's own.
  experimental: { externalDir: true },
  // Meridian's components/react_server.ts picks its vendored React build with Deno.env at
  // import; the helpers imported from its component files only need it to load: each bundler
  // gets react_server_stub.js instead.
  turbopack: {
    root: a.slice(0, shared).join("/") || "/",
    resolveAlias: { "@meridian/*": \`\${relative.startsWith(".") ? "" : "./"}\${relative}/*\` },
    rules: {
      "react_server.ts": { loaders: [path.join(here, "react_server_loader.cjs")], as: "*.ts" },
    },
  },
  webpack(config, { webpack }) {
    config.resolve.alias["@meridian"] = meridian;
    config.plugins.push(new webpack.NormalModuleReplacementPlugin(/\\/react_server\\.ts$/, stub));
    return config;
  },
};
`;

const REACT_SERVER_STUB =
  `// Stands in for Meridian's components/react_server.ts under Next (see next.config.mjs).
export function renderToString() {
  throw new Error("Meridian's renderToString is not used under Next");
}
export const serverRendererVersion = "";
`;

/** BENCH_NEXT_WEBPACK=1 builds with webpack (`next build --webpack`) instead of Turbopack. */
const WEBPACK = Deno.env.get("BENCH_NEXT_WEBPACK") === "1";

/**
 * Builds bench/next_dashboard/ below the Next install and starts it on Meridian's database.
 * Undefined (and a line saying why) when Next or its packages are not installed and BENCH_NEXT
 * is not 1, node/npm are missing, or the build fails.
 */
export async function startNextDashboard(
  setup: DashboardSetup,
): Promise<NodeServer | undefined> {
  const dir = await prepareNpmInstall({
    framework: "Next.js",
    dirVariable: "BENCH_NEXT_DIR",
    installVariable: "BENCH_NEXT",
    defaultName: "meridian-next-bench",
  }, [
    NEXT_PACKAGE,
    await denoJsonPackage("react"),
    await denoJsonPackage("react-dom"),
    await denoJsonPackage("zod"),
    POSTGRES_PACKAGE,
  ]);
  if (!dir) return undefined;
  await storeSessions(setup);
  const project = `${dir}/dashboard`;
  for (const generated of ["app", ".next", "proxy.js", "next.config.mjs"]) {
    await Deno.remove(`${project}/${generated}`, { recursive: true }).catch(() => {});
  }
  await copyTree(TEMPLATE.pathname.replace(/\/$/, ""), project);
  await Deno.writeTextFile(`${project}/next.config.mjs`, NEXT_CONFIG);
  await Deno.writeTextFile(`${project}/react_server_stub.js`, REACT_SERVER_STUB);
  await Deno.writeTextFile(
    `${project}/react_server_loader.cjs`,
    `// Turbopack's stand-in for Meridian's components/react_server.ts (see next.config.mjs).\n` +
      `module.exports = () => ${JSON.stringify(REACT_SERVER_STUB)};\n`,
  );
  await Deno.writeTextFile(
    `${project}/package.json`,
    JSON.stringify({ name: "meridian-next-bench-dashboard", private: true }),
  );
  const env = {
    MERIDIAN_ROOT: ROOT.pathname.replace(/\/$/, ""),
    DATABASE_URL: setup.databaseUrl,
    PGAPPNAME: NEXT_APPLICATION_NAME,
    BENCH_NEXT_HEADERS: JSON.stringify(setup.headers),
    MERIDIAN_CSS: setup.css,
    MERIDIAN_CLIENT_PAGE_SIZE: String(setup.pageSize),
    MERIDIAN_ROLE_NAV: JSON.stringify(setup.roleNav),
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_ENV: "production",
  };
  const next = `${dir}/node_modules/next/dist/bin/next`;
  const built = await succeeds("next build", "node", {
    args: [next, "build", WEBPACK ? "--webpack" : "--turbopack"],
    cwd: project,
    env,
  }, "Next.js");
  if (!built) return undefined;
  const version = JSON.parse(await Deno.readTextFile(`${dir}/node_modules/next/package.json`))
    .version;
  return await startNodeServer({
    cwd: project,
    readyPath: "/healthz",
    describe: `Next.js ${version} (App Router, ${WEBPACK ? "webpack" : "Turbopack"} build)`,
    command: (port) => ({ args: [next, "start", "-H", "127.0.0.1", "-p", String(port)], env }),
  });
}
