/**
 * A surveyor an admin assigned without a purchase, in the browser: from the dashboard's jobs
 * to /surveyor/jobs/{surveyId}; the offered job shows no client details and Accept / Decline
 * side by side with a gap; Accept unlocks the client's contact on reload. No sideways scroll
 * and axe-clean at 390/1024/1280/1440 px, offered and accepted.
 */
import { assert, assertEquals } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { checkLayout, LAYOUT_WIDTHS } from "./_axe.ts";
import { createSignedInUser, sessionFor } from "../_auth.ts";
import { surveyRequest } from "../_fixtures.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";

e2e("an assigned surveyor opens the job from the dashboard, accepts it and sees the client", async (
  { t, baseUrl, newPage, consoleErrors },
) => {
  const api = async (path: string, cookie: string, body: unknown) =>
    await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { origin: baseUrl, cookie, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const admin = await createSignedInUser(t, { role: "admin" });
  const client = await createSignedInUser(t, { role: "client" });
  const submitted = await api(
    "/api/surveys",
    client.cookie,
    surveyRequest({ contactName: "Zebulon Quartermaine", contactPhone: "(512) 555-0199" }),
  );
  assertEquals(submitted.status, 201);
  const { survey } = await submitted.json();
  const ortiz = await addSurveyor(t, "Ortiz Surveying");
  const assigned = await api(
    `/api/surveys/${survey.id}/assign/${ortiz.surveyor.id}`,
    admin.cookie,
    {
      agreedPrice: 1200,
    },
  );
  assertEquals(assigned.status, 201);
  await assigned.body?.cancel();

  const page = await newPage();
  const [name, value] = (await sessionFor(t, ortiz.user!)).split("=");
  await page.context().addCookies([{ name, value, url: baseUrl }]);
  await page.goto("/surveyor-dashboard");
  // In <main>: once the header's bell has loaded its list, its "You were assigned" item links
  // to the same job (whichever comes first depends on the machine's speed).
  await page.locator(`main a[href="/surveyor/jobs/${survey.id}"]`).click();
  await page.waitForURL(`**/surveyor/jobs/${survey.id}`);
  await page.locator(".assignment-actions[data-hydrated]").waitFor();
  assert(!(await page.content()).includes("Zebulon"), "no client name while offered");

  const accept = page.getByRole("button", { name: "Accept" });
  const decline = page.getByRole("button", { name: "Decline" });
  for (const width of LAYOUT_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const a = (await accept.boundingBox())!;
    const d = (await decline.boundingBox())!;
    const gap = d.y >= a.y + a.height ? d.y - (a.y + a.height) : d.x - (a.x + a.width);
    assert(gap >= 8, `Accept and Decline are ${gap}px apart at ${width} px`);
  }
  await checkLayout(page, "offered job");

  await accept.click();
  await page.locator(".assignment-actions .badge", { hasText: "Accepted" }).waitFor();
  await page.reload();
  await page.getByTestId("client-name").filter({ hasText: "Zebulon Quartermaine" }).waitFor();
  await checkLayout(page, "accepted job");
  assertEquals(consoleErrors, []);
});
