import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { requireRole } from "./_auth.ts";
import { getFieldworkAccess } from "../db/survey_access.ts";
import { insertReview } from "../db/reviews.ts";
import { insertNotification, notifyAdmins } from "../db/notifications.ts";
import { multiLine } from "../lib/text.ts";
import { SURVEY_TYPE_INFO } from "../lib/survey_types.ts";
import { REVIEW_COMMENT_MAX, REVIEW_MESSAGES, REVIEW_TEXT_MAX } from "../lib/review_types.ts";

const IdParam = z.object({ id: z.string().max(100) });

/**
 * `POST /api/surveys/{id}/review` body: 1–5 stars, an optional comment (read by the firm and
 * Meridian) and an optional public text (shown on the firm's profile with the client's first
 * name and town; plain text: escaped wherever it is shown).
 */
export const ReviewSchema = z.object({
  rating: z.number({ error: "Rating must be a number from 1 to 5" }).int({
    error: "Rating must be a whole number of stars",
  }).min(1, { error: "Rating must be from 1 to 5" }).max(5, {
    error: "Rating must be from 1 to 5",
  }),
  comment: multiLine("Comment", { max: REVIEW_COMMENT_MAX }).optional(),
  text: multiLine("Review", { max: REVIEW_TEXT_MAX }).optional(),
}).strict();

/**
 * Reviews API: `POST /api/surveys/{id}/review` — the client who owns a completed survey rates
 * the surveyor who delivered it, once (409 the second time). The review and the surveyor's
 * running sum and count (lib/matching.ts blends them into the rating) are written in one
 * transaction; the admins and the surveyor's linked account are notified ('surveyor_reviewed').
 * Anyone but the owning client: 403 for another role, 404 for another client's survey.
 */
export const reviews = new Hono<AppEnv>()
  .post(
    "/api/surveys/:id/review",
    requireRole("client"),
    zValidator("param", IdParam, onInvalid),
    zValidator("json", ReviewSchema, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const { rating, comment, text } = c.req.valid("json");
      const user = c.var.user!;
      const review = await c.var.db.begin(async (tx) => {
        const access = await getFieldworkAccess(tx, { surveyId: id, user, lock: true });
        if (!access || access.as !== "client") {
          throw new HTTPException(404, { message: REVIEW_MESSAGES.notFound });
        }
        const { survey } = access;
        if (survey.status !== "completed") {
          throw new HTTPException(409, { message: REVIEW_MESSAGES.notCompleted });
        }
        if (!survey.workingSurveyorId) {
          throw new HTTPException(409, { message: REVIEW_MESSAGES.noSurveyor });
        }
        const stored = await insertReview(tx, {
          surveyId: survey.id,
          surveyorId: survey.workingSurveyorId,
          clientId: user.id,
          rating,
          comment: comment || null,
          text: text || null,
        });
        if (!stored) throw new HTTPException(409, { message: REVIEW_MESSAGES.alreadyRated });
        const [firm] = await tx<{ companyName: string; userId: string | null }[]>`
          select company_name, user_id from surveyors where id = ${survey.workingSurveyorId}`;
        const typeName = SURVEY_TYPE_INFO[survey.surveyType].name;
        const stars = `${rating} star${rating === 1 ? "" : "s"}`;
        const said = comment ? ` “${comment.slice(0, 200)}”` : "";
        await notifyAdmins(tx, {
          kind: "surveyor_reviewed",
          title: `${firm.companyName} was rated ${stars}`,
          body: `${user.fullName} rated the ${typeName} for ${survey.address}.${said}`,
          link: `/surveyor-detail/${survey.workingSurveyorId}`,
        });
        if (firm.userId) {
          await insertNotification(tx, {
            userId: firm.userId,
            kind: "surveyor_reviewed",
            title: `A client rated your work ${stars}`,
            body: `Your ${typeName} for ${survey.address}.${said}`,
            link: `/surveyor/jobs/${survey.id}`,
          });
        }
        return stored;
      });
      return c.json({ message: REVIEW_MESSAGES.thanks, review }, 201);
    },
  );
