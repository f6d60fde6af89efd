import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";
import { type Answer, deferred, useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen } = await import("@testing-library/react");
const { renderToString } = await import("react-dom/server");
const { default: AddressAutocomplete, ADDRESS_AUTOCOMPLETE, NO_SUGGESTION_HINT } = await import(
  "../../islands/AddressAutocomplete.tsx"
);
type AddressSelection = import("../../islands/AddressAutocomplete.tsx").AddressSelection;

/**
 * The island's requests reach the app (the offline address provider: tests configure no
 * third-party one); what it suggests for TYPED is read from the API first, so the expected
 * lists follow the data. Canned only for failures and for holding answers back.
 */
const TYPED = "123 Main St Aus";

interface Prediction {
  description: string;
  placeId: string;
}

/** The app's suggestions for `input`, as GET /api/address-suggestions gives them. */
async function suggestionsFor(t: TestApp, input: string): Promise<Prediction[]> {
  const res = await t.request(
    "GET",
    `/api/address-suggestions?${new URLSearchParams({ input })}`,
  );
  return (await res.json()).predictions;
}

/** The app's geocode of a suggestion. */
async function geocodeOf(t: TestApp, placeId: string) {
  const res = await t.request("GET", `/api/geocode?${new URLSearchParams({ placeId })}`);
  return await res.json();
}

/** Lets real time pass inside act so debounce and blur timers fire. */
function wait(ms: number) {
  return act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
}

function setup(
  t: TestApp,
  {
    canned = {},
    ...extra
  }: Partial<Parameters<typeof AddressAutocomplete>[0]> & { canned?: Record<string, Answer> } = {},
) {
  const api = useAppFetch(t, { canned });
  const selections: AddressSelection[] = [];
  const changes: string[] = [];
  render(
    <AddressAutocomplete
      id="addr"
      name="address"
      label="Property address"
      onChange={(text) => changes.push(text)}
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
  const suggestCalls = () =>
    api.calls.filter((c) => c.path.startsWith("/api/address-suggestions?"));
  /** Past the debounce, then until the app has answered and the island has the answer. */
  const settle = async () => {
    await wait(ADDRESS_AUTOCOMPLETE.debounceMs + 10);
    await act(() => api.idle());
  };
  return {
    api,
    input,
    type,
    key,
    listbox,
    options,
    selections,
    changes,
    suggestCalls,
    settle,
    done() {
      cleanup();
      api.restore();
      t.close();
    },
  };
}

function params(path: string): URLSearchParams {
  return new URL(path, "http://localhost/").searchParams;
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
  const ui = setup(await createTestApp());
  try {
    await ui.type("12");
    await ui.type("  ab  ");
    await ui.settle();
    assertEquals(ui.api.calls.length, 0);
    assertEquals(ui.input.getAttribute("aria-expanded"), "false");
  } finally {
    ui.done();
  }
});

test("[address island] typing is debounced into one request for the latest text", async () => {
  const t = await createTestApp();
  const expected = await suggestionsFor(t, TYPED);
  assert(expected.length >= 3, "the offline data suggests several places");
  const ui = setup(t);
  try {
    await ui.type("123");
    await ui.type("123 M");
    await ui.type(TYPED);
    assertEquals(ui.api.calls.length, 0, "nothing is sent before the debounce");
    await ui.settle();
    assertEquals(ui.suggestCalls().length, 1);
    assertEquals(params(ui.suggestCalls()[0].path).get("input"), TYPED);
    assertEquals(ui.input.getAttribute("aria-expanded"), "true");
    assertEquals(ui.options().map((o) => o.textContent), expected.map((p) => p.description));
  } finally {
    ui.done();
  }
});

test("[address island] arrow keys move aria-activedescendant and aria-selected", async () => {
  const t = await createTestApp();
  const last = (await suggestionsFor(t, TYPED)).length - 1;
  const ui = setup(t);
  try {
    await ui.type(TYPED);
    await ui.settle();
    assertEquals(ui.input.getAttribute("aria-activedescendant"), null);
    assertEquals(ui.key("ArrowDown"), false, "ArrowDown is handled, not moving the caret");
    assertEquals(ui.input.getAttribute("aria-activedescendant"), "addr-option-0");
    assertEquals(ui.options()[0].getAttribute("aria-selected"), "true");
    ui.key("ArrowDown");
    assertEquals(ui.input.getAttribute("aria-activedescendant"), "addr-option-1");
    assertEquals(ui.options()[0].getAttribute("aria-selected"), "false");
    assertEquals(ui.options()[1].getAttribute("aria-selected"), "true");
    ui.key("ArrowUp");
    ui.key("ArrowUp");
    assertEquals(
      ui.input.getAttribute("aria-activedescendant"),
      `addr-option-${last}`,
      "wraps to last",
    );
    ui.key("ArrowDown");
    assertEquals(ui.input.getAttribute("aria-activedescendant"), "addr-option-0", "wraps to first");
  } finally {
    ui.done();
  }
});

