/**
 * The whole fieldwork flow in the browser, as issue 12 tells it: the surveyor doing a job
 * assigns a technician on the job page ('Technician assigned'); the technician, on a phone,
 * opens the job from their dashboard, starts fieldwork (the position allowed), loses signal,
 * completes every required checklist item including a photo ('Saved on this device — will
 * sync'), gets signal back, the answers sync ('Saved') and they mark the survey surveyed; the
 * surveyor uploads the plat and completes the survey; the client downloads the plat from
 * /survey/{id} (the same bytes) and rates the surveyor. Along the way no page logs a console
 * error or a hydration warning; at the end the database holds the dates, each answer once
 * (the offline replay stored nothing twice) and the one review counted on the surveyor.
 */
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { createSignedInUser } from "../_auth.ts";
import { surveyRequest } from "../_fixtures.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";
import { acceptJob, addTechnician } from "../_technician_fixtures.ts";
import { localToday } from "../../lib/technicians.ts";
import { personIn, PHOTO_PNG, PLAT_PDF } from "./_fieldwork_fixtures.ts";

/** Waits for a toast titled `title`. */
async function toast(page: Page, title: string) {
  await page.locator(".toast", { hasText: title }).first().waitFor();
}

/** The sync line of the checklist island, once it reads exactly `text`. */
async function syncState(page: Page, text: string, timeout = 30_000) {
  await page.locator(".checklist-sync__state", { hasText: new RegExp(`^${text}$`) })
    .waitFor({ timeout });
}

/**
 * Answers every required item of the checklist on `page` the way a technician would (tick,
 * type a count, describe, take a photo) and returns the keys answered. Each edit waits for
 * its "Not synced yet" mark: the island has put it in the device's outbox.
 */
async function answerRequiredItems(page: Page): Promise<string[]> {
  const required = page.locator("li.checklist-item", {
    has: page.locator(".checklist-item__required"),
  });
  const count = await required.count();
  assert(count > 0, "the checklist has required items");
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const item = required.nth(i);
    const key = (await item.getAttribute("data-key"))!;
    if (await item.locator('input[type="checkbox"]').count()) {
      await item.locator('input[type="checkbox"]').check();
    } else if (await item.locator('input[type="file"]').count()) {
      await item.locator('input[type="file"]').setInputFiles({
        name: "corner-ne.png",
        mimeType: "image/png",
        buffer: Buffer.from(PHOTO_PNG),
      });
      // The preview is drawn on the device (a data: image): nothing has been uploaded yet.
      await item.locator('img[src^="data:image/"]').first().waitFor();
    } else if (await item.locator("textarea").count()) {
      await item.locator("textarea").fill("None observed");
      await item.locator("textarea").blur();
    } else {
      await item.locator('input[inputmode="decimal"]').fill("4");
      await item.locator('input[inputmode="decimal"]').blur();
    }
    await item.locator(".checklist-item__pending", { hasText: "Not synced yet" }).waitFor();
    keys.push(key);
  }
  return keys;
}

