import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, ORIGIN, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { insertDiscountCode } from "../../db/discounts.ts";
import { setupDom } from "./_dom.ts";
import { type Answer, type AppFetch, useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen } = await import("@testing-library/react");
const { renderToString } = await import("react-dom/server");
const { default: CreateSurvey } = await import("../../islands/CreateSurvey.tsx");
const { DRAFT_KEY } = await import("../../islands/_create_survey/storage.ts");
const { emptyAnswers } = await import("../../islands/_create_survey/types.ts");
const { detailsKey, stateFromAddress, toDetails } = await import(
  "../../islands/_create_survey/details.ts"
);
const { SUBMIT_401_MESSAGE } = await import("../../islands/_create_survey/api.ts");
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");
const { setNavigateHandler } = await import("../../islands/_nav.ts");
const { SURVEY_OPTIONS } = await import("../../islands/_create_survey/options.ts");
const { SUBMIT_AUTH_MESSAGE } = await import("../../routes/surveys.ts");
const { ADDRESS_AUTOCOMPLETE } = await import("../../islands/AddressAutocomplete.tsx");
const { PRICE_FACTORS, SURVEY_TYPE_FACTORS } = await import("../../lib/survey_options.ts");
const { SURVEY_TYPES } = await import("../../lib/survey_types.ts");
const { QuoteBreakdown } = await import("../../islands/_create_survey/QuoteBreakdown.tsx");
type PriceFactor = import("../../lib/survey_options.ts").PriceFactor;
type CreateSurveyProps = import("../../islands/CreateSurvey.tsx").CreateSurveyProps;
type Quote = import("../../lib/pricing.ts").Quote;

type Answers = ReturnType<typeof emptyAnswers>;
/** A canned answer: the request's JSON body and URL, and `app()` for the app's own answer. */
type Handler = (
  body: unknown,
  url: URL,
  app: () => Promise<Response>,
) => Response | Promise<Response>;

/**
 * The offline address provider's first suggestion for TYPED (and its formatted address). The
 * user types the ZIP: the offline data attaches none it was not given.
 */
const TYPED = "123 Main St, Austin, TX 78701";
const FORMATTED = "123 Main St, Austin, TX 78701";

/** Stands for the test's signed-in client, Casey: `mount({ user: USER })`. */
const USER = "Casey, signed in";

/** The test's app, Casey's session, and the island's fetch (from `mount`) with its calls. */
interface Current {
  t: TestApp;
  cookie: string;
  canned: Record<string, Answer>;
  calls: { method: string; path: string; body: unknown }[];
  api?: AppFetch;
}
let current: Current | undefined;

/**
 * A fresh app with a client, Casey, whose session `mount({ user: USER })` uses. The island's
 * requests reach the app; `handlers` ("METHOD /path") answer instead only where the app cannot
 * produce the case (malformed answers, a 502, Google's rooftop precision), possibly from the
 * app's own answer. `calls` records each request's method, path (no query) and body.
 */
async function appFetch(handlers: Record<string, Handler> = {}) {
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, {
    role: "client",
    fullName: "Casey Client",
    email: "casey@example.test",
    phone: "512-555-0199",
  });
  const canned: Record<string, Answer> = {};
  for (const [route, handler] of Object.entries(handlers)) {
    canned[route] = (call, app) => handler(call.body, new URL(call.path, ORIGIN), app);
  }
  current = { t, cookie, canned, calls: [] };
  const calls = current.calls;
  return {
    t,
    calls,
    restore() {
      current?.api?.restore();
      current = undefined;
      t.close();
    },
  };
}

/** The app's price for `answers`, as the island would ask for it. */
async function priceOf(answers: Answers, discountCode = "") {
  const details = toDetails(answers);
  const res = await current!.t.request("POST", "/api/calculate-price", {
    body: discountCode ? { ...details, discountCode } : details,
  });
  const body = await res.json();
  return body as { price: number | null; calculation: Quote };
}

async function countSurveys(t: TestApp): Promise<number> {
  const [{ n }] = await t.sql<{ n: number }[]>`select count(*)::int as n from surveys`;
  return n;
}

/** "$443" for a quote's total. */
function dollars(cents: number): string {
  return `$${(cents / 100).toLocaleString("en-US")}`;
}

/** The draft's stored quote for `answers`, priced by the app. */
async function storedQuote(answers: Answers, appliedCode = "") {
  const { price, calculation } = await priceOf(answers, appliedCode);
  return { key: detailsKey(answers), price, message: "", calculation, appliedCode };
}

/** Answers that pass every step. */
function completeAnswers(overrides: Partial<Answers> = {}): Answers {
  return {
    ...emptyAnswers(),
    address: FORMATTED,
    formattedAddress: FORMATTED,
    placeId: "zip:78701|123 Main St",
    lat: 30.27,
    lng: -97.74,
    state: "TX",
    surveyType: "boundary",
    purpose: "selling",
    propertyType: "residential",
    acreage: "0.25",
    terrain: "rolling",
    vegetation: "light",
    structures: "1",
    cornersKnown: "yes",
    cornersToSet: "0",
    rush: "standard",
    contactName: "Casey Client",
    contactPhone: "(512) 555-0199",
    ...overrides,
  };
}

