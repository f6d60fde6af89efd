/**
 * Matching: which surveyor records can take a survey, and how well each fits.
 *
 * Candidates (one query, `findCandidateSurveyors`): records with a location whose own service
 * radius reaches the property, and either
 *   - a match: status `active`, licensed in the property's state, offering its survey type; or
 *   - a prospect: a record not in the network yet (status `prospect` or `invited`) whose
 *     licence states and survey types, where known, fit too. Prospects are invited by email,
 *     never notified in-app. Paused records are never candidates.
 * At most CANDIDATE_POOL records, nearest first, are scored.
 *
 * The search asks whose coverage holds the property (0014_matching_coverage.sql): every record
 * stores `coverage`, the `geo_box` of its own service radius around its office, indexed by
 * GiST (`surveyors_coverage_idx`, active, prospect and invited records only), and its office
 * as `location`. The index returns the records whose box holds the property's point — the
 * ones that can reach it, plus the corners of their boxes — whatever their radius, and the
 * exact `geo_distance_m` against each record's own radius removes the corners. The index's
 * second column is the office point, and the search walks it nearest first (the GiST `<->`
 * order, the straight-line distance that `geo_distance_m` turns into a great-circle one,
 * monotonically) and stops once CANDIDATE_POOL records qualify, ties at the last distance
 * included (`with ties`); the final order is by `geo_distance_m`, then id. So a rural property
 * reads the few hundred firms that serve it instead of every firm within 100 miles, and a
 * metro one the nearest few hundred of the thousands that reach it. The planner would rather
 * read every box that holds the point and sort (it cannot estimate how many there are), so
 * `findCandidateSurveyors` runs the query with bitmap scans off (`withIndexWalk`).
 *
 * The score (0–100, higher is better; `matchScore`):
 *
 *   distance  40 × max(0, 1 − miles / 100)               nearer is better; 100 mi or more: 0
 *   rating    25 × r / 5,
 *             r = (rating × reviews + 2 × msum + 4 × 5) / (reviews + 2 × mcount + 5)
 *                                                      a 4★ prior worth 5 reviews, so a lone
 *                                                      5★ review does not beat a long record;
 *                                                      rating/reviews: the places provider's
 *                                                      (none: 0 reviews); msum/mcount: the
 *                                                      stars and number of Meridian reviews
 *                                                      (db/reviews.ts), each counting twice a
 *                                                      places review: they come from clients
 *                                                      of a delivered job; neither: r = 4
 *   response  20 × (responded + 1) / (offered + 2)       leads offered (kind notified) in the
 *                                                      last 90 days; responded = viewed,
 *                                                      purchased, claimed or declined; offers
 *                                                      still 'sent' and under 3 days old are
 *                                                      not counted yet; none: ½
 *   workload  15 × 3 / (3 + open)                       open = surveys assigned to them that
 *                                                      are not completed or cancelled
 *
 *   score = round(distance + rating + response + workload)
 *
 * The response rate and the workload are counted for every candidate in the same query
 * (lateral joins on lead_recipients_surveyor_idx and surveys_assigned_surveyor_idx): no N+1.
 */
import type { Db } from "../db/client.ts";
import type { SurveyType } from "./survey_types.ts";
import type { SurveyorSource, SurveyorStatus } from "./surveyor_schema.ts";

/**
 * Metres in a statute mile (geo_distance_m works in metres; 0008_surveyors_leads_jobs.sql
 * defines the geo_* functions over the cube extension).
 */
export const METERS_PER_MILE = 1609.344;
/** Most records scored per survey: the nearest ones that qualify. */
export const CANDIDATE_POOL = 200;
/** Days of lead offers the response rate looks back over. */
export const RESPONSE_WINDOW_DAYS = 90;
/** An offer younger than this that nobody answered yet does not count against the rate. */
export const RESPONSE_GRACE_DAYS = 3;

/** What the score is computed from. */
export interface ScoreInputs {
  distanceMiles: number;
  rating: number | null;
  reviewCount: number | null;
  /** Leads offered in the response window (see the module comment). */
  recentOffers: number;
  /** Of those, how many the surveyor responded to. */
  recentResponses: number;
  /** Surveys assigned to the surveyor that are not completed or cancelled. */
  openSurveys: number;
  /** Sum of the stars of the surveyor's Meridian reviews (default 0). */
  meridianRatingSum?: number;
  /** How many Meridian reviews the surveyor has (default 0). */
  meridianReviewCount?: number;
}

