import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { countRows } from "../_fixtures.ts";
import { DEFAULT_PRICING_CONFIG, PRICING_SAMPLES, type PricingConfig } from "../../lib/pricing.ts";
import { QUOTE_READY_MESSAGE, QUOTE_REQUIRED_MESSAGE } from "../../routes/pricing.ts";
import { NO_PARCEL_PROVIDER_MESSAGE } from "../../lib/parcels/select.ts";
import { ParcelLookupError, type ParcelProvider } from "../../lib/parcels/provider.ts";
import { insertDiscountCode, redeemDiscountCode } from "../../db/discounts.ts";
import type { Role } from "../../lib/roles.ts";

const QUARTER_ACRE = {
  surveyType: "boundary",
  propertyType: "residential",
  acreage: 0.25,
  terrain: "flat",
  vegetation: "clear",
  structures: 1,
  rush: "standard",
  state: "PA",
};

async function json(res: Response) {
  assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
  return await res.json();
}

function editedConfig(): PricingConfig {
  const config = structuredClone(DEFAULT_PRICING_CONFIG);
  config.basePriceCents.boundary = 45_000;
  config.terrain.rolling = 1.2;
  return config;
}

async function adminCode(t: TestApp, input: Record<string, unknown>) {
  const { user } = await createSignedInUser(t, { role: "admin" });
  const code = await insertDiscountCode(t.sql, {
    code: "SAVE10",
    kind: "percent",
    value: 10,
    createdBy: user.id,
    ...input,
  });
  assert(code);
  return code;
}

// ---------------------------------------------------------------- calculate-price

test("[pricing] a visitor gets an instant quote for a ¼-acre boundary survey", async () => {
  const t = await createTestApp();
  const res = await t.request("POST", "/api/calculate-price", { body: QUARTER_ACRE });
  assertEquals(res.status, 200);
  const body = await json(res);
  assertEquals(body.success, true);
  assertEquals(body.message, QUOTE_READY_MESSAGE);
  assertEquals(body.price, 385);
  assertEquals(body.calculation.surveyType, "boundary");
  assertEquals(body.calculation.totalCents, 38_500);
  assertEquals(body.calculation.configVersion, 1);
  assertEquals(body.calculation.currency, "USD");
  assertEquals(body.calculation.lineItems[0].key, "base");
  assertEquals(body.calculation.turnaround, "5-10 business days");
  t.close();
});

test("[pricing] prices are whole dollars and come with every factor itemised", async () => {
  const t = await createTestApp();
  const res = await t.request("POST", "/api/calculate-price", {
    body: { ...QUARTER_ACRE, acreage: 40, terrain: "rolling", vegetation: "heavy", state: "CA" },
  });
  assertEquals(res.status, 200);
  const body = await json(res);
  assertEquals(body.price, body.calculation.totalCents / 100);
  assert(Number.isInteger(body.price), `price ${body.price}`);
  const lines: { key: string; amountCents: number }[] = body.calculation.lineItems;
  assertEquals(
    lines.map((i) => i.key),
    ["base", "acreage", "terrain", "vegetation", "regional"],
  );
  for (const line of lines) assert(line.amountCents % 100 === 0, `${line.key} has cents`);
  assertEquals(lines.reduce((sum, i) => sum + i.amountCents, 0), body.calculation.totalCents);
  assert(body.price > 3000, `price ${body.price}`);
  t.close();
});

test("[pricing] an elevation certificate is quoted without lot size, terrain or corners", async () => {
  const t = await createTestApp();
  const certificate = {
    surveyType: "elevation_certificate",
    propertyType: "residential",
    structures: 1,
    state: "FL",
  };
  const res = await t.request("POST", "/api/calculate-price", { body: certificate });
  assertEquals(res.status, 200);
  const body = await json(res);
  assertEquals(body.price, 285);
  assertEquals(body.calculation.lineItems.map((i: { key: string }) => i.key), ["base"]);
  // Sent anyway, even nonsense, those answers change nothing: the type's price ignores them.
  const extra = await t.request("POST", "/api/calculate-price", {
    body: {
      ...certificate,
      acreage: -4,
      terrain: "steep",
      vegetation: "heavy",
      cornersToSet: 6,
      cornersKnown: false,
    },
  });
  assertEquals(extra.status, 200);
  assertEquals((await json(extra)).calculation, body.calculation);
  t.close();
});

