import { assertEquals } from "../_assert.ts";
import { e2e } from "./_browser.ts";

e2e("the landing page loads in a real browser", async ({ newPage, consoleErrors }) => {
  const page = await newPage();
  const res = await page.goto("/");
  assertEquals(res?.status(), 200);
  assertEquals(await page.locator("h1").count() > 0, true);
  assertEquals(consoleErrors, []);
});
