/**
 * Issue 20, "A surveyor can locate the property exactly before paying": the attacks of the
 * security review, run against the lead API. Before buying, a surveyor sees a lead's public
 * point (the property rounded to 0.01°, `approxLat`/`approxLng`) and a distance from their
 * office; moving the office (trilateration on the shown distance or on the `maxDistance`
 * filter) or bisecting the filter must never locate the property better than the public point
 * already does. Moving the office is also limited and audited.
 *
 * The unlimited moves of the attacks are written to the database directly, as an attacker
 * with many accounts, or many days, would get them; the limit itself is tested over HTTP.
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { expectJson } from "../_fixtures.ts";
import { addLead, addMarketSurveyor, north, SITE } from "../_lead_fixtures.ts";
import {
  OFFICE_MOVE_WINDOW_HOURS,
  OFFICE_MOVES_PER_WINDOW,
  officeMovesExhausted,
} from "../../routes/surveyor_accounts.ts";
import { listAuditEvents } from "../../db/audit.ts";
import type { LeadSummary } from "../../lib/lead_market_schema.ts";

interface Point {
  lat: number;
  lng: number;
}

// The great-circle distance in metres, as geo_distance_m computes it (0008): the chord
// between the points on a sphere of radius R, turned into an arc.
const R = 6378168;
function distanceM(a: Point, b: Point): number {
  const xyz = (p: Point) => {
    const [la, lo] = [p.lat * Math.PI / 180, p.lng * Math.PI / 180];
    return [Math.cos(la) * Math.cos(lo), Math.cos(la) * Math.sin(lo), Math.sin(la)];
  };
  const [p, q] = [xyz(a), xyz(b)];
  const chord = R * Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
  return 2 * R * Math.asin(Math.min(1, chord / (2 * R)));
}
const METERS_PER_MILE = 1609.344;

// Solves f(x) = target for a monotonic f on [lo, hi] by bisection.
function solve(f: (x: number) => number, target: number, lo: number, hi: number): number {
  const rising = f(hi) > f(lo);
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if ((f(mid) < target) === rising) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Where the property must be, given its distance (miles) from an office due north of it and
 * from one due east of it: the intersection of the two circles near `start`.
 */
function trilaterate(
  northOffice: Point,
  northMiles: number,
  eastOffice: Point,
  eastMiles: number,
  start: Point,
): Point {
  let p = { ...start };
  for (let i = 0; i < 30; i++) {
    const lat = solve(
      (lat) => distanceM({ lat, lng: p.lng }, northOffice) / METERS_PER_MILE,
      northMiles,
      northOffice.lat - 1,
      northOffice.lat,
    );
    p = { lat, lng: p.lng };
    const lng = solve(
      (lng) => distanceM({ lat: p.lat, lng }, eastOffice) / METERS_PER_MILE,
      eastMiles,
      eastOffice.lng - 1,
      eastOffice.lng,
    );
    p = { lat: p.lat, lng };
  }
  return p;
}

async function setup() {
  const t = await createTestApp();
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  const me = await addMarketSurveyor(t, "Able Survey", { balanceCents: 100_00 });
  const { lead } = await addLead(t, client.cookie);
  const first: LeadSummary = (
    await expectJson(await t.request("GET", `/api/leads/${lead.id}`, { cookie: me.cookie }), 200)
  ).lead;
  const publicPoint = { lat: first.approxLat!, lng: first.approxLng! };
  // The fixture property is about 410 m from its public point: what there is to protect.
  const offsetM = distanceM(publicPoint, SITE);
  assert(offsetM > 300, `the fixture's public point is only ${offsetM} m off`);
  // An office move as an attacker with unlimited moves makes it.
  const moveOffice = async (p: Point) => {
    await t.sql`update surveyors set lat = ${p.lat}, lng = ${p.lng} where id = ${me.surveyor.id}`;
  };
  return { t, me, leadId: lead.id, publicPoint, offsetM, moveOffice };
}

/**
 * The review's office attack: with `observe(office)` telling what the surveyor sees from an
 * office there, move the office along the meridian through the public point (north of it) and
 * along its parallel (east of it) and bisect to where the observation flips, 40 moves per axis;
 * `threshold` turns the two observations either side of the flip into the distance (miles) it
 * means. Returns the estimated property point and how many moves it took.
 */
async function officeAttack<T>(
  observe: (office: Point) => Promise<T>,
  threshold: (below: T, above: T) => number,
  publicPoint: Point,
  moveOffice: (p: Point) => Promise<void>,
): Promise<{ estimate: Point; moves: number }> {
  let moves = 0;
  const look = async (p: Point) => {
    moves++;
    await moveOffice(p);
    return await observe(p);
  };
  // Offices about 19 and 21 miles away, due north then due east of the public point.
  const degLng = 1 / Math.cos(publicPoint.lat * Math.PI / 180);
  const axes = [
    (k: number) => ({ lat: publicPoint.lat + k / 69.05, lng: publicPoint.lng }),
    (k: number) => ({ lat: publicPoint.lat, lng: publicPoint.lng + (k / 69.17) * degLng }),
  ];
  const found: { office: Point; miles: number }[] = [];
  for (const at of axes) {
    let [lo, hi] = [19, 21];
    let [below, above] = [await look(at(lo)), await look(at(hi))];
    assert(JSON.stringify(below) !== JSON.stringify(above), "no flip between 19 and 21 miles");
    for (let i = 0; i < 40; i++) {
      const mid = (lo + hi) / 2;
      const seen = await look(at(mid));
      if (JSON.stringify(seen) === JSON.stringify(below)) [lo, below] = [mid, seen];
      else [hi, above] = [mid, seen];
    }
    found.push({ office: at((lo + hi) / 2), miles: threshold(below, above) });
  }
  const estimate = trilaterate(
    found[0].office,
    found[0].miles,
    found[1].office,
    found[1].miles,
    publicPoint,
  );
  return { estimate, moves };
}

