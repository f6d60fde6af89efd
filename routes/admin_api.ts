import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** Admin APIs: users list, impersonation. */
export const adminApi = new Hono<AppEnv>();
