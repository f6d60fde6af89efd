import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** Account pages: /auth, /forgot-password, /reset-password, /profile. */
export const accountPages = new Hono<AppEnv>();