test("[pricing] a boundary survey without a lot size is refused, naming each answer", async () => {
  const t = await createTestApp();
  const { acreage: _a, terrain: _t, ...rest } = QUARTER_ACRE;
  const res = await t.request("POST", "/api/calculate-price", { body: rest });
  assertEquals(res.status, 400);
  const body = await json(res);
  assertEquals(body.errors.acreage, "Enter the lot size in acres");
  assertEquals(body.errors.terrain, "Choose the terrain");
  t.close();
});

test("[pricing] under the starting price the quote is the starting price with a note", async () => {
  const t = await createTestApp();
  const res = await t.request("POST", "/api/calculate-price", {
    body: { ...QUARTER_ACRE, state: "MS" },
  });
  assertEquals(res.status, 200);
  const body = await json(res);
  assertEquals(body.price, 385);
  assertEquals(body.calculation.minimumApplied, true);
  assertEquals(body.calculation.lineItems, [{
    key: "starting_price",
    label: "Boundary Survey starting price",
    detail: "Starting price applies",
    amountCents: 38_500,
  }]);
  t.close();
});

test("[pricing] a subdivision asks for a custom quote with no price", async () => {
  const t = await createTestApp();
  const res = await t.request("POST", "/api/calculate-price", {
    body: { ...QUARTER_ACRE, surveyType: "subdivision", acreage: 12 },
  });
  assertEquals(res.status, 200);
  const body = await json(res);
  assertEquals(body.success, true);
  assertEquals(body.price, null);
  assertEquals(body.message, QUOTE_REQUIRED_MESSAGE);
  assertEquals(body.calculation.quoteRequired, true);
  assertEquals(body.calculation.totalCents, null);
  assertEquals(body.calculation.turnaround, "Quoted per project");
  t.close();
});

test("[pricing] a price sent by the browser is ignored", async () => {
  const t = await createTestApp();
  const res = await t.request("POST", "/api/calculate-price", {
    body: { ...QUARTER_ACRE, price: 1, totalCents: 100, calculation: { totalCents: 100 } },
  });
  assertEquals(res.status, 200);
  assertEquals((await json(res)).price, 385);
  t.close();
});

test("[pricing] a valid discount code is applied and shown in the breakdown", async () => {
  const t = await createTestApp();
  await adminCode(t, { code: "Spring10" });
  const res = await t.request("POST", "/api/calculate-price", {
    body: { ...QUARTER_ACRE, discountCode: " spring10 " },
  });
  assertEquals(res.status, 200);
  const body = await json(res);
  // 10% of $385 is $38.50: the discount is given in whole dollars too.
  assertEquals(body.price, 346);
  assertEquals(body.calculation.discount, {
    code: "Spring10",
    kind: "percent",
    value: 10,
    amountCents: 3_900,
  });
  assertEquals(body.calculation.subtotalCents, 38_500);
  assertStringHas(body.message, "Spring10");
  // Quoting does not use the code up.
  const [row] = await t.sql`select uses from discount_codes`;
  assertEquals(row.uses, 0);
  t.close();
});

function assertStringHas(text: string, part: string) {
  assert(text.includes(part), `${JSON.stringify(text)} lacks ${part}`);
}

