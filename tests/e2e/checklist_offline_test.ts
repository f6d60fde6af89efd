/**
 * The survey checklist without signal, in Chromium on a phone-sized screen: the assigned
 * technician opens the job's page, the browser goes offline (context.setOffline), they tick a
 * check, type a number and a note and take a corner photo; the island says "Saved on this
 * device — will sync" and nothing reaches the server. The page is then reloaded with the page
 * itself reachable but the checklist and files APIs failing as they do offline (a reload with
 * no signal at all, the page served by the service worker, is tests/e2e/offline_reload_test.ts):
 * the queued answers and the photo come back from IndexedDB. Back online,
 * the queue is sent in order; the first answers response and the first upload response are
 * lost on the way back (the server stored them), so the island resends both and the server
 * keeps each once. The database then holds every answer once, by the technician, and the
 * photo, whose file id is the photo item's answer.
 */
import { Buffer } from "node:buffer";
import type { Page, Route } from "playwright-core";
import axe from "axe-core";
import { assert, assertEquals } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { assignTechnicianInDb } from "../_checklist_fixtures.ts";
import { createSignedInUser } from "../_auth.ts";
import { surveyRequest } from "../_fixtures.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";
import { instantiateChecklist } from "../../db/checklists.ts";

const PENDING = "Saved on this device — will sync";

async function axeViolations(page: Page, selector: string): Promise<string[]> {
  // Through the DevTools protocol: the page's CSP (script-src 'self') refuses inline scripts.
  await page.evaluate(axe.source);
  return await page.evaluate(async (include) => {
    const { axe } = globalThis as unknown as {
      axe: {
        run(context: unknown): Promise<{
          violations: { id: string; nodes: { target: string[] }[] }[];
        }>;
      };
    };
    const { violations } = await axe.run({ include: [include] });
    return violations.map((v) =>
      `axe ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`
    );
  }, selector);
}

async function noSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
  assertEquals(overflow, 0, `${what} scrolls sideways`);
}

/** A real JPEG, drawn by the browser itself. */
async function photoBytes(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 64;
    canvas.height = 48;
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = "#2f7d4f";
    ctx.fillRect(0, 0, 64, 48);
    ctx.fillStyle = "#f5d142";
    ctx.fillRect(24, 16, 16, 16);
    return canvas.toDataURL("image/jpeg", 0.9);
  });
  return Buffer.from(dataUrl.split(",")[1], "base64");
}

function item(page: Page, key: string) {
  return page.locator(`.survey-checklist [data-key="${key}"]`);
}

function syncState(page: Page) {
  return page.locator(".checklist-sync__state");
}

