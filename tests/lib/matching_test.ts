/**
 * Matching against the database (PGlite, or Postgres with DATABASE_URL): who is a candidate
 * for a property, and in which order.
 */
import { assert, assertEquals } from "../_assert.ts";
import { resetDatabase, test, testDatabase } from "../_helpers.ts";
import { createUser } from "../_auth.ts";
import { insertSurveyor, type InsertSurveyorInput } from "../../db/surveyors.ts";
import type { Sql } from "../../db/client.ts";
import { findCandidateSurveyors, type MatchQuery, matchScore } from "../../lib/matching.ts";

// Downtown Austin, TX.
const AUSTIN = { lat: 30.2672, lng: -97.7431 };
const QUERY: MatchQuery = { ...AUSTIN, state: "TX", surveyType: "boundary" };
const MILES_PER_DEGREE_LAT = 69.05;

/** A point `miles` due north of Austin. */
function north(miles: number) {
  return { lat: AUSTIN.lat + miles / MILES_PER_DEGREE_LAT, lng: AUSTIN.lng };
}

async function freshDb(): Promise<Sql> {
  const db = await testDatabase();
  await resetDatabase(db.sql);
  return db.sql;
}

function surveyor(sql: Sql, name: string, input: Partial<InsertSurveyorInput> & { miles: number }) {
  const { miles, ...rest } = input;
  return insertSurveyor(sql, {
    companyName: name,
    ...north(miles),
    serviceRadiusMiles: 50,
    licenseStates: ["TX"],
    surveyTypes: ["boundary", "topographic"],
    status: "active",
    inNetwork: true,
    ...rest,
  });
}

const names = (list: { companyName: string }[]) => list.map((c) => c.companyName);

test("[matching] the score formula: distance, rating, response rate and workload, 0–100", () => {
  const base = {
    distanceMiles: 0,
    rating: null,
    reviewCount: null,
    recentOffers: 0,
    recentResponses: 0,
    openSurveys: 0,
  };
  // 40 (on the spot) + 20 (unknown rating counts as 4★) + 10 (no history: ½) + 15 (idle).
  assertEquals(matchScore(base), 85);
  assertEquals(matchScore({ ...base, distanceMiles: 50 }), 65);
  assertEquals(matchScore({ ...base, distanceMiles: 250 }), 45);
  // One 5★ review barely moves the 4★ prior; a hundred of them nearly reach 5★.
  assertEquals(matchScore({ ...base, rating: 5, reviewCount: 1 }), 86);
  assertEquals(matchScore({ ...base, rating: 5, reviewCount: 100 }), 90);
  assertEquals(matchScore({ ...base, rating: 1, reviewCount: 100 }), 71);
  // Answered 8 of 8 recent offers vs none of 8.
  assertEquals(matchScore({ ...base, recentOffers: 8, recentResponses: 8 }), 93);
  assertEquals(matchScore({ ...base, recentOffers: 8, recentResponses: 0 }), 77);
  // Three open jobs halve the workload points.
  assertEquals(matchScore({ ...base, openSurveys: 3 }), 78);
  const best = {
    ...base,
    rating: 5,
    reviewCount: 10_000,
    recentOffers: 10_000,
    recentResponses: 10_000,
  };
  const worst = {
    ...base,
    distanceMiles: 300,
    rating: 0,
    reviewCount: 10_000,
    recentOffers: 10_000,
    openSurveys: 10_000,
  };
  assertEquals(matchScore(best), 100);
  assertEquals(matchScore(worst), 0);
});

test("[matching] each surveyor's own service radius decides whether they reach the property", async () => {
  const sql = await freshDb();
  await surveyor(sql, "Near, short reach", { miles: 20, serviceRadiusMiles: 25 });
  await surveyor(sql, "Near, too short", { miles: 20, serviceRadiusMiles: 15 });
  await surveyor(sql, "Far, long reach", { miles: 250, serviceRadiusMiles: 300 });
  await surveyor(sql, "Far, too short", { miles: 250, serviceRadiusMiles: 200 });
  await surveyor(sql, "Beyond any radius", { miles: 320, serviceRadiusMiles: 300 });
  await surveyor(sql, "No location", { miles: 0, lat: null, lng: null });
  const found = await findCandidateSurveyors(sql, QUERY);
  assertEquals(names(found), ["Near, short reach", "Far, long reach"]);
  assertEquals(found[0].distanceMiles, 20);
  assert(Math.abs(found[1].distanceMiles - 250) < 0.5, String(found[1].distanceMiles));
  assertEquals(found.map((c) => c.kind), ["match", "match"]);
});

