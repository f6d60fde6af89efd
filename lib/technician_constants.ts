/**
 * Texts and small helpers of the technician features that islands share with the server: no
 * database, no zod, nothing browser-only, so the crew and assign islands import them as they are.
 */

/** Toast titles (spec §8 for the assignment: word for word). */
export const TECHNICIAN_TOASTS = {
  assigned: "Technician assigned",
  assignFailed: "Error assigning technician",
  assignFallback: "Failed to assign technician",
  invited: "Invitation queued",
  invitedNotSent: "Invitation not emailed",
  inviteFailed: "Error inviting technician",
  inviteFallback: "Could not send the invitation. Please try again.",
  removed: "Technician removed",
  removeFailed: "Error removing technician",
  removeFallback: "Could not remove the technician. Please try again.",
} as const;

/** Longest crew note (technician_assignments.notes allows 2000 characters). */
export const CREW_NOTES_MAX = 2000;

/** The technician's page of one job (built by the fieldwork issue's survey detail page). */
export function technicianJobPath(surveyId: string): string {
  return `/technician-survey-detail/${encodeURIComponent(surveyId)}`;
}

/** Where a technician's jobs are listed. */
export const TECHNICIAN_DASHBOARD_PATH = "/technician-dashboard";

/**
 * A link that opens the address in the phone's maps app (Google's universal maps URL: the
 * Google Maps app on Android and iOS when installed, the browser otherwise).
 */
export function mapsLink(address: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}

/** A `tel:` link for a phone number as typed: digits and a leading + only. */
export function telLink(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, "").replace(/(?!^)\+/g, "");
  return `tel:${digits}`;
}
