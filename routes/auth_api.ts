import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** Sign-in, registration, logout, the current user, profile and password-reset APIs. */
export const authApi = new Hono<AppEnv>();
