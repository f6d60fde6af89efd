import { z } from "zod";
import { listenUrl } from "./public_url.ts";

const optionalUrl = z.string().url().optional();
const boolFlag = z.enum(["0", "1", "true", "false"]).optional().transform((v) =>
  v === "1" || v === "true"
);

/** Environment variables the app reads, with defaults for the embedded setup. */
export const ConfigSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default("127.0.0.1"),
  /**
   * The origin browsers use (behind a proxy: the proxy's). Unset: the address the server
   * listens on, http://HOST:PORT with the real port once it listens (lib/public_url.ts).
   */
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  DATABASE_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /**
   * On Postgres, how a page remembered by snapshot is checked (db/snapshot_cache.ts
   * `SnapshotCheck`): unset, adaptively. The embedded database always checks apart.
   */
  SNAPSHOT_CHECK: z.enum(["apart", "gate", "adaptive"]).optional(),
  KV_PATH: z.string().min(1).optional(),
  /**
   * A Deno KV Connect endpoint (Deno Deploy's KV, a self-hosted denokv) shared by several
   * instances, instead of the single-host KV file. Needs DENO_KV_ACCESS_TOKEN.
   */
  KV_URL: z.string().regex(/^https?:\/\/[^\s/?#]+/, "must be an http:// or https:// KV Connect URL")
    .refine(isUrl, "must be an http:// or https:// KV Connect URL").optional(),
  /** The KV Connect access token; Deno itself reads it from the environment. */
  DENO_KV_ACCESS_TOKEN: z.string().min(1).optional(),
  TRUST_PROXY: boolFlag,
  /**
   * How many trusted proxies append to X-Forwarded-For: the client is the entry that many
   * places from the right (entries further left are whatever the client sent).
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(1).max(10).default(1),
  LOG_REQUESTS: z.enum(["0", "1"]).default("1").transform((v) => v === "1"),
  /**
   * On (default): a new survey request is matched and the nearby in-network surveyors are
   * notified by a background job within seconds (lib/jobs.ts). Off: admins dispatch by hand.
   */
  AUTO_DISPATCH: z.enum(["0", "1", "true", "false"]).default("1").transform((v) =>
    v === "1" || v === "true"
  ),
  GOOGLE_MAPS_API_KEY: z.string().min(1).optional(),
  REGRID_API_TOKEN: z.string().min(1).optional(),
  REGRID_API_URL: z.string().url().default("https://app.regrid.com/api/v2"),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL").optional(),
  MAIL_FROM: z.string().min(3).default("Meridian <no-reply@meridian.local>"),
  ANALYTICS_SCRIPT_URL: optionalUrl,
  ANALYTICS_SITE_ID: z.string().min(1).optional(),
  CHAT_WIDGET_APP_ID: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
  /** Stripe secret key: with STRIPE_WEBHOOK_SECRET, surveyors top up by card (Checkout). */
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_\w+$/, "must be a Stripe secret key")
    .optional(),
  /** Signing secret of the Stripe webhook endpoint (/api/stripe/webhook). */
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\w+$/, "must be a whsec_ signing secret")
    .optional(),
  /** Tests only: the origin of a local fake Stripe API instead of api.stripe.com. */
  STRIPE_API_BASE: optionalUrl,
  /**
   * Survey files (photos, deliverables) go to this S3-compatible bucket when set; otherwise
   * they are kept in Postgres (table file_chunks), which needs nothing more.
   */
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name")
    .optional(),
  /** The S3 API origin for a provider other than AWS (MinIO, R2, s3rver); AWS's by default. */
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().regex(/^[a-z0-9-]{2,40}$/, "must be a region name").default("us-east-1"),
  /** With S3_SECRET_ACCESS_KEY; without both, the SDK's own chain (environment, instance role). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style URLs (endpoint/bucket/key), which most S3-compatible servers need. */
  S3_FORCE_PATH_STYLE: boolFlag,
  /**
   * Storage quotas in MB (MiB) for the files of one survey and of one firm's surveys;
   * unset: lib/survey_file_types.ts's 200 MB and 5 GB.
   */
  SURVEY_STORAGE_QUOTA_MB: z.coerce.number().int().min(1).max(10_000_000).optional(),
  FIRM_STORAGE_QUOTA_MB: z.coerce.number().int().min(1).max(100_000_000).optional(),
  /**
   * Google OAuth client (a "Web application" client in Google Cloud): with its secret, /auth
   * and the request flow offer "Continue with Google". Its authorised redirect URI must be
   * PUBLIC_URL + /auth/google/callback.
   */
  GOOGLE_OAUTH_CLIENT_ID: z.string().regex(/^[\w.-]{1,200}$/, "must be an OAuth client id")
    .optional(),
  GOOGLE_OAUTH_CLIENT_SECRET: z.string().min(1).max(200).optional(),
  /** Tests only: a local fake OAuth server's authorization endpoint instead of Google's. */
  GOOGLE_OAUTH_AUTH_URL: optionalUrl,
  /** Tests only: the fake server's token endpoint instead of Google's. */
  GOOGLE_OAUTH_TOKEN_URL: optionalUrl,
  /** Tests only: the `iss` the fake server puts in its ID tokens instead of Google's. */
  GOOGLE_OAUTH_ISSUER: optionalUrl,
  /**
   * Bearer token for `GET /metrics` (Prometheus text). Unset: the route answers 404. Long
   * enough that guessing it is hopeless.
   */
  METRICS_TOKEN: z.string()
    .regex(/^[\x21-\x7e]{24,256}$/, "must be 24 to 256 visible ASCII characters").optional(),
  /**
   * On SIGTERM/SIGINT: how long in-flight requests and background jobs may take to finish
   * before the server closes Postgres and KV and exits anyway (with code 1).
   */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(10),
  /**
   * Admission control (lib/admission.ts): requests worked on at once; beyond it requests wait
   * briefly or get a fast 503 with Retry-After. Unset: 4 per database pool connection, at
   * least 32 (40 against Postgres, 32 on the embedded database).
   */
  MAX_IN_FLIGHT_REQUESTS: z.coerce.number().int().min(1).max(100_000).optional(),
  /** Requests that may wait for a slot (unset: as many as MAX_IN_FLIGHT_REQUESTS); 0: none. */
  MAX_QUEUED_REQUESTS: z.coerce.number().int().min(0).max(100_000).optional(),
  /** How long a request waits for a slot before its 503 (milliseconds; unset: 250). */
  REQUEST_QUEUE_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).optional(),
}).superRefine((config, ctx) => {
  if (config.KV_URL && !config.DENO_KV_ACCESS_TOKEN) {
    ctx.addIssue({
      code: "custom",
      path: ["DENO_KV_ACCESS_TOKEN"],
      message: "KV_URL needs DENO_KV_ACCESS_TOKEN (the KV Connect access token)",
    });
  }
  // Two places to keep sessions would split them between instances: say which one wins.
  if (config.KV_URL && config.KV_PATH) {
    ctx.addIssue({ code: "custom", path: ["KV_PATH"], message: "set KV_PATH or KV_URL, not both" });
  }
  if (Boolean(config.S3_ACCESS_KEY_ID) !== Boolean(config.S3_SECRET_ACCESS_KEY)) {
    ctx.addIssue({
      code: "custom",
      path: [config.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"],
      message: "set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together",
    });
  }
  if (Boolean(config.GOOGLE_OAUTH_CLIENT_ID) !== Boolean(config.GOOGLE_OAUTH_CLIENT_SECRET)) {
    ctx.addIssue({
      code: "custom",
      path: [
        config.GOOGLE_OAUTH_CLIENT_ID ? "GOOGLE_OAUTH_CLIENT_SECRET" : "GOOGLE_OAUTH_CLIENT_ID",
      ],
      message: "set GOOGLE_OAUTH_CLIENT_ID and GOOGLE_OAUTH_CLIENT_SECRET together",
    });
  }
  // A payment taken without a verified webhook to credit it would be money lost.
  if (Boolean(config.STRIPE_SECRET_KEY) !== Boolean(config.STRIPE_WEBHOOK_SECRET)) {
    ctx.addIssue({
      code: "custom",
      path: [config.STRIPE_SECRET_KEY ? "STRIPE_WEBHOOK_SECRET" : "STRIPE_SECRET_KEY"],
      message: "set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET together",
    });
  }
});

/**
 * Validated configuration. `PUBLIC_URL` is always set: the variable, or else the address the
 * server listens on (`isPublicUrlSet` says which; see lib/public_url.ts).
 */
export type Config = Omit<z.infer<typeof ConfigSchema>, "PUBLIC_URL"> & {
  PUBLIC_URL: string;
  /** Whether PUBLIC_URL came from the environment rather than from HOST and PORT. */
  isPublicUrlSet: boolean;
};

/** Thrown by `loadConfig` with a message naming every bad variable. */
export class ConfigError extends Error {}

/**
 * Parses configuration from an environment map. Empty strings count as unset; an unset
 * PUBLIC_URL becomes http://HOST:PORT (the server corrects the port once it listens).
 * Throws `ConfigError` naming each invalid variable.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== "") cleaned[key] = value;
  }
  const result = ConfigSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  const { PUBLIC_URL, ...config } = result.data;
  if (PUBLIC_URL !== undefined) return { ...config, PUBLIC_URL, isPublicUrlSet: true };
  try {
    return { ...config, PUBLIC_URL: listenUrl(config.HOST, config.PORT), isPublicUrlSet: false };
  } catch {
    throw new ConfigError("Invalid configuration:\n  HOST: must be a host name or IP address");
  }
}

/**
 * What `Deno.openKv` opens: the KV Connect URL (KV_URL), else the KV file (KV_PATH, or
 * kv.sqlite3 under DATA_DIR).
 */
export function kvPath(config: Config): string {
  return config.KV_URL ?? config.KV_PATH ?? `${config.DATA_DIR}/kv.sqlite3`;
}

function isUrl(value: string): boolean {
  return URL.canParse(value);
}
