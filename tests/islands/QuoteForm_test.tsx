import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen } = await import("@testing-library/react");
const { renderToString } = await import("react-dom/server");
const { default: QuoteForm, QUOTE_FORM_EMPTY_MESSAGE } = await import(
  "../../islands/QuoteForm.tsx"
);
const { ADDRESS_AUTOCOMPLETE } = await import("../../islands/AddressAutocomplete.tsx");

const PICK = { description: "123 Main St, Austin, TX 78701", placeId: "zip:78701|123 Main St" };
const FORMATTED = "123 Main St, Austin, TX 78701, USA";

/** Suggestions always offer PICK; its geocode answers with FORMATTED unless `geocodeOk` is off. */
function stubApi({ geocodeOk = true } = {}) {
  const original = globalThis.fetch;
  globalThis.fetch = ((input: string | URL | Request) => {
    const url = new URL(String(input), "http://localhost/");
    if (url.pathname === "/api/address-suggestions") {
      return Promise.resolve(Response.json({ predictions: [PICK] }));
    }
    if (geocodeOk) {
      return Promise.resolve(
        Response.json({ formattedAddress: FORMATTED, lat: 30.27, lng: -97.74 }),
      );
    }
    return Promise.resolve(Response.json({ message: "No location found" }, { status: 404 }));
  }) as typeof fetch;
  return () => (globalThis.fetch = original);
}

function wait(ms: number) {
  return act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
}

function setup() {
  const visits: string[] = [];
  const { container } = render(
    <QuoteForm id="hero" buttonLabel="Get My Quote" navigate={(url) => visits.push(url)} />,
  );
  const form = container.querySelector("form")!;
  const input = screen.getByRole("combobox") as HTMLInputElement;
  const type = (value: string) => act(() => void fireEvent.change(input, { target: { value } }));
  const submit = () => act(() => void fireEvent.submit(form));
  const pickFirst = async () => {
    await wait(ADDRESS_AUTOCOMPLETE.debounceMs + 60);
    act(() => void fireEvent.keyDown(input, { key: "ArrowDown" }));
    act(() => void fireEvent.keyDown(input, { key: "Enter" }));
    await wait(30);
  };
  return { form, input, type, submit, pickFirst, visits };
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
  const restore = stubApi();
  try {
    const { input, type, submit, visits } = setup();
    submit();
    assertEquals(visits, []);
    assertEquals(screen.getByRole("alert").textContent, QUOTE_FORM_EMPTY_MESSAGE);
    assertEquals(input.getAttribute("aria-invalid"), "true");
    assertEquals(input.getAttribute("aria-describedby"), "hero-address-error");
    await type("    ");
    submit();
    assertEquals(visits, []);
    assertEquals(screen.getByRole("alert").textContent, QUOTE_FORM_EMPTY_MESSAGE);
    await type("12 Elm");
    assertEquals(screen.queryByRole("alert"), null, "typing clears the message");
  } finally {
    cleanup();
    restore();
  }
});

test("[quote form] typed text goes to /create-survey trimmed and encoded", async () => {
  const restore = stubApi();
  try {
    const { type, submit, visits } = setup();
    await type("  12 Elm St #4, Springfield & Co  ");
    submit();
    assertEquals(visits, [
      `/create-survey?address=${encodeURIComponent("12 Elm St #4, Springfield & Co")}`,
    ]);
  } finally {
    cleanup();
    restore();
  }
});

test("[quote form] a picked suggestion's formatted address is preferred", async () => {
  const restore = stubApi();
  try {
    const { type, submit, pickFirst, visits } = setup();
    await type("123 Main St Aus");
    await pickFirst();
    submit();
    assertEquals(visits, [`/create-survey?address=${encodeURIComponent(FORMATTED)}`]);
  } finally {
    cleanup();
    restore();
  }
});

test("[quote form] a pick that cannot be geocoded submits its description", async () => {
  const restore = stubApi({ geocodeOk: false });
  try {
    const { type, submit, pickFirst, visits } = setup();
    await type("123 Main St Aus");
    await pickFirst();
    submit();
    assertEquals(visits, [`/create-survey?address=${encodeURIComponent(PICK.description)}`]);
  } finally {
    cleanup();
    restore();
  }
});

test("[quote form] typing after a pick drops the pick", async () => {
  const restore = stubApi();
  try {
    const { type, submit, pickFirst, visits } = setup();
    await type("123 Main St Aus");
    await pickFirst();
    await type("77 Lake Shore Dr");
    submit();
    assertEquals(visits, [`/create-survey?address=${encodeURIComponent("77 Lake Shore Dr")}`]);
  } finally {
    cleanup();
    restore();
  }
});

test("[quote form] the submit button submits and once hydrated the form skips native checks", async () => {
  const restore = stubApi();
  try {
    const { form, type, visits } = setup();
    assert(form.noValidate, "our own validation replaces the browser's once hydrated");
    await type("1 Beacon St, Boston");
    act(() => void fireEvent.click(screen.getByRole("button", { name: "Get My Quote" })));
    assertEquals(visits, [`/create-survey?address=${encodeURIComponent("1 Beacon St, Boston")}`]);
  } finally {
    cleanup();
    restore();
  }
});
