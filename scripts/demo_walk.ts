/**
 * A newcomer's walk through the demo in Chromium: every page a demo account reaches from its
 * navigation, and the first page of each kind one click away, at every supported width.
 *
 *   deno task seed --demo > seed.txt          # beside a running server
 *   deno run -A scripts/demo_walk.ts http://localhost:8000 seed.txt
 *
 * It signs in as the first account of each role the seed printed (bench/_demo.ts), opens each
 * page at 390, 1024, 1280 and 1440 px, and reports for each: an answer other than 200, a
 * sideways scroll, a console error or uncaught exception, a failed request (4xx/5xx, or a
 * request that never completed), and axe-core's findings (tests/e2e/_axe.ts) at 390 and 1280 px.
 * It exits 1 when anything was found. Chromium is Debian's (/usr/bin/chromium, or
 * CHROMIUM_PATH). It reads the server the way a visitor does and writes nothing but a session
 * per account.
 */
import { chromium, type Page } from "playwright-core";
import { demoAccountsIn, demoPagesOf, ROLES } from "../bench/_demo.ts";
import { signInCookie } from "../bench/_server.ts";
import { axeViolations, LAYOUT_WIDTHS } from "../tests/e2e/_axe.ts";

const CHROMIUM_PATH = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
/** Widths axe runs at (it takes a second a page): the phone and a laptop. */
const AXE_WIDTHS = new Set([390, 1280]);

/** What a page does wrong at one width (empty when nothing). */
async function problemsAt(page: Page, url: string, width: number): Promise<string[]> {
  const found: string[] = [];
  const onConsole = (msg: { type(): string; text(): string }) => {
    if (msg.type() === "error") found.push(`console: ${msg.text()}`);
  };
  const onError = (err: Error) => found.push(`exception: ${err.message}`);
  const onResponse = (res: { status(): number; url(): string }) => {
    if (res.status() >= 400) found.push(`${res.status()} ${res.url()}`);
  };
  const onFailed = (req: { url(): string; failure(): { errorText: string } | null }) => {
    // A navigation away aborts what the last page still loaded; only this page's count.
    const error = req.failure()?.errorText ?? "";
    if (!/ERR_ABORTED/.test(error)) found.push(`failed: ${req.url()} ${error}`);
  };
  page.on("console", onConsole);
  page.on("pageerror", onError);
  page.on("response", onResponse);
  page.on("requestfailed", onFailed);
  try {
    await page.setViewportSize({ width, height: 900 });
    const res = await page.goto(url, { waitUntil: "load" });
    if (res?.status() !== 200) found.push(`answered ${res?.status()}`);
    // Islands hydrate after load; give them their turn before measuring.
    await page.waitForLoadState("networkidle").catch(() => {});
    const overflow = await page.evaluate(() =>
      document.documentElement.scrollWidth - document.documentElement.clientWidth
    );
    if (overflow > 0) found.push(`scrolls sideways by ${overflow} px`);
    if (AXE_WIDTHS.has(width)) found.push(...await axeViolations(page));
  } finally {
    page.off("console", onConsole);
    page.off("pageerror", onError);
    page.off("response", onResponse);
    page.off("requestfailed", onFailed);
  }
  return found;
}

async function main() {
  const [base, seedFile] = Deno.args;
  if (!base || !seedFile) {
    console.error("usage: deno run -A scripts/demo_walk.ts BASE_URL SEED_OUTPUT");
    Deno.exit(2);
  }
  const accounts = demoAccountsIn(await Deno.readTextFile(seedFile));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH });
  let pages = 0, failing = 0;
  try {
    for (const role of ROLES) {
      const account = accounts.get(role);
      if (!account) throw new Error(`${seedFile} has no ${role} account`);
      const cookie = await signInCookie(base, account.email, account.password);
      const [name, value] = [
        cookie.slice(0, cookie.indexOf("=")),
        cookie.slice(cookie.indexOf("=") + 1),
      ];
      const context = await browser.newContext();
      await context.addCookies([{ name, value, url: base }]);
      const page = await context.newPage();
      for (const { label, path } of await demoPagesOf(base, role, cookie)) {
        pages++;
        const problems: string[] = [];
        for (const width of LAYOUT_WIDTHS) {
          for (const problem of await problemsAt(page, `${base}${path}`, width)) {
            problems.push(`${width} px: ${problem}`);
          }
        }
        if (problems.length) failing++;
        console.log(
          problems.length ? `✗ ${label}\n    ${problems.join("\n    ")}` : `✓ ${label}`,
        );
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  console.log(
    `${pages} pages at ${LAYOUT_WIDTHS.join(", ")} px: ${
      failing ? `${failing} with problems` : "no problems"
    }`,
  );
  if (failing) Deno.exit(1);
}

if (import.meta.main) await main();
