import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { requireRole, requireUser } from "./_auth.ts";
import { rateLimitByIp } from "./_middleware.ts";
import { hitRateLimit } from "../db/kv.ts";
import {
  getActivePricingConfig,
  getPricingConfig,
  insertPricingConfig,
  listPricingConfigs,
  quoteSurvey,
} from "../db/pricing.ts";
import {
  type DiscountCode,
  insertDiscountCode,
  listDiscountCodes,
  setDiscountCodeActive,
} from "../db/discounts.ts";
import { priceSurvey, PRICING_SAMPLES, PricingConfigSchema, type Quote } from "../lib/pricing.ts";
import { SurveyDetailsSchema } from "../lib/survey_details.ts";
import { ParcelLookupError } from "../lib/parcels/provider.ts";
import { multiLine, singleLine } from "../lib/text.ts";
import { NO_PARCEL_PROVIDER_MESSAGE } from "../lib/parcels/select.ts";

/** Message of a priced quote. */
export const QUOTE_READY_MESSAGE = "Your instant quote is ready.";
/** Message when the survey type has no instant price (subdivision). */
export const QUOTE_REQUIRED_MESSAGE =
  "Subdivision surveys need a custom quote. Submit your request and a licensed surveyor will contact you with a price.";
/** 429 text when one address tries too many discount codes. */
export const DISCOUNT_RATE_LIMIT_MESSAGE =
  "Too many discount code attempts. Please try again in a few minutes.";

const TEN_MINUTES = 10 * 60 * 1000;

function dollars(cents: number | null): number | null {
  return cents === null ? null : Math.round(cents) / 100;
}

const PageQuery = z.object({
  page: z.coerce.number({ error: "page must be a number" })
    .int({ error: "page must be a whole number" })
    .min(1, { error: "page must be 1 or more" })
    .max(10_000, { error: "page is too large" })
    .default(1),
});

const NOTE_RULES = {
  max: 500,
  messages: { type: "Note must be text", max: "Note must be 500 characters or fewer" },
};

const SaveConfigBody = z.object({
  config: PricingConfigSchema,
  // A textarea in the pricing editor.
  note: multiLine("Note", NOTE_RULES).default(""),
});

const PreviewBody = z.object({
  config: PricingConfigSchema,
  samples: z.array(
    z.object({
      label: singleLine("Sample label", {
        min: 1,
        max: 120,
        messages: {
          type: "Sample label must be text",
          min: "Give each sample a label",
          max: "Sample labels must be 120 characters or fewer",
        },
      }),
      details: SurveyDetailsSchema,
    }),
    { error: "samples must be a list" },
  ).max(20, { error: "Preview at most 20 samples" }).optional(),
});

const VersionParam = z.object({
  version: z.coerce.number().int().min(1).max(2_147_483_647),
});

const isoDate = (label: string) =>
  z.iso.datetime({ offset: true, error: `${label} must be an ISO date and time` })
    .transform((v) => new Date(v))
    .nullish()
    .transform((v) => v ?? null);

const CODE_SHAPE_MESSAGE = "Codes are 3 to 40 letters, numbers, dashes or underscores";

/** Body of POST /api/admin/discount-codes. `value` is a percent (1–100) or cents. */
export const DiscountCodeBody = z.object({
  code: singleLine("Code", {
    max: 40,
    messages: { type: "Enter a code", max: CODE_SHAPE_MESSAGE },
  }).regex(/^[A-Za-z0-9_-]{3,40}$/, { error: CODE_SHAPE_MESSAGE }),
  kind: z.enum(["percent", "fixed"], { error: "Choose percent or fixed amount" }),
  value: z.number({ error: "Value must be a number" })
    .int({ error: "Value must be a whole number (percent, or cents for a fixed amount)" })
    .positive({ error: "Value must be greater than 0" })
    .max(10_000_000, { error: "Value must be $100,000 or less" }),
  validFrom: isoDate("Valid from"),
  validUntil: isoDate("Valid until"),
  maxUses: z.number({ error: "Maximum uses must be a number" })
    .int({ error: "Maximum uses must be a whole number" })
    .min(1, { error: "Maximum uses must be at least 1" })
    .max(1_000_000, { error: "Maximum uses must be 1,000,000 or less" })
    .nullish()
    .transform((v) => v ?? null),
  oncePerClient: z.boolean({ error: "Once per client must be true or false" }).default(true),
  note: singleLine("Note", NOTE_RULES).default(""),
}).superRefine((body, ctx) => {
  if (body.kind === "percent" && body.value > 100) {
    ctx.addIssue({ code: "custom", path: ["value"], message: "A percentage must be 1 to 100" });
  }
  if (body.validFrom && body.validUntil && body.validUntil <= body.validFrom) {
    ctx.addIssue({
      code: "custom",
      path: ["validUntil"],
      message: "Valid until must be after valid from",
    });
  }
});