test("[matching] only active surveyors licensed in the state who offer the type match", async () => {
  const sql = await freshDb();
  await surveyor(sql, "Fits", { miles: 5 });
  await surveyor(sql, "Oklahoma licence only", { miles: 5, licenseStates: ["OK"] });
  await surveyor(sql, "Both states", { miles: 6, licenseStates: ["OK", "TX"] });
  await surveyor(sql, "Topographic only", { miles: 5, surveyTypes: ["topographic"] });
  await surveyor(sql, "Paused", { miles: 5, status: "paused" });
  await surveyor(sql, "Paused prospect-like", { miles: 5, status: "paused", inNetwork: false });
  await surveyor(sql, "Active, out of network", { miles: 7, inNetwork: false });
  const found = await findCandidateSurveyors(sql, QUERY);
  assertEquals(names(found).sort(), ["Active, out of network", "Both states", "Fits"]);
  assert(found.every((c) => c.status === "active" && c.kind === "match"));
  assertEquals(found.find((c) => c.companyName === "Active, out of network")?.inNetwork, false);
  // The same surveyors for a topographic survey in Oklahoma: the licence and type flip.
  const ok = await findCandidateSurveyors(sql, {
    ...QUERY,
    state: "OK",
    surveyType: "topographic",
  });
  assertEquals(names(ok).sort(), ["Both states", "Oklahoma licence only"]);
});

test("[matching] prospects not in the network come after the matches, marked as prospects", async () => {
  const sql = await freshDb();
  await surveyor(sql, "Member", { miles: 30 });
  await surveyor(sql, "Recruit", {
    miles: 2,
    status: "prospect",
    inNetwork: false,
    licenseStates: [],
    surveyTypes: [],
    email: "hello@recruit.example",
  });
  await surveyor(sql, "Invited firm", { miles: 3, status: "invited", inNetwork: false });
  await surveyor(sql, "Prospect, wrong state", {
    miles: 2,
    status: "prospect",
    inNetwork: false,
    licenseStates: ["OK"],
  });
  const found = await findCandidateSurveyors(sql, QUERY);
  assertEquals(names(found), ["Member", "Recruit", "Invited firm"]);
  assertEquals(found.map((c) => c.kind), ["match", "prospect", "prospect"]);
  assertEquals(found[1].email, "hello@recruit.example");
});

test("[matching] candidates are ranked by the score: nearer, better rated, responsive, less busy", async () => {
  const sql = await freshDb();
  const client = await createUser(sql, { role: "client" });
  await surveyor(sql, "Close", { miles: 2 });
  await surveyor(sql, "Distant", { miles: 40 });
  const starred = await surveyor(sql, "Distant but starred", {
    miles: 40,
    rating: 5,
    reviewCount: 200,
  });
  const busy = await surveyor(sql, "Distant and busy", { miles: 40 });
  const silent = await surveyor(sql, "Distant and silent", { miles: 40 });

  // Busy: four open surveys (a completed and a cancelled one do not count).
  for (
    const status of ["assigned", "scheduled", "in_fieldwork", "surveyed", "completed", "cancelled"]
  ) {
    await sql`
      insert into surveys (client_id, client_request_id, status, survey_type, address, property_type,
        state, purpose, contact_name, contact_phone, quote, assigned_surveyor_id)
      values (${client.id}, ${crypto.randomUUID()}, ${status}, 'boundary', '1 Main St, Austin, TX',
        'residential', 'TX', 'selling', 'C', '5125550100', '{}'::jsonb, ${busy.id})`;
  }
  // Silent: offered six leads in the last weeks, answered none; one more this morning (too
  // recent to count) and one long ago (outside the window).
  for (const [i, age] of [10, 12, 14, 20, 30, 40, 0, 200].entries()) {
    const [{ id: surveyId }] = await sql<{ id: string }[]>`
      insert into surveys (client_id, client_request_id, status, survey_type, address, property_type,
        state, purpose, contact_name, contact_phone, quote)
      values (${client.id}, ${crypto.randomUUID()}, 'surveyors_notified', 'boundary',
        ${`${i} Elm St, Austin, TX`}, 'residential', 'TX', 'selling', 'C', '5125550100', '{}'::jsonb)
      returning id`;
    const [{ id: leadId }] = await sql<{ id: string }[]>`
      insert into leads (survey_id, price_cents, pricing, expires_at)
      values (${surveyId}, 3850, '{}'::jsonb, now() + interval '7 days') returning id`;
    await sql`
      insert into lead_recipients (lead_id, surveyor_id, kind, notified_at)
      values (${leadId}, ${silent.id}, 'notified', now() - make_interval(days => ${age}::int))`;
  }

  const found = await findCandidateSurveyors(sql, QUERY);
  assertEquals(names(found), [
    "Close",
    "Distant but starred",
    "Distant",
    "Distant and silent",
    "Distant and busy",
  ]);
  const byName = new Map(found.map((c) => [c.companyName, c]));
  assertEquals(byName.get("Distant and busy")?.openSurveys, 4);
  assertEquals(byName.get("Distant and silent")?.recentOffers, 6);
  assertEquals(byName.get("Distant and silent")?.recentResponses, 0);
  assertEquals(byName.get("Distant")?.score, matchScore(byName.get("Distant")!));
  assertEquals(byName.get("Distant but starred")?.surveyorId, starred.id);
  for (let i = 1; i < found.length; i++) assert(found[i - 1].score >= found[i].score);
});

test("[matching] the match list is capped, best first", async () => {
  const sql = await freshDb();
  for (let i = 0; i < 30; i++) {
    await surveyor(sql, `Firm ${String(i).padStart(2, "0")}`, { miles: i });
  }
  const found = await findCandidateSurveyors(sql, { ...QUERY, limit: 5 });
  assertEquals(names(found), ["Firm 00", "Firm 01", "Firm 02", "Firm 03", "Firm 04"]);
});
