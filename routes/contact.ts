import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { rateLimitByIp } from "./_middleware.ts";
import { insertContactMessage } from "../db/contact_messages.ts";
import { CONTACT_LIMITS, CONTACT_MESSAGES, CONTACT_TOPIC_VALUES } from "../lib/contact.ts";
import { multiLine, singleLine } from "../lib/text.ts";

/** Body of POST /api/contact. Unknown keys are dropped; strings are trimmed before checks. */
export const ContactBody = z.object({
  name: singleLine("Name", {
    min: 1,
    max: CONTACT_LIMITS.name,
    messages: {
      type: CONTACT_MESSAGES.name,
      min: CONTACT_MESSAGES.name,
      max: CONTACT_MESSAGES.nameLong,
    },
  }),
  email: singleLine("Email", {
    max: CONTACT_LIMITS.email,
    messages: { type: CONTACT_MESSAGES.email, max: CONTACT_MESSAGES.email },
  }).pipe(z.email({ error: CONTACT_MESSAGES.email })),
  phone: singleLine("Phone", {
    max: CONTACT_LIMITS.phone,
    messages: { type: "Phone must be text", max: CONTACT_MESSAGES.phone },
  })
    .nullish()
    .transform((v) => v || null),
  topic: z.enum(CONTACT_TOPIC_VALUES, { error: CONTACT_MESSAGES.topic }),
  message: multiLine("Message", {
    min: CONTACT_LIMITS.messageMin,
    max: CONTACT_LIMITS.messageMax,
    messages: {
      type: CONTACT_MESSAGES.messageShort,
      min: CONTACT_MESSAGES.messageShort,
      max: CONTACT_MESSAGES.messageLong,
    },
  }),
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
