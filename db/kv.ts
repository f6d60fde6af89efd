/**
 * Every Deno KV key the app uses is spelled here. Plural snake_case prefixes; indexes are
 * named `<things>_by_<field>`.
 */
export const keys = {
  rateLimit: (bucket: string, subject: string) => ["rate_limits", bucket, subject] as const,
  session: (idHash: string) => ["sessions", idHash] as const,
  sessionsByUser: (userId: string, idHash: string) => ["sessions_by_user", userId, idHash] as const,
  sessionsByUserPrefix: (userId: string) => ["sessions_by_user", userId] as const,
  health: () => ["health", "ping"] as const,
  deviceToken: (tokenHash: string) => ["device_tokens", tokenHash] as const,
};

/** Opens Deno KV at `path` (":memory:" for tests), creating its directory. */
export async function openKv(path: string): Promise<Deno.Kv> {
  if (path !== ":memory:") {
    const dir = path.replace(/\/[^/]*$/, "");
    if (dir && dir !== path) await Deno.mkdir(dir, { recursive: true });
  }
  return await Deno.openKv(path);
}

/** Result of a rate-limit hit: whether it is allowed and, if not, seconds to wait. */
export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * Counts one attempt in a fixed window of `windowMs` for (bucket, subject). Allowed while the
 * count is at most `limit`. Uses an atomic check so concurrent hits are all counted.
 */
export async function hitRateLimit(
  kv: Deno.Kv,
  { bucket, subject, limit, windowMs }: {
    bucket: string;
    subject: string;
    limit: number;
    windowMs: number;
  },
): Promise<RateLimitResult> {
  const key = keys.rateLimit(bucket, subject);
  for (let attempt = 0; attempt < 10; attempt++) {
    const now = Date.now();
    const entry = await kv.get<{ count: number; resetAt: number }>(key);
    const current = entry.value && entry.value.resetAt > now
      ? entry.value
      : { count: 0, resetAt: now + windowMs };
    if (current.count >= limit) {
      return { allowed: false, retryAfterSeconds: Math.ceil((current.resetAt - now) / 1000) };
    }
    const next = { count: current.count + 1, resetAt: current.resetAt };
    const res = await kv.atomic().check(entry).set(key, next, {
      expireIn: Math.max(1000, next.resetAt - now),
    }).commit();
    if (res.ok) return { allowed: true, retryAfterSeconds: 0 };
  }
  return { allowed: false, retryAfterSeconds: 1 };
}