test("[address island] Enter picks the active option, then geocodes it", async () => {
  const t = await createTestApp();
  const [first] = await suggestionsFor(t, TYPED);
  const place = await geocodeOf(t, first.placeId);
  const ui = setup(t);
  try {
    await ui.type(TYPED);
    await ui.settle();
    ui.key("ArrowDown");
    assertEquals(ui.key("Enter"), false, "Enter on an option does not submit the form");
    assertEquals(ui.input.value, first.description);
    assertEquals(ui.input.getAttribute("aria-expanded"), "false");
    assert(ui.listbox().hidden);
    await act(() => ui.api.idle());
    const geocode = ui.api.calls.find((c) => c.path.startsWith("/api/geocode?"));
    assertEquals(params(geocode!.path).get("placeId"), first.placeId);
    assertEquals(ui.selections, [
      first,
      {
        ...first,
        formattedAddress: place.formattedAddress,
        lat: place.lat,
        lng: place.lng,
        // Passed on, so the page can say it matched the town rather than the property.
        precision: place.precision,
      },
    ]);
    assertEquals(ui.input.value, place.formattedAddress);
  } finally {
    ui.done();
  }
});

test("[address island] Enter with no active option is left to the form", async () => {
  const ui = setup(await createTestApp());
  try {
    await ui.type(TYPED);
    await ui.settle();
    assertEquals(ui.key("Enter"), true);
    assertEquals(ui.selections, []);
  } finally {
    ui.done();
  }
});

test("[address island] a street alone offers no town and asks for the town or ZIP", async () => {
  const ui = setup(await createTestApp());
  try {
    await ui.type("1200 Barton Springs Rd");
    await ui.settle();
    assertEquals(ui.options().length, 0);
    assertEquals(ui.input.getAttribute("aria-expanded"), "false");
    assert(
      document.body.textContent?.includes(NO_SUGGESTION_HINT),
      "the field asks for the town or ZIP",
    );
    assertEquals(ui.key("Enter"), true, "Enter is left to the form");
    assertEquals(ui.selections, []);
    // With the town typed, the towns the data knows are offered, with no invented ZIP.
    await ui.type("1200 Barton Springs Rd, Austin");
    await ui.settle();
    assert(!document.body.textContent?.includes(NO_SUGGESTION_HINT));
    const offered = ui.options().map((o) => o.textContent);
    assertEquals(offered[0], "1200 Barton Springs Rd, Austin, TX");
    for (const text of offered) {
      assertMatch(text ?? "", /^1200 Barton Springs Rd, Austin, [A-Z]{2}$/);
    }
    assertEquals(ui.key("Enter"), true, "nothing is picked before one is highlighted");
    assertEquals(ui.selections, []);
  } finally {
    ui.done();
  }
});

test("[address island] a failed geocode keeps the picked description", async () => {
  const t = await createTestApp();
  const second = (await suggestionsFor(t, TYPED))[1];
  // Canned: every suggestion the app offers geocodes; this is the provider failing.
  const ui = setup(t, {
    canned: {
      "GET /api/geocode": Response.json({ message: "No location found for that address" }, {
        status: 404,
      }),
    },
  });
  try {
    await ui.type(TYPED);
    await ui.settle();
    ui.key("ArrowDown");
    ui.key("ArrowDown");
    ui.key("Enter");
    await act(() => ui.api.idle());
    assertEquals(ui.input.value, second.description);
    assertEquals(ui.selections, [second]);
  } finally {
    ui.done();
  }
});

test("[address island] Escape closes the list", async () => {
  const ui = setup(await createTestApp());
  try {
    await ui.type(TYPED);
    await ui.settle();
    ui.key("ArrowDown");
    assertEquals(ui.key("Escape"), false);
    assertEquals(ui.input.getAttribute("aria-expanded"), "false");
    assertEquals(ui.input.getAttribute("aria-activedescendant"), null);
    assert(ui.listbox().hidden);
    // ArrowDown opens it again.
    ui.key("ArrowDown");
    assertEquals(ui.input.getAttribute("aria-expanded"), "true");
  } finally {
    ui.done();
  }
});

test("[address island] blur closes the list after the delay; a mouse pick still lands", async () => {
  const t = await createTestApp();
  const third = (await suggestionsFor(t, TYPED))[2];
  const ui = setup(t);
  try {
    await ui.type(TYPED);
    await ui.settle();
    // Pressing on an option must not take focus from the input (which would close the list).
    assertEquals(fireEvent.mouseDown(ui.options()[2]), false);
    act(() => void fireEvent.blur(ui.input));
    assertEquals(ui.input.getAttribute("aria-expanded"), "true", "still open during the delay");
    act(() => void fireEvent.click(ui.options()[2]));
    assertEquals(ui.selections[0], third);
    assertEquals(ui.input.value, third.description);
    await act(() => ui.api.idle());

    await ui.type("123 Main St Aust");
    await ui.settle();
    assertEquals(ui.input.getAttribute("aria-expanded"), "true");
    act(() => void fireEvent.blur(ui.input));
    await wait(ADDRESS_AUTOCOMPLETE.blurCloseDelayMs + 50);
    assertEquals(ui.input.getAttribute("aria-expanded"), "false");
  } finally {
    ui.done();
  }
});