/** Puts a draft in sessionStorage as if the visitor had got to `step`. */
function seed(step: number, answers: Answers, extra: Record<string, unknown> = {}) {
  sessionStorage.setItem(
    DRAFT_KEY,
    JSON.stringify({
      version: 1,
      step,
      furthest: step,
      answers,
      quote: null,
      requestId: "11111111-1111-4111-8111-111111111111",
      seedAddress: "",
      ...extra,
    }),
  );
}

function storedDraft() {
  return JSON.parse(sessionStorage.getItem(DRAFT_KEY) ?? "null");
}

function wait(ms = 0) {
  return act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
}

/** Until the island's requests are answered and handled. */
function settle() {
  return act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    await current?.api?.idle();
  });
}

/** Past the address field's debounce, then until its request is answered. */
async function settleTyping() {
  await wait(ADDRESS_AUTOCOMPLETE.debounceMs + 10);
  await settle();
}

/**
 * Renders the island with the props /create-survey gives (signed in as Casey with
 * `user: USER`; `initialAddress` as ?address=), its fetch reaching the app.
 */
async function mount(
  { user = null, initialAddress = "" }: { user?: typeof USER | null; initialAddress?: string } = {},
) {
  const c = current!;
  const cookie = user ? c.cookie : undefined;
  const path = initialAddress
    ? `/create-survey?address=${encodeURIComponent(initialAddress)}`
    : "/create-survey";
  const props = islandProps<CreateSurveyProps>(
    (await loadPage(c.t, path, cookie)).html,
    "CreateSurvey",
  );
  c.api?.restore();
  c.api = useAppFetch(c.t, { cookie, canned: c.canned });
  const appFetch = globalThis.fetch;
  globalThis.fetch = ((input: string | URL | Request, init: RequestInit = {}) => {
    c.calls.push({
      method: (init.method ?? "GET").toUpperCase(),
      path: new URL(String(input), ORIGIN).pathname,
      body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
    });
    return appFetch(input, init);
  }) as typeof fetch;
  const view = render(<CreateSurvey {...props} />);
  await settle(); // the effect that restores the draft, and any pricing it starts
  return view;
}

function heading() {
  return document.getElementById("cs-heading")!;
}

async function clickContinue() {
  const button = document.querySelector<HTMLButtonElement>('button[form="cs-form"]')!;
  // The button belongs to the step form through its form attribute; submit that form.
  await act(() => void fireEvent.submit(document.getElementById("cs-form")!));
  await settle();
  return button;
}

async function clickButton(name: string | RegExp) {
  await act(() => void fireEvent.click(screen.getByRole("button", { name })));
  await settle();
}

function field(id: string) {
  return document.getElementById(id) as HTMLInputElement;
}

function errorOf(id: string): string | null {
  return document.getElementById(`${id}-error`)?.textContent ?? null;
}

function lastToast() {
  return getToasts()[0];
}

function done(restore?: () => void) {
  cleanup();
  restore?.();
  dismissToast();
  sessionStorage.clear();
}

// ---------------------------------------------------------------------------------- server

test("[create survey] the server renders step 1 with the step list and the prefilled address", () => {
  const html = renderToString(
    <CreateSurvey user={null} initialAddress="1 Beacon St, Boston" />,
  );
  assertMatch(html, /<li class="cs-steps__item cs-steps__item--current" aria-current="step">/);
  assertMatch(html, /Step 1 of 6/);
  assertMatch(html, /<input[^>]*id="cs-address"[^>]*value="1 Beacon St, Boston"/);
  assertMatch(html, /Free quote\. No payment now\./);
});

test("[create survey] stateFromAddress reads the USPS code at the end of an address", () => {
  const codes = SURVEY_OPTIONS.states.map((s) => s.id);
  assertEquals(stateFromAddress("123 Main St, Austin, TX 78701, USA", codes), "TX");
  assertEquals(stateFromAddress("123 Main St, Austin, TX 78701", codes), "TX");
  assertEquals(stateFromAddress("1 Beacon St, Boston, MA", codes), "MA");
  assertEquals(stateFromAddress("10 Downing St, London SW1A 2AA, UK", codes), "");
  assertEquals(stateFromAddress("", codes), "");
});

// ---------------------------------------------------------------------------- validation

