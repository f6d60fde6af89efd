/**
 * Lead market test data: surveyor firms added by an admin as a newcomer's admin would, who can
 * (or, on purpose, cannot) take leads, with a balance and optionally a signed-in account, and priced leads on submitted requests. The
 * fixture request is at 1200 Barton Springs Rd, Austin, TX (`SITE`); surveyors are placed
 * `miles` north of it.
 */
import type { TestApp } from "./_helpers.ts";
import { createSignedInUser } from "./_auth.ts";
import { expectJson, submitSurvey } from "./_fixtures.ts";
import { insertLead, type Lead } from "../db/leads.ts";
import { postLedgerEntry } from "../db/ledger.ts";
import { getActivePricingConfig } from "../db/pricing.ts";
import { priceLead } from "../lib/lead_pricing.ts";
import type { Survey } from "../lib/survey_schema.ts";
import type { NewSurveyorInput, Surveyor } from "../lib/surveyor_schema.ts";

/** The fixture request's point (lib/_fixtures.ts surveyRequest). */
export const SITE = { lat: 30.2636, lng: -97.7589 };
const MILES_PER_DEGREE_LAT = 69.05;

/** A point `miles` north of `from` (the fixture site by default). */
export function north(miles: number, from = SITE): { lat: number; lng: number } {
  return { lat: from.lat + miles / MILES_PER_DEGREE_LAT, lng: from.lng };
}

/** Options for `addMarketSurveyor`: the admin's fields for the record, and the extras. */
export type MarketSurveyorOptions = Partial<NewSurveyorInput> & {
  /** Miles north of the site (default 5). */
  miles?: number;
  /** Credited with a top-up (default 0). */
  balanceCents?: number;
  /** Give them a signed-in surveyor account (default true). */
  withUser?: boolean;
  /** Welcome claim already used (default true, so claims charge the fee). */
  welcomeUsed?: boolean;
};

/** A surveyor record (and account), and the account's session cookie. */
export interface MarketSurveyorFixture {
  surveyor: Surveyor;
  userId: string | null;
  cookie: string;
}

interface FixtureAdmin {
  id: string;
  cookie: string;
  inUse: number;
}

const fixtureAdmins = new WeakMap<TestApp, Promise<FixtureAdmin>>();

/**
 * Runs `work` with the session cookie of the admin who adds the fixture firms (one per test
 * app). That account is disabled whenever no fixture is using it, so it is never one of the
 * admins a test's notifications go to.
 */
async function asFixtureAdmin<T>(t: TestApp, work: (cookie: string) => Promise<T>): Promise<T> {
  let pending = fixtureAdmins.get(t);
  if (!pending) {
    pending = createSignedInUser(t, { role: "admin", fullName: "Fixture Admin" })
      .then(({ user, cookie }) => ({ id: user.id, cookie, inUse: 0 }));
    fixtureAdmins.set(t, pending);
  }
  const admin = await pending;
  if (admin.inUse++ === 0) {
    await t.sql`update users set disabled_at = null where id = ${admin.id}`;
  }
  try {
    return await work(admin.cookie);
  } finally {
    if (--admin.inUse === 0) {
      await t.sql`update users set disabled_at = now() where id = ${admin.id}`;
    }
  }
}

/**
 * A surveyor firm made the way an admin makes one: added on /surveyors (POST /api/surveyors:
 * active and in network unless `options` say otherwise, licensed in TX, offering boundary
 * surveys, `miles` north of the site, radius 50), then linked to a new signed-in surveyor
 * account (POST /api/surveyors/{id}/link-user). Added as active, it is verified by that admin,
 * as every active firm is; `status: "pending"` gives one waiting for its licence check. Then
 * `balanceCents` is credited.
 */
export async function addMarketSurveyor(
  t: TestApp,
  name: string,
  options: MarketSurveyorOptions = {},
): Promise<MarketSurveyorFixture> {
  const {
    miles = 5,
    balanceCents = 0,
    withUser = true,
    welcomeUsed = true,
    ...fields
  } = options;
  const { surveyor, userId, cookie } = await asFixtureAdmin(t, async (admin) => {
    const created = await t.request("POST", "/api/surveyors", {
      cookie: admin,
      body: {
        companyName: name,
        ...north(miles),
        licenseStates: ["TX"],
        surveyTypes: ["boundary"],
        status: "active",
        inNetwork: true,
        ...fields,
      },
    });
    const record: Surveyor = (await expectJson(created, 201)).surveyor;
    if (!withUser) return { surveyor: record, userId: null, cookie: "" };
    const account = await createSignedInUser(t, { role: "surveyor", fullName: `${name} Owner` });
    const linked = await t.request("POST", `/api/surveyors/${record.id}/link-user`, {
      cookie: admin,
      body: { email: account.user.email },
    });
    return {
      surveyor: (await expectJson(linked, 200)).surveyor as Surveyor,
      userId: account.user.id,
      cookie: account.cookie,
    };
  });
  if (welcomeUsed) {
    await t.sql`update surveyors set welcome_claim_used_at = now() where id = ${surveyor.id}`;
  }
  if (balanceCents > 0) {
    await t.sql.begin((tx) =>
      postLedgerEntry(tx, {
        surveyorId: surveyor.id,
        kind: "top_up",
        amountCents: balanceCents,
        reference: `test-${crypto.randomUUID()}`,
      })
    );
  }
  return { surveyor, userId, cookie };
}

/**
 * Submits a request as the client behind `clientCookie` (fixture values plus `overrides`) and
 * creates its lead, priced from the active configuration (`maxBuyers` 3 unless given).
 */
export async function addLead(
  t: TestApp,
  clientCookie: string,
  { overrides = {}, maxBuyers = 3, expiryDays = 7 }: {
    overrides?: Record<string, unknown>;
    maxBuyers?: number;
    expiryDays?: number;
  } = {},
): Promise<{ survey: Survey; lead: Lead }> {
  const survey = await submitSurvey(t, clientCookie, overrides);
  const { version, config } = await getActivePricingConfig(t.sql);
  const price = priceLead(config.lead, survey);
  const lead = await insertLead(t.sql, {
    surveyId: survey.id,
    priceCents: price.priceCents,
    pricing: { ...price.inputs, configVersion: version },
    maxBuyers,
    expiryDays,
  });
  return { survey, lead };
}

/** The surveyor's balance and the sum of their ledger, in cents. */
export async function balanceAndLedger(
  t: TestApp,
  surveyorId: string,
): Promise<{ balance: number; ledger: number; entries: number }> {
  const [row] = await t.sql<{ balance: string; ledger: string; entries: number }[]>`
    select s.balance_cents as balance,
      coalesce((select sum(amount_cents) from surveyor_ledger where surveyor_id = s.id), 0)
        as ledger,
      (select count(*)::int from surveyor_ledger where surveyor_id = s.id) as entries
    from surveyors s where s.id = ${surveyorId}`;
  return { balance: Number(row.balance), ledger: Number(row.ledger), entries: row.entries };
}
