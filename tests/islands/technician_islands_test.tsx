import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { emailsOf } from "../_assignment_fixtures.ts";
import {
  assignedTechnician,
  assignPath,
  crewFixture,
  technicianRows,
} from "../_technician_fixtures.ts";
import { setupDom } from "./_dom.ts";
import { type Answer, useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor, within } = await import(
  "@testing-library/react"
);
const { default: AssignTechnician } = await import("../../islands/AssignTechnician.tsx");
type AssignTechnicianProps = import("../../islands/AssignTechnician.tsx").AssignTechnicianProps;
const { default: TechnicianTeam } = await import("../../islands/TechnicianTeam.tsx");
type TechnicianTeamProps = import("../../islands/TechnicianTeam.tsx").TechnicianTeamProps;
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");

function lastToast() {
  const [shown] = getToasts();
  return shown
    ? { title: shown.title, description: shown.description, variant: shown.variant }
    : undefined;
}

/** The job page's AssignTechnician, rendered from its server props with the real app behind it. */
async function showAssignForm(
  t: TestApp,
  cookie: string,
  path: string,
  canned: Record<string, Answer> = {},
) {
  const { res, html } = await loadPage(t, path, cookie);
  assertEquals(res.status, 200);
  const props = islandProps<AssignTechnicianProps>(html, "AssignTechnician");
  const api = useAppFetch(t, { cookie, canned });
  render(<AssignTechnician {...props} />);
  await waitFor(() => assert(document.querySelector(".assign-technician[data-hydrated]")));
  return { props, api };
}

function done(t: TestApp, api?: { restore(): void }) {
  cleanup();
  api?.restore();
  dismissToast();
  t.close();
}

/** Checks the radio of `value` in the group labelled `label`. */
async function choose(label: string, value: string) {
  const group = screen.getByRole("group", { name: label });
  const radio = group.querySelector<HTMLInputElement>(`input[type=radio][value="${value}"]`)!;
  await act(() => void fireEvent.click(radio));
}

async function submit(name: string) {
  const button = screen.getByRole("button", { name });
  await act(() => void fireEvent.submit(button.closest("form")!));
}

test("[assign technician] the surveyor picks a technician with notes: 'Technician assigned', saved, emailed", async () => {
  const t = await createTestApp();
  const f = await crewFixture(t);
  const { api } = await showAssignForm(t, f.ortiz.cookie, `/surveyor/jobs/${f.survey.id}`);
  try {
    assertEquals(screen.getByRole("status").textContent, "No technician assigned yet.");
    const group = screen.getByRole("group", { name: "Technician" });
    assertEquals(
      within(group).getAllByRole("radio").map((r) => r.closest("label")?.textContent),
      ["Riley Chen", "Sam Park"],
    );
    // Nothing chosen: the island says so and sends nothing.
    await submit("Assign technician");
    assertStringIncludes(document.body.textContent ?? "", "Choose a technician");
    assertEquals(api.calls.length, 0);

    await choose("Technician", f.riley.user.id);
    await act(() =>
      void fireEvent.change(screen.getByLabelText(/Notes for the crew/), {
        target: { value: "Gate code 1234" },
      })
    );
    await submit("Assign technician");
    await waitFor(() => assertEquals(lastToast()?.title, "Technician assigned"));
    assertEquals(lastToast()!.variant, "default");
    assertStringIncludes(lastToast()!.description!, "Riley Chen will do the fieldwork");
    assertEquals(screen.getByRole("status").textContent, "Assigned: Riley Chen");
    assertEquals(api.calls.map((c) => [c.method, c.path, c.body]), [[
      "PATCH",
      assignPath(f.survey.id),
      { technicianId: f.riley.user.id, notes: "Gate code 1234" },
    ]]);
    assertEquals(await assignedTechnician(t, f.survey.id), f.riley.user.id);
    assertEquals((await emailsOf(t, "technician_job_assigned")).length, 1);

    // The same technician again: the button saves the notes only.
    await act(() =>
      void fireEvent.change(screen.getByLabelText(/Notes for the crew/), {
        target: { value: "Gate code 4321" },
      })
    );
    await submit("Save notes");
    await waitFor(() => assertStringIncludes(lastToast()?.description ?? "", "Notes for Riley"));
    assertEquals((await technicianRows(t, f.survey.id)).map((r) => r.notes), ["Gate code 4321"]);
  } finally {
    done(t, api);
  }
});

test("[assign technician] a refusal shows 'Error assigning technician' with the server's message", async () => {
  const t = await createTestApp();
  const f = await crewFixture(t);
  const { api } = await showAssignForm(t, f.admin.cookie, `/survey/${f.survey.id}`);
  try {
    // The survey is completed meanwhile: the server refuses with its reason.
    await t.sql`update surveys set status = 'completed' where id = ${f.survey.id}`;
    await choose("Technician", f.staff.user.id);
    await submit("Assign technician");
    await waitFor(() => assertEquals(lastToast()?.title, "Error assigning technician"));
    assertEquals(lastToast(), {
      title: "Error assigning technician",
      description:
        "This survey is completed; a technician can be assigned only while it is assigned, scheduled or in fieldwork.",
      variant: "destructive",
    });
    assertEquals(screen.getByRole("status").textContent, "No technician assigned yet.");
    assertEquals(await technicianRows(t, f.survey.id), []);
  } finally {
    done(t, api);
  }
});