test("[create survey] Continue on an empty first step puts the messages next to the fields", async () => {
  const { restore } = await appFetch();
  try {
    await mount();
    await clickContinue();
    assertEquals(heading().textContent, "Step 1 of 6Property");
    assertEquals(errorOf("cs-address"), "Enter the property address");
    assertEquals(errorOf("cs-state"), "Choose the property's state");
    const address = field("cs-address");
    assertEquals(address.getAttribute("aria-invalid"), "true");
    assertMatch(address.getAttribute("aria-describedby") ?? "", /cs-address-error/);
    assertMatch(field("cs-state").getAttribute("aria-describedby") ?? "", /cs-state-error/);
    assertEquals(document.activeElement, address, "focus goes to the first field to fix");
  } finally {
    done(restore);
  }
});

test("[create survey] an address matched only to its town or ZIP says so, without coordinates", async () => {
  for (const precision of ["zip", "city", undefined]) {
    const { calls, restore } = await appFetch({
      // The app's answer (the offline provider matches the ZIP) with each precision.
      "GET /api/geocode": async (_body, _url, app) =>
        Response.json({ ...await (await app()).json(), precision }),
    });
    try {
      await mount({ user: USER });
      const input = field("cs-address");
      await act(() => void fireEvent.change(input, { target: { value: TYPED } }));
      await settleTyping();
      await act(() => void fireEvent.keyDown(input, { key: "ArrowDown" }));
      await act(() => void fireEvent.keyDown(input, { key: "Enter" }));
      await settle();
      const confirm = document.querySelector(".cs-confirm")?.textContent ?? "";
      const label = String(precision);
      assertMatch(
        confirm,
        /^We matched the town; the surveyor confirms the exact parcel123 Main St, Austin, TX 78701/,
        label,
      );
      assert(!confirm.includes("We found this property"), label);
      assertEquals(document.querySelector(".cs-confirm__coords"), null, label);
      // A town centre is not the property: no parcel lookup there.
      assertEquals(calls.filter((c) => c.path === "/api/parcels/lookup").length, 0, label);
      assertEquals(field("cs-state").value, "TX", label);
    } finally {
      done(restore);
    }
  }
});

test("[create survey] picking a suggestion confirms the formatted address and its state", async () => {
  // The app's answer with the precision Google gives for a street address (the offline
  // provider only ever matches the ZIP).
  const { restore } = await appFetch({
    "GET /api/geocode": async (_body, _url, app) =>
      Response.json({ ...await (await app()).json(), precision: "rooftop" }),
  });
  try {
    await mount();
    const input = field("cs-address");
    await act(() => void fireEvent.change(input, { target: { value: TYPED } }));
    await settleTyping();
    await act(() => void fireEvent.keyDown(input, { key: "ArrowDown" }));
    await act(() => void fireEvent.keyDown(input, { key: "Enter" }));
    await settle();
    const confirm = document.querySelector(".cs-confirm")!;
    assert(confirm, "the confirmation shows");
    // The geocoder located the building itself (as Google does for a street address).
    assertMatch(
      confirm.textContent ?? "",
      /We found this property123 Main St, Austin, TX 78701\d+\.\d{5}° N, \d+\.\d{5}° W/,
    );
    assertEquals(field("cs-state").value, "TX");
    await clickContinue();
    assertEquals(heading().textContent, "Step 2 of 6Survey type");
    assertEquals(document.activeElement, heading(), "focus moves to the new step's heading");
    assertEquals(storedDraft().answers.formattedAddress, FORMATTED);
  } finally {
    done(restore);
  }
});

test("[create survey] the type step needs a type, and a purpose suggests one", async () => {
  const { restore } = await appFetch();
  try {
    seed(1, completeAnswers({ surveyType: "", purpose: "" }));
    await mount();
    await clickContinue();
    assertEquals(errorOf("cs-surveyType"), "Choose a survey type");
    await clickButton("Flood insurance");
    assertEquals(
      screen.getByRole("button", { name: "Flood insurance" }).getAttribute("aria-pressed"),
      "true",
    );
    const radio = document.querySelector<HTMLInputElement>(
      'input[name="cs-surveyType"][value="elevation_certificate"]',
    )!;
    assert(radio.checked, "the suggested type is selected");
    assertMatch(
      document.querySelector(".cs-helper__result")!.textContent ?? "",
      /Elevation Certificate/,
    );
    assertEquals(errorOf("cs-surveyType"), null, "choosing clears the message");
    // Every type shows what it is for, its starting price and turnaround.
    const cards = document.querySelectorAll(".cs-type");
    assertEquals(cards.length, 6);
    assertMatch(cards[0].textContent ?? "", /Boundary Survey.*From \$385.*5-10 business days/);
    assertMatch(cards[5].textContent ?? "", /Subdivision Survey.*Quote required/);
  } finally {
    done(restore);
  }
});