test("[pricing] an invalid discount code gets its reason and no quote", async () => {
  const t = await createTestApp();
  const past = new Date(Date.now() - 86_400_000);
  await adminCode(t, { code: "OLDIE", validUntil: past, validFrom: new Date(past.getTime() - 1) });
  const cases: [string, string][] = [
    ["OLDIE", "This discount code has expired."],
    ["NOSUCH", "This discount code doesn't exist. Check the spelling and try again."],
  ];
  for (const [code, message] of cases) {
    const res = await t.request("POST", "/api/calculate-price", {
      body: { ...QUARTER_ACRE, discountCode: code },
    });
    assertEquals(res.status, 400, code);
    const body = await json(res);
    assertEquals(body.success, false);
    assertEquals(body.message, message);
    assertEquals("calculation" in body, false);
  }
  t.close();
});

test("[pricing] a signed-in client who used a once-per-client code is told so", async () => {
  const t = await createTestApp();
  await adminCode(t, { code: "WELCOME" });
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  const used = await redeemDiscountCode(t.sql, { code: "WELCOME", clientId: user.id });
  assertEquals(used.ok, true);
  const body = { ...QUARTER_ACRE, discountCode: "WELCOME" };
  const res = await t.request("POST", "/api/calculate-price", { body, cookie });
  assertEquals(res.status, 400);
  assertEquals((await json(res)).message, "You have already used this discount code.");
  const visitor = await t.request("POST", "/api/calculate-price", { body });
  assertEquals(visitor.status, 200);
  assertEquals((await json(visitor)).price, 346);
  t.close();
});

test("[pricing] bad survey details get 400 with a message and nothing is stored", async () => {
  const t = await createTestApp();
  await adminCode(t, { code: "SAVE10" });
  const cases: [string, unknown, string][] = [
    ["unknown type", { ...QUARTER_ACRE, surveyType: "mineral" }, "surveyType"],
    ["missing type", { ...QUARTER_ACRE, surveyType: undefined }, "surveyType"],
    ["negative acreage", { ...QUARTER_ACRE, acreage: -1 }, "acreage"],
    ["absurd acreage", { ...QUARTER_ACRE, acreage: 5e6 }, "acreage"],
    ["acreage as text", { ...QUARTER_ACRE, acreage: "lots" }, "acreage"],
    ["10 KB state", { ...QUARTER_ACRE, state: "x".repeat(10_240) }, "state"],
    ["10 KB type", { ...QUARTER_ACRE, surveyType: "x".repeat(10_240) }, "surveyType"],
    [
      "10 KB discount code",
      { ...QUARTER_ACRE, discountCode: "SAVE10" + "x".repeat(10_240) },
      "discountCode",
    ],
    [
      "structures as object",
      { ...QUARTER_ACRE, surveyType: "topographic", structures: { n: 1 } },
      "structures",
    ],
    ["ALTA items as text", { ...QUARTER_ACRE, surveyType: "alta", altaItems: "1,2" }, "altaItems"],
    ["null body", null, "_"],
    ["array body", [QUARTER_ACRE], "_"],
  ];
  for (const [name, body, field] of cases) {
    const res = await t.request("POST", "/api/calculate-price", { body });
    assertEquals(res.status, 400, name);
    const payload = await json(res);
    assert(typeof payload.message === "string" && payload.message.length > 0, name);
    assert(field in payload.errors, `${name}: ${JSON.stringify(payload.errors)}`);
  }
  const notJson = await t.request("POST", "/api/calculate-price", {
    body: "surveyType=boundary",
    headers: { "content-type": "text/plain" },
  });
  assertEquals(notJson.status, 415);
  assertEquals(await countRows(t, "discount_code_uses"), 0);
  const [row] = await t.sql`select uses from discount_codes`;
  assertEquals(row.uses, 0);
  t.close();
});

// ---------------------------------------------------------------- admin: who may call

