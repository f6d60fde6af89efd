/**
 * Values written into a statement's text instead of sent as parameters. postgres.js prepares
 * every statement, and Postgres plans a prepared statement once for any parameters (a generic
 * plan) only when that plan looks no dearer than planning afresh for the values at hand; a
 * parameter it cannot see can make the generic plan look dearer, and then every execution is
 * planned again (bench/plans.ts finds such statements on the demo network). A literal costs a
 * statement per value, so only values from a small fixed set are written this way.
 */
import type { Db } from "./client.ts";
import type { Role } from "../lib/roles.ts";

/**
 * `role` in the text: a role the planner cannot see makes every role's branch of a statement
 * look live, so its generic plan looked dearer and Postgres planned the statement again at
 * every execution (a surveyor's job page, 3.9 ms against 0.7). Four roles: at most four
 * statements where there was one.
 */
export function roleLiteral(db: Db, role: Role) {
  switch (role) {
    case "admin":
      return db`'admin'`;
    case "client":
      return db`'client'`;
    case "surveyor":
      return db`'surveyor'`;
    case "technician":
      return db`'technician'`;
  }
}

/**
 * A whole number in the text: a constant limit or page size, which a generic plan would
 * otherwise have to guess (db/surveyors.ts `limitClause`, db/pricing.ts). Only a safe integer's
 * digits reach `unsafe`; anything else throws.
 */
export function integerLiteral(db: Db, n: number) {
  if (!Number.isSafeInteger(n)) throw new TypeError(`not a whole number: ${n}`);
  return db.unsafe(String(n));
}