test("[create survey] the details step explains each problem next to its field", async () => {
  const { restore } = await appFetch();
  try {
    // An ALTA survey asks every question there is.
    seed(
      2,
      completeAnswers({
        surveyType: "alta",
        propertyType: "",
        acreage: "0",
        terrain: "",
        vegetation: "",
        structures: "-1",
        cornersKnown: "",
        cornersToSet: "2.5",
        neededBy: "2000-01-01",
        accessNotes: "x".repeat(2001),
      }),
    );
    await mount();
    await clickContinue();
    assertEquals(heading().textContent, "Step 3 of 6Property details");
    assertEquals(errorOf("cs-propertyType"), "Choose a property type");
    assertEquals(errorOf("cs-acreage"), "Acreage must be greater than 0");
    assertEquals(errorOf("cs-terrain"), "Choose the terrain");
    assertEquals(errorOf("cs-vegetation"), "Choose the vegetation");
    assertEquals(errorOf("cs-structures"), "Number of structures cannot be negative");
    assertEquals(errorOf("cs-cornersKnown"), "Tell us whether the corners are marked");
    assertEquals(errorOf("cs-cornersToSet"), "Corners to set must be a whole number");
    assertEquals(errorOf("cs-neededBy"), "Needed-by date cannot be in the past");
    assertEquals(errorOf("cs-accessNotes"), "Access notes must be 2000 characters or fewer");
    assertEquals(document.activeElement, field("cs-propertyType"));

    await act(() => void fireEvent.change(field("cs-acreage"), { target: { value: "20000" } }));
    await clickContinue();
    assertEquals(errorOf("cs-acreage"), "Acreage must be 10,000 acres or less");
    await act(() => void fireEvent.change(field("cs-acreage"), { target: { value: "abc" } }));
    await clickContinue();
    assertEquals(errorOf("cs-acreage"), "Acreage must be a number");
    assertEquals(heading().textContent, "Step 3 of 6Property details", "still on the step");
  } finally {
    done(restore);
  }
});

test("[create survey] each survey type's details step asks exactly what its price uses", async () => {
  const { restore } = await appFetch();
  const inputOf: Record<PriceFactor, string> = {
    acreage: "#cs-acreage",
    terrain: "#cs-terrain",
    vegetation: "#cs-vegetation",
    structures: "#cs-structures",
    cornersToSet: "#cs-cornersToSet",
    cornersKnown: "#cs-cornersKnown",
    altaItems: 'input[name="cs-altaItems"]',
  };
  try {
    for (const surveyType of SURVEY_TYPES) {
      seed(2, completeAnswers({ surveyType }));
      const view = await mount();
      const asked = PRICE_FACTORS.filter((f) => document.querySelector(inputOf[f]) !== null);
      assertEquals(asked, [...SURVEY_TYPE_FACTORS[surveyType]].sort(byFactorOrder), surveyType);
      // Every type asks the property type and the timing.
      assert(field("cs-propertyType"), surveyType);
      assert(field("cs-rush"), surveyType);
      view.unmount();
      sessionStorage.clear();
    }
  } finally {
    done(restore);
  }
});

function byFactorOrder(a: PriceFactor, b: PriceFactor) {
  return PRICE_FACTORS.indexOf(a) - PRICE_FACTORS.indexOf(b);
}

test("[create survey] an elevation certificate asks no lot size, terrain, vegetation or corners", async () => {
  const { calls, restore } = await appFetch();
  try {
    // Answers left from a boundary survey the visitor first picked.
    seed(
      2,
      completeAnswers({
        surveyType: "elevation_certificate",
        acreage: "",
        terrain: "",
        vegetation: "",
        cornersKnown: "",
        cornersToSet: "3",
        structures: "2",
      }),
    );
    await mount();
    const text = document.querySelector(".cs-form")!.textContent ?? "";
    for (const question of ["Lot size", "Terrain", "Vegetation", "corner"]) {
      assert(!text.includes(question), `asks "${question}"`);
    }
    assertEquals(field("cs-structures").value, "2");
    await clickContinue();
    assertEquals(heading().textContent, "Step 4 of 6Your quote", "nothing else to answer");
    const priced = calls.filter((c) => c.path === "/api/calculate-price");
    assertEquals(priced.at(-1)!.body, {
      surveyType: "elevation_certificate",
      propertyType: "residential",
      structures: 2,
      rush: "standard",
      state: "TX",
    });
  } finally {
    done(restore);
  }
});

// ------------------------------------------------------------------- back, forward, reload

test("[create survey] Back and Forward keep every answer", async () => {
  const { restore } = await appFetch();
  try {
    seed(2, completeAnswers({ acreage: "", accessNotes: "" }));
    await mount();
    await act(() => void fireEvent.change(field("cs-acreage"), { target: { value: "3.5" } }));
    await act(() => void fireEvent.click(field("cs-terrain-steep")));
    await act(() =>
      void fireEvent.change(field("cs-accessNotes"), { target: { value: "Gate code 4321" } })
    );
    await clickButton("Back");
    assertEquals(heading().textContent, "Step 2 of 6Survey type");
    assertEquals(document.activeElement, heading());
    await clickButton("Back");
    assertEquals(heading().textContent, "Step 1 of 6Property");
    assertEquals(field("cs-address").value, FORMATTED);
    assertEquals(field("cs-state").value, "TX");
    await clickContinue();
    await clickContinue();
    assertEquals(heading().textContent, "Step 3 of 6Property details");
    assertEquals(field("cs-acreage").value, "3.5");
    assert(field("cs-terrain-steep").checked);
    assertEquals(field("cs-accessNotes").value, "Gate code 4321");
    // The step list links back to visited steps; the current one is marked.
    const current = document.querySelector('[aria-current="step"]')!;
    assertMatch(current.textContent ?? "", /Property details/);
  } finally {
    done(restore);
  }
});

