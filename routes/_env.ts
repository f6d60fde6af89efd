import type { Context } from "hono";
import type { Config } from "../lib/config.ts";
import type { Sql } from "../db/client.ts";
import type { GeoProvider } from "../lib/geo/provider.ts";
import type { Assets } from "../lib/assets.ts";

/** A signed-in user as routes see it. */
export interface SessionUser {
  id: string;
  username: string;
  email: string;
  fullName: string;
  role: Role;
  companyName: string | null;
  phone: string | null;
  createdAt: string;
  lastLogin: string | null;
}

/** The four roles. */
export type Role = "admin" | "client" | "surveyor" | "technician";

/** Everything the app needs from outside; tests build their own. */
export interface AppDeps {
  config: Config;
  sql: Sql;
  kv: Deno.Kv;
  geo: GeoProvider;
  assets: Assets;
}

/** Hono environment shared by every route module. */
export type AppEnv = {
  Variables: {
    deps: AppDeps;
    db: Sql;
    kv: Deno.Kv;
    requestId: string;
    clientIp: string;
    /** The signed-in user, or null. */
    user: SessionUser | null;
  };
};

/** A request context of the app. */
export type AppContext = Context<AppEnv>;
