/**
 * Device cookies: OWASP's defence against account lockout as a weapon
 * (https://owasp.org/www-community/Slow_Down_Online_Guessing_Attacks_with_Device_Cookies).
 *
 * The per-identifier login limit stops password guessing spread over many addresses, but it
 * also lets anyone lock any account out by failing on purpose. A browser that has signed in to
 * an account before gets a device cookie for that account; a login presenting it is counted
 * against that device's own limit instead of the account's, so strangers' failures cannot lock
 * it out, and a stolen cookie still buys only its own few guesses before it is locked out.
 *
 * Why a random token with its hash stored in KV, and not an HMAC-signed cookie: a signature
 * needs a server secret, and the app has none and must start with no keys. Generating one and
 * keeping it in KV would work, but then the cookie's validity would rest on a secret that sits
 * beside the data anyway, and a cookie could never be withdrawn before it expires. A 256-bit
 * random token is as unforgeable as a MAC (nobody can guess one that is stored), KV holds only
 * its SHA-256 (reading KV does not yield usable cookies, as with sessions), the record names
 * the account it was issued for, and deleting the record withdraws it. The cost is one KV read
 * per login that presents a cookie.
 *
 * Login code (routes/auth_api.ts) reads and writes the cookie with hono/cookie, using
 * `deviceCookie()` for its name and attributes; this module holds the tokens.
 */
import { keys, withKv } from "../db/kv.ts";
import { hashToken, randomToken } from "./sessions.ts";

/** Cookie name over plain http (development, tests). */
export const DEVICE_COOKIE_NAME = "meridian_device";
/**
 * Cookie name when PUBLIC_URL is https. `__Secure-` (not `__Host-`, which requires Path=/):
 * the cookie is only ever sent to the login endpoint.
 */
export const SECURE_DEVICE_COOKIE_NAME = "__Secure-meridian_device";
/** The only path the browser sends the cookie to. */
export const DEVICE_COOKIE_PATH = "/api/login";
/** How long a browser stays trusted for an account after signing in to it. */
export const DEVICE_TOKEN_TTL_MS = 365 * 24 * 60 * 60_000;

/** What KV stores for a device token (under the token's hash). */
export interface DeviceRecord {
  /** The account this browser signed in to. */
  userId: string;
  /** Epoch ms. */
  createdAt: number;
}

/** A device token presented with a login, found in KV. */
export interface KnownDevice {
  tokenHash: string;
  userId: string;
}

/** Name and attributes of the device cookie for PUBLIC_URL (Secure when it is https). */
export function deviceCookie(config: { PUBLIC_URL: string }) {
  const secure = new URL(config.PUBLIC_URL).protocol === "https:";
  return {
    name: secure ? SECURE_DEVICE_COOKIE_NAME : DEVICE_COOKIE_NAME,
    options: {
      httpOnly: true,
      secure,
      // Only the site's own sign-in form posts to /api/login; no other site needs it sent.
      sameSite: "Strict",
      path: DEVICE_COOKIE_PATH,
      maxAge: Math.floor(DEVICE_TOKEN_TTL_MS / 1000),
    },
  } as const;
}

/**
 * The device behind a cookie value, or null when the value is malformed, unknown, expired or
 * withdrawn. Does not say which account is signing in: the caller compares `userId`. Throws
 * `ServiceUnavailableError("kv")` when KV cannot be read (a 503, never "no device").
 */
export async function findDevice(
  kv: Deno.Kv,
  token: string | undefined,
): Promise<KnownDevice | null> {
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const tokenHash = await hashToken(token);
  const entry = await withKv(kv, () => kv.get<DeviceRecord>(keys.deviceToken(tokenHash)));
  if (!entry.value) return null;
  return { tokenHash, userId: entry.value.userId };
}

/**
 * Issues a device token for `userId` after a successful password sign-in and returns it (for
 * the cookie only). `replacing` (the hash of the token the browser presented, whichever account
 * it was for) is withdrawn: one cookie per browser, renewed at each sign-in. Throws
 * `ServiceUnavailableError("kv")` when KV cannot be written.
 */
export async function issueDeviceToken(
  kv: Deno.Kv,
  { userId, replacing, now = Date.now() }: { userId: string; replacing?: string; now?: number },
): Promise<string> {
  const token = randomToken(32);
  const record: DeviceRecord = { userId, createdAt: now };
  const op = kv.atomic().set(keys.deviceToken(await hashToken(token)), record, {
    expireIn: DEVICE_TOKEN_TTL_MS,
  });
  if (replacing) op.delete(keys.deviceToken(replacing));
  await withKv(kv, () => op.commit());
  return token;
}
