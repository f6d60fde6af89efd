/**
 * The island runtime (islands/_boot.ts) hands what was typed, autofilled or pressed before an
 * island hydrated over to the island: hydration leaves the text on screen, so the form must
 * check and send that text, keep the caret, and carry out a press made meanwhile.
 * Each test boots a fresh copy of the runtime over islands marked up as `<Island>` renders them.
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createUser } from "../_auth.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
const { waitFor } = await import("@testing-library/react");
const { createElement } = await import("react");
const { renderToString } = await import("react-dom/server");
const { propsScript } = await import("../../components/Island.tsx");
const { default: AuthForm } = await import("../../islands/AuthForm.tsx");
const { default: QuoteForm, QUOTE_FORM_EMPTY_MESSAGE, createSurveyUrl } = await import(
  "../../islands/QuoteForm.tsx"
);
const { setNavigateHandler } = await import("../../islands/_nav.ts");

/**
 * A test whose hydration runs as in the browser, outside act(): React is told so for the test's
 * own time only, since the island tests share an isolate (tests/_run.ts).
 */
function outsideAct(name: string, fn: () => Promise<void>) {
  test(name, async () => {
    const g = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const was = g.IS_REACT_ACT_ENVIRONMENT;
    g.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      await fn();
    } finally {
      g.IS_REACT_ACT_ENVIRONMENT = was;
    }
  });
}

const ISLANDS = new URL("../../islands/", import.meta.url);
let boots = 0;

/**
 * An island marker with the server's HTML inside, followed by its props script, as
 * components/Island.tsx writes them.
 */
function mountIsland(
  name: string,
  // deno-lint-ignore no-explicit-any
  component: (props: any) => unknown,
  props: Record<string, unknown>,
  hydrate: "load" | "idle" | "visible" | "interaction",
) {
  const el = document.createElement("div");
  Object.assign(el.dataset, {
    island: name,
    id: "i0-",
    src: new URL(`${name}.tsx`, ISLANDS).href,
    hydrate,
  });
  el.innerHTML = renderToString(
    createElement(component as () => null, props),
    { identifierPrefix: "i0-" },
  );
  const script = document.createElement("script");
  script.type = "application/json";
  script.textContent = propsScript(JSON.stringify(props));
  document.body.append(el, script);
  return el;
}

/** Runs a fresh copy of the boot script over the page, as a page load does. */
async function boot() {
  await import(new URL(`_boot.ts?${++boots}`, ISLANDS).href);
}

/** Console errors during `fn` (hydration mismatches are reported there). */
function recordErrors() {
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => errors.push(args.map(String).join(" "));
  return { errors, restore: () => (console.error = original) };
}

outsideAct(
  "[islands] a sign-in typed before the form hydrated (on load) is sent as typed",
  async () => {
    const t = await createTestApp();
    const user = await createUser(t.sql, { role: "client", password: "early-bird-12" });
    const api = useAppFetch(t);
    const visits: string[] = [];
    const restoreNav = setNavigateHandler((url) => visits.push(url));
    const console = recordErrors();
    const el = mountIsland("AuthForm", AuthForm, { returnTo: null }, "load");
    try {
      // The person types while the island's code is still loading.
      const identifier = el.querySelector<HTMLInputElement>('input[autocomplete="username"]')!;
      const password = el.querySelector<HTMLInputElement>('input[type="password"]')!;
      identifier.value = user.email;
      password.value = "early-bird-12";
      await boot();
      await waitFor(() => assert(el.dataset.hydrated !== undefined, "hydrated"));
      assertEquals(identifier.value, user.email, "hydration keeps the typed text on screen");
      const button = [...el.querySelectorAll("button")].find((b) => b.textContent === "Sign in")!;
      button.click();
      await waitFor(() => assertEquals(visits, ["/client-dashboard"]));
      assertEquals(el.querySelector('[aria-invalid="true"]'), null, "nothing refused");
      assertEquals(console.errors, []);
    } finally {
      console.restore();
      el.remove();
      restoreNav();
      api.restore();
      t.close();
    }
  },
);

outsideAct(
  "[islands] the quote form (hydrated on first touch) keeps an address typed before, with its caret",
  async () => {
    const t = await createTestApp();
    const api = useAppFetch(t);
    const visits: string[] = [];
    const restoreNav = setNavigateHandler((url) => visits.push(url));
    const console = recordErrors();
    const el = mountIsland("QuoteForm", QuoteForm, { id: "hero" }, "interaction");
    try {
      const input = el.querySelector<HTMLInputElement>("#hero-address")!;
      // Focused and typed into before the runtime even ran: that counts as the first touch.
      input.focus();
      input.value = "1200 Barton Springs Rd, Austin, TX";
      input.setSelectionRange(4, 4);
      await boot();
      await waitFor(() => assert(el.querySelector("form[novalidate]"), "hydrated"));
      // Its own effects have run: React rendered again, and kept the text.
      assertEquals(input.value, "1200 Barton Springs Rd, Austin, TX");
      assertEquals([input.selectionStart, input.selectionEnd], [4, 4], "the caret stays");
      assertEquals(document.activeElement, input, "focus stays");
      await waitFor(() => assert(el.querySelector('[role="option"]'), "suggestions for it"));
      el.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
      assertEquals(visits, [createSurveyUrl("1200 Barton Springs Rd, Austin, TX")]);
      assertEquals(console.errors, []);
    } finally {
      console.restore();
      el.remove();
      restoreNav();
      await api.idle();
      api.restore();
      t.close();
    }
  },
);

outsideAct(
  "[islands] a quote form sent with only spaces before it hydrated shows the required-field message",
  async () => {
    const visits: string[] = [];
    const restoreNav = setNavigateHandler((url) => visits.push(url));
    const el = mountIsland("QuoteForm", QuoteForm, { id: "hero" }, "interaction");
    const href = location.href;
    try {
      await boot();
      const input = el.querySelector<HTMLInputElement>("#hero-address")!;
      input.focus();
      input.value = "   ";
      input.dispatchEvent(new Event("input", { bubbles: true }));
      // Pressed while the island's code is on its way: held, then answered by the island.
      el.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
      assert(el.dataset.hydrated === undefined, "pressed before hydration");
      await waitFor(() => assert(el.querySelector('[role="alert"]'), "the message"));
      assertEquals(el.querySelector('[role="alert"]')!.textContent, QUOTE_FORM_EMPTY_MESSAGE);
      assertEquals(input.getAttribute("aria-invalid"), "true");
      assertEquals(visits, []);
      assertEquals(location.href, href, "the plain form was not sent");
    } finally {
      el.remove();
      restoreNav();
    }
  },
);
