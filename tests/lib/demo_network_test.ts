import { assert, assertEquals, assertNotEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import {
  citiesFromZipCodes,
  DEMO_EMAIL_DOMAIN,
  generateDemoNetwork,
  generateDemoSurveyors,
  loadDemoCities,
} from "../../lib/demo_network.ts";
import {
  ContactHistorySchema,
  ContactSchema,
  NewSurveyorSchema,
} from "../../lib/surveyor_schema.ts";
import { SurveyRequestSchema } from "../../lib/survey_schema.ts";
import { STATE_CODES } from "../../lib/survey_options.ts";

const NOW = new Date("2025-06-01T12:00:00Z");

function milesBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.sqrt(h));
}

test("[demo network] the same seed gives the same network; another seed another one", async () => {
  const cities = await loadDemoCities();
  const a = generateDemoNetwork(cities, { seed: 1, now: NOW });
  const b = generateDemoNetwork(cities, { seed: 1, now: NOW });
  assertEquals(JSON.stringify(a), JSON.stringify(b));
  const c = generateDemoNetwork(cities, { seed: 2, now: NOW });
  assertNotEquals(
    a.surveyors.map((s) => s.fields.companyName),
    c.surveyors.map((s) => s.fields.companyName),
  );
});

test("[demo network] every record is valid as the API would take it", async () => {
  const network = generateDemoNetwork(await loadDemoCities(), { now: NOW });
  assertEquals(network.surveyors.length, 400);
  for (const s of network.surveyors) {
    const parsed = NewSurveyorSchema.safeParse(s.fields);
    assert(parsed.success, `${s.fields.companyName}: ${JSON.stringify(parsed.error?.issues)}`);
    assert(s.contacts.length >= 1 && s.contacts.length <= 3, s.fields.companyName);
    assertEquals(s.contacts.filter((c) => c.isPrimary).length, 1);
    for (const contact of s.contacts) {
      assert(ContactSchema.safeParse(contact).success, JSON.stringify(contact));
    }
    for (const { minutesAgo, ...entry } of s.history) {
      assert(minutesAgo > 0);
      assert(ContactHistorySchema.safeParse(entry).success, JSON.stringify(entry));
    }
    const f = s.fields;
    assert(f.serviceRadiusMiles >= 25 && f.serviceRadiusMiles <= 100, String(f.serviceRadiusMiles));
    assertEquals(f.licenseStates[0], f.state);
    assert(f.surveyTypes.length > 0);
    assertEquals(f.inNetwork, f.status === "active" || f.status === "paused");
    assertEquals(s.placeId !== null, s.source === "place");
  }
  for (const { request } of network.requests) {
    const parsed = SurveyRequestSchema.safeParse(request);
    assert(parsed.success, `${request.address}: ${JSON.stringify(parsed.error?.issues)}`);
  }
});

test("[demo network] firms cover every state, more where more people live", async () => {
  const network = generateDemoNetwork(await loadDemoCities(), { now: NOW });
  const perState = new Map<string, number>();
  for (const s of network.surveyors) {
    perState.set(s.fields.state, (perState.get(s.fields.state) ?? 0) + 1);
  }
  for (const state of STATE_CODES) assert((perState.get(state) ?? 0) >= 2, state);
  assert(perState.get("CA")! > 4 * perState.get("NV")!, JSON.stringify([...perState]));
  assert(perState.get("TX")! > 4 * perState.get("WY")!);
  const names = network.surveyors.map((s) => s.fields.companyName);
  assertEquals(new Set(names).size, names.length, "company names are unique");
  const active = network.surveyors.filter((s) => s.fields.status === "active").length;
  assert(active > 0.5 * 400 && active < 0.7 * 400, `active: ${active}`);
  assert(network.surveyors.some((s) => s.fields.licenseStates.length > 1));
});

test("[demo network] every email is a demo address and unique; phones are fictional", async () => {
  const network = generateDemoNetwork(await loadDemoCities(), { now: NOW });
  const emails = [
    network.admin.email,
    ...network.clients.map((c) => c.email),
    ...network.surveyors.flatMap((s) => [s.fields.email!, ...s.contacts.map((c) => c.email!)]),
  ];
  for (const email of emails) assert(email.endsWith(`@${DEMO_EMAIL_DOMAIN}`), email);
  assertEquals(new Set(emails).size, emails.length);
  const accountEmails = [
    network.admin,
    ...network.surveyorAccounts,
    network.technician!,
    ...network.clients,
  ].map((a) => a.email);
  assert(network.technician!.email.endsWith(`@${DEMO_EMAIL_DOMAIN}`));
  assertEquals(new Set(accountEmails).size, accountEmails.length);
  for (const s of network.surveyors) {
    for (const phone of [s.fields.phone!, ...s.contacts.map((c) => c.phone!)]) {
      assert(/^\(\d{3}\) 555-01\d\d$/.test(phone), phone);
    }
    if (s.fields.website) assert(s.fields.website.endsWith(".example"), s.fields.website);
  }
});