test("[create survey] a reload restores the step and answers from sessionStorage", async () => {
  const { restore } = await appFetch();
  try {
    seed(2, completeAnswers({ acreage: "" }));
    const first = await mount();
    await act(() => void fireEvent.change(field("cs-acreage"), { target: { value: "12" } }));
    first.unmount();
    await mount();
    assertEquals(heading().textContent, "Step 3 of 6Property details");
    assertEquals(field("cs-acreage").value, "12");
    assertEquals(field("cs-propertyType").value, "residential");
  } finally {
    done(restore);
  }
});

test("[create survey] a new ?address= from the landing page starts a new draft", async () => {
  const { restore } = await appFetch();
  try {
    seed(3, completeAnswers(), { seedAddress: "1 Old Rd, Austin, TX" });
    await mount({ initialAddress: "9 New Ave, Dallas, TX" });
    assertEquals(heading().textContent, "Step 1 of 6Property");
    assertEquals(field("cs-address").value, "9 New Ave, Dallas, TX");
    // The visitor's contact details carry over.
    assertEquals(storedDraft().answers.contactName, "Casey Client");
  } finally {
    done(restore);
  }
});

// --------------------------------------------------------------------------------- quote

test("[create survey] the quote step shows the total and the itemised breakdown", async () => {
  const { calls, restore } = await appFetch();
  try {
    const answers = completeAnswers();
    const { calculation } = await priceOf(answers);
    const total = dollars(calculation.totalCents!);
    seed(3, answers);
    await mount();
    const priced = calls.filter((c) => c.path === "/api/calculate-price");
    assertEquals(priced.length, 1);
    // A boundary survey's price ignores structures, so they are not sent.
    assertEquals(priced[0].body, {
      surveyType: "boundary",
      propertyType: "residential",
      acreage: 0.25,
      terrain: "rolling",
      vegetation: "light",
      cornersToSet: 0,
      cornersKnown: true,
      rush: "standard",
      state: "TX",
    });
    assertEquals(screen.getByTestId("quote-total").textContent, total);
    const table = document.querySelector(".cs-breakdown")!.textContent ?? "";
    for (const item of calculation.lineItems) {
      assert(table.includes(`${item.label}${item.detail}`), item.label);
    }
    assert(table.endsWith(`Total${total}`), table);
    assertMatch(document.body.textContent ?? "", /Estimated turnaround: 5-10 business days/);
    assertMatch(document.body.textContent ?? "", /Free quote — nothing to pay now/);
    assertEquals(document.querySelector(".cs-summary")!.textContent?.includes(total), true);
    // Going on and coming back does not price the same answers again.
    await clickContinue();
    await clickButton("Back");
    assertEquals(calls.filter((c) => c.path === "/api/calculate-price").length, 1);
  } finally {
    done(restore);
  }
});

test("[create survey] a pricing answer without success, price or calculation is an error toast", async () => {
  // Canned: the app's own answer with parts missing, which it never sends.
  const shapes: ((real: Record<string, unknown>) => Record<string, unknown>)[] = [
    ({ success }) => ({ success }),
    ({ price, calculation }) => ({ price, calculation }),
    ({ success, price }) => ({ success, price }),
  ];
  for (const shape of shapes) {
    const { restore } = await appFetch({
      "POST /api/calculate-price": async (_body, _url, app) =>
        Response.json(shape(await (await app()).json())),
    });
    try {
      seed(3, completeAnswers());
      await mount();
      await settle();
      assertEquals(lastToast()?.title, "Error calculating price", String(shape));
      assertEquals(lastToast()?.description, "Unexpected response format from pricing API");
      assertEquals(lastToast()?.variant, "destructive");
      assertEquals(screen.queryByTestId("quote-total"), null);
      await clickContinue();
      assertEquals(heading().textContent, "Step 4 of 6Your quote", "no quote, no going on");
      assertEquals(
        document.getElementById("cs-quote-error")?.textContent,
        "Get your quote before continuing",
      );
      assertEquals(document.activeElement, document.getElementById("cs-quote"));
    } finally {
      done(restore);
    }
  }
});

