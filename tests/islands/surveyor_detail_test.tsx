import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";
import { getSurveyor, insertSurveyor } from "../../db/surveyors.ts";
import type { Surveyor } from "../../lib/surveyor_schema.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, within } = await import("@testing-library/react");
const { default: SurveyorDetail } = await import("../../islands/SurveyorDetail.tsx");
type SurveyorDetailProps = import("../../islands/SurveyorDetail.tsx").SurveyorDetailProps;
const { profilePatch, profileValues } = await import("../../islands/_surveyor_profile.tsx");
const { addressParts } = await import("../../islands/_surveyor_shared.ts");
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");

/** A record with two contacts, and an admin signed in. */
async function record(t: TestApp) {
  const surveyor = await insertSurveyor(t.sql, {
    companyName: "Austin Land Surveying",
    city: "Austin",
    state: "TX",
    lat: 30.27,
    lng: -97.74,
    surveyTypes: ["boundary"],
    status: "active",
    inNetwork: true,
    contacts: [
      { name: "Pat Primary", email: "pat@example.test", isPrimary: true },
      { name: "Sam Second", phone: "512-555-0101" },
    ],
  });
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  return { surveyor, admin };
}

/** The record's page as the server renders it for the admin, fetch reaching the app. */
async function mount(t: TestApp, surveyor: Surveyor, cookie: string) {
  const { html } = await loadPage(t, `/surveyor-detail/${surveyor.id}`, cookie);
  const api = useAppFetch(t, { cookie });
  render(<SurveyorDetail {...islandProps<SurveyorDetailProps>(html, "SurveyorDetail")} />);
  return {
    api,
    done() {
      cleanup();
      api.restore();
      dismissToast();
      t.close();
    },
  };
}

function contactNames(): string[] {
  return [...document.querySelectorAll(".surveyor-contact[data-contact-index] strong")].map((
    el,
  ) => el.textContent ?? "");
}

async function storedContacts(t: TestApp, id: string) {
  return (await getSurveyor(t.sql, { id }))!.contacts.map((c) => [c.name, c.isPrimary]);
}

function lastToast() {
  const toast = getToasts()[0];
  return [toast?.title, toast?.description, toast?.variant];
}

async function type(label: string | RegExp, value: string, root: HTMLElement = document.body) {
  await act(() => void fireEvent.change(within(root).getByLabelText(label), { target: { value } }));
}

async function press(name: string | RegExp) {
  await act(() => void fireEvent.click(screen.getByRole("button", { name })));
}

test("[surveyor detail] addressParts reads city, state and ZIP from a geocoded address", () => {
  const states = ["TX", "CA"];
  assertEquals(addressParts("12 Elm St, Austin, TX 78704, USA", states), {
    city: "Austin",
    state: "TX",
    zip: "78704",
  });
  assertEquals(addressParts("Fresno, CA", states), { city: "Fresno", state: "CA" });
  assertEquals(addressParts("Somewhere, ZZ 12345", states), {});
  assertEquals(addressParts("no commas here", states), {});
});

test("[surveyor detail] profilePatch sends only what changed, and a typed address without a location", async () => {
  const t = await createTestApp();
  const { surveyor } = await record(t);
  const saved = profileValues(surveyor);
  assertEquals(profilePatch(saved, saved, null), {});
  assertEquals(
    profilePatch(
      saved,
      { ...saved, serviceRadiusMiles: "75", surveyTypes: ["alta", "boundary"] },
      null,
    ),
    { serviceRadiusMiles: 75, surveyTypes: ["boundary", "alta"] },
  );
  assertEquals(profilePatch(saved, { ...saved, address: "1 Main St" }, null), {
    address: "1 Main St",
    lat: null,
    lng: null,
  });
  assertEquals(
    profilePatch(saved, { ...saved, address: "1 Main St" }, { lat: 30.1, lng: -97.2 }),
    { address: "1 Main St", lat: 30.1, lng: -97.2 },
  );
  assertEquals(profilePatch(saved, { ...saved, city: "  " }, null), { city: "" });
  t.close();
});

test("[surveyor detail] adding a contact updates the list and the record", async () => {
  const t = await createTestApp();
  const { surveyor, admin } = await record(t);
  const ui = await mount(t, surveyor, admin.cookie);
  try {
    assertEquals(contactNames(), ["Pat Primary", "Sam Second"]);
    await press("Add a contact");
    const form = document.querySelector<HTMLElement>(".surveyor-contact--new")!;
    await type("Name", "Lee Third", form);
    await type("Email (optional)", "lee@example.test", form);
    await press("Add contact");
    await act(() => ui.api.idle());
    assertEquals(contactNames(), ["Pat Primary", "Sam Second", "Lee Third"]);
    assertEquals(lastToast(), ["Contact added", undefined, "default"]);
    assertEquals(await storedContacts(t, surveyor.id), [
      ["Pat Primary", true],
      ["Sam Second", false],
      ["Lee Third", false],
    ]);
    assertEquals(document.activeElement?.textContent, "Add a contact", "focus back on the button");
  } finally {
    ui.done();
  }
});

