/**
 * Astro beside Meridian in the benches: a one-page Astro 5 project (node adapter, standalone,
 * output "server") whose page is the markup Meridian served, built and started with node.
 *
 * - `"ssr"`: the page is rendered by Astro on every request (bench/signed_in_pages.ts);
 * - `"static"`: the page is prerendered at build time (`export const prerender = true`) and
 *   the adapter serves the built file from dist/client/, as an Astro site serves its static
 *   pages (bench/landing_page.ts, issue 23: the landing page at ≥ 3× Astro static).
 *
 * BENCH_ASTRO=1 installs astro and @astrojs/node with npm into BENCH_ASTRO_DIR (default
 * $TMPDIR/meridian-astro-bench, never inside the repository); once that directory holds them,
 * later runs use it without the variable. Each mode builds in a folder of its own below it.
 * It needs `node` and `npm` on PATH.
 */

import { exists, freePort, hasCommand, waitFor } from "./_server.ts";
import { serverCommand } from "./_instructions.ts";

/**
 * Astro and its node adapter. Astro 6 and 7 need Node >= 22.12; 5.18 is the newest that runs
 * on the Node 20 found here.
 */
export const ASTRO_PACKAGES = ["astro@5.18.2", "@astrojs/node@9.5.5"];
const ROOT = new URL("../", import.meta.url);

/** A framework's server running on node beside Meridian's (Astro's, Next's). */
export interface NodeServer {
  url: string;
  /** The node process, for its CPU time. */
  pid: number;
  /** "Astro 5.18.2 on node v20…". */
  description: string;
  stop(): Promise<void>;
}

/** A running Astro server. */
export type AstroServer = NodeServer;

/**
 * Starts `node` with what `command` gives for a free port, in `cwd`, and waits until
 * `readyPath` answers (or stops it and throws). `describe` names the framework;
 * " on node v…" is added.
 */
