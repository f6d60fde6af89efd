import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "./_env.ts";
import { hitRateLimit } from "../db/kv.ts";
import { hashToken } from "../lib/sessions.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** One limit: at most `limit` attempts per fixed window of `windowMs`. */
export interface ActionLimit {
  limit: number;
  windowMs: number;
}

/**
 * Limits on actions that cost money or send email (issue 20), counted in Deno KV so that they
 * hold across instances, like the sign-in limits (routes/auth_api.ts RATE_LIMITS). Each is set
 * well above what a real surveyor or admin does, so only scripts and abuse ever meet them:
 *
 * - `leadTakes`: buys and claims together, per account. A lead has three places and a busy
 *   firm buys a handful a day; 30 in 10 minutes is a whole market page bought one by one.
 * - `checkouts`: Stripe Checkout sessions, per account. A top-up is one session, a few when
 *   the payer cancels and starts again; 10 an hour.
 * - `technicianInvites` (per inviting account) and `surveyorInvites` (per admin): a firm
 *   onboarding a whole crew, an admin inviting a county's directory, stay well below.
 * - `invitesPerRecipient`: invitations of any kind to one address, whoever sends them: a
 *   person needs one, a resend or two when it is lost; 3 an hour, so nobody can be mail-bombed.
 * - `messages`: messages on the job (issue 22), per account, every thread together. A brisk
 *   conversation is a message a minute; 60 in 10 minutes is a script.
 */
export const ACTION_LIMITS = {
  leadTakes: { limit: 30, windowMs: 10 * MINUTE },
  checkouts: { limit: 10, windowMs: HOUR },
  technicianInvites: { limit: 30, windowMs: HOUR },
  surveyorInvites: { limit: 100, windowMs: HOUR },
  invitesPerRecipient: { limit: 3, windowMs: HOUR },
  messages: { limit: 60, windowMs: 10 * MINUTE },
} as const satisfies Record<string, ActionLimit>;

/** One counter to hit: `bucket` names the action, `subject` whom it counts. */
export interface RateRule extends ActionLimit {
  bucket: string;
  subject: string;
}

/** The rule counting `limit` per account (user id) in `bucket`. */
export function perAccount(c: Context<AppEnv>, bucket: string, limit: ActionLimit): RateRule {
  return { bucket, subject: c.var.user!.id, ...limit };
}

/**
 * The rule counting `limit` per recipient address in `bucket`; the address is hashed, so KV
 * never holds what people typed.
 */
export async function perRecipient(
  bucket: string,
  email: string,
  limit: ActionLimit,
): Promise<RateRule> {
  return { bucket, subject: await hashToken(email.trim().toLowerCase()), ...limit };
}

function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

/**
 * Counts one attempt against every rule, before the action does anything. Over any limit:
 * throws a 429 `{message: "Too many {what}. Please try again in N minutes."}` with
 * `Retry-After` (the longest wait), so nothing is stored, charged or sent. Throws
 * `ServiceUnavailableError` (503) when KV cannot count the attempt: it is not let through.
 */
export async function enforceActionLimits(
  c: Context<AppEnv>,
  what: string,
  rules: RateRule[],
): Promise<void> {
  let wait = 0;
  for (const rule of rules) {
    const result = await hitRateLimit(c.var.kv, rule);
    if (!result.allowed) wait = Math.max(wait, result.retryAfterSeconds, 1);
  }
  if (wait > 0) {
    const message = `Too many ${what}. Please try again in ${waitText(wait)}.`;
    throw new HTTPException(429, {
      res: new Response(JSON.stringify({ message }), {
        status: 429,
        headers: {
          "Content-Type": "application/json",
          "Retry-After": String(wait),
          "Cache-Control": "no-store",
        },
      }),
    });
  }
}