test("[create survey] a failed pricing call toasts the server's message", async () => {
  // Canned: the form's own checks stop every answer the pricing API would refuse.
  const { restore } = await appFetch({
    "POST /api/calculate-price": () =>
      Response.json({ message: "Acreage must be 10,000 acres or less" }, { status: 400 }),
  });
  try {
    seed(3, completeAnswers());
    await mount();
    await settle();
    assertEquals(lastToast()?.title, "Error calculating price");
    assertEquals(lastToast()?.description, "Acreage must be 10,000 acres or less");
  } finally {
    done(restore);
  }
});

test("[create survey] under the starting price the quote shows it as the total with a note", async () => {
  const { restore } = await appFetch();
  try {
    // Flat ground in Mississippi (cost index 0.85) prices a small lot below the start.
    const answers = completeAnswers({ state: "MS", terrain: "flat" });
    const { calculation } = await priceOf(answers);
    assert(calculation.minimumApplied, "the starting price applies");
    seed(3, answers);
    await mount();
    assertEquals(screen.getByTestId("quote-total").textContent, "$385");
    assertEquals(screen.getByTestId("quote-note").textContent, "Starting price applies");
    const table = document.querySelector(".cs-breakdown")!.textContent ?? "";
    assertEquals(
      table,
      "Price breakdownItemAmountBoundary Survey starting price" +
        "Starting price applies$385Total$385",
    );
    assert(!/Minimum price/.test(document.body.textContent ?? ""));
  } finally {
    done(restore);
  }
});

test("[create survey] a subdivision's turnaround reads 'quoted per project'", async () => {
  const { restore } = await appFetch();
  try {
    seed(3, completeAnswers({ surveyType: "subdivision" }));
    await mount();
    const text = document.body.textContent ?? "";
    assertMatch(text, /Turnaround: quoted per project/);
    assert(!text.includes("Estimated turnaround"), text);
    assert(!/turnaround: Quote required/i.test(text), text);
  } finally {
    done(restore);
  }
});

test("[create survey] a breakdown stored with cents still reads as it was quoted", () => {
  // A request submitted before whole-dollar rounding keeps its stored breakdown.
  const old = {
    surveyType: "boundary",
    quoteRequired: false,
    currency: "USD",
    baseCents: 38_500,
    discount: null,
    turnaround: "5-10 business days",
    configVersion: 1,
    lineItems: [
      { key: "base", label: "Boundary Survey base price", detail: "", amountCents: 38_500 },
      { key: "regional", label: "Regional cost", detail: "", amountCents: -96 },
      { key: "minimum", label: "Minimum price", detail: "", amountCents: 96 },
    ],
    subtotalCents: 38_500,
    totalCents: 38_500,
    minimumApplied: true,
  };
  const html = renderToString(<QuoteBreakdown quote={old as never} />);
  assertMatch(html, /Regional cost.*−\$0\.96.*Minimum price.*\$0\.96.*Total.*\$385</);
});

test("[create survey] an invalid discount code shows the reason by the input and keeps the quote", async () => {
  const { t, calls, restore } = await appFetch();
  try {
    await insertDiscountCode(t.sql, {
      code: "SAVE10",
      kind: "percent",
      value: 10,
      createdBy: null,
    });
    await insertDiscountCode(t.sql, {
      code: "OLD2020",
      kind: "fixed",
      value: 5_000,
      validUntil: new Date("2020-12-31T00:00:00Z"),
      createdBy: null,
    });
    const answers = completeAnswers();
    const plain = (await priceOf(answers)).calculation;
    const saved = (await priceOf(answers, "SAVE10")).calculation;
    seed(3, answers);
    await mount();
    await clickButton("Have a discount code?");
    const input = field("cs-discountCode");
    assertEquals(document.activeElement, input);
    await act(() => void fireEvent.change(input, { target: { value: "OLD2020" } }));
    await clickButton("Apply");
    assertEquals(errorOf("cs-discountCode"), "This discount code has expired.");
    assertEquals(input.getAttribute("aria-invalid"), "true");
    assertMatch(input.getAttribute("aria-describedby") ?? "", /cs-discountCode-error/);
    assertEquals(
      screen.getByTestId("quote-total").textContent,
      dollars(plain.totalCents!),
      "quote unchanged",
    );
    assertEquals(getToasts().length, 0, "a refused code is not a toast");

    await act(() => void fireEvent.change(input, { target: { value: "SAVE10" } }));
    assertEquals(errorOf("cs-discountCode"), null, "typing clears the reason");
    await clickButton("Apply");
    assertEquals(screen.getByTestId("quote-total").textContent, dollars(saved.totalCents!));
    assert(
      (document.querySelector(".cs-breakdown")!.textContent ?? "").endsWith(
        `Subtotal${dollars(saved.subtotalCents)}Discount SAVE1010% off` +
          `−${dollars(saved.discount!.amountCents)}Total${dollars(saved.totalCents!)}`,
      ),
      document.querySelector(".cs-breakdown")!.textContent ?? "",
    );
    assertEquals(storedDraft().quote.appliedCode, "SAVE10");
    assertEquals(calls.filter((c) => c.path === "/api/calculate-price").length, 3);
  } finally {
    done(restore);
  }
});