const ADMIN_CALLS: { method: string; path: string; body?: unknown }[] = [
  { method: "GET", path: "/api/admin/pricing-config" },
  { method: "PUT", path: "/api/admin/pricing-config", body: { config: DEFAULT_PRICING_CONFIG } },
  { method: "GET", path: "/api/admin/pricing-config/history" },
  { method: "GET", path: "/api/admin/pricing-config/versions/1" },
  { method: "POST", path: "/api/admin/pricing-preview", body: { config: DEFAULT_PRICING_CONFIG } },
  { method: "GET", path: "/api/admin/discount-codes" },
  {
    method: "POST",
    path: "/api/admin/discount-codes",
    body: { code: "ROLE10", kind: "percent", value: 10 },
  },
  {
    method: "PATCH",
    path: `/api/admin/discount-codes/${crypto.randomUUID()}`,
    body: { active: false },
  },
];

test("[pricing] admin APIs: signed out 401, other roles 403, nothing stored", async () => {
  const t = await createTestApp();
  const cookies: Partial<Record<Role, string>> = {};
  for (const role of ["client", "surveyor", "technician"] as const) {
    cookies[role] = await signInAs(t, role);
  }
  for (const call of ADMIN_CALLS) {
    const out = await t.request(call.method, call.path, { body: call.body });
    assertEquals(out.status, 401, `${call.method} ${call.path}`);
    assertEquals((await json(out)).message, "Authentication required");
    for (const [role, cookie] of Object.entries(cookies)) {
      const res = await t.request(call.method, call.path, { body: call.body, cookie });
      assertEquals(res.status, 403, `${role} ${call.method} ${call.path}`);
      assert((await json(res)).message);
    }
  }
  assertEquals(await countRows(t, "pricing_configs"), 0);
  assertEquals(await countRows(t, "discount_codes"), 0);
  t.close();
});

test("[pricing] an admin may call every admin API", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  for (const call of ADMIN_CALLS) {
    const res = await t.request(call.method, call.path, { body: call.body, cookie });
    const expected = call.method === "PATCH" ? 404 : call.method === "POST" &&
        call.path.endsWith("discount-codes")
      ? 201
      : 200;
    assertEquals(res.status, expected, `${call.method} ${call.path}`);
    await json(res);
  }
  t.close();
});

// ---------------------------------------------------------------- admin: configuration

test("[pricing] saving the configuration makes a new version with who and when", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, {
    role: "admin",
    fullName: "Ada Admin",
  });
  const first = await json(await t.request("GET", "/api/admin/pricing-config", { cookie }));
  assertEquals(first.version, 1);
  assertEquals(first.config, DEFAULT_PRICING_CONFIG);

  const res = await t.request("PUT", "/api/admin/pricing-config", {
    cookie,
    body: { config: editedConfig(), note: "  Raise boundary base  " },
  });
  assertEquals(res.status, 200);
  const saved = await json(res);
  assertEquals(saved.version, 2);
  assertEquals(saved.message, "Pricing saved as version 2.");
  assertEquals(saved.createdByName, "Ada Admin");
  assertEquals(saved.note, "Raise boundary base");

  const again = await json(
    await t.request("PUT", "/api/admin/pricing-config", {
      cookie,
      body: { config: editedConfig() },
    }),
  );
  assertEquals(again.version, 3);

  const active = await json(await t.request("GET", "/api/admin/pricing-config", { cookie }));
  assertEquals(active.version, 3);
  assertEquals(active.config.basePriceCents.boundary, 45_000);

  const history = await json(
    await t.request("GET", "/api/admin/pricing-config/history", { cookie }),
  );
  assertEquals(history.total, 3);
  assertEquals(history.versions.map((v: { version: number }) => v.version), [3, 2, 1]);
  assertEquals(history.versions[1].createdBy, user.id);
  assertEquals(history.versions[1].createdByName, "Ada Admin");
  assertEquals(history.versions[1].note, "Raise boundary base");
  assert(!Number.isNaN(Date.parse(history.versions[1].createdAt)));
  assertEquals("config" in history.versions[0], false);
  // Past the last page: no versions, and still the total.
  const past = await json(
    await t.request("GET", "/api/admin/pricing-config/history?page=9", { cookie }),
  );
  assertEquals([past.versions, past.total], [[], 3]);

  const v1 = await json(
    await t.request("GET", "/api/admin/pricing-config/versions/1", { cookie }),
  );
  assertEquals(v1.config, DEFAULT_PRICING_CONFIG);
  for (const bad of ["999", "abc", "0", "-1", "1.5"]) {
    const res = await t.request("GET", `/api/admin/pricing-config/versions/${bad}`, { cookie });
    assertEquals(res.status, 404, bad);
    assertEquals((await json(res)).message, "Pricing version not found");
  }

  // New quotes use the new version.
  const quote = await json(
    await t.request("POST", "/api/calculate-price", { body: QUARTER_ACRE }),
  );
  assertEquals(quote.price, 450);
  assertEquals(quote.calculation.configVersion, 3);
  t.close();
});

