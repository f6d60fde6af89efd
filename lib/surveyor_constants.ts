/**
 * Surveyor constants without zod, so islands can import them without bundling the schemas
 * (lib/surveyor_schema.ts re-exports them).
 */

/**
 * Where a surveyor is in the recruiting funnel. Only `active` ones are matched and may buy or
 * claim leads; `pending` ones joined and wait for an admin to check their licence.
 *
 * Active means verified: an active record always has `verified_at` (with `verified_via`, and
 * `verified_by` for an admin), a prospect, invited or pending one never has, and a paused one
 * may have either. Every path that makes a record active records the verification (the
 * database refuses anything else: surveyors_verification_check, 0026_firm_verification.sql).
 */
export const SURVEYOR_STATUSES = ["prospect", "invited", "pending", "active", "paused"] as const;
/** A surveyor record's status. */
export type SurveyorStatus = typeof SURVEYOR_STATUSES[number];

/** Label per status, for badges and filters. */
export const SURVEYOR_STATUS_LABELS: Record<SurveyorStatus, string> = {
  prospect: "Prospect",
  invited: "Invited",
  pending: "Licence check",
  active: "Active",
  paused: "Paused",
};

/**
 * Who recorded a licence verification: an admin (Verify licence, or adding or setting a record
 * active), a command that made it active (the demo seed, scripts), or the 0026 repair of
 * records that were active before verifications were recorded.
 */
export const VERIFIED_VIA = ["admin", "seed", "migration"] as const;
/** Who recorded a licence verification. */
export type VerifiedVia = typeof VERIFIED_VIA[number];

/** How a record came to exist. */
export const SURVEYOR_SOURCES = ["manual", "place", "signup"] as const;
/** A surveyor record's source. */
export type SurveyorSource = typeof SURVEYOR_SOURCES[number];

/** Contact-history channels. */
export const CONTACT_CHANNELS = ["call", "email", "text", "meeting", "note"] as const;
/** A contact-history channel. */
export type ContactChannel = typeof CONTACT_CHANNELS[number];

/** Label per channel. */
export const CONTACT_CHANNEL_LABELS: Record<ContactChannel, string> = {
  call: "Call",
  email: "Email",
  text: "Text message",
  meeting: "Meeting",
  note: "Note",
};

/** Service radius when none is given, in miles. */
export const DEFAULT_SERVICE_RADIUS_MILES = 50;
/** Largest service radius, in miles (the matching query's search box; db check constraint). */
export const MAX_SERVICE_RADIUS_MILES = 300;
/** Most contacts one surveyor record keeps. */
export const MAX_CONTACTS = 20;
