import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** /create-survey, /client-dashboard contents, /survey/{id}. */
export const surveyPages = new Hono<AppEnv>();
