/**
 * End-to-end harness: the whole app on a real port, driven by playwright-core in Debian's
 * Chromium. Without a browser the tests are reported as ignored by name, unless
 * REQUIRE_E2E=1, when a missing browser fails them.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { createTestApp, type TestApp } from "../_helpers.ts";

/** Where Debian installs Chromium; CHROMIUM_PATH overrides. */
export const CHROMIUM_PATH = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";

function browserPresent(): boolean {
  try {
    return Deno.statSync(CHROMIUM_PATH).isFile;
  } catch {
    return false;
  }
}

const hasBrowser = browserPresent();
const requireE2e = Deno.env.get("REQUIRE_E2E") === "1";

/** A served app plus a browser page pointed at it. */
export interface E2eContext {
  t: TestApp;
  baseUrl: string;
  browser: Browser;
  /** A fresh page that records console errors and page errors. */
  newPage(): Promise<Page>;
  /** Console and page errors seen so far, per page. */
  consoleErrors: string[];
}

/**
 * Registers an end-to-end test. The app is served on port 0 with `env` applied; the browser is
 * launched headless with the flags this machine needs.
 */
export function e2e(
  name: string,
  fn: (ctx: E2eContext) => Promise<void>,
  { env = {} }: { env?: Record<string, string> } = {},
): void {
  const ignore = !hasBrowser && !requireE2e;
  Deno.test({
    name: `[e2e] ${name}`,
    ignore,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      if (!hasBrowser) throw new Error(`REQUIRE_E2E=1 but no browser at ${CHROMIUM_PATH}`);
      // The CSRF check compares Origin with PUBLIC_URL, so the app is built once the port is
      // known and told it is served there.
      let serveApp: (req: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response> =
        () => new Response("starting", { status: 503 });
      const server = Deno.serve(
        { port: 0, hostname: "127.0.0.1", onListen: () => {} },
        (req, info) => serveApp(req, info),
      );
      const baseUrl = `http://127.0.0.1:${server.addr.port}`;
      const t = await createTestApp({ env: { PUBLIC_URL: baseUrl, ...env } })
        .catch(async (err) => {
          await server.shutdown();
          throw err;
        });
      serveApp = t.app.fetch;
      const browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
      });
      const consoleErrors: string[] = [];
      const context = await browser.newContext({ baseURL: baseUrl });
      try {
        await fn({
          t,
          baseUrl,
          browser,
          consoleErrors,
          async newPage() {
            const page = await context.newPage();
            page.on("console", (msg) => {
              if (msg.type() === "error") consoleErrors.push(`${page.url()}: ${msg.text()}`);
            });
            page.on("pageerror", (err) => consoleErrors.push(`${page.url()}: ${err.message}`));
            return page;
          },
        });
      } finally {
        await context.close();
        await browser.close();
        await server.shutdown();
        t.close();
      }
    },
  });
}