const IdParam = z.object({ id: z.string() });
const ActiveBody = z.object({
  active: z.boolean({ error: "active must be true or false" }),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const LookupQuery = z.object({
  lat: z.coerce.number({ error: "lat must be a number" })
    .min(-90, { error: "lat must be between -90 and 90" })
    .max(90, { error: "lat must be between -90 and 90" })
    .optional(),
  lng: z.coerce.number({ error: "lng must be a number" })
    .min(-180, { error: "lng must be between -180 and 180" })
    .max(180, { error: "lng must be between -180 and 180" })
    .optional(),
  address: singleLine("Address", {
    min: 3,
    max: 300,
    messages: {
      min: "Enter at least 3 characters of the address",
      max: "Address must be 300 characters or fewer",
    },
  }).optional(),
}).refine(
  (q) => (q.lat !== undefined && q.lng !== undefined) || q.address !== undefined,
  { message: "Give lat and lng, or an address" },
);

/** A discount code as the admin API shows it. */
function codeJson(code: DiscountCode) {
  return {
    ...code,
    validFrom: code.validFrom?.toISOString() ?? null,
    validUntil: code.validUntil?.toISOString() ?? null,
    createdAt: code.createdAt.toISOString(),
  };
}

/**
 * Instant quotes (public), pricing-configuration and discount-code administration (admins)
 * and parcel lookups (signed-in users).
 */
export const pricing = new Hono<AppEnv>()
  .post(
    "/api/calculate-price",
    zValidator("json", SurveyDetailsSchema, onInvalid),
    async (c) => {
      const details = c.req.valid("json");
      const user = c.var.user;
      if (details.discountCode) {
        // Codes are short; without a limit this endpoint would let a script guess them.
        const limit = await hitRateLimit(c.var.kv, {
          bucket: "discount_codes",
          subject: c.var.clientIp,
          limit: 60,
          windowMs: TEN_MINUTES,
        });
        if (!limit.allowed) {
          return c.json({ success: false, message: DISCOUNT_RATE_LIMIT_MESSAGE }, 429, {
            "Retry-After": String(limit.retryAfterSeconds),
          });
        }
      }
      const result = await quoteSurvey(c.var.db, {
        details,
        clientId: user?.role === "client" ? user.id : null,
      });
      if (!result.ok) {
        return c.json({ success: false, message: result.message, reason: result.reason }, 400);
      }
      const quote = result.quote;
      let message = quote.quoteRequired ? QUOTE_REQUIRED_MESSAGE : QUOTE_READY_MESSAGE;
      if (quote.discount && !quote.quoteRequired) {
        message += ` Discount code ${quote.discount.code} applied.`;
      }
      return c.json({
        success: true,
        message,
        price: dollars(quote.totalCents),
        calculation: quote,
      });
    },
  )
  .get("/api/admin/pricing-config", requireRole("admin"), async (c) => {
    const active = await getActivePricingConfig(c.var.db);
    const stored = await getPricingConfig(c.var.db, { version: active.version });
    return c.json({
      version: active.version,
      config: active.config,
      note: stored?.note ?? "",
      createdAt: stored?.createdAt ?? null,
      createdByName: stored?.createdByName ?? null,
    });
  })
  .put(
    "/api/admin/pricing-config",
    requireRole("admin"),
    zValidator("json", SaveConfigBody, onInvalid),
    async (c) => {
      const { config, note } = c.req.valid("json");
      const saved = await insertPricingConfig(c.var.db, {
        config,
        note,
        createdBy: c.var.user!.id,
      });
      return c.json({
        message: `Pricing saved as version ${saved.version}.`,
        version: saved.version,
        config: saved.config,
        note: saved.note,
        createdAt: saved.createdAt,
        createdByName: saved.createdByName,
      });
    },
  )
  .get(
    "/api/admin/pricing-config/history",
    requireRole("admin"),
    zValidator("query", PageQuery, onInvalid),
    async (c) => {
      const { page } = c.req.valid("query");
      return c.json(await listPricingConfigs(c.var.db, { page }));
    },
  )
  .get(
    "/api/admin/pricing-config/versions/:version",
    requireRole("admin"),
    async (c) => {
      const parsed = VersionParam.safeParse(c.req.param());
      const found = parsed.success
        ? await getPricingConfig(c.var.db, { version: parsed.data.version })
        : undefined;
      if (!found) throw new HTTPException(404, { message: "Pricing version not found" });
      return c.json(found);
    },
  )
  .post(
    "/api/admin/pricing-preview",
    requireRole("admin"),
    zValidator("json", PreviewBody, onInvalid),
    async (c) => {
      const { config, samples = PRICING_SAMPLES } = c.req.valid("json");
      const active = await getActivePricingConfig(c.var.db);
      const totals = (quote: Quote) => ({
        totalCents: quote.totalCents,
        minimumApplied: quote.minimumApplied,
        lineItems: quote.lineItems,
      });
      return c.json({
        activeVersion: active.version,
        samples: samples.map((sample) => {
          const current = priceSurvey(active.config, sample.details);
          const preview = priceSurvey(config, sample.details);
          return {
            label: sample.label,
            details: sample.details,
            current: totals(current),
            preview: totals(preview),
            changeCents: preview.totalCents === null || current.totalCents === null
              ? null
              : preview.totalCents - current.totalCents,
          };
        }),
      });
    },
  )
  .get(
    "/api/admin/discount-codes",
    requireRole("admin"),
    zValidator("query", PageQuery, onInvalid),
    async (c) => {
      const { page } = c.req.valid("query");
      const result = await listDiscountCodes(c.var.db, { page });
      return c.json({ ...result, codes: result.codes.map(codeJson) });
    },
  )
  .post(
    "/api/admin/discount-codes",
    requireRole("admin"),
    zValidator("json", DiscountCodeBody, onInvalid),
    async (c) => {
      const body = c.req.valid("json");
      const code = await insertDiscountCode(c.var.db, { ...body, createdBy: c.var.user!.id });
      if (!code) {
        return c.json({
          message: `A discount code ${body.code.toUpperCase()} already exists.`,
          errors: { code: "This code already exists" },
        }, 409);
      }
      return c.json({ message: `Discount code ${code.code} created.`, code: codeJson(code) }, 201);
    },
  )
  .patch(
    "/api/admin/discount-codes/:id",
    requireRole("admin"),
    zValidator("param", IdParam, onInvalid),
    zValidator("json", ActiveBody, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const { active } = c.req.valid("json");
      const code = UUID.test(id)
        ? await setDiscountCodeActive(c.var.db, { id, active })
        : undefined;
      if (!code) throw new HTTPException(404, { message: "Discount code not found" });
      return c.json({
        message: `Discount code ${code.code} ${active ? "activated" : "deactivated"}.`,
        code: codeJson(code),
      });
    },
  )
  .get(
    "/api/parcels/lookup",
    requireUser,
    // Each lookup costs a paid API call.
    rateLimitByIp("parcel_lookup", 30, 60_000, "Too many parcel lookups. Please wait a minute."),
    zValidator("query", LookupQuery, onInvalid),
    async (c) => {
      const provider = c.var.deps.parcels;
      if (!provider.isConfigured) {
        return c.json({
          parcel: null,
          provider: provider.name,
          message: NO_PARCEL_PROVIDER_MESSAGE,
        });
      }
      const { lat, lng, address } = c.req.valid("query");
      const query = lat !== undefined && lng !== undefined ? { lat, lng } : { address };
      try {
        const parcel = await provider.lookup(query);
        if (!parcel) {
          return c.json({
            parcel: null,
            provider: provider.name,
            message: "No parcel was found at that location.",
          });
        }
        return c.json({ parcel, provider: provider.name });
      } catch (err) {
        if (err instanceof ParcelLookupError) {
          return c.json({ message: err.message, provider: provider.name }, 502);
        }
        throw err;
      }
    },
  );
