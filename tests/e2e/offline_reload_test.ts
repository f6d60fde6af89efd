/**
 * The technician's pages without signal, in Chromium on a phone-sized screen, through the
 * service worker (static/sw.js): the job page opened once with signal opens again with the
 * browser offline (a reload, not just a page left open), its checklist works there ("Saved on
 * this device — will sync") and syncs once signal is back, each answer stored once. A job the
 * technician never opened but that is on their dashboard opens offline too, checklist
 * included. After signing out, the kept pages are gone: offline, the job's URL shows the
 * offline page, not the job.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { assignTechnicianInDb } from "../_checklist_fixtures.ts";
import { createSignedInUser } from "../_auth.ts";
import { surveyRequest } from "../_fixtures.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";
import { instantiateChecklist } from "../../db/checklists.ts";
import { personIn } from "./_fieldwork_fixtures.ts";

const PENDING = "Saved on this device — will sync";
const NEVER_OPENED = "This job page was never opened on this device";

function jobPath(surveyId: string): string {
  return `/technician-survey-detail/${surveyId}`;
}

/** The checklist, hydrated: its controls are enabled only then. */
async function checklistReady(page: Page) {
  await page.locator('.survey-checklist [data-key="deed_research"] input[type=checkbox]')
    .and(page.locator(":not([disabled])")).waitFor();
}

/** Waits until the worker keeps a copy of `path` (it stores in the background). */
async function kept(page: Page, path: string) {
  for (let i = 0; i < 100; i++) {
    const isKept = await page.evaluate(async (p) => {
      return Boolean(await caches.match(new URL(p, location.origin).href));
    }, path);
    if (isKept) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`${path} was never kept for offline use`);
}

e2e(
  "the technician's job page opens offline, its checklist syncs later, and sign-out forgets it",
  async (
    { t, baseUrl, browser },
  ) => {
    // Two jobs of one technician, worked by a firm, each with its checklist (the assignment
    // itself is tested elsewhere). The second is on their dashboard but never opened online.
    const client = await createSignedInUser(t, { role: "client" });
    const submit = async () => {
      const res = await fetch(`${baseUrl}/api/surveys`, {
        method: "POST",
        headers: { origin: baseUrl, cookie: client.cookie, "content-type": "application/json" },
        body: JSON.stringify(surveyRequest()),
      });
      assertEquals(res.status, 201);
      return (await res.json()).survey.id as string;
    };
    const firm = await addSurveyor(t, "Level Line Surveying");
    const technician = await createSignedInUser(t, { role: "technician", fullName: "Toni Tech" });
    const [surveyId, nextId] = [await submit(), await submit()];
    for (const id of [surveyId, nextId]) {
      await assignTechnicianInDb(t, {
        surveyId: id,
        surveyorId: firm.surveyor.id,
        technicianId: technician.user.id,
      });
      await t.sql.begin((tx) => instantiateChecklist(tx, { surveyId: id }));
    }

    const tech = await personIn(t, browser, baseUrl, technician.user, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await tech.newPage();

    // With signal: the job page registers the worker; once it is active and controls the page,
    // a reload goes through it and leaves a copy on the device.
    await page.goto(jobPath(surveyId));
    await checklistReady(page);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await checklistReady(page);
    assert(
      await page.evaluate(() => navigator.serviceWorker.controller !== null),
      "the worker controls the job page",
    );
    await kept(page, jobPath(surveyId));

    // No signal, and the browser reloads the page: it is still there, checklist and all.
    await tech.context.setOffline(true);
    await page.reload();
    await checklistReady(page);
    await page.getByRole("heading", { level: 1 }).waitFor();
    const deed = page.locator('.survey-checklist [data-key="deed_research"]');
    await deed.getByRole("checkbox").check();
    await page.locator(".checklist-sync__state", { hasText: PENDING }).waitFor();
    const answers = async () => [
      ...await t.sql<{ key: string; value: unknown; answeredBy: string }[]>`
        select i.key, a.value, a.answered_by from survey_checklist_answers a
        join survey_checklist_items i on i.id = a.item_id where i.survey_id = ${surveyId}`,
    ];
    assertEquals(await answers(), [], "nothing reaches the server without signal");

    // Reloaded again offline: the answer waits on the device, still shown.
    await page.reload();
    await checklistReady(page);
    await page.locator(".checklist-sync__state", { hasText: PENDING }).waitFor();
    assert(await deed.getByRole("checkbox").isChecked(), "the queued answer is shown");

    // Signal again: the queue is sent and the server keeps the answer once.
    await tech.context.setOffline(false);
    await page.locator(".checklist-sync__state", { hasText: /^Saved$/ }).waitFor({
      timeout: 30_000,
    });
    assertEquals(await answers(), [{
      key: "deed_research",
      value: true,
      answeredBy: technician.user.id,
    }]);

    // The dashboard keeps its upcoming jobs: the one never opened works offline as well.
    await page.goto("/technician-dashboard");
    await kept(page, jobPath(nextId));
    await tech.context.setOffline(true);
    await page.goto(jobPath(nextId));
    await checklistReady(page);
    await page.locator('.survey-checklist [data-key="deed_research"]').getByRole("checkbox")
      .check();
    await page.locator(".checklist-sync__state", { hasText: PENDING }).waitFor();
    await tech.context.setOffline(false);
    await page.locator(".checklist-sync__state", { hasText: /^Saved$/ }).waitFor({
      timeout: 30_000,
    });

    // Signing out forgets the kept pages: offline, the job's URL is the offline page.
    await page.goto("/technician-dashboard");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL("**/auth**");
    assertEquals(
      await page.evaluate(async () => {
        const names = await caches.keys();
        const pages = names.filter((name) => name.startsWith("meridian-field-pages-"));
        let count = 0;
        for (const name of pages) count += (await (await caches.open(name)).keys()).length;
        return count;
      }),
      0,
      "no page is kept after sign-out",
    );
    await tech.context.setOffline(true);
    await page.goto(jobPath(surveyId));
    await page.getByRole("heading", { name: "No connection" }).waitFor();
    await page.getByText(NEVER_OPENED).waitFor();
    assertEquals(await page.locator(".survey-checklist").count(), 0, "no job on the offline page");
    await tech.context.setOffline(false);

    const [{ count }] = await t.sql<{ count: number }[]>`
    select count(*)::int from survey_checklist_answers a
    join survey_checklist_items i on i.id = a.item_id
    where i.survey_id in (${surveyId}, ${nextId})`;
    assertEquals(count, 2, "each answer stored once");
    assertEquals(
      tech.problems.filter((p) => !/status of 503|Failed to load resource/.test(p)),
      [],
    );
  },
);
