import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import {
  addLeadTo,
  addSurveyor,
  assignmentRows,
  clientWithSurvey,
  surveyRow,
} from "../_assignment_fixtures.ts";
import { assignmentActionsProps } from "../../lib/assignments.ts";
import { getOpenAssignment } from "../../db/assignments.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: AssignSurveyor } = await import("../../islands/AssignSurveyor.tsx");
type AssignSurveyorProps = import("../../islands/AssignSurveyor.tsx").AssignSurveyorProps;
const { default: AssignmentActions } = await import("../../islands/AssignmentActions.tsx");
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");

/** A request with a lead one surveyor bought, and another surveyor who was matched. */
async function setup(t: TestApp) {
  const admin = await createSignedInUser(t, { role: "admin" });
  const { survey } = await clientWithSurvey(t);
  await addLeadTo(t, survey);
  const buyer = await addSurveyor(t, "Barton Creek Surveying");
  await t.sql`
    insert into lead_purchases (lead_id, surveyor_id, kind, charged_cents)
    select id, ${buyer.surveyor.id}, 'buy', 3850 from leads where survey_id = ${survey.id}`;
  return { admin, survey, buyer };
}

function lastToast() {
  const [shown] = getToasts();
  return shown
    ? { title: shown.title, description: shown.description, variant: shown.variant }
    : undefined;
}

async function showAssignForm(t: TestApp, cookie: string, surveyId: string) {
  const { res, html } = await loadPage(t, `/survey/${surveyId}`, cookie);
  assertEquals(res.status, 200);
  const props = islandProps<AssignSurveyorProps>(html, "AssignSurveyor");
  render(<AssignSurveyor {...props} />);
  await waitFor(() => assert(document.querySelector(".assign-surveyor[data-hydrated]")));
  return props;
}

test("[assign surveyor] an admin picks the buyer, keeps the quoted price and sees 'Surveyor assigned'", async () => {
  const t = await createTestApp();
  const f = await setup(t);
  const api = useAppFetch(t, { cookie: f.admin.cookie });
  try {
    const props = await showAssignForm(t, f.admin.cookie, f.survey.id);
    assertEquals(props.candidates.map((c) => c.detail), ["Bought the lead"]);
    assertEquals(screen.getByRole("status").textContent, "Nobody is assigned yet.");
    const price = screen.getByLabelText("Agreed price (USD)") as HTMLInputElement;
    assertEquals(Number(price.value) * 100, f.survey.quotedPriceCents);
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Surveyor"), {
        target: { value: f.buyer.surveyor.id },
      })
    );
    await act(() => void fireEvent.change(price, { target: { value: "1285.50" } }));
    const submit = screen.getByRole("button", { name: "Assign surveyor" }) as HTMLButtonElement;
    assertEquals(submit.disabled, false);
    // The form itself is submitted: the browser's own constraint checks are not tested here.
    await act(() => void fireEvent.submit(submit.closest("form")!));
    await waitFor(() => assertEquals(lastToast()?.title, "Surveyor assigned"));
    assertMatch(lastToast()!.description!, /Barton Creek Surveying at \$1,285\.50/);
    assertMatch(screen.getByRole("status").textContent ?? "", /waiting for them to accept/);
    assertEquals(api.calls.map((c) => [c.method, c.path, c.body]), [[
      "POST",
      `/api/surveys/${f.survey.id}/assign/${f.buyer.surveyor.id}`,
      { agreedPrice: 1285.5 },
    ]]);
    const [row] = await assignmentRows(t, f.survey.id);
    assertEquals([row.status, row.agreedPriceCents], ["offered", 128550]);
  } finally {
    cleanup();
    api.restore();
    dismissToast();
    t.close();
  }
});

test("[assign surveyor] a refused price shows 'Failed to assign surveyor' with the server's message", async () => {
  const t = await createTestApp();
  const f = await setup(t);
  const api = useAppFetch(t, { cookie: f.admin.cookie });
  try {
    await showAssignForm(t, f.admin.cookie, f.survey.id);
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Surveyor"), {
        target: { value: f.buyer.surveyor.id },
      })
    );
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Agreed price (USD)"), {
        target: { value: "-5" },
      })
    );
    // Submitting the form directly: the browser's own min check is not what is tested here.
    await act(() => void fireEvent.submit(document.querySelector("form")!));
    await waitFor(() => assertEquals(lastToast()?.title, "Failed to assign surveyor"));
    assertEquals(lastToast(), {
      title: "Failed to assign surveyor",
      description: "Agreed price must be more than $0",
      variant: "destructive",
    });
    assertEquals(screen.getByRole("status").textContent, "Nobody is assigned yet.");
    assertEquals(await assignmentRows(t, f.survey.id), []);
  } finally {
    cleanup();
    api.restore();
    dismissToast();
    t.close();
  }
});

