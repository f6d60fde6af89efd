import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** Service pages for the six survey types. */
export const services = new Hono<AppEnv>();
