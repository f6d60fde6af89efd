/**
 * Fields keep what was typed (or filled in by the browser) before their island hydrated:
 * hydration leaves that text on screen, so the form must check and send it, not the server's
 * empty value.
 */
import { assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createUser } from "../_auth.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
const { act, fireEvent, waitFor } = await import("@testing-library/react");
const { renderToString } = await import("react-dom/server");
const { hydrateRoot } = await import("react-dom/client");
const { default: AuthForm } = await import("../../islands/AuthForm.tsx");
const { setNavigateHandler } = await import("../../islands/_nav.ts");

test("[fields] a sign-in typed before the form hydrated is sent as typed", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client", password: "early-bird-12" });
  const api = useAppFetch(t);
  const visits: string[] = [];
  const restoreNav = setNavigateHandler((url) => visits.push(url));
  const container = document.createElement("div");
  container.innerHTML = renderToString(<AuthForm returnTo={null} />);
  document.body.append(container);
  // The person types while the island's code is still loading.
  const identifier = container.querySelector<HTMLInputElement>('input[autocomplete="username"]')!;
  const password = container.querySelector<HTMLInputElement>('input[type="password"]')!;
  identifier.value = user.email;
  password.value = "early-bird-12";
  const errors: unknown[] = [];
  const root = await act(() =>
    hydrateRoot(container, <AuthForm returnTo={null} />, {
      onRecoverableError: (err) => errors.push(err),
    })
  );
  try {
    assertEquals(identifier.value, user.email, "hydration keeps the typed text on screen");
    const button = [...container.querySelectorAll("button")]
      .find((b) => b.textContent === "Sign in")!;
    await act(() => void fireEvent.click(button));
    await waitFor(() => assertEquals(visits, ["/client-dashboard"]));
    assertEquals(container.querySelector('[aria-invalid="true"]'), null, "nothing refused");
    assertEquals(errors, []);
  } finally {
    act(() => root.unmount());
    container.remove();
    restoreNav();
    api.restore();
    t.close();
  }
});
