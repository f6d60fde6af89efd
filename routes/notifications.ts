import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** Notifications API. */
export const notifications = new Hono<AppEnv>();
