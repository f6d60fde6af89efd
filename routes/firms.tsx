import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { requireUser } from "./_auth.ts";
import { renderPage } from "../components/render.tsx";
import { firmPlace, FirmProfile } from "../components/FirmProfile.tsx";
import {
  FIRM_REVIEWS_PAGE_SIZE,
  getPublicFirm,
  listPublicReviews,
  replyToReview,
} from "../db/firm_profiles.ts";
import { firmSlugIdPrefix } from "../lib/firm_slug.ts";
import { firmJsonLd, jsonLdText } from "../lib/firm_json_ld.ts";
import { multiLine } from "../lib/text.ts";
import { REVIEW_MESSAGES, REVIEW_REPLY_MAX } from "../lib/review_types.ts";
import { stateNames } from "../lib/surveyor_licence.ts";
import { notifyReviewReplied, reviewReplyToldText } from "../lib/review_replies.ts";
import { mailDelivery } from "../lib/mail/delivery.ts";
import { htmlResponse } from "./_html_response.ts";

/** The message of a firm page that does not exist (or is not public). */
export const FIRM_NOT_FOUND = "Firm not found";

const SlugParam = z.object({ slug: z.string().max(200) });
// A bad page number in the address is page 1, never a 400 page.
const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).optional().catch(undefined),
});
const IdParam = z.object({ id: z.string().max(100) });

/** `POST /api/reviews/{id}/reply` body: the firm's answer, plain text. */
export const ReplySchema = z.object({
  body: multiLine("Reply", { min: 1, max: REVIEW_REPLY_MAX }),
}).strict();

/**
 * Public firm profiles (issue 22):
 * - `GET /firms/{slug}`: the profile of an active, verified firm, indexable, with schema.org
 *   `LocalBusiness` (and `AggregateRating` once reviewed) JSON-LD. Prospects, invited, pending
 *   and paused firms, and unknown slugs: the 404 page. A slug whose id part names a public
 *   firm but whose name part is not its current one (a renamed firm, a typo): 301 to the
 *   canonical slug.
 * - `POST /api/reviews/{id}/reply` `{body}`: the firm's one public answer to a review of it,
 *   from the firm's own surveyor account → 201 `{message, reply: {body, repliedAt}, clientTold}`
 *   (`clientTold`: one true sentence on how the client hears of it: the bell, and an email only
 *   when a mail server sends it); a second is a 409. Anyone else (another firm, a client, an
 *   admin): 404.
 */
export const firms = new Hono<AppEnv>()
  .get(
    "/firms/:slug",
    zValidator("param", SlugParam, onInvalid),
    zValidator("query", PageQuery, onInvalid),
    async (c) => {
      const { slug } = c.req.valid("param");
      const page = c.req.valid("query").page ?? 1;
      const idPrefix = firmSlugIdPrefix(slug.toLowerCase());
      const firm = idPrefix
        ? await getPublicFirm(c.var.db, { idPrefix, slug: slug.toLowerCase() })
        : undefined;
      if (!firm) throw new HTTPException(404, { message: FIRM_NOT_FOUND });
      if (slug !== firm.slug) {
        const query = page > 1 ? `?page=${page}` : "";
        return c.redirect(`/firms/${firm.slug}${query}`, 301);
      }
      const reviews = await listPublicReviews(c.var.db, {
        surveyorId: firm.id,
        page,
        pageSize: FIRM_REVIEWS_PAGE_SIZE,
      });
      const path = `/firms/${firm.slug}`;
      const url = new URL(path, c.var.deps.config.PUBLIC_URL).href;
      const user = c.var.user ?? null;
      const place = firmPlace(firm);
      const description = `${firm.companyName}: licensed land surveyor${
        place ? ` in ${place}` : ""
      }, verified by Meridian${
        firm.licenseStates.length ? ` in ${stateNames(firm.licenseStates)}` : ""
      }. Reviews from clients, survey types and service area.`;
      c.header("Cache-Control", user ? "private, no-store" : "public, max-age=300");
      c.header("Vary", "Cookie");
      return htmlResponse(
        c,
        renderPage(
          c,
          { title: `${firm.companyName} — Land Surveyor`, description, path },
          <>
            <FirmProfile
              firm={firm}
              reviews={reviews}
              page={page}
              pageSize={FIRM_REVIEWS_PAGE_SIZE}
              user={user}
            />
            <script
              type="application/ld+json"
              dangerouslySetInnerHTML={{ __html: jsonLdText(firmJsonLd(firm, reviews, url)) }}
            />
          </>,
        ),
      );
    },
  )
  .post(
    "/api/reviews/:id/reply",
    requireUser,
    zValidator("param", IdParam, onInvalid),
    zValidator("json", ReplySchema, onInvalid),
    async (c) => {
      const user = c.var.user!;
      // Only a firm's surveyor account answers; for anyone else the review is not theirs.
      if (user.role !== "surveyor") {
        throw new HTTPException(404, { message: REVIEW_MESSAGES.reviewNotFound });
      }
      const { id } = c.req.valid("param");
      const { body } = c.req.valid("json");
      const outcome = await c.var.db.begin(async (tx) => {
        const outcome = await replyToReview(tx, { reviewId: id, userId: user.id, body });
        if (outcome.kind === "replied") {
          await notifyReviewReplied(tx, { ...outcome, publicUrl: c.var.deps.config.PUBLIC_URL });
        }
        return outcome;
      });
      if (outcome.kind === "not_found") {
        throw new HTTPException(404, { message: REVIEW_MESSAGES.reviewNotFound });
      }
      if (outcome.kind === "already_replied") {
        throw new HTTPException(409, { message: REVIEW_MESSAGES.alreadyReplied });
      }
      return c.json({
        message: REVIEW_MESSAGES.replied,
        reply: { body: outcome.reply, repliedAt: outcome.repliedAt },
        clientTold: reviewReplyToldText(mailDelivery(c.var.deps.config)),
      }, 201);
    },
  );
