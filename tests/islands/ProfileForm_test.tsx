import { assert, assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";
import { stubFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: ProfileForm } = await import("../../islands/ProfileForm.tsx");
const { default: Toaster } = await import("../../islands/Toaster.tsx");
const { dismissToast } = await import("../../islands/_toast.ts");

const USER = {
  email: "pat@example.com",
  fullName: "Pat Lee",
  companyName: null,
  phone: "555-0100",
};

function shown(text: string) {
  return waitFor(() => {
    if (!screen.queryByText(text)) throw new Error(`"${text}" not shown`);
  });
}

function type(label: string, value: string) {
  act(() => void fireEvent.change(screen.getByLabelText(label), { target: { value } }));
}

test("[profile form] saves name, company and phone and confirms", async () => {
  dismissToast();
  const api = stubFetch({
    "PATCH /api/user": Response.json({ ...USER, companyName: "Acme" }),
  });
  render(
    <>
      <ProfileForm {...USER} isImpersonating={false} />
      <Toaster />
    </>,
  );
  assert(screen.getByText("pat@example.com"));
  type("Company (optional)", " Acme ");
  type("Phone (optional)", "");
  act(() => void fireEvent.click(screen.getByRole("button", { name: "Save changes" })));
  await shown("Profile updated");
  assertEquals(api.calls[0].body, { fullName: "Pat Lee", companyName: "Acme", phone: null });
  api.restore();
  cleanup();
});

test("[profile form] changing the password needs matching new passwords and sends the current one", async () => {
  dismissToast();
  const api = stubFetch({
    "POST /api/user/password": Response.json(
      { message: "Current password is incorrect" },
      { status: 400 },
    ),
  });
  render(
    <>
      <ProfileForm {...USER} isImpersonating={false} />
      <Toaster />
    </>,
  );
  const change = () =>
    act(() => void fireEvent.click(screen.getByRole("button", { name: "Change password" })));
  type("New Password", "secret12");
  type("Confirm New Password", "secret13");
  change();
  assert(screen.getByText("Current password is required"));
  assert(screen.getByText("Passwords don't match"));
  assertEquals(api.calls.length, 0);
  type("Current Password", "old-secret");
  type("Confirm New Password", "secret12");
  change();
  await shown("Current password is incorrect");
  assertEquals(api.calls[0].body, {
    currentPassword: "old-secret",
    newPassword: "secret12",
    confirmPassword: "secret12",
  });
  api.restore();
  cleanup();
});

test("[profile form] while impersonating there is no password form", () => {
  render(<ProfileForm {...USER} isImpersonating />);
  assertEquals(screen.queryByLabelText("Current Password"), null);
  assert(screen.getByText(/Password changes are turned off/));
  cleanup();
});
