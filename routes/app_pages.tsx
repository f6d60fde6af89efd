import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** Signed-in pages: /dashboard and each role's dashboard and admin pages. */
export const appPages = new Hono<AppEnv>();
