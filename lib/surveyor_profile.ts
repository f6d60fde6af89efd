/**
 * What a signed-in surveyor may see and edit of their own record (`GET`/`PATCH
 * /api/surveyor/profile`), and what an admin's account panel shows about the account linked
 * to a record. The self-service fields are a strict subset of the admin's
 * (`SurveyorFieldsSchema`): never status, in-network, rating, reviews, notes or the email
 * Meridian writes to, and any other key is refused.
 */
import { z } from "zod";
import { type Surveyor, SurveyorFieldsSchema } from "./surveyor_schema.ts";

/** The fields of their own record a surveyor may change. */
export const SURVEYOR_SELF_FIELDS = [
  "companyName",
  "principalName",
  "licenseNumber",
  "licenseStates",
  "phone",
  "website",
  "address",
  "city",
  "state",
  "zip",
  "lat",
  "lng",
  "serviceRadiusMiles",
  "surveyTypes",
] as const;

/** One field a surveyor may change about themselves. */
export type SurveyorSelfField = typeof SURVEYOR_SELF_FIELDS[number];

const pickedFields = Object.fromEntries(SURVEYOR_SELF_FIELDS.map((f) => [f, true])) as {
  [K in SurveyorSelfField]: true;
};

// Fields an admin sets that a surveyor may not; anything else is simply unknown.
function refusedKeys(keys: string[]): string {
  const adminOnly = keys.filter((k) => k in SurveyorFieldsSchema.shape);
  return adminOnly.length
    ? `Only Meridian can change these fields: ${adminOnly.join(", ")}`
    : `Unknown field${keys.length === 1 ? "" : "s"}: ${keys.join(", ")}`;
}

/**
 * `PATCH /api/surveyor/profile`: any subset of `SURVEYOR_SELF_FIELDS`, at least one; unknown
 * keys (status, inNetwork, notes, email, …) are refused; latitude and longitude come together.
 */
export const SurveyorProfileUpdateSchema = z.strictObject(
  SurveyorFieldsSchema.pick(pickedFields).partial().shape,
  { error: (issue) => issue.code === "unrecognized_keys" ? refusedKeys(issue.keys) : undefined },
).refine(
  (v) => Object.keys(v).length > 0,
  { error: "Nothing to update" },
).refine(
  (v) => (v.lat === undefined) === (v.lng === undefined) && (v.lat === null) === (v.lng === null),
  { error: "Give both latitude and longitude, or neither", path: ["lat"] },
);
/** A validated self-service update. */
export type SurveyorProfileUpdate = z.infer<typeof SurveyorProfileUpdateSchema>;

/**
 * A surveyor's own record as they see it: their coverage and company details plus the
 * status and network flag Meridian sets and what waits for the licence check
 * (lib/surveyor_licence.ts), without the admin's notes, contacts, source or
 * place id.
 */
export type OwnSurveyorProfile = Pick<
  Surveyor,
  | "id"
  | SurveyorSelfField
  | "email"
  | "status"
  | "inNetwork"
  | "updatedAt"
  | "pendingLicenseStates"
  | "rejectedLicenseStates"
  | "pendingLicenseNumber"
>;

/** The surveyor's view of `surveyor` (drops what only admins may read). */
export function toOwnSurveyorProfile(surveyor: Surveyor): OwnSurveyorProfile {
  const own: Record<string, unknown> = {
    id: surveyor.id,
    email: surveyor.email,
    status: surveyor.status,
    inNetwork: surveyor.inNetwork,
    updatedAt: surveyor.updatedAt,
    pendingLicenseStates: surveyor.pendingLicenseStates,
    rejectedLicenseStates: surveyor.rejectedLicenseStates,
    pendingLicenseNumber: surveyor.pendingLicenseNumber,
  };
  for (const field of SURVEYOR_SELF_FIELDS) own[field] = surveyor[field];
  return own as OwnSurveyorProfile;
}

/** The account linked to a surveyor record, as the admin's panel shows it. */
export interface SurveyorAccount {
  id: string;
  fullName: string;
  email: string;
  /** ISO time of the last sign-in, or null when the account was never used. */
  lastLogin: string | null;
  /** ISO time the account was disabled, or null. */
  disabledAt: string | null;
}
