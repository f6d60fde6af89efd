import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** Survey requests API: create, list, status, delete. */
export const surveys = new Hono<AppEnv>();