test("[demo network] each request is covered by an active in-network firm; accounts link to one", async () => {
  const network = generateDemoNetwork(await loadDemoCities(), { now: NOW });
  assertEquals(network.requests.length, 12);
  assert(new Set(network.requests.map((r) => r.request.state)).size >= 5);
  for (const { request } of network.requests) {
    const covering = network.surveyors.filter((s) =>
      s.fields.status === "active" && s.fields.inNetwork &&
      s.fields.licenseStates.includes(request.state as never) &&
      s.fields.surveyTypes.includes(request.surveyType) &&
      milesBetween(request, s.fields) <= s.fields.serviceRadiusMiles
    );
    assert(covering.length > 0, `nobody covers ${request.address}`);
    assert(request.address.includes(`, ${request.state} `), request.address);
  }
  assertEquals(network.surveyorAccounts.length, 5);
  for (const account of network.surveyorAccounts) {
    const firm = network.surveyors[account.surveyorIndex];
    assertEquals([firm.fields.status, firm.fields.inNetwork, firm.source], [
      "active",
      true,
      "signup",
    ]);
    assertEquals(account.email, firm.contacts[0].email);
    // Every account's firm has an open lead within its reach.
    const reachable = network.requests.filter(({ request, stage }) =>
      stage === "offered" && firm.fields.licenseStates.includes(request.state as never) &&
      firm.fields.surveyTypes.includes(request.surveyType) &&
      milesBetween(request, firm.fields) <= firm.fields.serviceRadiusMiles
    );
    assert(reachable.length > 0, `${account.companyName} has no open lead`);
  }
  // The first account's firm takes the later stages, each within its reach and claimable.
  const crew = network.surveyors[network.surveyorAccounts[0].surveyorIndex];
  assertEquals(network.technician!.surveyorAccountIndex, 0);
  const taken = network.requests.filter((r) => r.takenBy !== null);
  assertEquals(taken.map((r) => r.stage).sort(), ["assigned", "bought", "delivered", "fieldwork"]);
  for (const { request, takenBy } of taken) {
    assertEquals(takenBy, 0);
    assert(request.surveyType !== "subdivision");
    assert(crew.fields.surveyTypes.includes(request.surveyType));
    assert(milesBetween(request, crew.fields) <= crew.fields.serviceRadiusMiles);
  }
  assertEquals(network.requests.filter((r) => r.stage === "requested").length, 1);
});

test("[demo network] cities come from the ZIP data: states only, one per city, real places", async () => {
  const cities = await loadDemoCities();
  assert(cities.length > 20_000);
  const states = new Set(cities.map((c) => c.state));
  assertEquals(states.size, STATE_CODES.length);
  const austin = cities.find((c) => c.city === "Austin" && c.state === "TX")!;
  assert(austin.zipCount > 30);
  assert(milesBetween(austin, { lat: 30.27, lng: -97.74 }) < 15, JSON.stringify(austin));
  const keys = cities.map((c) => `${c.city}|${c.state}`);
  assertEquals(new Set(keys).size, keys.length);
  // Territories, Canadian provinces and business ZIPs are not towns a firm sits in.
  const sample = citiesFromZipCodes({
    a: { zip: "00901", latitude: 18.4, longitude: -66.1, city: "San Juan", state: "PR" },
    b: { zip: "T2P", latitude: 51, longitude: -114, city: "Calgary", state: "Alberta" },
    c: { zip: "73301", latitude: 30.3, longitude: -97.7, city: "Irs Service Center", state: "TX" },
    d: { zip: "59601", latitude: 46.6, longitude: -112.0, city: "Helena", state: "MT" },
  });
  assertEquals(sample.map((c) => c.city), ["Helena"]);
});

test("[demo network] 50,000 firms for the benchmarks stay spread and unique", async () => {
  const surveyors = generateDemoSurveyors(await loadDemoCities(), { count: 50_000, now: NOW });
  assertEquals(surveyors.length, 50_000);
  assertEquals(new Set(surveyors.map((s) => s.fields.companyName)).size, 50_000);
  assertEquals(new Set(surveyors.map((s) => s.fields.state)).size, STATE_CODES.length);
});
