import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";
import { type Answer, useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen } = await import("@testing-library/react");
const { renderToString } = await import("react-dom/server");
const { default: QuoteForm, QUOTE_FORM_EMPTY_MESSAGE } = await import(
  "../../islands/QuoteForm.tsx"
);

const TYPED = "123 Main St Aus";

/** What the app suggests first for `input` and what that suggestion geocodes to. */
async function firstSuggestion(t: TestApp, input: string) {
  const res = await t.request("GET", `/api/address-suggestions?input=${encodeURIComponent(input)}`);
  const [pick] = (await res.json()).predictions as { description: string; placeId: string }[];
  const geo = await t.request("GET", `/api/geocode?placeId=${encodeURIComponent(pick.placeId)}`);
  return { pick, formattedAddress: (await geo.json()).formattedAddress as string };
}

/**
 * The hero form on a fresh app; the island's requests reach the app (the offline address
 * provider: no third-party service is configured in tests) unless `canned`.
 */
async function setup(canned: Record<string, Answer> = {}) {
  const t = await createTestApp();
  const api = useAppFetch(t, { canned });
  const visits: string[] = [];
  const { container } = render(
    <QuoteForm id="hero" buttonLabel="Get My Quote" navigate={(url) => visits.push(url)} />,
  );
  const form = container.querySelector("form")!;
  const input = screen.getByRole("combobox") as HTMLInputElement;
  const type = (value: string) => act(() => void fireEvent.change(input, { target: { value } }));
  const submit = () => act(() => void fireEvent.submit(form));
  const pickFirst = async () => {
    await screen.findAllByRole("option");
    act(() => void fireEvent.keyDown(input, { key: "ArrowDown" }));
    act(() => void fireEvent.keyDown(input, { key: "Enter" }));
    await act(() => api.idle());
  };
  return {
    t,
    api,
    form,
    input,
    type,
    submit,
    pickFirst,
    visits,
    done() {
      cleanup();
      api.restore();
      t.close();
    },
  };
}

test("[quote form] without JavaScript it is a GET form to /create-survey with address", () => {
  const html = renderToString(<QuoteForm id="hero" buttonLabel="Get Free Quote Now" />);
  assertMatch(html, /<form[^>]*action="\/create-survey"[^>]*method="get"/);
  assert(!/novalidate/i.test(html), "native validation stays on until hydration");
  const input = /<input[^>]*id="hero-address"[^>]*>/.exec(html)?.[0] ?? "";
  assertMatch(input, / name="address"/);
  assertMatch(input, / required=""/);
  assertMatch(html, /<label[^>]*for="hero-address"[^>]*>Property address<\/label>/);
  assertMatch(html, /<button[^>]*type="submit"[^>]*>Get Free Quote Now<\/button>/);
});

test("[quote form] an empty or blank address shows a message and stays", async () => {
  const ui = await setup();
  try {
    ui.submit();
    assertEquals(ui.visits, []);
    assertEquals(screen.getByRole("alert").textContent, QUOTE_FORM_EMPTY_MESSAGE);
    assertEquals(ui.input.getAttribute("aria-invalid"), "true");
    assertEquals(ui.input.getAttribute("aria-describedby"), "hero-address-error");
    await ui.type("    ");
    ui.submit();
    assertEquals(ui.visits, []);
    assertEquals(screen.getByRole("alert").textContent, QUOTE_FORM_EMPTY_MESSAGE);
    await ui.type("12 Elm");
    assertEquals(screen.queryByRole("alert"), null, "typing clears the message");
  } finally {
    ui.done();
  }
});

test("[quote form] typed text goes to /create-survey trimmed and encoded", async () => {
  const ui = await setup();
  try {
    await ui.type("  12 Elm St #4, Springfield & Co  ");
    ui.submit();
    assertEquals(ui.visits, [
      `/create-survey?address=${encodeURIComponent("12 Elm St #4, Springfield & Co")}`,
    ]);
  } finally {
    ui.done();
  }
});

test("[quote form] a picked suggestion's formatted address is preferred", async () => {
  // The app's real answer, with the formatted address Google Places would give (", USA"):
  // the offline provider's reads exactly like its suggestion, which would prove nothing.
  const ui = await setup({
    "GET /api/geocode": async (_call, app) => {
      const place = await (await app()).json();
      return Response.json({ ...place, formattedAddress: `${place.formattedAddress}, USA` });
    },
  });
  try {
    const expected = await firstSuggestion(ui.t, TYPED);
    await ui.type(TYPED);
    await ui.pickFirst();
    ui.submit();
    assertEquals(ui.visits, [
      `/create-survey?address=${encodeURIComponent(`${expected.formattedAddress}, USA`)}`,
    ]);
  } finally {
    ui.done();
  }
});

test("[quote form] a pick that cannot be geocoded submits its description", async () => {
  // Canned: a suggestion the app offers always geocodes; this is the provider failing.
  const ui = await setup({
    "GET /api/geocode": Response.json({ message: "No location found" }, { status: 404 }),
  });
  try {
    const expected = await firstSuggestion(ui.t, TYPED);
    await ui.type(TYPED);
    await ui.pickFirst();
    ui.submit();
    assertEquals(ui.visits, [
      `/create-survey?address=${encodeURIComponent(expected.pick.description)}`,
    ]);
  } finally {
    ui.done();
  }
});

test("[quote form] typing after a pick drops the pick", async () => {
  const ui = await setup();
  try {
    await ui.type(TYPED);
    await ui.pickFirst();
    await ui.type("77 Lake Shore Dr");
    ui.submit();
    assertEquals(ui.visits, [`/create-survey?address=${encodeURIComponent("77 Lake Shore Dr")}`]);
  } finally {
    ui.done();
  }
});

test("[quote form] the submit button submits and once hydrated the form skips native checks", async () => {
  const ui = await setup();
  try {
    assert(ui.form.noValidate, "our own validation replaces the browser's once hydrated");
    await ui.type("1 Beacon St, Boston");
    act(() => void fireEvent.click(screen.getByRole("button", { name: "Get My Quote" })));
    assertEquals(ui.visits, [
      `/create-survey?address=${encodeURIComponent("1 Beacon St, Boston")}`,
    ]);
  } finally {
    ui.done();
  }
});
