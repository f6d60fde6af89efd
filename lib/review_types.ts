/**
 * Review texts and limits shared by the reviews API (routes/reviews.ts) and the RateSurveyor
 * island: zod-free, so the browser bundle can use them.
 */

/** Longest review comment, in characters. */
export const REVIEW_COMMENT_MAX = 2000;

/** Longest public review text (shown on the firm's profile), in characters. */
export const REVIEW_TEXT_MAX = 1000;

/** Longest reply of a firm to a review, in characters. */
export const REVIEW_REPLY_MAX = 1000;

/** What the reviews API answers with. */
export const REVIEW_MESSAGES = {
  thanks: "Thank you for your rating",
  notFound: "Survey not found",
  notCompleted: "You can rate your surveyor once the survey is completed.",
  noSurveyor: "This survey has no surveyor to rate.",
  alreadyRated: "You have already rated this survey",
  replied: "Your reply is published",
  reviewNotFound: "Review not found",
  alreadyReplied: "You have already replied to this review",
} as const;

/** Words for each number of stars, for the star picker's labels. */
export const STAR_LABELS: Record<1 | 2 | 3 | 4 | 5, string> = {
  1: "Poor",
  2: "Fair",
  3: "Good",
  4: "Very good",
  5: "Excellent",
};