export async function startNodeServer(
  { cwd, readyPath, describe, command, run = {} }: {
    cwd: string;
    readyPath: string;
    describe: string;
    command: (port: number) => { args: string[]; env: Record<string, string> };
    run?: NodeRun;
  },
): Promise<NodeServer> {
  const port = freePort();
  const { args, env } = command(port);
  const program = serverCommand("node", [...run.nodeArgs ?? [], ...args], run.callgrindDir);
  const child = new Deno.Command(program.program, {
    args: program.args,
    cwd,
    env,
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}${readyPath}`, program.readyTimeoutMs ?? 30_000);
  } catch (err) {
    child.kill("SIGTERM");
    await child.status;
    throw err;
  }
  const nodeVersion = new TextDecoder().decode(
    (await new Deno.Command("node", { args: ["--version"], stdout: "piped" }).output()).stdout,
  ).trim();
  return {
    url,
    pid: child.pid,
    description: `${describe} on node ${nodeVersion}`,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** How a node server is run: with flags before its script, or under callgrind (`--instructions`). */
export interface NodeRun {
  /** node's own flags (`--inspect=…`, `--expose-gc-as=…`). */
  nodeArgs?: string[];
  /** Under callgrind, its dumps written here (bench/_instructions.ts). */
  callgrindDir?: string;
}

/** How the page is served: rendered per request, or prerendered and served as a file. */
export type AstroMode = "ssr" | "static";

/**
 * Runs `command`; when it fails, says so with its stderr (`what` names it, `framework` what is
 * then skipped) and returns false.
 */
export async function succeeds(
  what: string,
  command: string,
  options: { args: string[]; cwd: string; env?: Record<string, string> },
  framework = "Astro",
): Promise<boolean> {
  const out = await new Deno.Command(command, { ...options, stdout: "null", stderr: "piped" })
    .output();
  if (!out.success) {
    console.log(
      `  ${what} failed; ${framework} skipped:\n${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return out.success;
}

/** Markup as an Astro template: braces in text are entities; scripts and styles stay as they are. */
function toAstroTemplate(html: string, mode: AstroMode): string {
  const body = html.replace(/(<[^>]*>)|([^<]+)/g, (_m, tag: string, text: string) => {
    if (tag) return tag.replace(/^<(script|style)\b/i, "<$1 is:inline");
    return text.replace(/[{}]/g, (ch) => (ch === "{" ? "&#123;" : "&#125;"));
  });
  const frontmatter = mode === "static"
    ? "// Meridian's landing page markup, prerendered by Astro at build time.\nexport const prerender = true;"
    : "// Meridian's landing page markup, rendered by Astro on every request.";
  return `---\n${frontmatter}\n---\n${body}`;
}

/** Where a framework beside Meridian is installed with npm, and the variables that say so. */
export interface NpmInstall {
  /** "Astro", "Next.js": what is skipped when it is not there. */
  framework: string;
  /** The variable naming the directory (BENCH_ASTRO_DIR). */
  dirVariable: string;
  /** The variable that lets npm install what is missing when it is "1" (BENCH_ASTRO). */
  installVariable: string;
  /** The directory's name under $TMPDIR when `dirVariable` is not set. */
  defaultName: string;
}

/**
 * The directory `install` names (its `dirVariable`, default $TMPDIR/`defaultName`) once it
 * holds `packages` ("name@version", each at that version), installing the missing ones with npm
 * when its `installVariable` is 1. Undefined (and a line saying why) when it would be inside the
 * repository, when they are missing and the variable is not 1, when node/npm are missing or when
 * npm fails.
 */
export async function prepareNpmInstall(
  install: NpmInstall,
  packages: readonly string[],
): Promise<string | undefined> {
  const { framework, dirVariable, installVariable, defaultName } = install;
  const given = Deno.env.get(dirVariable) ??
    `${Deno.env.get("TMPDIR") ?? "/tmp"}/${defaultName}`;
  const dir = given.startsWith("/") ? given : `${Deno.cwd()}/${given}`;
  if (`${dir}/`.startsWith(ROOT.pathname)) {
    console.log(`  ${dirVariable} ${dir} is inside the repository; ${framework} skipped`);
    return undefined;
  }
  const missing = [];
  for (const spec of packages) {
    const at = spec.lastIndexOf("@");
    const file = `${dir}/node_modules/${spec.slice(0, at)}/package.json`;
    const version = await Deno.readTextFile(file).then((t) => JSON.parse(t).version, () => "");
    if (version !== spec.slice(at + 1)) missing.push(spec);
  }
  if (missing.length > 0 && Deno.env.get(installVariable) !== "1") {
    console.log(
      `  ${missing.join(" ")} not installed in ${dir} (run once with ${installVariable}=1); ` +
        `${framework} skipped`,
    );
    return undefined;
  }
  if (!(await hasCommand("node")) || !(await hasCommand("npm"))) {
    console.log(`  node/npm not found; ${framework} skipped`);
    return undefined;
  }
  await Deno.mkdir(dir, { recursive: true });
  if (missing.length > 0) {
    console.log(`  installing ${missing.join(" ")} into ${dir} …`);
    if (!(await exists(`${dir}/package.json`))) {
      await Deno.writeTextFile(
        `${dir}/package.json`,
        JSON.stringify({ name: defaultName, private: true, type: "module" }),
      );
    }
    const installed = await succeeds("npm install", "npm", {
      args: ["install", "--no-audit", "--no-fund", ...missing],
      cwd: dir,
    }, framework);
    if (!installed) return undefined;
  }
  return dir;
}

/**
 * The directory Astro and the packages beside it are installed in (BENCH_ASTRO_DIR, default
 * $TMPDIR/meridian-astro-bench) once it holds `packages` besides Astro, installing the missing
 * ones with npm when BENCH_ASTRO is 1 (`prepareNpmInstall`).
 */
export function prepareAstro(packages: readonly string[]): Promise<string | undefined> {
  return prepareNpmInstall({
    framework: "Astro",
    dirVariable: "BENCH_ASTRO_DIR",
    installVariable: "BENCH_ASTRO",
    defaultName: "meridian-astro-bench",
  }, [...ASTRO_PACKAGES, ...packages]);
}

/**
 * Builds the Astro project in `project` (below the install `dir` of `prepareAstro`, which
 * node's module resolution finds from there) with `astro build` and starts its standalone
 * server with node and `env`, waiting until `readyPath` answers 2xx. Undefined (and a line
 * saying why) when the build fails; throws when the server does not come up.
 */
export async function buildAndStartAstro(
  dir: string,
  project: string,
  { readyPath = "/", env = {}, run }: {
    readyPath?: string;
    env?: Record<string, string>;
    run?: NodeRun;
  } = {},
): Promise<AstroServer | undefined> {
  const version = JSON.parse(await Deno.readTextFile(`${dir}/node_modules/astro/package.json`))
    .version;
  const built = await succeeds("astro build", "node", {
    args: [`${dir}/node_modules/astro/astro.js`, "build"],
    cwd: project,
    env: { ...env, ASTRO_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
  });
  if (!built) return undefined;
  return await startNodeServer({
    cwd: project,
    readyPath,
    describe: `Astro ${version}`,
    run,
    command: (port) => ({
      args: ["dist/server/entry.mjs"],
      env: { ...env, HOST: "127.0.0.1", PORT: String(port), NODE_ENV: "production" },
    }),
  });
}

/**
 * Builds the one-page project for `mode` with `html` as its page at `/` and starts it with node.
 * Undefined (and a line saying why) when Astro is not installed and BENCH_ASTRO is not 1, or
 * node/npm are missing, or the build fails.
 */
export async function startAstro(html: string, mode: AstroMode): Promise<AstroServer | undefined> {
  const dir = await prepareAstro([]);
  if (!dir) return undefined;
  // The project lives below the install, which node's module resolution finds from there.
  const project = `${dir}/${mode}`;
  await Deno.remove(`${project}/dist`, { recursive: true }).catch(() => {});
  await Deno.mkdir(`${project}/src/pages`, { recursive: true });
  await Deno.writeTextFile(
    `${project}/package.json`,
    JSON.stringify({ name: `meridian-astro-bench-${mode}`, private: true, type: "module" }),
  );
  await Deno.writeTextFile(
    `${project}/astro.config.mjs`,
    `import { defineConfig } from "astro/config";
import node from "@astrojs/node";

export default defineConfig({
  output: "server",
  adapter: node({ mode: "standalone" }),
  compressHTML: false,
  devToolbar: { enabled: false },
});
`,
  );
  await Deno.writeTextFile(`${project}/src/pages/index.astro`, toAstroTemplate(html, mode));
  if (mode === "static") {
    // The adapter serves a prerendered page from dist/client/: without the file, no such page.
    const server = await buildAndStartAstro(dir, project);
    if (server && !(await exists(`${project}/dist/client/index.html`))) {
      await server.stop();
      console.log("  astro build made no dist/client/index.html for the prerendered page; skipped");
      return undefined;
    }
    return server;
  }
  return await buildAndStartAstro(dir, project);
}
