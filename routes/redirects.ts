import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** Spec section 2 redirects, all permanent. */
export const REDIRECTS: Record<string, string> = {
  "/help-center": "/support/help-center",
  "/help": "/support/help-center",
  "/faq": "/support/help-center",
  "/contact": "/support/contact",
  "/services": "/services/boundary-surveys",
  "/support": "/support/help-center",
  "/privacy": "/support/privacy-policy",
  "/terms": "/support/privacy-policy",
  "/surveyor/dashboard": "/surveyor-dashboard",
};

export const redirects = new Hono<AppEnv>();
for (const [from, to] of Object.entries(REDIRECTS)) {
  redirects.get(from, (c) => c.redirect(to, 301));
}
