/**
 * Accessibility and layout checks shared by the end-to-end tests: axe-core's findings on the
 * current page, and the same page at every screen width the product supports, with no
 * sideways scroll and nothing for axe to report.
 */
import type { Page } from "playwright-core";
import axe from "axe-core";
import { assertEquals } from "../_assert.ts";

/** The screen widths every page must work at (phone, tablet, laptop, desktop). */
export const LAYOUT_WIDTHS = [390, 1024, 1280, 1440];

/** axe-core's violations on the page as it is now, one line each (empty when clean). */
export async function axeViolations(page: Page): Promise<string[]> {
  // A toast still fading in has a lower contrast than the one a user reads: axe judges what is
  // on screen once the finite animations (not spinners) have ended.
  await page.evaluate(() =>
    Promise.all(
      document.getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    )
  );
  // Through the DevTools protocol: the page's CSP (script-src 'self') refuses inline scripts.
  // Once per document: checkLayout asks four times of one page (1.5 MB of source to compile).
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(axe.source);
  return await page.evaluate(async () => {
    const { axe } = globalThis as unknown as {
      axe: { run(): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
    };
    const { violations } = await axe.run();
    return violations.map((v) =>
      `axe ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`
    );
  });
}

/**
 * Fails unless the page, at each of LAYOUT_WIDTHS, neither scrolls sideways nor has an axe
 * violation; `what` names the page in the failure.
 */
export async function checkLayout(page: Page, what: string): Promise<void> {
  for (const width of LAYOUT_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate(() =>
      document.documentElement.scrollWidth - document.documentElement.clientWidth
    );
    assertEquals(overflow, 0, `${what} scrolls sideways at ${width} px`);
    assertEquals(await axeViolations(page), [], `${what} at ${width} px`);
  }
}