/** How many places reviews one Meridian review (a client of a delivered job) counts as. */
export const MERIDIAN_REVIEW_WEIGHT = 2;

/**
 * The blended star rating the score uses (see the module comment): the places rating and the
 * Meridian reviews, pulled towards a 4★ prior worth 5 reviews.
 */
export function blendedStars(
  input: Pick<ScoreInputs, "rating" | "reviewCount" | "meridianRatingSum" | "meridianReviewCount">,
): number {
  const reviews = input.rating === null ? 0 : Math.max(0, input.reviewCount ?? 0);
  const places = input.rating === null ? 0 : input.rating * reviews;
  const count = Math.max(0, input.meridianReviewCount ?? 0);
  const sum = count === 0 ? 0 : Math.min(5 * count, Math.max(count, input.meridianRatingSum ?? 0));
  const w = MERIDIAN_REVIEW_WEIGHT;
  return (places + w * sum + 4 * 5) / (reviews + w * count + 5);
}

/**
 * The match score, 0–100 (higher is better), from distance, rating, recent response rate and
 * open workload; the module comment gives the formula.
 */
export function matchScore(input: ScoreInputs): number {
  const distance = 40 * Math.max(0, 1 - input.distanceMiles / 100);
  const rating = 25 * Math.min(5, Math.max(0, blendedStars(input))) / 5;
  const offered = Math.max(0, input.recentOffers);
  const responded = Math.min(offered, Math.max(0, input.recentResponses));
  const response = 20 * (responded + 1) / (offered + 2);
  const workload = 15 * 3 / (3 + Math.max(0, input.openSurveys));
  return Math.max(0, Math.min(100, Math.round(distance + rating + response + workload)));
}

/** A scored candidate record. `email` is the record's, else its active account's. */
export interface MatchCandidate extends ScoreInputs {
  surveyorId: string;
  companyName: string;
  lat: number;
  lng: number;
  serviceRadiusMiles: number;
  inNetwork: boolean;
  status: SurveyorStatus;
  source: SurveyorSource;
  /** The linked account when it exists and is not disabled. */
  userId: string | null;
  email: string | null;
  /** "match": active, licensed, offers the type; "prospect": not in the network yet. */
  kind: "match" | "prospect";
  score: number;
}

/** Where and what the survey is. */
export interface MatchQuery {
  lat: number;
  lng: number;
  state: string;
  surveyType: SurveyType;
}

type CandidateRow = Omit<MatchCandidate, "score" | "distanceMiles"> & { distanceM: number };

/**
 * The candidate query itself, unsent: `findCandidateSurveyors` runs it, and the EXPLAIN test
 * (tests/db/matching_explain_test.ts) checks its plan. Rows are unscored, nearest first.
 */
export function candidateQuery(db: Db, { lat, lng, state, surveyType }: MatchQuery) {
  // The property's point, written out in each place (not a CTE) so the planner sees a
  // constant and can search the index with it.
  const here = db`geo_point(${lat}::float8, ${lng}::float8)`;
  return db<CandidateRow[]>`
    with near as (
      select s.id, s.company_name, s.lat, s.lng, s.service_radius_miles, s.in_network, s.status,
        s.source, s.rating, s.review_count, s.meridian_rating_sum, s.meridian_review_count,
        s.user_id, s.email, geo_distance_m(s.location, ${here}) as distance_m,
        case when s.status = 'active' then 'match' else 'prospect' end as kind
      from surveyors s
      where s.coverage is not null and s.status in ('active', 'prospect', 'invited')
        and s.coverage @> ${here}
        and geo_distance_m(s.location, ${here}) <= s.service_radius_miles * ${METERS_PER_MILE}::float8
        and (
          (s.status = 'active' and ${state}::text = any(s.license_states)
            and ${surveyType}::text = any(s.survey_types))
          or (s.status in ('prospect', 'invited') and not s.in_network
            and (cardinality(s.license_states) = 0 or ${state}::text = any(s.license_states))
            and (cardinality(s.survey_types) = 0 or ${surveyType}::text = any(s.survey_types)))
        )
      order by s.location <-> ${here}
      fetch first ${CANDIDATE_POOL} rows with ties
    ),
    pool as (select * from near order by distance_m, id limit ${CANDIDATE_POOL})
    select n.id as surveyor_id, n.company_name, n.lat, n.lng, n.service_radius_miles,
      n.in_network, n.status, n.source, n.rating, n.review_count, n.meridian_rating_sum,
      n.meridian_review_count, n.distance_m, n.kind,
      u.id as user_id, coalesce(n.email, u.email) as email,
      coalesce(r.offers, 0)::int as recent_offers,
      coalesce(r.responses, 0)::int as recent_responses,
      coalesce(w.open_surveys, 0)::int as open_surveys
    from pool n
    left join users u on u.id = n.user_id and u.disabled_at is null
    left join lateral (
      select count(*) as offers,
        count(*) filter (where lr.outcome in ('viewed', 'purchased', 'claimed', 'declined'))
          as responses
      from lead_recipients lr
      where lr.surveyor_id = n.id and lr.kind = 'notified'
        and lr.notified_at > now() - make_interval(days => ${RESPONSE_WINDOW_DAYS}::int)
        and (lr.outcome <> 'sent'
          or lr.notified_at < now() - make_interval(days => ${RESPONSE_GRACE_DAYS}::int))
    ) r on true
    left join lateral (
      select count(*) as open_surveys from surveys sv
      where sv.assigned_surveyor_id = n.id and sv.status not in ('completed', 'cancelled')
    ) w on true`;
}

