/**
 * Where to send a user after signing in (spec section 2, /auth) and the open-redirect guard for
 * the `returnTo` query parameter. Browser-safe (no Deno APIs, type-only imports): the AuthForm
 * island uses it too, so server and browser apply the same rules.
 */
import type { Role } from "./roles.ts";

const DASHBOARDS: Record<Role, string> = {
  admin: "/admin-dashboard",
  client: "/client-dashboard",
  surveyor: "/surveyor-dashboard",
  technician: "/technician-dashboard",
};

/** The role's dashboard (`/dashboard` redirects here); `/` for an unknown role. */
export function dashboardPath(role: Role | string): string {
  return DASHBOARDS[role as Role] ?? "/";
}

const BASE = "http://return-to.invalid";
const MAX_LENGTH = 2048;

function startsWithOneSlash(value: string): boolean {
  return value.startsWith("/") && value[1] !== "/" && value[1] !== "\\";
}

function isSafeLayer(value: string): boolean {
  // One leading slash, then anything but a second slash or a backslash (browsers read `/\x`
  // as `//x`). No control characters anywhere: browsers strip tabs and newlines from URLs,
  // which would turn `/\t/evil` into `//evil`. No backslashes at all.
  // deno-lint-ignore no-control-regex
  if (!startsWithOneSlash(value) || /[\u0000-\u001f\u007f\\]/.test(value)) return false;
  // Then as the browser resolves it: dot segments go (`%2e` counts as a dot), so `/.//evil`
  // and `/client/..//evil` become the path `//evil`, which a Location header would send to
  // another host.
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return false;
  }
  return url.origin === BASE && startsWithOneSlash(url.pathname);
}

/**
 * `raw` as a local path (`/path?query#hash`, percent-encoded) if it is safe to redirect to,
 * else null. Safe means: starts with exactly one `/`, not `//` or `/\`, no scheme, no control
 * characters, and still so once the browser has resolved its dot segments, checked on the raw
 * value and after each round of percent-decoding; the result is the resolved (normalised) path.
 */
export function safeReturnTo(raw: string | null | undefined): string | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_LENGTH) return null;
  let layer = raw;
  for (let round = 0; round < 4; round++) {
    if (!isSafeLayer(layer)) return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(layer);
    } catch {
      return null;
    }
    if (decoded === layer) break;
    layer = decoded;
    if (round === 3) return null;
  }
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return null;
  }
  const local = url.pathname + url.search + url.hash;
  return url.origin === BASE && isSafeLayer(local) ? local : null;
}

/**
 * Where a user of `role` goes after signing in (or when /auth finds them signed in), honouring
 * `returnTo` exactly as spec section 2 lists it: admin always /admin-dashboard; surveyor,
 * client and technician only to a returnTo under their own prefix, else their dashboard; any
 * other role returnTo if present, else /. An unsafe returnTo counts as absent.
 */
export function redirectAfterLogin(role: Role | string, returnTo?: string | null): string {
  const target = safeReturnTo(returnTo);
  switch (role) {
    case "admin":
      return DASHBOARDS.admin;
    case "surveyor":
      return target?.startsWith("/surveyor") ? target : DASHBOARDS.surveyor;
    case "client":
      return target?.startsWith("/client") ? target : DASHBOARDS.client;
    case "technician":
      return target?.startsWith("/technician") ? target : DASHBOARDS.technician;
    default:
      return target ?? "/";
  }
}