test("[address island] typing after a pick clears it and drops its pending geocode", async () => {
  const held = deferred<void>();
  // The real geocode, held back until the visitor has typed on.
  const ui = setup(await createTestApp(), {
    canned: {
      "GET /api/geocode": async (_call, app) => {
        await held.promise;
        return await app();
      },
    },
  });
  try {
    await ui.type(TYPED);
    await ui.settle();
    ui.key("ArrowDown");
    ui.key("Enter");
    await ui.type("500 Congress Ave");
    assertEquals(ui.changes.at(-1), "500 Congress Ave");
    held.resolve();
    await ui.settle();
    assertEquals(ui.input.value, "500 Congress Ave", "the late geocode does not overwrite typing");
    assertEquals(ui.selections.length, 1);
  } finally {
    ui.done();
  }
});

test("[address island] only the latest request's answer is shown", async () => {
  const t = await createTestApp();
  const latest = await suggestionsFor(t, TYPED);
  const gates = [deferred<void>(), deferred<void>()];
  let n = 0;
  // The real answers, each held back so the older one can arrive last.
  const ui = setup(t, {
    canned: {
      "GET /api/address-suggestions": async (_call, app) => {
        const gate = gates[n++];
        await gate.promise;
        return await app();
      },
    },
  });
  try {
    await ui.type("123 Main St");
    await wait(ADDRESS_AUTOCOMPLETE.debounceMs + 10);
    await ui.type(TYPED);
    await wait(ADDRESS_AUTOCOMPLETE.debounceMs + 10);
    assertEquals(ui.suggestCalls().length, 2);
    assertEquals(ui.suggestCalls()[0].signal?.aborted, true, "the older request is aborted");
    gates[1].resolve();
    gates[0].resolve();
    await act(() => ui.api.idle());
    assertEquals(ui.options().map((o) => o.textContent), latest.map((p) => p.description));
  } finally {
    ui.done();
  }
});

test("[address island] server errors and network failures give an empty, closed list", async () => {
  let mode = "500";
  // Canned: failures and malformed answers the app never gives.
  const ui = setup(await createTestApp(), {
    canned: {
      "GET /api/address-suggestions": () => {
        if (mode === "500") return new Response("oops", { status: 500 });
        if (mode === "junk") return new Response("<html>", { status: 200 });
        if (mode === "shape") return Response.json({ predictions: [{ description: 5 }] });
        return Promise.reject(new TypeError("network down"));
      },
    },
  });
  try {
    for (mode of ["500", "junk", "shape", "network"]) {
      await ui.type(`123 Main St ${mode}`);
      await ui.settle();
      assertEquals(ui.input.getAttribute("aria-expanded"), "false", mode);
      assertEquals(ui.options().length, 0, mode);
    }
    assertEquals(ui.api.calls.length, 4);
  } finally {
    ui.done();
  }
});

test("[address island] geolocation is asked once on focus and sent as lat/lng", async () => {
  const asked: PositionOptions[] = [];
  const geolocation = {
    getCurrentPosition(ok: PositionCallback, _err: PositionErrorCallback, opts: PositionOptions) {
      asked.push(opts);
      ok({ coords: { latitude: 30.27, longitude: -97.74 } } as GeolocationPosition);
    },
  };
  Object.defineProperty(navigator, "geolocation", { value: geolocation, configurable: true });
  const ui = setup(await createTestApp());
  try {
    act(() => void fireEvent.focus(ui.input));
    act(() => void fireEvent.blur(ui.input));
    act(() => void fireEvent.focus(ui.input));
    assertEquals(asked.length, 1);
    assertEquals(asked[0].timeout, ADDRESS_AUTOCOMPLETE.geolocationTimeoutMs);
    await ui.type(TYPED);
    await ui.settle();
    const sent = params(ui.suggestCalls()[0].path);
    assertEquals([sent.get("lat"), sent.get("lng")], ["30.27", "-97.74"]);
    assertEquals(ui.input.getAttribute("aria-expanded"), "true", "the app answered");
  } finally {
    ui.done();
    Reflect.deleteProperty(navigator, "geolocation");
  }
});

test("[address island] denied geolocation is silent and sends no coordinates", async () => {
  const geolocation = {
    getCurrentPosition(_ok: PositionCallback, err: PositionErrorCallback) {
      err({ code: 1, message: "denied" } as GeolocationPositionError);
    },
  };
  Object.defineProperty(navigator, "geolocation", { value: geolocation, configurable: true });
  const ui = setup(await createTestApp());
  try {
    act(() => void fireEvent.focus(ui.input));
    await ui.type(TYPED);
    await ui.settle();
    const sent = params(ui.suggestCalls()[0].path);
    assertEquals([sent.has("lat"), sent.has("lng")], [false, false]);
    assertEquals(ui.input.getAttribute("aria-expanded"), "true");
  } finally {
    ui.done();
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