test("[pricing] an invalid configuration is refused with field errors and not saved", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const negative = structuredClone(DEFAULT_PRICING_CONFIG) as unknown as Record<string, unknown>;
  (negative.basePriceCents as Record<string, number>).alta = -5;
  const missing = structuredClone(DEFAULT_PRICING_CONFIG) as unknown as Record<string, unknown>;
  delete missing.stateIndex;
  const cases: [string, unknown, string][] = [
    ["negative price", { config: negative }, "config.basePriceCents.alta"],
    ["missing group", { config: missing }, "config.stateIndex"],
    ["no config", { note: "x" }, "config"],
    ["config as text", { config: "cheap" }, "config"],
    ["10 KB note", { config: DEFAULT_PRICING_CONFIG, note: "x".repeat(10_240) }, "note"],
  ];
  for (const [name, body, field] of cases) {
    const res = await t.request("PUT", "/api/admin/pricing-config", { cookie, body });
    assertEquals(res.status, 400, name);
    const payload = await json(res);
    assert(payload.message, name);
    assert(field in payload.errors, `${name}: ${JSON.stringify(payload.errors)}`);
  }
  assertEquals(await countRows(t, "pricing_configs"), 0);
  t.close();
});

test("[pricing] the preview prices samples with an unsaved config and saves nothing", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const res = await t.request("POST", "/api/admin/pricing-preview", {
    cookie,
    body: { config: editedConfig() },
  });
  assertEquals(res.status, 200);
  const body = await json(res);
  assertEquals(body.activeVersion, 1);
  assertEquals(body.samples.length, PRICING_SAMPLES.length);
  const quarter = body.samples[0];
  assertEquals(quarter.current.totalCents, 38_500);
  assertEquals(quarter.preview.totalCents, 45_000);
  assertEquals(quarter.changeCents, 6_500);

  const custom = await json(
    await t.request("POST", "/api/admin/pricing-preview", {
      cookie,
      body: {
        config: editedConfig(),
        samples: [{ label: "Mine", details: { ...QUARTER_ACRE, state: "ca" } }],
      },
    }),
  );
  assertEquals(custom.samples.length, 1);
  assertEquals(custom.samples[0].label, "Mine");
  assertEquals(custom.samples[0].preview.totalCents, 58_500);

  const bad = await t.request("POST", "/api/admin/pricing-preview", {
    cookie,
    body: {
      config: editedConfig(),
      samples: [{ label: "x", details: { ...QUARTER_ACRE, acreage: -3 } }],
    },
  });
  assertEquals(bad.status, 400);
  assert("samples.0.details.acreage" in (await json(bad)).errors);

  const [{ n }] = await t.sql`select count(*)::int as n from pricing_configs`;
  assertEquals(n, 1); // only the seeded defaults
  const active = await json(await t.request("GET", "/api/admin/pricing-config", { cookie }));
  assertEquals(active.version, 1);
  assertEquals(active.config, DEFAULT_PRICING_CONFIG);
  t.close();
});

// ---------------------------------------------------------------- admin: discount codes

