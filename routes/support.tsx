import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** Support pages and /about. */
export const support = new Hono<AppEnv>();