test("[surveyor detail] removing a contact asks first, then updates the list and the record", async () => {
  const t = await createTestApp();
  const { surveyor, admin } = await record(t);
  const ui = await mount(t, surveyor, admin.cookie);
  try {
    await press("Remove Pat Primary");
    assertEquals(document.activeElement?.textContent, "Keep", "focus on the safe choice");
    await press("Keep");
    assertEquals(contactNames(), ["Pat Primary", "Sam Second"]);
    assertEquals(ui.api.calls.length, 0);

    await press("Remove Pat Primary");
    await press(/^Remove$/);
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls.map((c) => `${c.method} ${c.path}`), [
      `DELETE /api/surveyors/${surveyor.id}/contacts/0`,
    ]);
    assertEquals(contactNames(), ["Sam Second"]);
    assertEquals(lastToast()[0], "Contact removed");
    assertEquals(await storedContacts(t, surveyor.id), [["Sam Second", false]]);
  } finally {
    ui.done();
  }
});

test("[surveyor detail] editing a contact and making one primary send only the change", async () => {
  const t = await createTestApp();
  const { surveyor, admin } = await record(t);
  const ui = await mount(t, surveyor, admin.cookie);
  try {
    await press("Edit Sam Second");
    const item = document.querySelector<HTMLElement>('[data-contact-index="1"]')!;
    await type("Title (optional)", "Party chief", item);
    await press("Save contact");
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls.at(-1)?.body, { title: "Party chief" });
    assertEquals(lastToast()[0], "Contact updated");
    assertStringIncludes(item.textContent ?? "", "Party chief");

    await press("Make primary Sam Second");
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls.at(-1)?.path, `/api/surveyors/${surveyor.id}/contacts/1`);
    assertEquals(ui.api.calls.at(-1)?.body, { isPrimary: true });
    const stored = await getSurveyor(t.sql, { id: surveyor.id });
    assertEquals(stored!.contacts[1].isPrimary, true);
    assertEquals(stored!.contacts[1].title, "Party chief");
  } finally {
    ui.done();
  }
});

test("[surveyor detail] contact failures toast the spec's titles with the server's message", async () => {
  const t = await createTestApp();
  const { surveyor, admin } = await record(t);
  const ui = await mount(t, surveyor, admin.cookie);
  try {
    // Add: the server refuses a bad email, and nothing is stored.
    await press("Add a contact");
    const form = document.querySelector<HTMLElement>(".surveyor-contact--new")!;
    await type("Name", "Lee Third", form);
    await type("Email (optional)", "not-an-email", form);
    await press("Add contact");
    await act(() => ui.api.idle());
    const [title, description, variant] = lastToast();
    assertEquals([title, variant], ["Failed to add contact", "destructive"]);
    assertEquals(description, "Enter a valid email address");
    assertEquals(contactNames(), ["Pat Primary", "Sam Second"]);
    await press("Cancel");

    // Update: a phone number the server refuses.
    await press("Edit Sam Second");
    const item = document.querySelector<HTMLElement>('[data-contact-index="1"]')!;
    await type("Phone (optional)", "call me", item);
    await press("Save contact");
    await act(() => ui.api.idle());
    assertEquals(lastToast()[0], "Failed to update contact");
    assertEquals(lastToast()[1], "Enter a valid phone number");
    await press("Cancel");

    // Remove: another admin removed the last contact meanwhile, so index 1 is out of range.
    const other = await t.request("DELETE", `/api/surveyors/${surveyor.id}/contacts/1`, {
      cookie: admin.cookie,
    });
    assertEquals(other.status, 200);
    await press("Remove Sam Second");
    await press(/^Remove$/);
    await act(() => ui.api.idle());
    assertEquals(lastToast(), ["Failed to remove contact", "Contact not found", "destructive"]);
    assertEquals(await storedContacts(t, surveyor.id), [["Pat Primary", true]]);

    // Make primary on the vanished contact: also out of range.
    await press("Make primary Sam Second");
    await act(() => ui.api.idle());
    assertEquals(lastToast(), ["Failed to update contact", "Contact not found", "destructive"]);
  } finally {
    ui.done();
  }
});

