/**
 * Helpers for the fieldwork end-to-end test: small real files (a 1×1 PNG photo and a one-page
 * PDF plat), a browser context per person (own cookies, own network switch, own time zone), and
 * a console watch that catches hydration warnings and errors on each page.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { sessionFor } from "../_auth.ts";
import type { TestApp } from "../_helpers.ts";
import type { User } from "../../db/users.ts";

/** A real 1×1 PNG (decodable, so the checklist's preview image loads without errors). */
export const PHOTO_PNG: Uint8Array<ArrayBuffer> = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

/** A small, well-formed one-page PDF (what a plat export starts with: `%PDF-`). */
export const PLAT_PDF: Uint8Array<ArrayBuffer> = new TextEncoder().encode(
  [
    "%PDF-1.4",
    "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj",
    "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj",
    "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj",
    "trailer << /Root 1 0 R >>",
    "%%EOF",
    "",
  ].join("\n"),
);

/** One person's browser: their context (cookies, network, viewport) and the issues seen. */
export interface Person {
  context: BrowserContext;
  /** Console errors, hydration warnings and page errors, as "url: text". */
  problems: string[];
  newPage(): Promise<Page>;
}

/** Chromium's note of a request that failed because the context is offline (expected then). */
const OFFLINE_NOISE = /net::ERR_INTERNET_DISCONNECTED/;

/**
 * A browser context signed in as `user`, in the property's time zone (so "today" on the device
 * is the day the server expects). Every page opened through it is watched: console errors,
 * any console warning mentioning hydration, and uncaught page errors are collected — except
 * the network failures Chromium logs while the context is deliberately offline.
 */
export async function personIn(
  t: TestApp,
  browser: Browser,
  baseUrl: string,
  user: Pick<User, "id" | "role">,
  options: BrowserContextOptions = {},
): Promise<Person> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    timezoneId: "America/Chicago",
    ...options,
  });
  const [name, value] = (await sessionFor(t, user)).split("=");
  await context.addCookies([{ name, value, url: baseUrl }]);
  const problems: string[] = [];
  return {
    context,
    problems,
    async newPage() {
      const page = await context.newPage();
      page.on("console", (msg) => {
        const text = msg.text();
        const isError = msg.type() === "error" && !OFFLINE_NOISE.test(text);
        const isHydration = (msg.type() === "warning" || msg.type() === "error") &&
          /hydrat/i.test(text);
        if (isError || isHydration) problems.push(`${page.url()}: ${text}`);
      });
      page.on("pageerror", (err) => problems.push(`${page.url()}: ${err.message}`));
      return page;
    },
  };
}
