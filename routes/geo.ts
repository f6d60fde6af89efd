import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** Address suggestions and geocoding (filled in by the geo work). */
export const geo = new Hono<AppEnv>();
