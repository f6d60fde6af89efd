/**
 * Lead market test data: surveyors who can (or, on purpose, cannot) take leads, with a
 * balance and optionally a signed-in account, and priced leads on submitted requests. The
 * fixture request is at 1200 Barton Springs Rd, Austin, TX (`SITE`); surveyors are placed
 * `miles` north of it.
 */
import type { TestApp } from "./_helpers.ts";
import { createSignedInUser } from "./_auth.ts";
import { submitSurvey } from "./_fixtures.ts";
import { insertSurveyor, type InsertSurveyorInput } from "../db/surveyors.ts";
import { insertLead, type Lead } from "../db/leads.ts";
import { postLedgerEntry } from "../db/ledger.ts";
import { getActivePricingConfig } from "../db/pricing.ts";
import { priceLead } from "../lib/lead_pricing.ts";
import type { Survey } from "../lib/survey_schema.ts";
import type { Surveyor } from "../lib/surveyor_schema.ts";

/** The fixture request's point (lib/_fixtures.ts surveyRequest). */
export const SITE = { lat: 30.2636, lng: -97.7589 };
const MILES_PER_DEGREE_LAT = 69.05;

/** A point `miles` north of `from` (the fixture site by default). */
export function north(miles: number, from = SITE): { lat: number; lng: number } {
  return { lat: from.lat + miles / MILES_PER_DEGREE_LAT, lng: from.lng };
}

/** Options for `addMarketSurveyor`. */
export type MarketSurveyorOptions = Partial<InsertSurveyorInput> & {
  /** Miles north of the site (default 5). */
  miles?: number;
  /** verified_at set (default true for an active surveyor). */
  verified?: boolean;
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

/**
 * An active, verified, in-network surveyor licensed in TX offering boundary surveys, `miles`
 * north of the site, radius 50, with `balanceCents` credited and a signed-in account.
 */
export async function addMarketSurveyor(
  t: TestApp,
  name: string,
  options: MarketSurveyorOptions = {},
): Promise<MarketSurveyorFixture> {
  const {
    miles = 5,
    verified,
    balanceCents = 0,
    withUser = true,
    welcomeUsed = true,
    ...rest
  } = options;
  let userId: string | null = null;
  let cookie = "";
  if (withUser) {
    const account = await createSignedInUser(t, { role: "surveyor", fullName: `${name} Owner` });
    userId = account.user.id;
    cookie = account.cookie;
  }
  const surveyor = await insertSurveyor(t.sql, {
    companyName: name,
    ...north(miles),
    licenseStates: ["TX"],
    surveyTypes: ["boundary"],
    status: "active",
    inNetwork: true,
    userId,
    ...rest,
  });
  const isVerified = verified ?? surveyor.status === "active";
  await t.sql`
    update surveyors set
      verified_at = ${isVerified ? new Date() : null},
      welcome_claim_used_at = ${welcomeUsed ? new Date() : null}
    where id = ${surveyor.id}`;
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