test("[create survey] changing a detail after the quote prices it again", async () => {
  const { calls, restore } = await appFetch();
  try {
    const answers = completeAnswers();
    seed(2, answers, { furthest: 3, quote: await storedQuote(answers) });
    await mount();
    await clickContinue();
    assertEquals(calls.filter((c) => c.path === "/api/calculate-price").length, 0, "still fresh");
    await clickButton("Back");
    await act(() => void fireEvent.change(field("cs-acreage"), { target: { value: "5" } }));
    await clickContinue();
    const priced = calls.filter((c) => c.path === "/api/calculate-price");
    assertEquals(priced.length, 1);
    assertEquals((priced[0].body as { acreage: number }).acreage, 5);
  } finally {
    done(restore);
  }
});

// ----------------------------------------------------------------------- account and submit

test("[create survey] a signed-out visitor must create an account or sign in on the contact step", async () => {
  const { calls, restore } = await appFetch();
  try {
    seed(4, completeAnswers({ contactName: "", contactPhone: "" }));
    await mount();
    await clickContinue();
    assertEquals(errorOf("cs-contactName"), "Enter a contact name");
    assertEquals(errorOf("cs-contactPhone"), "Enter a contact phone number");
    assertEquals(errorOf("cs-auth"), "Create an account or sign in to submit your request");

    // Register inline: Email, Full Name, Password.
    await act(() =>
      void fireEvent.change(field("cs-register-email"), { target: { value: "new@example.test" } })
    );
    await act(() =>
      void fireEvent.change(field("cs-register-fullName"), { target: { value: "Nia New" } })
    );
    await act(() =>
      void fireEvent.change(field("cs-register-password"), { target: { value: "secret1" } })
    );
    await clickButton("Create account");
    const registered = calls.find((c) => c.path === "/api/register");
    assertEquals(registered?.body, {
      email: "new@example.test",
      password: "secret1",
      fullName: "Nia New",
      username: "new@example.test",
    });
    assertEquals(lastToast()?.title, "Registration successful");
    assert(current!.api!.cookie(), "the browser now holds the new account's session");
    assertEquals(lastToast()?.description, "Welcome, Nia New!");
    assertMatch(document.querySelector(".cs-account")!.textContent ?? "", /Signed in as Nia New/);
    // Nothing typed so far was lost; the name is filled in from the account.
    assertEquals(field("cs-contactName").value, "Nia New");
    assertEquals(storedDraft().answers.acreage, "0.25");

    await act(() =>
      void fireEvent.change(field("cs-contactPhone"), { target: { value: "call me" } })
    );
    await clickContinue();
    assertEquals(errorOf("cs-contactPhone"), "Enter a valid phone number");
    await act(() =>
      void fireEvent.change(field("cs-contactPhone"), { target: { value: "512 555 0100" } })
    );
    await clickContinue();
    assertEquals(heading().textContent, "Step 6 of 6Review & submit");
  } finally {
    done(restore);
  }
});

test("[create survey] inline sign-in failure toasts 'Login failed' with the server's text", async () => {
  const { restore } = await appFetch();
  try {
    seed(4, completeAnswers());
    await mount();
    await act(() => void fireEvent.click(screen.getByRole("tab", { name: "Sign in" })));
    assertEquals(
      screen.getByRole("tab", { name: "Sign in" }).getAttribute("aria-selected"),
      "true",
    );
    await act(() =>
      void fireEvent.change(field("cs-login-identifier"), { target: { value: "casey" } })
    );
    await act(() => void fireEvent.change(field("cs-login-password"), { target: { value: "x" } }));
    await act(() => void fireEvent.submit(field("cs-login-password").closest("form")!));
    await settle();
    assertEquals(lastToast()?.title, "Login failed");
    assertEquals(lastToast()?.description, "Invalid credentials");
    assertEquals(storedDraft().answers.contactName, "Casey Client");
  } finally {
    done(restore);
  }
});

