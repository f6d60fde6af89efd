import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { getUserById, getUserCredentials } from "../../db/users.ts";
import { verifyPassword } from "../../lib/passwords.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: ProfileForm } = await import("../../islands/ProfileForm.tsx");
const { default: Toaster } = await import("../../islands/Toaster.tsx");
const { dismissToast } = await import("../../islands/_toast.ts");
type ProfileFormProps = import("../../islands/ProfileForm.tsx").ProfileFormProps;

function shown(text: string) {
  return waitFor(() => {
    if (!screen.queryByText(text)) throw new Error(`"${text}" not shown`);
  });
}

function type(label: string, value: string) {
  act(() => void fireEvent.change(screen.getByLabelText(label), { target: { value } }));
}

/** Pat, signed in, with the /profile page's own island props and the island on screen. */
async function openProfile(t: TestApp) {
  dismissToast();
  const { user, cookie } = await createSignedInUser(t, {
    role: "client",
    email: "pat@example.com",
    fullName: "Pat Lee",
    phone: "555-0100",
  });
  const props = islandProps<ProfileFormProps>(
    (await loadPage(t, "/profile", cookie)).html,
    "ProfileForm",
  );
  const api = useAppFetch(t, { cookie });
  render(
    <>
      <ProfileForm {...props} />
      <Toaster />
    </>,
  );
  return {
    user,
    api,
    done() {
      api.restore();
      cleanup();
      t.close();
    },
  };
}

test("[profile form] saves name, company and phone and confirms", async () => {
  const t = await createTestApp();
  const ui = await openProfile(t);
  try {
    assert(screen.getByText("pat@example.com"));
    type("Company (optional)", " Acme ");
    type("Phone (optional)", "");
    act(() => void fireEvent.click(screen.getByRole("button", { name: "Save changes" })));
    await shown("Profile updated");
    assertEquals(ui.api.calls[0].body, { fullName: "Pat Lee", companyName: "Acme", phone: null });
    const stored = await getUserById(t.sql, ui.user.id);
    assertEquals([stored?.companyName, stored?.phone], ["Acme", null]);
  } finally {
    ui.done();
  }
});

test("[profile form] changing the password needs matching new passwords and sends the current one", async () => {
  const t = await createTestApp();
  const ui = await openProfile(t);
  try {
    const change = () =>
      act(() => void fireEvent.click(screen.getByRole("button", { name: "Change password" })));
    type("New Password", "secret12");
    type("Confirm New Password", "secret13");
    change();
    assert(screen.getByText("Current password is required"));
    assert(screen.getByText("Passwords don't match"));
    assertEquals(ui.api.calls.length, 0);
    type("Current Password", "old-secret");
    type("Confirm New Password", "secret12");
    change();
    await shown("Current password is incorrect");
    assertEquals(ui.api.calls[0].body, {
      currentPassword: "old-secret",
      newPassword: "secret12",
      confirmPassword: "secret12",
    });
    const stored = await getUserCredentials(t.sql, ui.user.id);
    assert(await verifyPassword(ui.user.password, stored!.passwordHash), "password unchanged");
  } finally {
    ui.done();
  }
});

test("[profile form] while impersonating there is no password form", () => {
  render(
    <ProfileForm
      email="pat@example.com"
      fullName="Pat Lee"
      companyName={null}
      phone="555-0100"
      isImpersonating
    />,
  );
  assertEquals(screen.queryByLabelText("Current Password"), null);
  assert(screen.getByText(/Password changes are turned off/));
  cleanup();
});
