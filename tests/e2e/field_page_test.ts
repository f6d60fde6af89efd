/**
 * The field page and the delivery views in the browser: the technician's
 * /technician-survey-detail/{id} (in fieldwork: "Mark surveyed" disabled with its reason until
 * the checklist's required items are done), the surveyor's job page with "Mark complete", and
 * the client's completed /survey/{id} with the deliverables and the star rating. No sideways
 * scroll and axe-clean at 390/1024/1280/1440 px; the stars work from the keyboard.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { checkLayout } from "./_axe.ts";
import type { Role } from "../../lib/roles.ts";
import { createSignedInUser, sessionFor } from "../_auth.ts";
import { surveyRequest } from "../_fixtures.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";
import { assignTechnicianInDb } from "../_checklist_fixtures.ts";
import { instantiateChecklist } from "../../db/checklists.ts";

e2e(
  "the field page, the job page's completion and the client's rating fit a phone and pass axe",
  async (
    { t, baseUrl, newPage, consoleErrors },
  ) => {
    // The request goes through the served app (its CSRF check wants this origin).
    const client0 = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
    const submitted = await fetch(`${baseUrl}/api/surveys`, {
      method: "POST",
      headers: { origin: baseUrl, cookie: client0.cookie, "content-type": "application/json" },
      body: JSON.stringify(surveyRequest()),
    });
    assertEquals(submitted.status, 201);
    const { survey } = await submitted.json();
    const firm = await addSurveyor(t, "Level Line Surveying");
    const technician = await createSignedInUser(t, { role: "technician", fullName: "Toni Tech" });
    await assignTechnicianInDb(t, {
      surveyId: survey.id,
      surveyorId: firm.surveyor.id,
      technicianId: technician.user.id,
      status: "in_fieldwork",
    });
    await t.sql.begin((tx) => instantiateChecklist(tx, { surveyId: survey.id }));
    const job = {
      survey,
      client: client0.user,
      surveyorUser: firm.user!,
      technician: technician.user,
    };
    const signIn = async (
      page: Page,
      user: { id: string; role: Role },
    ) => {
      const [name, value] = (await sessionFor(t, user)).split("=");
      await page.context().addCookies([{ name, value, url: baseUrl }]);
    };

    const tech = await newPage();
    await signIn(tech, job.technician);
    await tech.setViewportSize({ width: 390, height: 844 });
    await tech.goto(`/technician-survey-detail/${job.survey.id}`);
    await tech.locator(".field-actions[data-hydrated]").waitFor();
    const mark = tech.getByRole("button", { name: "Mark surveyed" });
    assert(await mark.isDisabled(), "disabled while required items are open");
    await tech.getByText(/remaining required checklist items? to mark the survey surveyed/)
      .waitFor();
    await checkLayout(tech, "the field page in fieldwork");

    // Surveyed, with a plat uploaded: the surveyor completes on the job page.
    await t.sql`update surveys set status = 'surveyed', surveyed_date = current_date - 1
    where id = ${job.survey.id}`;
    await t.sql`
    insert into survey_files (survey_id, kind, file_name, content_type, size_bytes, sha256,
      storage, storage_key)
    values (${job.survey.id}, 'deliverable', 'boundary-plat.pdf', 'application/pdf', 10,
      ${"d".repeat(64)}, 'postgres', ${crypto.randomUUID()})`;
    const surveyor = await newPage();
    await signIn(surveyor, job.surveyorUser);
    await surveyor.goto(`/surveyor/jobs/${job.survey.id}`);
    await surveyor.locator(".complete-survey[data-hydrated]").waitFor();
    await checkLayout(surveyor, "the job page, surveyed");
    await surveyor.setViewportSize({ width: 390, height: 844 });
    await surveyor.getByRole("button", { name: "Mark complete" }).click();
    await surveyor.locator(".toast", { hasText: "Survey completed" }).first().waitFor();

    const client = await newPage();
    await signIn(client, job.client);
    await client.goto(`/survey/${job.survey.id}`);
    await client.getByText("boundary-plat.pdf").waitFor();
    const stars = client.getByRole("group", { name: /How was your experience with/ });
    await stars.scrollIntoViewIfNeeded();
    await client.locator(".rate-surveyor").waitFor();
    await checkLayout(client, "the client's completed request");
    // Keyboard: focus the first star, move right to the fourth.
    await client.getByRole("radio", { name: "1 star, Poor" }).focus();
    await client.keyboard.press("Space");
    for (let i = 0; i < 3; i++) await client.keyboard.press("ArrowRight");
    assert(await client.getByRole("radio", { name: "4 stars, Very good" }).isChecked());
    await client.getByRole("button", { name: "Send rating" }).click();
    await client.getByTestId("rating-given").waitFor();
    const [review] = await t.sql`select rating from surveyor_reviews
    where survey_id = ${job.survey.id}`;
    assertEquals(review.rating, 4);
    assertEquals(consoleErrors, []);
  },
);
