import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** Instant quotes (/api/calculate-price) and discount-code administration. */
export const pricing = new Hono<AppEnv>();