test("[pricing] admins create, list and deactivate discount codes", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const validFrom = new Date(Date.now() - 60_000).toISOString();
  const validUntil = new Date(Date.now() + 86_400_000).toISOString();
  const res = await t.request("POST", "/api/admin/discount-codes", {
    cookie,
    body: {
      code: " Fall50 ",
      kind: "fixed",
      value: 5_000,
      validFrom,
      validUntil,
      maxUses: 100,
      oncePerClient: false,
      note: "Autumn mailer",
    },
  });
  assertEquals(res.status, 201);
  const created = await json(res);
  assertEquals(created.message, "Discount code Fall50 created.");
  assertEquals(created.code.code, "Fall50");
  assertEquals(created.code.value, 5_000);
  assertEquals(created.code.validUntil, validUntil);
  assertEquals(created.code.maxUses, 100);
  assertEquals(created.code.oncePerClient, false);
  assertEquals(created.code.uses, 0);
  assertEquals(created.code.active, true);

  const dup = await t.request("POST", "/api/admin/discount-codes", {
    cookie,
    body: { code: "FALL50", kind: "percent", value: 5 },
  });
  assertEquals(dup.status, 409);
  assertEquals((await json(dup)).message, "A discount code FALL50 already exists.");

  const quote = await json(
    await t.request("POST", "/api/calculate-price", {
      body: { ...QUARTER_ACRE, discountCode: "fall50" },
    }),
  );
  assertEquals(quote.price, 335);

  const list = await json(await t.request("GET", "/api/admin/discount-codes", { cookie }));
  assertEquals(list.total, 1);
  assertEquals(list.codes[0].id, created.code.id);

  const off = await t.request("PATCH", `/api/admin/discount-codes/${created.code.id}`, {
    cookie,
    body: { active: false },
  });
  assertEquals(off.status, 200);
  const offBody = await json(off);
  assertEquals(offBody.code.active, false);
  assertEquals(offBody.message, "Discount code Fall50 deactivated.");

  const refused = await t.request("POST", "/api/calculate-price", {
    body: { ...QUARTER_ACRE, discountCode: "FALL50" },
  });
  assertEquals(refused.status, 400);
  assertEquals((await json(refused)).message, "This discount code is no longer active.");
  t.close();
});

test("[pricing] bad discount codes and unknown ids are refused; nothing stored", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const now = Date.now();
  const cases: [string, Record<string, unknown>, string][] = [
    ["missing code", { kind: "percent", value: 10 }, "code"],
    ["spaces in code", { code: "TWO WORDS", kind: "percent", value: 10 }, "code"],
    ["10 KB code", { code: "A".repeat(10_240), kind: "percent", value: 10 }, "code"],
    ["unknown kind", { code: "KIND1", kind: "free", value: 10 }, "kind"],
    ["percent over 100", { code: "OVER1", kind: "percent", value: 150 }, "value"],
    ["zero value", { code: "ZERO1", kind: "fixed", value: 0 }, "value"],
    ["value as text", { code: "TEXT1", kind: "fixed", value: "50" }, "value"],
    ["fractional cents", { code: "FRAC1", kind: "fixed", value: 10.5 }, "value"],
    ["bad date", { code: "DATE1", kind: "percent", value: 5, validFrom: "tomorrow" }, "validFrom"],
    [
      "window backwards",
      {
        code: "BACK1",
        kind: "percent",
        value: 5,
        validFrom: new Date(now + 86_400_000).toISOString(),
        validUntil: new Date(now).toISOString(),
      },
      "validUntil",
    ],
    ["zero max uses", { code: "MAX01", kind: "percent", value: 5, maxUses: 0 }, "maxUses"],
    [
      "once as text",
      { code: "ONCE1", kind: "percent", value: 5, oncePerClient: "yes" },
      "oncePerClient",
    ],
  ];
  for (const [name, body, field] of cases) {
    const res = await t.request("POST", "/api/admin/discount-codes", { cookie, body });
    assertEquals(res.status, 400, name);
    const payload = await json(res);
    assert(payload.message, name);
    assert(field in payload.errors, `${name}: ${JSON.stringify(payload.errors)}`);
  }
  assertEquals(await countRows(t, "discount_codes"), 0);

  for (const id of [crypto.randomUUID(), "not-a-uuid", "1"]) {
    const res = await t.request("PATCH", `/api/admin/discount-codes/${id}`, {
      cookie,
      body: { active: false },
    });
    assertEquals(res.status, 404, id);
    assertEquals((await json(res)).message, "Discount code not found");
  }
  const badBody = await t.request("PATCH", `/api/admin/discount-codes/${crypto.randomUUID()}`, {
    cookie,
    body: { active: "no" },
  });
  assertEquals(badBody.status, 400);
  assert("active" in (await json(badBody)).errors);

  const badPage = await t.request("GET", "/api/admin/discount-codes?page=-2", { cookie });
  assertEquals(badPage.status, 400);
  t.close();
});

