import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen } = await import("@testing-library/react");
const { renderToString } = await import("react-dom/server");
const { default: AddressAutocomplete, ADDRESS_AUTOCOMPLETE } = await import(
  "../../islands/AddressAutocomplete.tsx"
);
type AddressSelection = import("../../islands/AddressAutocomplete.tsx").AddressSelection;

interface Call {
  url: URL;
  signal?: AbortSignal | null;
}

/** Replaces fetch; `reply` answers each call (it may return a promise the test resolves). */
function stubFetch(reply: (url: URL) => Promise<Response> | Response) {
  const calls: Call[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost/");
    calls.push({ url, signal: init?.signal });
    return Promise.resolve(reply(url));
  }) as typeof fetch;
  return {
    calls,
    suggestCalls: () => calls.filter((c) => c.url.pathname === "/api/address-suggestions"),
    restore: () => (globalThis.fetch = original),
  };
}

const PREDICTIONS = [
  { description: "123 Main St, Austin, TX 78701", placeId: "zip:78701|123 Main St" },
  { description: "123 Main St, Austell, GA 30106", placeId: "zip:30106|123 Main St" },
  { description: "123 Main St, Austin, AR 72007", placeId: "zip:72007|123 Main St" },
];

/** Suggestions for any input; the Austin placeId geocodes, others 404. */
function api(url: URL): Response {
  if (url.pathname === "/api/address-suggestions") {
    return Response.json({ predictions: PREDICTIONS });
  }
  if (url.searchParams.get("placeId") === PREDICTIONS[0].placeId) {
    return Response.json({
      formattedAddress: "123 Main St, Austin, TX 78701",
      lat: 30.27,
      lng: -97.74,
      precision: "zip",
    });
  }
  return Response.json({ message: "No location found for that address" }, { status: 404 });
}

/** Lets real time pass inside act so debounce/blur timers and fetches settle. */
function wait(ms: number) {
  return act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
}

/** Past the debounce, with room for the fetch promise chain. */
const AFTER_DEBOUNCE = ADDRESS_AUTOCOMPLETE.debounceMs + 60;

function setup(extra: Partial<Parameters<typeof AddressAutocomplete>[0]> = {}) {
  const selections: AddressSelection[] = [];
  const changes: string[] = [];
  render(
    <AddressAutocomplete
      id="addr"
      name="address"
      label="Property address"
      onChange={(t) => changes.push(t)}
      onSelect={(s) => selections.push(s)}
      {...extra}
    />,
  );
  const input = screen.getByRole("combobox") as HTMLInputElement;
  const type = (value: string) => act(() => void fireEvent.change(input, { target: { value } }));
  const key = (k: string) => {
    let notPrevented = true;
    act(() => void (notPrevented = fireEvent.keyDown(input, { key: k })));
    return notPrevented;
  };
  const listbox = () => document.getElementById("addr-listbox")!;
  const options = () => Array.from(listbox().querySelectorAll('[role="option"]'));
  return { input, type, key, listbox, options, selections, changes };
}

test("[address island] server render is an accessible, closed combobox", () => {
  const html = renderToString(
    <AddressAutocomplete id="hero-address" name="address" label="Property address" required />,
  );
  assertMatch(html, /<label[^>]*for="hero-address"[^>]*>Property address<\/label>/);
  assertMatch(html, /role="combobox"/);
  assertMatch(html, /aria-autocomplete="list"/);
  assertMatch(html, /aria-expanded="false"/);
  assertMatch(html, /aria-controls="hero-address-listbox"/);
  assertMatch(html, /name="address"/);
  assertMatch(html, /required=""/);
  assertMatch(html, /<ul id="hero-address-listbox" role="listbox"[^>]*max-height:15rem[^>]*hidden/);
});

test("[address island] fewer than 3 characters never asks the server", async () => {
  const f = stubFetch(api);
  try {
    const { type, input } = setup();
    await type("12");
    await type("  ab  ");
    await wait(AFTER_DEBOUNCE);
    assertEquals(f.calls.length, 0);
    assertEquals(input.getAttribute("aria-expanded"), "false");
  } finally {
    cleanup();
    f.restore();
  }
});

test("[address island] typing is debounced into one request for the latest text", async () => {
  const f = stubFetch(api);
  try {
    const { type, options, input } = setup();
    await type("123");
    await type("123 M");
    await type("123 Main St Aus");
    assertEquals(f.calls.length, 0, "nothing is sent before the debounce");
    await wait(AFTER_DEBOUNCE);
    assertEquals(f.suggestCalls().length, 1);
    assertEquals(f.suggestCalls()[0].url.searchParams.get("input"), "123 Main St Aus");
    assertEquals(input.getAttribute("aria-expanded"), "true");
    assertEquals(options().map((o) => o.textContent), PREDICTIONS.map((p) => p.description));
  } finally {
    cleanup();
    f.restore();
  }
});