// What the attacks may find at best is the public point: a few metres of numerical slack.
const SLACK_M = 5;

test("[lead privacy] office trilateration on the shown distance finds the public point, never the property", async () => {
  const { t, me, leadId, publicPoint, offsetM, moveOffice } = await setup();
  const shown = async () => {
    const res = await t.request("GET", `/api/leads/${leadId}`, { cookie: me.cookie });
    return ((await expectJson(res, 200)).lead as LeadSummary).distanceMiles!;
  };
  // The shown distance flips from v to the next shown value where the distance is halfway.
  const { estimate, moves } = await officeAttack(
    shown,
    (below, above) => (below + above) / 2,
    publicPoint,
    moveOffice,
  );
  assert(moves >= 80);
  const errorM = distanceM(estimate, SITE);
  assert(
    errorM >= offsetM - SLACK_M,
    `located the property to ${errorM.toFixed(1)} m; its public point is ${
      offsetM.toFixed(1)
    } m off`,
  );
  // What it found is the public point itself: nothing more than the map already shows.
  assert(distanceM(estimate, publicPoint) < SLACK_M);
  t.close();
});

test("[lead privacy] bisecting maxDistance tells no more than the shown distance, and moving the office under the filter finds no more than the public point", async () => {
  const { t, me, leadId, publicPoint, offsetM, moveOffice } = await setup();
  const listed = async (maxDistance: number) => {
    const res = await t.request("GET", `/api/leads?maxDistance=${maxDistance}`, {
      cookie: me.cookie,
    });
    return ((await expectJson(res, 200)).leads as LeadSummary[]).some((l) => l.id === leadId);
  };
  // The review's filter attack: 40 requests bisecting maxDistance from the office 5 miles north.
  let [lo, hi] = [0.000001, 50];
  assertEquals([await listed(lo), await listed(hi)], [false, true]);
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (await listed(mid)) hi = mid;
    else lo = mid;
  }
  const lead: LeadSummary = (
    await expectJson(await t.request("GET", `/api/leads/${leadId}`, { cookie: me.cookie }), 200)
  ).lead;
  // The edge the filter has is the distance the card shows (whole miles), not the exact one.
  assert(
    Math.abs(hi - lead.distanceMiles!) < 1e-6,
    `the filter's edge is at ${hi} miles; the lead shows ${lead.distanceMiles}`,
  );
  const exactMiles = distanceM(north(5), SITE) / METERS_PER_MILE;
  assert(Math.abs(hi - exactMiles) > 1e-4, `the filter gave the exact distance, ${exactMiles}`);

  // The filter as the oracle of the office attack: listed within 20 miles or not.
  const { estimate } = await officeAttack(
    () => listed(20),
    () => 20,
    publicPoint,
    moveOffice,
  );
  const errorM = distanceM(estimate, SITE);
  assert(
    errorM >= offsetM - SLACK_M,
    `located the property to ${errorM.toFixed(1)} m; its public point is ${
      offsetM.toFixed(1)
    } m off`,
  );
  t.close();
});

test("[lead privacy] a surveyor may move their office a few times a day, each move audited; then 429 with when to retry, nothing saved", async () => {
  const { t, me } = await setup();
  const patch = (body: unknown) =>
    t.request("PATCH", "/api/surveyor/profile", { cookie: me.cookie, body });
  for (let i = 1; i <= OFFICE_MOVES_PER_WINDOW; i++) {
    await expectJson(await patch(north(5 + i)), 200);
  }
  // Saving other fields, or the same office again, is not a move.
  await expectJson(
    await patch({ ...north(5 + OFFICE_MOVES_PER_WINDOW), phone: "5125550100" }),
    200,
  );
  await expectJson(await patch({ serviceRadiusMiles: 40 }), 200);

  const refused = await patch({ ...north(30), serviceRadiusMiles: 45 });
  const body = await expectJson(refused, 429);
  const retryAfter = Number(refused.headers.get("Retry-After"));
  assert(retryAfter > 0 && retryAfter <= OFFICE_MOVE_WINDOW_HOURS * 3600, `${retryAfter}`);
  assertEquals(body.message, officeMovesExhausted(retryAfter));
  assert(/again in \d+ hours?/.test(body.message), body.message);

  const own = (await expectJson(
    await t.request("GET", "/api/surveyor/profile", { cookie: me.cookie }),
    200,
  )).surveyor;
  assertEquals([own.lat, own.lng], [
    north(5 + OFFICE_MOVES_PER_WINDOW).lat,
    north(5 + OFFICE_MOVES_PER_WINDOW).lng,
  ]);
  assertEquals(own.serviceRadiusMiles, 40);

  const moves = await listAuditEvents(t.sql, {
    userId: me.userId!,
    event: "surveyor_office_moved",
  });
  assertEquals(moves.length, OFFICE_MOVES_PER_WINDOW);
  assertEquals(moves[0].actorId, me.userId);
  assertEquals(moves[0].details, {
    surveyorId: me.surveyor.id,
    fromLat: north(4 + OFFICE_MOVES_PER_WINDOW).lat,
    fromLng: north(4 + OFFICE_MOVES_PER_WINDOW).lng,
    toLat: north(5 + OFFICE_MOVES_PER_WINDOW).lat,
    toLng: north(5 + OFFICE_MOVES_PER_WINDOW).lng,
  });
  t.close();
});
