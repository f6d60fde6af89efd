import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** Admin pages /pricing-algorithm and /regrid-api-test. */
export const pricingPages = new Hono<AppEnv>();
