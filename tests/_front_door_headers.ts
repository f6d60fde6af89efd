import { assert, assertEquals } from "./_assert.ts";

/**
 * Checks that `res` carries, once each, the headers the front door gives every answer to a
 * signed-in request (routes/_front_door.ts): the security headers, `private, no-store` and one
 * request id, whether its route finished it (routes/_finished_response.ts) or not. Returns its
 * headers.
 */
export function assertFrontDoorHeaders(res: Response, label: string): Record<string, string> {
  const headers = Object.fromEntries(res.headers);
  assertEquals(headers["x-content-type-options"], "nosniff", label);
  assertEquals(headers["x-frame-options"], "DENY", label);
  assertEquals(headers["referrer-policy"], "strict-origin-when-cross-origin", label);
  assertEquals(headers["cross-origin-opener-policy"], "same-origin", label);
  assert(headers["content-security-policy"]?.startsWith("default-src 'self'; "), label);
  assert(!headers["content-security-policy"].includes(", default-src"), `${label}: once`);
  assertEquals(headers["cache-control"], "private, no-store", label);
  assert(/^[0-9a-f-]{36}$/.test(headers["x-request-id"]), `${label}: one request id`);
  return headers;
}
