import { assert, assertEquals } from "../_assert.ts";
import { blendedStars, matchScore, type ScoreInputs } from "../../lib/matching.ts";

function assertAlmostEquals(actual: number, expected: number) {
  assert(Math.abs(actual - expected) < 1e-9, `${actual} ≈ ${expected}`);
}

const base: ScoreInputs = {
  distanceMiles: 10,
  rating: null,
  reviewCount: null,
  recentOffers: 0,
  recentResponses: 0,
  openSurveys: 0,
};

Deno.test("[matching] Meridian reviews blend with the places rating, each worth two", () => {
  // Nothing known: the 4★ prior.
  assertEquals(blendedStars(base), 4);
  // No places rating: 3 Meridian 5★ reviews = (2 × 15 + 20) / (2 × 3 + 5).
  assertAlmostEquals(
    blendedStars({ ...base, meridianRatingSum: 15, meridianReviewCount: 3 }),
    50 / 11,
  );
  // 4.0 from 10 places reviews and one 1★ Meridian review: (40 + 2 + 20) / (10 + 2 + 5).
  assertAlmostEquals(
    blendedStars({
      ...base,
      rating: 4,
      reviewCount: 10,
      meridianRatingSum: 1,
      meridianReviewCount: 1,
    }),
    62 / 17,
  );
  // Without Meridian reviews the rating is what it was: (5 × 1 + 20) / (1 + 5).
  assertAlmostEquals(blendedStars({ ...base, rating: 5, reviewCount: 1 }), 25 / 6);
});

Deno.test("[matching] good Meridian reviews raise the score, bad ones lower it", () => {
  const places = { ...base, rating: 4.5, reviewCount: 20 };
  const plain = matchScore(places);
  const praised = matchScore({ ...places, meridianRatingSum: 50, meridianReviewCount: 10 });
  const panned = matchScore({ ...places, meridianRatingSum: 10, meridianReviewCount: 10 });
  assert(praised > plain, `${praised} > ${plain}`);
  assert(panned < plain, `${panned} < ${plain}`);
  // A sum outside 1–5 stars per review is clamped, never beyond 5★ or below 1★.
  assertAlmostEquals(
    blendedStars({ ...base, meridianRatingSum: 999, meridianReviewCount: 1 }),
    (10 + 20) / 7,
  );
});
