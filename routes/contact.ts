import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** The public contact form's endpoint (filled in with the support pages). */
export const contact = new Hono<AppEnv>();
