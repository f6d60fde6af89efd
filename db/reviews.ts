/**
 * Clients' reviews of the surveyor who delivered their survey (surveyor_reviews): one per
 * survey, kept beside a running sum and count on the surveyor (meridian_rating_sum,
 * meridian_review_count) that matching blends with the places rating (lib/matching.ts).
 */
import type { Db } from "./client.ts";
import { isUuid } from "./users.ts";

/** A review as the pages show it. */
export interface SurveyorReview {
  id: string;
  surveyId: string;
  surveyorId: string;
  /** 1–5 stars. */
  rating: number;
  comment: string | null;
  /** The public text shown on the firm's profile (first name and town), or null. */
  text: string | null;
  /** ISO time. */
  createdAt: string;
}

/** A review on the surveyor's directory record, with who wrote it and about what. */
export interface SurveyorReviewListed extends SurveyorReview {
  clientName: string;
  surveyType: string;
  /** The firm's one public answer, or null. */
  reply: string | null;
  /** ISO time of the answer, or null. */
  repliedAt: string | null;
}

/** Most reviews the surveyor's record lists on one page. */
export const REVIEWS_PAGE_SIZE = 10;

type Row<T> = Omit<T, "createdAt"> & { createdAt: Date };

function toReview<T extends SurveyorReview>(row: Row<T>): T {
  const out = { ...row, createdAt: row.createdAt.toISOString() } as T & { repliedAt?: unknown };
  if (out.repliedAt instanceof Date) out.repliedAt = out.repliedAt.toISOString();
  return out as T;
}

/**
 * Stores the client's review of `surveyorId` for `surveyId` and adds it to the surveyor's
 * running sum and count, in the caller's transaction. Returns undefined, writing nothing, when
 * the survey already has a review (one per survey: the unique survey_id decides, so two
 * simultaneous submissions store one).
 */
export async function insertReview(
  tx: Db,
  input: {
    surveyId: string;
    surveyorId: string;
    clientId: string;
    rating: number;
    comment: string | null;
    text?: string | null;
  },
): Promise<SurveyorReview | undefined> {
  const [row] = await tx<Row<SurveyorReview>[]>`
    insert into surveyor_reviews (survey_id, surveyor_id, client_id, rating, comment, public_text)
    values (${input.surveyId}, ${input.surveyorId}, ${input.clientId}, ${input.rating},
      ${input.comment}, ${input.text ?? null})
    on conflict (survey_id) do nothing
    returning id, survey_id, surveyor_id, rating, comment, public_text as text, created_at`;
  if (!row) return undefined;
  await tx`
    update surveyors set
      meridian_rating_sum = meridian_rating_sum + ${input.rating},
      meridian_review_count = meridian_review_count + 1
    where id = ${input.surveyorId}`;
  return toReview(row);
}

/**
 * SQL for the client's review of the survey aliased `s`, as a JSON object (null when they have
 * not rated it): for a column of a survey query (db/surveys.ts getSurveyPageData).
 * `reviewFromJson` reads it.
 */
export function reviewJsonColumn(db: Db) {
  return db`(select row_to_json(r) from (
      select id, survey_id, surveyor_id, rating, comment, public_text as text, created_at
      from surveyor_reviews where survey_id = s.id
    ) r)`;
}

// A review as row_to_json spells it (created_at as Postgres writes a timestamptz).
interface ReviewJson {
  id: string;
  survey_id: string;
  surveyor_id: string;
  rating: number;
  comment: string | null;
  text: string | null;
  created_at: string;
}

/** The review of a `reviewJsonColumn`, or undefined when there is none. */
export function reviewFromJson(row: ReviewJson | null): SurveyorReview | undefined {
  if (!row) return undefined;
  return {
    id: row.id,
    surveyId: row.survey_id,
    surveyorId: row.surveyor_id,
    rating: row.rating,
    comment: row.comment,
    text: row.text,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/**
 * One page of the reviews of `surveyorId`, newest first, with the total and the average
 * (from the running sum on the surveyor record; null without reviews).
 */
export async function listSurveyorReviews(
  db: Db,
  { surveyorId, page = 1, pageSize = REVIEWS_PAGE_SIZE }: {
    surveyorId: string;
    page?: number;
    pageSize?: number;
  },
): Promise<SurveyorReviewsPage> {
  if (!isUuid(surveyorId)) return { reviews: [], total: 0, average: null };
  const [row] = await db<SurveyorReviewsJson[]>`
    select ${
    surveyorReviewsColumns(db, { page, pageSize })
  } from surveyors where id = ${surveyorId}`;
  return surveyorReviewsFromRow(row);
}

/** A page of a surveyor's reviews with their number and average. */
export interface SurveyorReviewsPage {
  reviews: SurveyorReviewListed[];
  total: number;
  average: number | null;
}

/** `surveyorReviewsColumns`' three columns. */
export interface SurveyorReviewsJson {
  reviews: (Omit<SurveyorReviewListed, "createdAt"> & { createdAt: string })[];
  reviewTotal: number;
  reviewSum: number;
}

/**
 * SQL for three columns of a statement over the `surveyors` row in scope: `reviews`, page
 * `page` of its reviews newest first as a JSON array, and the running `review_total` and
 * `review_sum` (db/surveyor_record.ts, `listSurveyorReviews`); `surveyorReviewsFromRow`
 * makes the page.
 */
export function surveyorReviewsColumns(
  db: Db,
  { page = 1, pageSize = REVIEWS_PAGE_SIZE }: { page?: number; pageSize?: number },
) {
  return db`
    coalesce((select json_agg(json_build_object('id', r.id, 'surveyId', r.survey_id,
        'surveyorId', r.surveyor_id, 'rating', r.rating, 'comment', r.comment,
        'text', r.public_text, 'createdAt', r.created_at, 'reply', r.reply,
        'repliedAt', r.replied_at, 'clientName', u.full_name, 'surveyType', w.survey_type)
        order by r.created_at desc, r.id desc)
      from (
        select * from surveyor_reviews r where r.surveyor_id = surveyors.id
        order by r.created_at desc, r.id desc
        limit ${pageSize} offset ${(page - 1) * pageSize}
      ) r
      join users u on u.id = r.client_id
      join surveys w on w.id = r.survey_id), '[]'::json) as reviews,
    meridian_review_count as review_total, meridian_rating_sum as review_sum`;
}

/** `surveyorReviewsColumns`' row (undefined: no such surveyor) as the page. */
export function surveyorReviewsFromRow(row: SurveyorReviewsJson | undefined): SurveyorReviewsPage {
  if (!row) return { reviews: [], total: 0, average: null };
  const total = row.reviewTotal;
  return {
    reviews: row.reviews.map((r) => ({
      ...r,
      createdAt: new Date(r.createdAt).toISOString(),
      repliedAt: r.repliedAt === null ? null : new Date(r.repliedAt).toISOString(),
    })),
    total,
    average: total > 0 ? row.reviewSum / total : null,
  };
}