test("[address island] arrow keys move aria-activedescendant and aria-selected", async () => {
  const f = stubFetch(api);
  try {
    const { type, key, input, options } = setup();
    await type("123 Main St Aus");
    await wait(AFTER_DEBOUNCE);
    assertEquals(input.getAttribute("aria-activedescendant"), null);
    assertEquals(key("ArrowDown"), false, "ArrowDown is handled, not moving the caret");
    assertEquals(input.getAttribute("aria-activedescendant"), "addr-option-0");
    assertEquals(options()[0].getAttribute("aria-selected"), "true");
    key("ArrowDown");
    assertEquals(input.getAttribute("aria-activedescendant"), "addr-option-1");
    assertEquals(options()[0].getAttribute("aria-selected"), "false");
    assertEquals(options()[1].getAttribute("aria-selected"), "true");
    key("ArrowUp");
    key("ArrowUp");
    assertEquals(input.getAttribute("aria-activedescendant"), "addr-option-2", "wraps to last");
    key("ArrowDown");
    assertEquals(input.getAttribute("aria-activedescendant"), "addr-option-0", "wraps to first");
  } finally {
    cleanup();
    f.restore();
  }
});

test("[address island] Enter picks the active option, then geocodes it", async () => {
  const f = stubFetch(api);
  try {
    const { type, key, input, listbox, selections } = setup();
    await type("123 Main St Aus");
    await wait(AFTER_DEBOUNCE);
    key("ArrowDown");
    assertEquals(key("Enter"), false, "Enter on an option does not submit the form");
    assertEquals(input.value, PREDICTIONS[0].description);
    assertEquals(input.getAttribute("aria-expanded"), "false");
    assert(listbox().hidden);
    await wait(30);
    const geocode = f.calls.find((c) => c.url.pathname === "/api/geocode");
    assertEquals(geocode?.url.searchParams.get("placeId"), PREDICTIONS[0].placeId);
    assertEquals(selections, [
      PREDICTIONS[0],
      {
        ...PREDICTIONS[0],
        formattedAddress: "123 Main St, Austin, TX 78701",
        lat: 30.27,
        lng: -97.74,
        // Passed on, so the page can say it matched the town rather than the property.
        precision: "zip",
      },
    ]);
    assertEquals(input.value, "123 Main St, Austin, TX 78701");
  } finally {
    cleanup();
    f.restore();
  }
});

test("[address island] Enter with no active option is left to the form", async () => {
  const f = stubFetch(api);
  try {
    const { type, key, selections } = setup();
    await type("123 Main St Aus");
    await wait(AFTER_DEBOUNCE);
    assertEquals(key("Enter"), true);
    assertEquals(selections, []);
  } finally {
    cleanup();
    f.restore();
  }
});

test("[address island] a failed geocode keeps the picked description", async () => {
  const f = stubFetch(api);
  try {
    const { type, key, input, selections } = setup();
    await type("123 Main St Aus");
    await wait(AFTER_DEBOUNCE);
    key("ArrowDown");
    key("ArrowDown");
    key("Enter");
    await wait(30);
    assertEquals(input.value, PREDICTIONS[1].description);
    assertEquals(selections, [PREDICTIONS[1]]);
  } finally {
    cleanup();
    f.restore();
  }
});

test("[address island] Escape closes the list", async () => {
  const f = stubFetch(api);
  try {
    const { type, key, input, listbox } = setup();
    await type("123 Main St Aus");
    await wait(AFTER_DEBOUNCE);
    key("ArrowDown");
    assertEquals(key("Escape"), false);
    assertEquals(input.getAttribute("aria-expanded"), "false");
    assertEquals(input.getAttribute("aria-activedescendant"), null);
    assert(listbox().hidden);
    // ArrowDown opens it again.
    key("ArrowDown");
    assertEquals(input.getAttribute("aria-expanded"), "true");
  } finally {
    cleanup();
    f.restore();
  }
});

test("[address island] blur closes the list after the delay; a mouse pick still lands", async () => {
  const f = stubFetch(api);
  try {
    const { type, input, options, selections } = setup();
    await type("123 Main St Aus");
    await wait(AFTER_DEBOUNCE);
    // Pressing on an option must not take focus from the input (which would close the list).
    assertEquals(fireEvent.mouseDown(options()[2]), false);
    act(() => void fireEvent.blur(input));
    assertEquals(input.getAttribute("aria-expanded"), "true", "still open during the delay");
    act(() => void fireEvent.click(options()[2]));
    assertEquals(selections[0], PREDICTIONS[2]);
    assertEquals(input.value, PREDICTIONS[2].description);

    await type("123 Main St Aust");
    await wait(AFTER_DEBOUNCE);
    assertEquals(input.getAttribute("aria-expanded"), "true");
    act(() => void fireEvent.blur(input));
    await wait(ADDRESS_AUTOCOMPLETE.blurCloseDelayMs + 50);
    assertEquals(input.getAttribute("aria-expanded"), "false");
  } finally {
    cleanup();
    f.restore();
  }
});

