import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { checklistJob } from "../_checklist_fixtures.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";
import { NativeCustomEvent, setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

// The islands listen on Deno's own `globalThis` events (tests/islands/_dom.ts keeps them), so
// the test announces with Deno's CustomEvent, as a browser's window would with its own.
setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: FieldActions } = await import("../../islands/FieldActions.tsx");
type FieldActionsProps = import("../../islands/FieldActions.tsx").FieldActionsProps;
const { default: CompleteSurvey } = await import("../../islands/CompleteSurvey.tsx");
type CompleteSurveyProps = import("../../islands/CompleteSurvey.tsx").CompleteSurveyProps;
const { default: RateSurveyor } = await import("../../islands/RateSurveyor.tsx");
const { CHECKLIST_PROGRESS_EVENT, DELIVERABLES_EVENT } = await import(
  "../../islands/_field_status.ts"
);
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");

function lastToast() {
  const [shown] = getToasts();
  return shown ? { title: shown.title, description: shown.description } : undefined;
}

async function statusOf(t: TestApp, id: string) {
  const [row] = await t.sql<{ status: string; lat: number | null }[]>`
    select status, fieldwork_start_lat as lat from surveys where id = ${id}`;
  return row;
}

function withGeolocation(answer: "allow" | "deny") {
  const geolocation = {
    getCurrentPosition(ok: PositionCallback, fail: PositionErrorCallback) {
      if (answer === "allow") {
        ok({ coords: { latitude: 30.25, longitude: -97.75 } } as GeolocationPosition);
      } else fail({ code: 1, message: "User denied Geolocation" } as GeolocationPositionError);
    },
  };
  Object.defineProperty(navigator, "geolocation", { value: geolocation, configurable: true });
  return () => Reflect.deleteProperty(navigator, "geolocation");
}

async function fieldActions(t: TestApp, cookie: string, surveyId: string) {
  const { res, html } = await loadPage(t, `/technician-survey-detail/${surveyId}`, cookie);
  assertEquals(res.status, 200);
  const props = islandProps<FieldActionsProps>(html, "FieldActions");
  render(<FieldActions {...props} />);
  await waitFor(() => assert(document.querySelector(".field-actions[data-hydrated]")));
  return props;
}

test("[field actions] Start fieldwork sends the position when allowed, and goes on without it when denied", async () => {
  for (const answer of ["allow", "deny"] as const) {
    const t = await createTestApp();
    const job = await checklistJob(t);
    const api = useAppFetch(t, { cookie: job.technicianCookie });
    const restore = withGeolocation(answer);
    try {
      await fieldActions(t, job.technicianCookie, job.survey.id);
      await act(() =>
        void fireEvent.click(screen.getByRole("button", { name: "Start fieldwork" }))
      );
      await waitFor(() => assertEquals(lastToast()?.title, "Fieldwork started"));
      const row = await statusOf(t, job.survey.id);
      assertEquals(row, { status: "in_fieldwork", lat: answer === "allow" ? 30.25 : null });
      const [call] = api.calls;
      assertEquals(
        call.body,
        answer === "allow"
          ? { status: "in_fieldwork", position: { lat: 30.25, lng: -97.75 } }
          : { status: "in_fieldwork" },
      );
      // The island moves on to the next action.
      assert(screen.getByRole("button", { name: "Mark surveyed" }));
    } finally {
      cleanup();
      api.restore();
      restore();
      dismissToast();
      t.close();
    }
  }
});

test("[field actions] Mark surveyed waits for every required item, following the checklist's progress", async () => {
  const t = await createTestApp();
  const job = await checklistJob(t, { status: "in_fieldwork" });
  const api = useAppFetch(t, { cookie: job.technicianCookie });
  try {
    const props = await fieldActions(t, job.technicianCookie, job.survey.id);
    const button = screen.getByRole("button", { name: "Mark surveyed" }) as HTMLButtonElement;
    assertEquals(button.disabled, true);
    const total = props.progress!.requiredTotal;
    assert(
      screen.getByText(
        `Complete the ${total} remaining required checklist items to mark the survey surveyed.`,
      ),
    );
    const announce = (requiredDone: number, isSynced = true) =>
      act(() =>
        void globalThis.dispatchEvent(
          new NativeCustomEvent(CHECKLIST_PROGRESS_EVENT, {
            detail: {
              surveyId: job.survey.id,
              progress: { ...props.progress!, requiredDone },
              isSynced,
            },
          }),
        )
      );
    await announce(total - 1);
    assert(screen.getByText(/Complete the 1 remaining required checklist item to/));
    assertEquals(button.disabled, true);
    await announce(total, false);
    assert(screen.getByText(/still saved on this device only/));
    assertEquals(button.disabled, true);
    // Another survey's checklist does not count.
    await act(() =>
      void globalThis.dispatchEvent(
        new NativeCustomEvent(CHECKLIST_PROGRESS_EVENT, {
          detail: { surveyId: crypto.randomUUID(), progress: props.progress, isSynced: true },
        }),
      )
    );
    await announce(total);
    assertEquals(button.disabled, false);

    // The island believed the device; the server counts what it has and refuses.
    await act(() => void fireEvent.click(button));
    await waitFor(() => assertEquals(lastToast()?.title, "Could not mark the survey surveyed"));
    assert(/required checklist item/.test(lastToast()?.description ?? ""));
    assertEquals((await statusOf(t, job.survey.id)).status, "in_fieldwork");

    await t.sql`update survey_checklist_items set value = case kind
        when 'check' then 'true'::jsonb when 'number' then '1'::jsonb
        when 'text' then '"ok"'::jsonb else '["x"]'::jsonb end
      where survey_id = ${job.survey.id}`;
    await act(() => void fireEvent.click(button));
    await waitFor(() => assertEquals(lastToast()?.title, "Survey marked surveyed"));
    assertEquals((await statusOf(t, job.survey.id)).status, "surveyed");
    const patch = api.calls.at(-1)!;
    assertEquals(Object.keys(patch.body as object).sort(), ["status", "surveyedDate"]);
  } finally {
    cleanup();
    api.restore();
    dismissToast();
    t.close();
  }
});