test("[surveyor detail] logging a contact puts it at the top of the history", async () => {
  const t = await createTestApp();
  const { surveyor, admin } = await record(t);
  await t.request("POST", `/api/surveyors/${surveyor.id}/contact-history`, {
    cookie: admin.cookie,
    body: { channel: "email", summary: "Sent the network brochure" },
  });
  // Distinct times (the history is append-only, so not by an update): two entries in a row can
  // share a timestamp, and a tie is ordered by id, which says nothing of which came first.
  await new Promise((resolve) => setTimeout(resolve, 2));
  const ui = await mount(t, surveyor, admin.cookie);
  try {
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Channel"), { target: { value: "meeting" } })
    );
    await type("Summary", "Met at the state conference");
    await type("Outcome (optional)", "Wants leads in Travis County");
    await type("Next follow-up (optional)", "2031-06-01");
    await press("Log contact");
    await act(() => ui.api.idle());
    const entries = [...document.querySelectorAll(".surveyor-history__entry")].map((e) =>
      e.textContent ?? ""
    );
    assertEquals(entries.length, 2);
    assertStringIncludes(entries[0], "Meeting");
    assertStringIncludes(entries[0], "Met at the state conference");
    assertStringIncludes(entries[0], "Wants leads in Travis County");
    assertStringIncludes(entries[0], "Jun 1, 2031");
    assertStringIncludes(entries[0], "Ada Admin");
    assertStringIncludes(entries[1], "Sent the network brochure");
    assertEquals(lastToast()[0], "Contact logged");
    assertEquals((screen.getByLabelText("Summary") as HTMLTextAreaElement).value, "");
    const rows = await t.sql<{ channel: string; nextFollowUp: string }[]>`
      select channel, next_follow_up::text as next_follow_up from surveyor_contact_history
      order by created_at desc`;
    assertEquals(rows[0], { channel: "meeting", nextFollowUp: "2031-06-01" });
  } finally {
    ui.done();
  }
});

test("[surveyor detail] a refused history entry toasts 'Failed to add contact history' and keeps the draft", async () => {
  const t = await createTestApp();
  const { surveyor, admin } = await record(t);
  const ui = await mount(t, surveyor, admin.cookie);
  try {
    // Nothing is sent without a summary.
    await press("Log contact");
    assertEquals(ui.api.calls.length, 0);
    await type("Summary", "x".repeat(2001));
    await press("Log contact");
    await act(() => ui.api.idle());
    const post = ui.api.calls.at(-1);
    const expected = await (await t.request("POST", post!.path, {
      cookie: admin.cookie,
      body: post!.body,
    })).json();
    assertEquals(lastToast(), ["Failed to add contact history", expected.message, "destructive"]);
    assertEquals((screen.getByLabelText("Summary") as HTMLTextAreaElement).value.length, 2001);
    const [{ n }] = await t.sql<{ n: number }[]>`
      select count(*)::int as n from surveyor_contact_history`;
    assertEquals(n, 0);
  } finally {
    ui.done();
  }
});

test("[surveyor detail] saving the profile sends only the changes; a refusal toasts 'Failed to update surveyor'", async () => {
  const t = await createTestApp();
  const { surveyor, admin } = await record(t);
  const ui = await mount(t, surveyor, admin.cookie);
  try {
    const save = screen.getByRole("button", { name: "Save changes" }) as HTMLButtonElement;
    assert(save.disabled, "nothing to save yet");
    await type("Service radius (miles)", "75");
    await act(() => void fireEvent.click(screen.getByLabelText("ALTA/NSPS Survey")));
    await act(() => void fireEvent.click(screen.getByLabelText("OK")));
    await press("Save changes");
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls.at(-1)?.method, "PATCH");
    assertEquals(ui.api.calls.at(-1)?.body, {
      licenseStates: ["OK"],
      surveyTypes: ["boundary", "alta"],
      serviceRadiusMiles: 75,
    });
    assertEquals(lastToast()[0], "Surveyor updated");
    const stored = await getSurveyor(t.sql, { id: surveyor.id });
    assertEquals(
      [stored!.serviceRadiusMiles, stored!.surveyTypes, stored!.licenseStates],
      [75, ["boundary", "alta"], ["OK"]],
    );
    assert(save.disabled, "saved: nothing left to save");

    // The island's own check: a radius out of range is not sent.
    const calls = ui.api.calls.length;
    await type("Service radius (miles)", "0");
    await press("Save changes");
    assertEquals(ui.api.calls.length, calls);
    assertStringIncludes(document.body.textContent ?? "", "Enter a whole number of miles");
    await type("Service radius (miles)", "75");

    // The server refuses a website without a scheme; nothing changes.
    await type("Website (optional)", "example.com");
    await press("Save changes");
    await act(() => ui.api.idle());
    const patch = ui.api.calls.at(-1);
    assertEquals(patch?.body, { website: "example.com" });
    const expected = await (await t.request("PATCH", patch!.path, {
      cookie: admin.cookie,
      body: patch!.body,
    })).json();
    assertEquals(lastToast(), ["Failed to update surveyor", expected.message, "destructive"]);
    assertEquals(
      screen.getByLabelText("Website (optional)").getAttribute("aria-invalid"),
      "true",
    );
    assertEquals((await getSurveyor(t.sql, { id: surveyor.id }))!.website, null);
  } finally {
    ui.done();
  }
});
