import type { Context } from "hono";
import type { Config } from "../lib/config.ts";
import type { Sql } from "../db/client.ts";
import type { GeoProvider } from "../lib/geo/provider.ts";
import type { Assets } from "../lib/assets.ts";
import type { ParcelProvider } from "../lib/parcels/provider.ts";

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
  parcels: ParcelProvider;
  assets: Assets;
}

/** The server-side session behind the cookie. */
export interface SessionInfo {
  /** Hash of the session id (the raw id only ever lives in the cookie). */
  idHash: string;
  userId: string;
  /** Set while an admin is impersonating `userId`. */
  impersonatorId: string | null;
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
    /** The session, or null when signed out. */
    session: SessionInfo | null;
  };
};

/** A request context of the app. */
export type AppContext = Context<AppEnv>;