e2e("the technician fills the checklist offline, reloads, and it syncs once back online", async (
  { t, baseUrl, newPage, consoleErrors },
) => {
  // A client's request, worked by a firm, with a technician of the firm assigned and the
  // checklist made as the assignment makes it (the assignment itself is tested elsewhere).
  const client = await createSignedInUser(t, { role: "client" });
  const submitted = await fetch(`${baseUrl}/api/surveys`, {
    method: "POST",
    headers: { origin: baseUrl, cookie: client.cookie, "content-type": "application/json" },
    body: JSON.stringify(surveyRequest()),
  });
  assertEquals(submitted.status, 201);
  const surveyId: string = (await submitted.json()).survey.id;
  const firm = await addSurveyor(t, "Level Line Surveying");
  const technician = await createSignedInUser(t, { role: "technician", fullName: "Toni Tech" });
  await assignTechnicianInDb(t, {
    surveyId,
    surveyorId: firm.surveyor.id,
    technicianId: technician.user.id,
  });
  await t.sql.begin((tx) => instantiateChecklist(tx, { surveyId }));

  const page = await newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  const [name, value] = technician.cookie.split("=");
  await page.context().addCookies([{ name, value, url: baseUrl }]);
  await page.goto(`/technician-survey-detail/${surveyId}`);
  // Hydrated: the controls are enabled only then.
  await item(page, "deed_research").locator("input[type=checkbox]:not([disabled])").waitFor();
  for (const width of [1440, 1280, 1024, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await noSidewaysScroll(page, `the technician's job page at ${width} px`);
    assertEquals(
      await axeViolations(page, ".survey-checklist"),
      [],
      `the checklist at ${width} px`,
    );
  }
  const jpeg = await photoBytes(page);

  // The site has no signal.
  await page.context().setOffline(true);
  await item(page, "deed_research").getByRole("checkbox").check();
  await item(page, "monuments_found").getByRole("textbox").fill("4");
  await item(page, "monuments_found").getByRole("textbox").press("Tab");
  await item(page, "encroachments").getByRole("textbox").fill("Fence 0.4 ft over the east line");
  await item(page, "encroachments").getByRole("textbox").blur();
  await item(page, "corner_photos").locator("input[type=file]").setInputFiles({
    name: "ne-corner.jpg",
    mimeType: "image/jpeg",
    buffer: jpeg,
  });
  await syncState(page).filter({ hasText: PENDING }).waitFor();
  await item(page, "corner_photos").getByRole("img").waitFor();
  await page.getByText("4 changes waiting").waitFor();
  assertEquals(await item(page, "deed_research").getByText("Not synced yet").count(), 1);
  await noSidewaysScroll(page, "the checklist with queued edits");
  assertEquals(await axeViolations(page, ".survey-checklist"), [], "the pending checklist");
  const stored = async () => {
    const [row] = await t.sql<{ answers: number; files: number }[]>`
      select (select count(*)::int from survey_checklist_answers) as answers,
        (select count(*)::int from survey_files) as files`;
    return row;
  };
  assertEquals(await stored(), { answers: 0, files: 0 });

  // Reload while the API still cannot be reached: the queue comes back from the device.
  const unreachable = (route: Route) => route.abort("internetdisconnected");
  await page.route("**/api/surveys/*/checklist/answers", unreachable);
  await page.route("**/api/surveys/*/files", unreachable);
  await page.context().setOffline(false);
  await page.reload();
  await item(page, "deed_research").locator("input[type=checkbox]:not([disabled])").waitFor();
  await syncState(page).filter({ hasText: PENDING }).waitFor();
  assert(await item(page, "deed_research").getByRole("checkbox").isChecked());
  assertEquals(await item(page, "monuments_found").getByRole("textbox").inputValue(), "4");
  assertEquals(
    await item(page, "encroachments").getByRole("textbox").inputValue(),
    "Fence 0.4 ft over the east line",
  );
  await item(page, "corner_photos").getByRole("img").waitFor();
  assertEquals(await stored(), { answers: 0, files: 0 });

  // Back online. The first response of each API is lost on its way back, after the server
  // stored what it carried: the island must send it again and the server keep it once.
  await page.context().setOffline(true);
  await page.unroute("**/api/surveys/*/checklist/answers", unreachable);
  await page.unroute("**/api/surveys/*/files", unreachable);
  const lost = new Set<string>();
  const loseFirstResponse = (kind: string) => async (route: Route) => {
    if (lost.has(kind)) return await route.continue();
    lost.add(kind);
    await route.fetch();
    await route.abort("connectionreset");
  };
  await page.route("**/api/surveys/*/checklist/answers", loseFirstResponse("answers"));
  await page.route("**/api/surveys/*/files", loseFirstResponse("files"));
  await page.context().setOffline(false);
  // Each lost response stops the run; the browser's next `online` event starts another.
  for (let i = 0; i < 10 && (await syncState(page).textContent()) !== "Saved"; i++) {
    await page.waitForTimeout(300);
    if ((await syncState(page).textContent()) === "Saved") break;
    await page.context().setOffline(true);
    await page.context().setOffline(false);
  }
  await syncState(page).filter({ hasText: /^Saved$/ }).waitFor();
  assertEquals([...lost].sort(), ["answers", "files"]);

  // Stored once each, by the technician; the photo is the photo item's answer.
  const answers = await t.sql<
    { key: string; value: unknown; isApplied: boolean; answeredBy: string }[]
  >`select i.key, a.value, a.is_applied, a.answered_by
    from survey_checklist_answers a join survey_checklist_items i on i.id = a.item_id
    where i.survey_id = ${surveyId} order by a.answered_at, a.op_id`;
  const [file] = await t.sql<{ id: string; kind: string; checklistItemId: string }[]>`
    select id, kind, checklist_item_id from survey_files where survey_id = ${surveyId}`;
  assertEquals((await stored()).files, 1);
  assertEquals(file.kind, "photo");
  assertEquals(answers.map((a) => [a.key, a.value, a.isApplied]), [
    ["deed_research", true, true],
    ["monuments_found", 4, true],
    ["encroachments", "Fence 0.4 ft over the east line", true],
    ["corner_photos", [file.id], true],
  ]);
  assert(answers.every((a) => a.answeredBy === technician.user.id));
  const [photoItem] = await t.sql<{ id: string; value: unknown }[]>`
    select id, value from survey_checklist_items
    where survey_id = ${surveyId} and key = 'corner_photos'`;
  assertEquals(photoItem.value, [file.id]);
  assertEquals(file.checklistItemId, photoItem.id);

  // The page now shows the stored photo, served by the files API.
  const img = item(page, "corner_photos").getByRole("img");
  await page.waitForFunction(
    (id) => {
      const el = document.querySelector<HTMLImageElement>(
        '.survey-checklist [data-key="corner_photos"] img',
      );
      return el?.getAttribute("src") === `/api/files/${id}` && el.complete &&
        el.naturalWidth > 0;
    },
    file.id,
  );
  assertEquals(await img.getAttribute("alt"), "Photos of each corner with its monument, photo 1");
  assertEquals(await item(page, "deed_research").getByText("Not synced yet").count(), 0);
  await page.unrouteAll({ behavior: "ignoreErrors" });
  assertEquals(
    consoleErrors.filter((e) =>
      !/ERR_INTERNET_DISCONNECTED|ERR_CONNECTION_RESET|Failed to load resource/.test(e)
    ),
    [],
  );
});

e2e("the admin's checklist pages fit every width, axe-clean and by keyboard", async (
  { t, baseUrl, newPage, consoleErrors },
) => {
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const page = await newPage();
  const [name, value] = admin.cookie.split("=");
  await page.context().addCookies([{ name, value, url: baseUrl }]);
  await page.goto("/admin/checklists");
  await page.getByRole("link", { name: "Elevation Certificate" }).click();
  await page.locator(".template-editor button[type=submit]:not([disabled])").waitFor();
  for (const width of [390, 1024, 1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await noSidewaysScroll(page, `the template editor at ${width} px`);
    assertEquals(await axeViolations(page, "main"), [], `the template editor at ${width} px`);
  }
  // Keyboard: add an item, name it, save it.
  await page.getByRole("button", { name: "Add item" }).focus();
  await page.keyboard.press("Enter");
  await page.keyboard.type("Vent photos");
  await page.getByRole("button", { name: "Save as version 2" }).focus();
  await page.keyboard.press("Enter");
  await page.locator(".toast", { hasText: "Checklist template saved" }).first().waitFor();
  const [row] = await t.sql<{ items: Record<string, unknown>[] }[]>`
    select items from checklist_templates
    where survey_type = 'elevation_certificate' and version = 2`;
  assertEquals(row.items.at(-1), {
    key: "vent_photos",
    label: "Vent photos",
    kind: "check",
    isRequired: true,
  });

  await page.goto("/admin/checklists");
  await page.getByRole("cell", { name: "v2" }).waitFor();
  for (const width of [390, 1024, 1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await noSidewaysScroll(page, `the checklists list at ${width} px`);
    assertEquals(await axeViolations(page, "main"), [], `the checklists list at ${width} px`);
  }
  assertEquals(consoleErrors, []);
});
