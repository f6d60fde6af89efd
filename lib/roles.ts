/**
 * Who a signed-in user is, as every layer sees it. Lives in lib/ so that db/, lib/ and
 * components/ never import from routes/.
 */

/** Every role, in the order admin screens list them. */
export const ROLES = ["admin", "client", "surveyor", "technician"] as const;

/** The four roles. */
export type Role = typeof ROLES[number];

/** A signed-in user as routes, pages and data functions see it. */
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