test("[create survey] submit sends the request with its requestId; a retry reuses it", async () => {
  let attempts = 0;
  const visits: string[] = [];
  const restoreNav = setNavigateHandler((url) => visits.push(url));
  const { t, calls, restore } = await appFetch({
    // Canned first: a proxy's 502 (the app never answers so); then the app itself.
    "POST /api/surveys": (_body, _url, app) => {
      attempts++;
      if (attempts === 1) return new Response("", { status: 502, statusText: "Bad Gateway" });
      return app();
    },
  });
  try {
    const answers = completeAnswers({ accessNotes: "Dog in yard", neededBy: "" });
    const quote = await storedQuote(answers);
    seed(5, answers, { quote });
    await mount({ user: USER });
    assertMatch(document.body.textContent ?? "", /Free quote, no payment step/);
    assertEquals(
      screen.getByTestId("review-total").textContent,
      dollars(quote.calculation.totalCents!),
    );
    await clickContinue();
    assertEquals(lastToast()?.title, "Error submitting survey");
    assertEquals(lastToast()?.description, "Error submitting survey request");
    assertEquals(visits, []);
    assertEquals(heading().textContent, "Step 6 of 6Review & submit");

    await clickContinue();
    const posts = calls.filter((c) => c.path === "/api/surveys");
    assertEquals(posts.length, 2);
    const body = posts[1].body as Record<string, unknown>;
    assertEquals(body.requestId, "11111111-1111-4111-8111-111111111111");
    assertEquals((posts[0].body as Record<string, unknown>).requestId, body.requestId);
    assertEquals(body.address, FORMATTED);
    assertEquals(body.lat, 30.27);
    assertEquals(body.purpose, "selling");
    assertEquals(body.accessNotes, "Dog in yard");
    assertEquals(body.neededBy, undefined);
    assertEquals("price" in body, false, "the browser never sends a price");
    assertEquals(visits, ["/client-dashboard"]);
    assertEquals(sessionStorage.getItem(DRAFT_KEY), null, "the draft is cleared");
    assertEquals(
      JSON.parse(sessionStorage.getItem("meridian:pending-toast") ?? "{}").toast?.title,
      "Survey request submitted",
    );
    // Stored once, under the draft's requestId, priced as quoted.
    const stored = await t.sql<{ requestId: string; quotedPriceCents: number }[]>`
      select client_request_id as request_id, quoted_price_cents from surveys`;
    assertEquals(stored.map((r) => [r.requestId, r.quotedPriceCents]), [[
      "11111111-1111-4111-8111-111111111111",
      quote.calculation.totalCents,
    ]]);
  } finally {
    restoreNav();
    done(restore);
  }
});

test("[create survey] a 401 on submit explains that registration must be completed", async () => {
  const { t, restore } = await appFetch();
  try {
    assertEquals(SUBMIT_401_MESSAGE, SUBMIT_AUTH_MESSAGE);
    const answers = completeAnswers();
    seed(5, answers, { quote: await storedQuote(answers) });
    await mount({ user: USER });
    // The session ends (signed out in another tab) after the page was rendered.
    const out = await t.request("POST", "/api/logout", { cookie: current!.cookie });
    assertEquals(out.status, 200);
    await out.body?.cancel();
    await clickContinue();
    assertEquals(lastToast()?.title, "Error submitting survey");
    assertEquals(
      lastToast()?.description,
      "Authentication required. Please complete the registration process before submitting.",
    );
    // Back on the contact step to sign in again, with every answer kept.
    assertEquals(heading().textContent, "Step 5 of 6Contact");
    assert(document.getElementById("cs-auth-tab-register"), "the account forms are offered");
    assertEquals(storedDraft().answers.acreage, "0.25");
  } finally {
    done(restore);
  }
});

test("[create survey] a refusal on submit toasts the server's message", async () => {
  const { t, restore } = await appFetch();
  try {
    // The code was applied to the quote; its last use went to someone else before submitting.
    await insertDiscountCode(t.sql, {
      code: "LAST1",
      kind: "fixed",
      value: 5_000,
      maxUses: 1,
      createdBy: null,
    });
    const answers = completeAnswers();
    seed(5, answers, { quote: await storedQuote(answers, "LAST1") });
    await t.sql`update discount_codes set uses = 1 where code = 'LAST1'`;
    await mount({ user: USER });
    await clickContinue();
    assertEquals(lastToast()?.title, "Error submitting survey");
    assertEquals(lastToast()?.description, "This discount code has reached its usage limit.");
    assertEquals(await countSurveys(t), 0);
  } finally {
    done(restore);
  }
});

test("[create survey] an applied code that stops working on a re-price is dropped with its reason", async () => {
  const { t, calls, restore } = await appFetch();
  try {
    await insertDiscountCode(t.sql, {
      code: "LAST1",
      kind: "fixed",
      value: 5_000,
      maxUses: 1,
      createdBy: null,
    });
    const answers = completeAnswers({ acreage: "3" });
    // A quote from before the answers changed, with the code applied; since then the code's
    // last use has gone.
    seed(3, answers, {
      quote: { ...await storedQuote(completeAnswers(), "LAST1"), key: "stale" },
    });
    await t.sql`update discount_codes set uses = 1 where code = 'LAST1'`;
    const { calculation } = await priceOf(answers);
    await mount();
    const priced = calls.filter((c) => c.path === "/api/calculate-price");
    assertEquals(priced.map((c) => (c.body as { discountCode?: string }).discountCode), [
      "LAST1",
      undefined,
    ]);
    assertEquals(screen.getByTestId("quote-total").textContent, dollars(calculation.totalCents!));
    assertEquals(errorOf("cs-discountCode"), "This discount code has reached its usage limit.");
    assertEquals(storedDraft().quote.appliedCode, "");
  } finally {
    done(restore);
  }
});