/**
 * Runs `run` with the planner settings the candidate query needs, for that query only:
 *
 * - bitmap scans off, so it walks surveyors_coverage_idx nearest first and stops at the pool
 *   (see the module comment): the planner cannot tell how many coverage boxes hold a point (it
 *   guesses a few dozen) and would otherwise read every one of them and sort, which in a metro
 *   is thousands;
 * - custom plans, so the property's point is computed once while planning: the generic plan
 *   postgres.js's prepared statement gets after five runs recomputes `geo_point` for every row it
 *   reads (with earthdistance's `ll_to_earth` and its domain checks, before 0025, that made
 *   the walk twice as slow);
 * - no JIT compilation: a plan whose estimate a disabled path inflated would otherwise be
 *   compiled, tens of milliseconds for a query that runs in a few.
 *
 * Outside a transaction it opens one for the settings; inside the caller's, it sets them for
 * this query and puts the old values back. Returns what `run` returns.
 */
export async function withIndexWalk<T>(db: Db, run: (db: Db) => Promise<T>): Promise<T> {
  const set = (tx: Db) =>
    tx<{ bitmap: string; plans: string; jit: string }[]>`
      select current_setting('enable_bitmapscan') as bitmap,
        current_setting('plan_cache_mode') as plans,
        current_setting('jit') as jit,
        set_config('enable_bitmapscan', 'off', true),
        set_config('plan_cache_mode', 'force_custom_plan', true),
        set_config('jit', 'off', true)`;
  if ("begin" in db) {
    // The settings and the query go out together (one round trip, pipelined on the
    // transaction's connection); Postgres runs them in order.
    return await db.begin(async (tx) => {
      const [, result] = await Promise.all([set(tx), run(tx)]);
      return result;
    }) as T;
  }
  const [previous] = await set(db);
  try {
    return await run(db);
  } finally {
    await db`select set_config('enable_bitmapscan', ${previous.bitmap}, true),
      set_config('plan_cache_mode', ${previous.plans}, true),
      set_config('jit', ${previous.jit}, true)`;
  }
}

/**
 * The candidate records for a survey at (`lat`, `lng`) in `state` of `surveyType`, scored and
 * ordered: matches first, then prospects, each by score (then distance, then id). At most
 * `limit` matches and `prospectLimit` prospects. One query; see the module comment.
 */
export async function findCandidateSurveyors(
  db: Db,
  { limit = 25, prospectLimit = 10, ...query }: MatchQuery & {
    limit?: number;
    prospectLimit?: number;
  },
): Promise<MatchCandidate[]> {
  const rows = await withIndexWalk(db, (tx) => candidateQuery(tx, query));
  const scored = rows.map(({ distanceM, ...row }): MatchCandidate => {
    const distanceMiles = Math.round((distanceM / METERS_PER_MILE) * 10) / 10;
    const candidate = { ...row, distanceMiles };
    return { ...candidate, score: matchScore(candidate) };
  });
  const byScore = (a: MatchCandidate, b: MatchCandidate) =>
    b.score - a.score || a.distanceMiles - b.distanceMiles ||
    (a.surveyorId < b.surveyorId ? -1 : 1);
  const matches = scored.filter((c) => c.kind === "match").sort(byScore).slice(0, limit);
  const prospects = scored.filter((c) => c.kind === "prospect").sort(byScore)
    .slice(0, prospectLimit);
  return [...matches, ...prospects];
}