test("[address island] typing after a pick clears it and drops its pending geocode", async () => {
  let releaseGeocode: () => void = () => {};
  const f = stubFetch((url) => {
    if (url.pathname !== "/api/geocode") return api(url);
    return new Promise((resolve) => (releaseGeocode = () => resolve(api(url))));
  });
  try {
    const { type, key, input, selections, changes } = setup();
    await type("123 Main St Aus");
    await wait(AFTER_DEBOUNCE);
    key("ArrowDown");
    key("Enter");
    await type("500 Congress Ave");
    assertEquals(changes.at(-1), "500 Congress Ave");
    await act(async () => {
      releaseGeocode();
      await new Promise((r) => setTimeout(r, 20));
    });
    assertEquals(input.value, "500 Congress Ave", "the late geocode does not overwrite typing");
    assertEquals(selections.length, 1);
  } finally {
    cleanup();
    f.restore();
  }
});

test("[address island] only the latest request's answer is shown", async () => {
  const pending: ((r: Response) => void)[] = [];
  const f = stubFetch(() => new Promise<Response>((resolve) => pending.push(resolve)));
  try {
    const { type, options } = setup();
    await type("123 Main");
    await wait(AFTER_DEBOUNCE);
    await type("123 Main St Aus");
    await wait(AFTER_DEBOUNCE);
    assertEquals(f.calls.length, 2);
    assertEquals(f.calls[0].signal?.aborted, true, "the older request is aborted");
    await act(async () => {
      pending[1](Response.json({ predictions: [PREDICTIONS[0]] }));
      pending[0](Response.json({ predictions: PREDICTIONS }));
      await new Promise((r) => setTimeout(r, 20));
    });
    assertEquals(options().map((o) => o.textContent), [PREDICTIONS[0].description]);
  } finally {
    cleanup();
    f.restore();
  }
});

test("[address island] server errors and network failures give an empty, closed list", async () => {
  let mode = "500";
  const f = stubFetch(() => {
    if (mode === "500") return new Response("oops", { status: 500 });
    if (mode === "junk") return new Response("<html>", { status: 200 });
    if (mode === "shape") return Response.json({ predictions: [{ description: 5 }] });
    return Promise.reject(new TypeError("network down"));
  });
  try {
    const { type, input, options } = setup();
    for (mode of ["500", "junk", "shape", "network"]) {
      await type(`123 Main St ${mode}`);
      await wait(AFTER_DEBOUNCE);
      assertEquals(input.getAttribute("aria-expanded"), "false", mode);
      assertEquals(options().length, 0, mode);
    }
    assertEquals(f.calls.length, 4);
  } finally {
    cleanup();
    f.restore();
  }
});

test("[address island] geolocation is asked once on focus and sent as lat/lng", async () => {
  const f = stubFetch(api);
  const asked: PositionOptions[] = [];
  const geolocation = {
    getCurrentPosition(ok: PositionCallback, _err: PositionErrorCallback, opts: PositionOptions) {
      asked.push(opts);
      ok({ coords: { latitude: 30.27, longitude: -97.74 } } as GeolocationPosition);
    },
  };
  Object.defineProperty(navigator, "geolocation", { value: geolocation, configurable: true });
  try {
    const { type, input } = setup();
    act(() => void fireEvent.focus(input));
    act(() => void fireEvent.blur(input));
    act(() => void fireEvent.focus(input));
    assertEquals(asked.length, 1);
    assertEquals(asked[0].timeout, ADDRESS_AUTOCOMPLETE.geolocationTimeoutMs);
    await type("123 Main St Aus");
    await wait(AFTER_DEBOUNCE);
    const params = f.suggestCalls()[0].url.searchParams;
    assertEquals([params.get("lat"), params.get("lng")], ["30.27", "-97.74"]);
  } finally {
    cleanup();
    f.restore();
    Reflect.deleteProperty(navigator, "geolocation");
  }
});

test("[address island] denied geolocation is silent and sends no coordinates", async () => {
  const f = stubFetch(api);
  const geolocation = {
    getCurrentPosition(_ok: PositionCallback, err: PositionErrorCallback) {
      err({ code: 1, message: "denied" } as GeolocationPositionError);
    },
  };
  Object.defineProperty(navigator, "geolocation", { value: geolocation, configurable: true });
  try {
    const { type, input } = setup();
    act(() => void fireEvent.focus(input));
    await type("123 Main St Aus");
    await wait(AFTER_DEBOUNCE);
    const params = f.suggestCalls()[0].url.searchParams;
    assertEquals([params.has("lat"), params.has("lng")], [false, false]);
    assertEquals(input.getAttribute("aria-expanded"), "true");
  } finally {
    cleanup();
    f.restore();
    Reflect.deleteProperty(navigator, "geolocation");
  }
});

test("[address island] the spec's constants", () => {
  assertEquals(ADDRESS_AUTOCOMPLETE.minChars, 3);
  assertEquals(ADDRESS_AUTOCOMPLETE.debounceMs, 300);
  assertEquals(ADDRESS_AUTOCOMPLETE.geolocationTimeoutMs, 2000);
  assertEquals(ADDRESS_AUTOCOMPLETE.blurCloseDelayMs, 150);
  assertEquals(ADDRESS_AUTOCOMPLETE.listMaxHeight, "15rem");
});