// ---------------------------------------------------------------- parcel lookup

function fakeProvider(lookup: ParcelProvider["lookup"]): ParcelProvider {
  return { name: "fake", isConfigured: true, lookup };
}

test("[parcels] lookup needs a signed-in user", async () => {
  const t = await createTestApp();
  const res = await t.request("GET", "/api/parcels/lookup?lat=35.6&lng=-82.5");
  assertEquals(res.status, 401);
  await json(res);
  t.close();
});

test("[parcels] without a provider the lookup says no data is configured", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "client");
  const res = await t.request("GET", "/api/parcels/lookup?address=12%20Elm%20St", { cookie });
  assertEquals(res.status, 200);
  assertEquals(await json(res), {
    parcel: null,
    provider: "none",
    message: NO_PARCEL_PROVIDER_MESSAGE,
  });
  t.close();
});

test("[parcels] a lookup returns the provider's parcel, or null when none is found", async () => {
  const seen: unknown[] = [];
  const t = await createTestApp({
    deps: {
      parcels: fakeProvider((query) => {
        seen.push(query);
        if (query.address === "nowhere at all") return Promise.resolve(undefined);
        return Promise.resolve({
          parcelNumber: "9648-12-3456",
          acreage: 2.31,
          owner: "Jane Doe",
          landUse: "Single Family",
          address: "12 Elm St, Asheville, NC 28801",
          geometry: null,
          source: "fake",
        });
      }),
    },
  });
  const cookie = await signInAs(t, "client");
  const res = await t.request("GET", "/api/parcels/lookup?lat=35.6&lng=-82.5", { cookie });
  assertEquals(res.status, 200);
  const body = await json(res);
  assertEquals(body.parcel.acreage, 2.31);
  assertEquals(seen[0], { lat: 35.6, lng: -82.5 });
  const none = await t.request("GET", "/api/parcels/lookup?address=nowhere%20at%20all", { cookie });
  assertEquals(await json(none), {
    parcel: null,
    provider: "fake",
    message: "No parcel was found at that location.",
  });
  t.close();
});

test("[parcels] provider failures give 502 with the provider's message", async () => {
  const t = await createTestApp({
    deps: {
      parcels: fakeProvider(() =>
        Promise.reject(new ParcelLookupError("Regrid rejected the API token."))
      ),
    },
  });
  const cookie = await signInAs(t, "admin");
  const res = await t.request("GET", "/api/parcels/lookup?address=12%20Elm%20St", { cookie });
  assertEquals(res.status, 502);
  assertEquals((await json(res)).message, "Regrid rejected the API token.");
  t.close();
});

test("[parcels] bad lookup queries get 400", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "client");
  for (
    const query of [
      "",
      "lat=35",
      "lat=abc&lng=1",
      "lat=91&lng=0",
      "lat=0&lng=181",
      "address=ab",
      `address=${"x".repeat(10_240)}`,
    ]
  ) {
    const res = await t.request("GET", `/api/parcels/lookup?${query}`, { cookie });
    assertEquals(res.status, 400, query.slice(0, 20));
    assert((await json(res)).message);
  }
  t.close();
});