test("[assign technician] a network failure falls back to 'Failed to assign technician'", async () => {
  const t = await createTestApp();
  const f = await crewFixture(t);
  // Canned: a lost connection cannot be produced by the app.
  const { api } = await showAssignForm(t, f.ortiz.cookie, `/surveyor/jobs/${f.survey.id}`, {
    [`PATCH ${assignPath(f.survey.id)}`]: () => Promise.reject(new TypeError("Failed to fetch")),
  });
  try {
    await choose("Technician", f.sam.user.id);
    await submit("Assign technician");
    await waitFor(() => assertEquals(lastToast()?.title, "Error assigning technician"));
    assertEquals(lastToast()!.description, "Failed to assign technician");
  } finally {
    done(t, api);
  }
});

/** The crew page's TechnicianTeam, from its server props, with the real app behind it. */
async function showTeam(t: TestApp, cookie: string) {
  const { html } = await loadPage(t, "/surveyor/crew", cookie);
  const props = islandProps<TechnicianTeamProps>(html, "TechnicianTeam");
  const api = useAppFetch(t, { cookie });
  render(<TechnicianTeam {...props} />);
  await waitFor(() => assert(document.querySelector(".technician-team[data-hydrated]")));
  return api;
}

test("[technician team] inviting adds the technician ('Invitation not emailed' with no mail server); the same email again is refused", async () => {
  const t = await createTestApp();
  const f = await crewFixture(t);
  const api = await showTeam(t, f.ortiz.cookie);
  try {
    const list = () =>
      [...document.querySelectorAll(".technician-team__name strong")].map((n) => n.textContent);
    assertEquals(list(), ["Riley Chen", "Sam Park"]);
    const type = (label: string, value: string) =>
      act(() => void fireEvent.change(screen.getByLabelText(label), { target: { value } }));
    // Checked in the browser first: nothing is sent.
    await type("Email", "not an email");
    await submit("Send invitation");
    assertStringIncludes(document.body.textContent ?? "", "Enter the technician's name");
    assertStringIncludes(document.body.textContent ?? "", "Enter a valid email address");
    assertEquals(api.calls.length, 0);

    await type("Full name", "Jamie Field");
    await type("Email", "jamie@crew.test");
    await type("Phone (optional)", "(512) 555-0190");
    await submit("Send invitation");
    await waitFor(() => assertEquals(lastToast()?.title, "Invitation not emailed"));
    assertEquals(
      lastToast()!.description,
      "The invitation to jamie@crew.test is queued. No mail server is configured on this Meridian, so it was not emailed; an administrator can pass the link on.",
    );
    assertEquals(getToasts()[0].link, undefined, "a surveyor gets no link to the admin's outbox");
    assertEquals(list(), ["Jamie Field", "Riley Chen", "Sam Park"]);
    assertStringIncludes(document.body.textContent ?? "", "Invited, not signed in yet");
    assertEquals((await emailsOf(t, "technician_invitation")).length, 1);

    await type("Full name", "Jamie Again");
    await type("Email", "JAMIE@crew.test");
    await submit("Send invitation");
    await waitFor(() => assertEquals(lastToast()?.title, "Error inviting technician"));
    assertEquals(lastToast()!.description, "An account with this email already exists");
    assertEquals(list(), ["Jamie Field", "Riley Chen", "Sam Park"]);
  } finally {
    done(t, api);
  }
});

test("[technician team] removing asks first, then takes the technician off the crew", async () => {
  const t = await createTestApp();
  const f = await crewFixture(t);
  await t.request("PATCH", assignPath(f.survey.id), {
    cookie: f.ortiz.cookie,
    body: { technicianId: f.sam.user.id },
  });
  const api = await showTeam(t, f.ortiz.cookie);
  try {
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Remove Sam Park" })));
    assertStringIncludes(
      document.body.textContent ?? "",
      "Their open jobs lose their technician and their account is closed.",
    );
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Keep" })));
    assertEquals(api.calls.length, 0);
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Remove Sam Park" })));
    // The confirmation's button is named the same; it is the only danger button.
    const confirm = document.querySelector<HTMLButtonElement>(".btn--danger")!;
    await act(() => void fireEvent.click(confirm));
    await waitFor(() => assertEquals(lastToast()?.title, "Technician removed"));
    assertEquals(
      lastToast()!.description,
      "Sam Park is off your crew. 1 open job needs another technician.",
    );
    assert(!(document.body.textContent ?? "").includes("Sam Park"));
    assertEquals(await assignedTechnician(t, f.survey.id), null);
  } finally {
    done(t, api);
  }
});