test("[assignment actions] the surveyor accepts then schedules ('Assignment updated'); a past day fails with the reason", async () => {
  const t = await createTestApp();
  const f = await setup(t);
  await t.sql.begin(async (tx) => {
    const { assignSurveyorInTx } = await import("../../lib/assignments.ts");
    await assignSurveyorInTx(tx, {
      surveyId: f.survey.id,
      surveyorId: f.buyer.surveyor.id,
      agreedPriceCents: 120000,
      source: "admin",
      actorId: f.admin.user.id,
      publicUrl: "http://localhost",
    });
  });
  const api = useAppFetch(t, { cookie: f.buyer.cookie });
  try {
    const assignment = (await getOpenAssignment(t.sql, { surveyId: f.survey.id }))!;
    render(<AssignmentActions {...assignmentActionsProps(assignment, "surveyor")} />);
    await waitFor(() => assert(document.querySelector(".assignment-actions[data-hydrated]")));
    assertEquals(screen.queryByRole("button", { name: "Cancel assignment" }), null);
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Accept" })));
    await waitFor(() => assertEquals(lastToast()?.title, "Assignment updated"));
    assertEquals(lastToast()?.description, "You accepted the job.");
    assertEquals(screen.queryByRole("button", { name: "Accept" }), null);

    const date = screen.getByLabelText("Visit date") as HTMLInputElement;
    await act(() => void fireEvent.change(date, { target: { value: "2000-01-03" } }));
    await act(() => void fireEvent.submit(date.closest("form")!));
    await waitFor(() => assertEquals(lastToast()?.title, "Failed to update assignment status"));
    assertEquals(lastToast()?.description, "The visit date cannot be in the past.");
    assertEquals((await surveyRow(t, f.survey.id)).status, "assigned");

    const day = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
    await act(() => void fireEvent.change(date, { target: { value: day } }));
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Schedule visit" })));
    await waitFor(() => assertMatch(lastToast()?.description ?? "", /Visit scheduled for/));
    assertEquals(lastToast()?.title, "Assignment updated");
    assertEquals(await surveyRow(t, f.survey.id), {
      status: "scheduled",
      scheduledDate: day,
      assignedSurveyorId: f.buyer.surveyor.id,
    });
    // The surveyor completes the job by completing the survey on the job page, not here.
    assertEquals(screen.queryByRole("button", { name: "Mark completed" }), null);
    assert(screen.getByRole("button", { name: "Reschedule" }));
  } finally {
    cleanup();
    api.restore();
    dismissToast();
    t.close();
  }
});

// Issue 21: after accepting, the job page still said "Accept it to see…" until a reload.
test("[assignment actions] on the job page, accepting replaces 'Accept it to see…' with the next step and links to the client's details", async () => {
  const t = await createTestApp();
  const f = await setup(t);
  const other = await addSurveyor(t, "Ortiz Surveying");
  await t.sql.begin(async (tx) => {
    const { assignSurveyorInTx } = await import("../../lib/assignments.ts");
    await assignSurveyorInTx(tx, {
      surveyId: f.survey.id,
      surveyorId: other.surveyor.id,
      agreedPriceCents: 120000,
      source: "admin",
      actorId: f.admin.user.id,
      publicUrl: "http://localhost",
    });
  });
  const api = useAppFetch(t, { cookie: other.cookie });
  try {
    const { html } = await loadPage(t, `/surveyor/jobs/${f.survey.id}`, other.cookie);
    const props = islandProps<Parameters<typeof AssignmentActions>[0]>(html, "AssignmentActions");
    render(<AssignmentActions {...props} />);
    await waitFor(() => assert(document.querySelector(".assignment-actions[data-hydrated]")));
    const step = () => screen.getByTestId("next-step").textContent ?? "";
    assertMatch(step(), /^Meridian offers you this job.*Accept it to see/);
    assertEquals(screen.queryByRole("link", { name: "Show the client's details" }), null);

    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Accept" })));
    await waitFor(() => assertEquals(lastToast()?.description, "You accepted the job."));
    assert(!document.body.textContent!.includes("Accept it to see"), "no stale offer text");
    assertEquals(step(), "Call the client to agree the visit, then schedule it here.");
    const link = screen.getByRole("link", { name: "Show the client's details" });
    assertEquals(link.getAttribute("href"), `/surveyor/jobs/${f.survey.id}`);
    // The page that link opens has the client's details and no offer text.
    const again = await loadPage(t, `/surveyor/jobs/${f.survey.id}`, other.cookie);
    assert(!again.html.includes("Accept it to see"));
    assert(!again.html.includes('data-testid="job-locked"'));
  } finally {
    cleanup();
    api.restore();
    dismissToast();
    t.close();
  }
});
