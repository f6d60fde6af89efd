import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "./_env.ts";

/** 400 text for a JSON body whose bytes are not well-formed UTF-8 (or hold a lone surrogate). */
export const INVALID_UTF8_MESSAGE = "Request body must be valid UTF-8";

// The media types Hono's json validator parses (hono/validator's jsonRegex).
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;
// A \uD800–\uDFFF escape: the only way a surrogate can appear in UTF-8 JSON text.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

// `fatal`: Request.json() (and so c.req.json()) decodes non-fatally, turning bad bytes into
// U+FFFD that would then be stored as if typed; the platform decoder can refuse them instead.
const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Refuses, with `400 {message}`, a JSON request body that is not well-formed UTF-8 or whose
 * strings (keys included) hold a lone surrogate escape such as `"\ud800"` (I-JSON, RFC 7493
 * §2.1). Mount after the body limit: it reads the body, which Hono caches for the validators
 * behind it. Malformed JSON is left to the validator's own 400.
 */
export const wellFormedJson = createMiddleware<AppEnv>(async (c, next) => {
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim();
  if (!c.req.raw.body || !JSON_TYPE.test(type)) return await next();
  const bytes = await c.req.arrayBuffer();
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new HTTPException(400, { message: INVALID_UTF8_MESSAGE });
  }
  if (SURROGATE_ESCAPE.test(text) && hasLoneSurrogate(text)) {
    throw new HTTPException(400, { message: INVALID_UTF8_MESSAGE });
  }
  await next();
});

/** True when `text` parses to JSON with a string or key that is not well-formed. */
function hasLoneSurrogate(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  // An explicit stack, not recursion: a 64 KB body can nest 30,000 levels deep.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") {
      if (!item.isWellFormed()) return true;
    } else if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
    } else if (item !== null && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        if (!key.isWellFormed()) return true;
        stack.push(child);
      }
    }
  }
  return false;
}
