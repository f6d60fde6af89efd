/**
 * Helpers for page tests: fetch a page as a browser, read an island's props from the HTML, and
 * the page guards' two answers (signed out → /auth?returnTo=…, wrong role → the 403 page).
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./_assert.ts";
import type { TestApp } from "./_helpers.ts";

/** Request headers of a browser asking for a page. */
export const HTML = { accept: "text/html" } as const;

/** GET `path` as a browser (HTML accepted), signed in when `cookie` is given. */
export function getPage(t: TestApp, path: string, cookie?: string): Promise<Response> {
  return t.request("GET", path, { cookie, headers: HTML });
}

/**
 * `getPage` with the body read: the response (body used) and its HTML, with characters above
 * U+00FF as the browser reads them (`decodeCharacterReferences`).
 */
export async function loadPage(t: TestApp, path: string, cookie?: string) {
  const res = await getPage(t, path, cookie);
  return { res, html: decodeCharacterReferences(await res.text()) };
}

/**
 * The page's HTML without React's `<!-- -->` text separators, and with characters above U+00FF
 * as the browser shows them (`decodeCharacterReferences`), for text assertions.
 */
export async function pageText(res: Response): Promise<string> {
  return decodeCharacterReferences((await res.text()).replaceAll("<!-- -->", ""));
}

/** Asserts an HTML content type. */
export function assertHtml(res: Response, message?: string): void {
  assertMatch(res.headers.get("content-type") ?? "", /^text\/html/, message);
}

/**
 * `html` with the numeric character references the server writes for characters above U+00FF
 * (components/react_server.ts: `&#8212;` for "—") read as a browser reads them. `&amp;`,
 * `&lt;` and the like are left as they are.
 */
export function decodeCharacterReferences(html: string): string {
  return html.replace(/&#(\d+);/g, (ref, digits) => {
    const point = Number(digits);
    return point > 0xff && point <= 0x10ffff ? String.fromCodePoint(point) : ref;
  });
}

/**
 * The JSON props of the first island called `name` on the page, or undefined without one: the
 * `<script type="application/json">` after its marker (components/Island.tsx; an island's own
 * markup holds none), read as the browser does (islands/_boot.ts).
 */
export function findIslandProps(html: string, name: string): Record<string, unknown> | undefined {
  const marker = html.indexOf(`<div data-island="${name}"`);
  if (marker === -1) return undefined;
  const script = /<script type="application\/json">([^<]*)<\/script>/.exec(html.slice(marker));
  return script ? JSON.parse(script[1]) : undefined;
}

/** The JSON props of the first island called `name`; fails the test when the page lacks it. */
export function islandProps<T = Record<string, unknown>>(html: string, name: string): T {
  const props = findIslandProps(html, name);
  assert(props, `island ${name} not on the page`);
  return props as T;
}

/** Asserts a 302 to `location`. */
export function assertRedirect(res: Response, location: string, message?: string): void {
  assertEquals(res.status, 302, message);
  assertEquals(res.headers.get("location"), location, message);
}

/**
 * Asserts the guard's answer to a signed-out visitor of `path` (with its query): a 302 to
 * /auth with `path` as returnTo.
 */
export async function assertRedirectsToAuth(res: Response, path: string): Promise<void> {
  assertRedirect(res, `/auth?returnTo=${encodeURIComponent(path)}`, path);
  await res.body?.cancel();
}

/**
 * Asserts the guard's answer to a signed-in user without the page's role: the server-rendered
 * 403 page. Returns its HTML for checks that nothing of the page leaked.
 */
export async function assertForbiddenPage(res: Response, message?: string): Promise<string> {
  assertEquals(res.status, 403, message);
  assertHtml(res, message);
  const html = await res.text();
  assertStringIncludes(html, "403 Access Denied", message);
  return html;
}
