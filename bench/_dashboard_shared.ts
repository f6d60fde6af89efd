/**
 * What the framework dashboards beside Meridian's (bench/_astro_dashboard.ts,
 * bench/_next_dashboard.ts) share: what they get from the bench, the npm packages they take
 * from deno.json, the copy of their project template and the sessions table both look the
 * session cookie up in (`bench_astro_sessions`: the name from when Astro was the only one).
 */
import postgres from "postgres";

const ROOT = new URL("../", import.meta.url);
/** npm's postgres.js at the version Meridian's vendored copy is built from. */
export const POSTGRES_PACKAGE = "postgres@3.4.9";

/** What a framework's dashboard (Astro's, Next's) needs from the bench. */
export interface DashboardSetup {
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
  /** Each role's navigation (components/AppLayout.tsx ROLE_NAV). */
  roleNav: Record<string, readonly { label: string; href: string }[]>;
}

/** `name@version` of an npm package as deno.json imports it (React, zod: one version each side). */
export async function denoJsonPackage(name: string): Promise<string> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const spec = String(config.imports[name] ?? "");
  if (!spec.startsWith(`npm:${name}@`)) throw new Error(`deno.json imports no npm:${name}@…`);
  return spec.slice("npm:".length);
}

/** Copies the directory `from` into `to`, file by file. */
export async function copyTree(from: string, to: string): Promise<void> {
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
export async function storeSessions(setup: DashboardSetup): Promise<void> {
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