test("[complete survey] Mark complete is enabled by an upload and completes the survey", async () => {
  const t = await createTestApp();
  const job = await checklistJob(t, { status: "surveyed" });
  const api = useAppFetch(t, { cookie: job.surveyorCookie });
  try {
    const { html } = await loadPage(t, `/surveyor/jobs/${job.survey.id}`, job.surveyorCookie);
    const props = islandProps<CompleteSurveyProps>(html, "CompleteSurvey");
    render(<CompleteSurvey {...props} />);
    await waitFor(() => assert(document.querySelector(".complete-survey[data-hydrated]")));
    const button = screen.getByRole("button", { name: "Mark complete" }) as HTMLButtonElement;
    assertEquals(button.disabled, true);
    assert(screen.getByText(/Upload at least one deliverable/));
    await t.sql`
      insert into survey_files (survey_id, kind, file_name, content_type, size_bytes, sha256,
        storage, storage_key)
      values (${job.survey.id}, 'deliverable', 'plat.pdf', 'application/pdf', 10,
        ${"b".repeat(64)}, 'postgres', ${crypto.randomUUID()})`;
    await act(() =>
      void globalThis.dispatchEvent(
        new NativeCustomEvent(DELIVERABLES_EVENT, {
          detail: { surveyId: job.survey.id, count: 1 },
        }),
      )
    );
    assertEquals(button.disabled, false);
    assertEquals(props.mailDelivery, "none");
    assert(screen.getByText(/no mail server is configured, so no email tells them/));
    await act(() => void fireEvent.click(button));
    await waitFor(() => assertEquals(lastToast()?.title, "Survey completed"));
    // No mail server (the default): the toast does not claim the client was emailed.
    assertEquals(
      lastToast()?.description,
      "The deliverables are on the client's survey page. No mail server is configured, so the client was not emailed.",
    );
    assertEquals((await statusOf(t, job.survey.id)).status, "completed");
    assert(screen.getByText(/Delivered on/));
  } finally {
    cleanup();
    api.restore();
    dismissToast();
    t.close();
  }
});

test("[rate surveyor] the client picks stars with the radio group, comments and sends once", async () => {
  const t = await createTestApp();
  const job = await checklistJob(t, { status: "completed" });
  await t
    .sql`update survey_assignments set status = 'completed' where survey_id = ${job.survey.id}`;
  const api = useAppFetch(t, { cookie: job.clientCookie });
  try {
    render(
      <RateSurveyor surveyId={job.survey.id} companyName="Level Line Surveying" existing={null} />,
    );
    await waitFor(() =>
      assert(!(screen.getByRole("button", { name: "Send rating" }) as HTMLButtonElement).disabled)
    );
    const group = screen.getByRole("group", {
      name: "How was your experience with Level Line Surveying?",
    });
    assert(group);
    assertEquals(screen.getAllByRole("radio").length, 5);
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Send rating" })));
    assert(screen.getByText("Choose from 1 to 5 stars."));
    assertEquals(api.calls.length, 0);
    await act(() =>
      void fireEvent.click(screen.getByRole("radio", { name: "4 stars, Very good" }))
    );
    await act(() =>
      void fireEvent.change(screen.getByLabelText(/Comment/), {
        target: { value: "Clear plat, on time" },
      })
    );
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Send rating" })));
    await waitFor(() => assertEquals(lastToast()?.title, "Thank you for your rating"));
    assert(screen.getByTestId("rating-given"));
    assert(screen.getByText("Clear plat, on time"));
    const [review] = await t.sql`select rating, comment from surveyor_reviews
      where survey_id = ${job.survey.id}`;
    assertEquals(review, { rating: 4, comment: "Clear plat, on time" });
    // Another firm is not involved: the rating went to the firm that did the job.
    const rival = await addSurveyor(t, "Rival Surveying");
    const [firm] = await t.sql`select meridian_review_count as n from surveyors
      where id = ${rival.surveyor.id}`;
    assertEquals(firm.n, 0);
  } finally {
    cleanup();
    api.restore();
    dismissToast();
    t.close();
  }
});
