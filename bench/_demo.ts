/**
 * The demo network as the benches see it (bench/every_page.ts, bench/plans.ts): `deno task seed
 * --demo` run on a scratch database, the first account of each role it prints, and each role's
 * signed-in pages (its navigation and the first page of each kind one click from it).
 */
import { ROLE_NAV } from "../components/AppLayout.tsx";
import type { Role } from "../lib/roles.ts";
import { DENO_RUN } from "../tests/_deno.ts";

const ROOT = new URL("../", import.meta.url);

/** Every role, in the order the benches visit them. */
export const ROLES: Role[] = ["client", "surveyor", "technician", "admin"];

/**
 * The signed-in pages one click from a role's navigation, by the shape of their path: the
 * first link of each shape on the role's nav pages is measured.
 */
const DETAIL_PAGES: { label: string; path: RegExp }[] = [
  { label: "/survey/{id}", path: /^\/survey\/[0-9a-f-]{36}$/ },
  { label: "/surveyor/jobs/{id}", path: /^\/surveyor\/jobs\/[0-9a-f-]{36}$/ },
  { label: "/surveyor/leads/{id}", path: /^\/surveyor\/leads\/[0-9a-f-]{36}$/ },
  { label: "/leads/{id}", path: /^\/leads\/[0-9a-f-]{36}$/ },
  { label: "/technician-survey-detail/{id}", path: /^\/technician-survey-detail\/[0-9a-f-]{36}$/ },
  { label: "/surveyor-detail/{id}", path: /^\/surveyor-detail\/[0-9a-f-]{36}$/ },
  { label: "/admin/checklists/{type}", path: /^\/admin\/checklists\/[a-z_]+$/ },
  { label: "/admin/email-templates/{id}", path: /^\/admin\/email-templates\/[^/?#]+$/ },
];

/** A demo account as the seed prints it. */
export interface DemoAccount {
  role: Role;
  email: string;
  password: string;
}

/** Fills the database `env` names with the demo network; the first account of each role. */
export async function seedDemo(
  env: Record<string, string>,
): Promise<Map<Role, DemoAccount>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...DENO_RUN, "lib/cli/seed.ts", "--demo"],
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`seed --demo failed:\n${text}\n${new TextDecoder().decode(out.stderr)}`);
  }
  return demoAccountsIn(text);
}

/** The first account of each role in what `deno task seed --demo` printed. */
export function demoAccountsIn(text: string): Map<Role, DemoAccount> {
  const accounts = new Map<Role, DemoAccount>();
  for (const line of text.split("\n")) {
    const m = /^ {2}(admin|client|surveyor|technician)\s+(\S+@\S+)\s+(\S+)/.exec(line);
    if (m && !accounts.has(m[1] as Role)) {
      accounts.set(m[1] as Role, { role: m[1] as Role, email: m[2], password: m[3] });
    }
  }
  return accounts;
}

/** A signed-in page of the demo: "client /survey/{id}" and its path. */
export interface DemoPage {
  label: string;
  path: string;
}

/**
 * The role's nav pages and the first page of each `DETAIL_PAGES` shape they link to, as the
 * server at `url` answers them to `cookie`.
 */
export async function demoPagesOf(url: string, role: Role, cookie: string): Promise<DemoPage[]> {
  const pages: DemoPage[] = [];
  const found = new Set<string>();
  for (const { href } of ROLE_NAV[role]) {
    pages.push({ label: `${role} ${href}`, path: href });
    const html = await (await fetch(`${url}${href}`, { headers: { cookie } })).text();
    for (const [, raw] of html.matchAll(/href="(\/[^"]*)"/g)) {
      const path = raw.replaceAll("&amp;", "&");
      const shape = DETAIL_PAGES.find((d) => d.path.test(path));
      if (!shape || found.has(shape.label)) continue;
      found.add(shape.label);
      pages.push({ label: `${role} ${shape.label}`, path });
    }
  }
  return pages;
}