e2e("a job goes from the technician's phone, offline, to the client's download and rating", async (
  { t, baseUrl, browser },
) => {
  // A client's boundary survey, accepted by Ortiz and scheduled for today; Riley is on its crew.
  const { user: client, cookie } = await createSignedInUser(t, {
    role: "client",
    fullName: "Dana Client",
  });
  const submitted = await fetch(`${baseUrl}/api/surveys`, {
    method: "POST",
    headers: { origin: baseUrl, cookie, "content-type": "application/json" },
    body: JSON.stringify(surveyRequest()),
  });
  assertEquals(submitted.status, 201);
  const { survey } = await submitted.json();
  const ortiz = await addSurveyor(t, "Ortiz Surveying");
  await acceptJob(t, survey.id, ortiz.surveyor.id, {
    status: "scheduled",
    scheduledDate: localToday("TX"),
  });
  const riley = await addTechnician(t, ortiz.surveyor.id, "Riley Chen");

  // The surveyor assigns Riley on the job page.
  const surveyor = await personIn(t, browser, baseUrl, ortiz.user!);
  const office = await surveyor.newPage();
  await office.goto(`/surveyor/jobs/${survey.id}`);
  const crewForm = office.locator(".assign-technician[data-hydrated]");
  await crewForm.waitFor();
  await crewForm.getByRole("radio", { name: "Riley Chen" }).check();
  await crewForm.getByLabel(/Notes for the crew/).fill("Gate code 1234; dog in the back yard");
  await crewForm.getByRole("button", { name: "Assign technician" }).click();
  await toast(office, "Technician assigned");
  await crewForm.getByText("Assigned: Riley Chen").waitFor();
  assertEquals(surveyor.problems, [], "the job page");

  // Riley, on a phone with location allowed, opens the job from the dashboard.
  const tech = await personIn(t, browser, baseUrl, riley.user, {
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    permissions: ["geolocation"],
    geolocation: { latitude: 30.2641, longitude: -97.7712 },
  });
  const phone = await tech.newPage();
  await phone.goto("/technician-dashboard");
  await phone.locator(`[data-job="${survey.id}"] a[href="/technician-survey-detail/${survey.id}"]`)
    .first().click();
  await phone.waitForURL(`**/technician-survey-detail/${survey.id}`);
  await phone.getByText("Gate code 1234; dog in the back yard").waitFor();
  const actions = phone.locator(".field-actions[data-hydrated]");
  await actions.waitFor();
  await actions.locator(".badge", { hasText: "Scheduled" }).waitFor();
  await actions.getByRole("button", { name: "Start fieldwork" }).click();
  await toast(phone, "Fieldwork started");
  await actions.locator(".badge", { hasText: "In fieldwork" }).waitFor();
  const markSurveyed = actions.getByRole("button", { name: "Mark surveyed" });
  assert(await markSurveyed.isDisabled(), "Mark surveyed waits for the required items");
  await actions.getByText(/Complete the \d+ remaining required checklist items?/).waitFor();
  const [started] = await t.sql<{ status: string; started: boolean; lat: number; lng: number }[]>`
    select status, fieldwork_started_at is not null as started,
      fieldwork_start_lat::float8 as lat, fieldwork_start_lng::float8 as lng
    from surveys where id = ${survey.id}`;
  assertEquals(started.status, "in_fieldwork");
  assert(started.started, "the start time is recorded");
  assert(Math.abs(started.lat - 30.2641) < 1e-3 && Math.abs(started.lng + 97.7712) < 1e-3);

  // No signal: every required item is answered on the device, the photo included.
  await tech.context.setOffline(true);
  const answered = await answerRequiredItems(phone);
  await syncState(phone, "Saved on this device — will sync");
  await actions.getByText(/still saved on this device only/).waitFor();
  assert(await markSurveyed.isDisabled(), "Mark surveyed waits for the answers to sync");
  const [{ n: storedOffline }] = await t.sql<{ n: number }[]>`
    select count(*)::int as n from survey_checklist_answers a
    join survey_checklist_items i on i.id = a.item_id where i.survey_id = ${survey.id}`;
  assertEquals(storedOffline, 0, "nothing reached the server while offline");

  // Signal again: the outbox is sent, and the survey can be marked surveyed.
  await tech.context.setOffline(false);
  await syncState(phone, "Saved");
  await phone.locator(".checklist-item__pending").first().waitFor({ state: "detached" });
  await phone.locator(`.checklist-photos img[src^="/api/files/"]`).first().waitFor();
  await markSurveyed.click();
  await toast(phone, "Survey marked surveyed");
  await actions.locator(".badge", { hasText: "Surveyed" }).waitFor();
  await actions.getByText(/Fieldwork on \w+/).waitFor();
  assertEquals(tech.problems, [], "the technician's pages");

  // The surveyor uploads the plat and completes the survey.
  await office.reload();
  const upload = office.locator(`section[aria-labelledby="deliverables-title"]`);
  const fileInput = office.getByLabel("Add deliverables");
  await office.locator(".complete-survey[data-hydrated]").waitFor();
  const markComplete = office.getByRole("button", { name: "Mark complete" });
  assert(await markComplete.isDisabled(), "Mark complete waits for a deliverable");
  await office.getByText(/Upload at least one deliverable/).waitFor();
  await fileInput.setInputFiles({
    name: "Boundary plat.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from(PLAT_PDF),
  });
  await toast(office, "File uploaded");
  await upload.locator(".file-list__name", { hasText: "Boundary plat.pdf" }).waitFor();
  await markComplete.click();
  await toast(office, "Survey completed");
  await office.locator(".complete-survey .badge", { hasText: "Completed" }).waitFor();
  await office.getByText(/Delivered on \w+/).waitFor();
  assertEquals(surveyor.problems, [], "the job page after delivery");

  // The client downloads the plat and rates the surveyor.
  const owner = await personIn(t, browser, baseUrl, client);
  const home = await owner.newPage();
  await home.goto(`/survey/${survey.id}`);
  const fieldwork = home.locator(`section[aria-labelledby="fieldwork-title"]`);
  await fieldwork.getByText(/(\d+) of \1 required done/).first().waitFor();
  await fieldwork.getByText("Fieldwork is done and the final documents are delivered.").waitFor();
  const delivered = home.locator(`section[aria-labelledby="deliverables-title"]`);
  const link = delivered.locator(".file-list__name", { hasText: "Boundary plat.pdf" });
  await link.waitFor();
  const [download] = await Promise.all([home.waitForEvent("download"), link.click()]);
  assertEquals(download.suggestedFilename(), "Boundary plat.pdf");
  const saved = await Deno.readFile((await download.path())!);
  assertEquals(saved, PLAT_PDF, "the client gets the plat's exact bytes");

  const rate = home.locator("form.rate-surveyor");
  await rate.scrollIntoViewIfNeeded();
  await rate.getByText(/How was your experience with Ortiz Surveying/).waitFor();
  await rate.getByLabel("4 stars, Very good").check();
  await rate.getByText("4 of 5: Very good").waitFor();
  await rate.getByLabel(/Comment/).fill("Clear plat, on time.");
  await rate.getByRole("button", { name: "Send rating" }).click();
  await toast(home, "Thank you for your rating");
  await home.getByTestId("rating-given").getByText("Clear plat, on time.").waitFor();
  assertEquals(await home.locator("form.rate-surveyor").count(), 0, "the form is gone");
  await home.reload();
  await home.getByTestId("rating-given").waitFor();
  assertEquals(await home.getByRole("button", { name: "Send rating" }).count(), 0);
  assertEquals(owner.problems, [], "the client's survey page");

  // What the database holds.
  const [done] = await t.sql<
    { status: string; surveyedDate: string | null; completedDate: string | null }[]
  >`select status, surveyed_date::text as surveyed_date, completed_date::text as completed_date
    from surveys where id = ${survey.id}`;
  assertEquals(done.status, "completed");
  assert(done.surveyedDate, "surveyedDate recorded");
  assert(done.completedDate && done.completedDate >= done.surveyedDate, "completedDate recorded");
  const answers = await t.sql<{ key: string; n: number; isDone: boolean }[]>`
    select i.key, count(a.id)::int as n, i.value is not null as is_done
    from survey_checklist_items i left join survey_checklist_answers a on a.item_id = i.id
    where i.survey_id = ${survey.id} and i.is_required
    group by i.key, i.value order by i.key`;
  assertEquals(
    answers.map((a) => `${a.key}:${a.n}:${a.isDone}`),
    [...answered].sort().map((key) => `${key}:1:true`),
    "each required item answered once, none twice after the offline replay",
  );
  const [{ photos }] = await t.sql<{ photos: number }[]>`
    select count(*)::int as photos from survey_files
    where survey_id = ${survey.id} and kind = 'photo'`;
  assertEquals(photos, 1, "the photo uploaded once");
  const reviews = await t.sql<{ rating: number; comment: string | null; clientId: string }[]>`
    select rating, comment, client_id from surveyor_reviews where survey_id = ${survey.id}`;
  assertEquals([...reviews], [{ rating: 4, comment: "Clear plat, on time.", clientId: client.id }]);
  const [firm] = await t.sql<{ count: number; sum: number }[]>`
    select meridian_review_count as count, meridian_rating_sum as sum
    from surveyors where id = ${ortiz.surveyor.id}`;
  assertEquals(firm, { count: 1, sum: 4 });
});
