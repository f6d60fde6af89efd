import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { rateLimitByIp } from "./_middleware.ts";
import { insertContactMessage } from "../db/contact_messages.ts";
import { CONTACT_LIMITS, CONTACT_MESSAGES, CONTACT_TOPIC_VALUES } from "../lib/contact.ts";

/** Body of POST /api/contact. Unknown keys are dropped; strings are trimmed before checks. */
export const ContactBody = z.object({
  name: z.string({ error: CONTACT_MESSAGES.name }).trim()
    .min(1, CONTACT_MESSAGES.name)
    .max(CONTACT_LIMITS.name, CONTACT_MESSAGES.nameLong),
  email: z.string({ error: CONTACT_MESSAGES.email }).trim()
    .max(CONTACT_LIMITS.email, CONTACT_MESSAGES.email)
    .pipe(z.email({ error: CONTACT_MESSAGES.email })),
  phone: z.string({ error: "Phone must be text" }).trim()
    .max(CONTACT_LIMITS.phone, CONTACT_MESSAGES.phone)
    .nullish()
    .transform((v) => v || null),
  topic: z.enum(CONTACT_TOPIC_VALUES, { error: CONTACT_MESSAGES.topic }),
  message: z.string({ error: CONTACT_MESSAGES.messageShort }).trim()
    .min(CONTACT_LIMITS.messageMin, CONTACT_MESSAGES.messageShort)
    .max(CONTACT_LIMITS.messageMax, CONTACT_MESSAGES.messageLong),
});

const HOUR_MS = 60 * 60 * 1000;

/**
 * POST /api/contact: anyone may write to support. Every attempt counts against 5 per IP per
 * hour, so a script cannot probe the validator or flood the inbox.
 */
export const contact = new Hono<AppEnv>()
  .post(
    "/api/contact",
    rateLimitByIp("contact", 5, HOUR_MS, CONTACT_MESSAGES.rateLimited),
    zValidator("json", ContactBody, onInvalid),
    async (c) => {
      const body = c.req.valid("json");
      await insertContactMessage(c.var.db, {
        ...body,
        ip: c.var.clientIp === "unknown" ? null : c.var.clientIp,
      });
      return c.json({ message: CONTACT_MESSAGES.sent }, 201);
    },
  );
