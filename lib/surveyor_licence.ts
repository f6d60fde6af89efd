/**
 * Licence states and the licence number are verified facts (issue 20). What a surveyor of a
 * verified firm may change of them on their own profile, and what waits for an admin:
 *
 * - Removing a state takes effect at once: it only narrows what they may take.
 * - Adding a state records a request (pending); the state does not count (no lead listed,
 *   bought, claimed or dispatched there) until an admin verifies it. Removing a pending state
 *   withdraws the request; a rejected one stays rejected until asked for again.
 * - A new licence number is pending too. The rule, chosen to trust nothing unchecked while not
 *   stopping a firm over a typo fix or a renewal: the firm keeps working under the number
 *   Meridian checked, and its verified states stay verified under it, until an admin checks the
 *   new one; clients keep being shown the checked number. An approved number replaces it; a
 *   rejected one is dropped. Clearing a verified number is refused (ask Meridian).
 *
 * A firm whose licence is not verified yet (joined, waiting for its check) edits its states and
 * number directly: its licence check verifies them all together.
 *
 * Pure (islands use the texts); the notifications are in lib/surveyor_verification.ts.
 */
import { type StateCode, US_STATES } from "./survey_options.ts";
import type { Surveyor } from "./surveyor_schema.ts";
import type { SurveyorProfileUpdate } from "./surveyor_profile.ts";

/** Where admins decide licence requests. */
export const LICENCE_CHECKS_PATH = "/admin?tab=licences";

/** The 400 text when the surveyor of a verified firm clears its licence number. */
export const VERIFIED_NUMBER_REQUIRED =
  "Your licence number has been verified and cannot be removed here. Enter your new number to have it checked, or contact us.";

/** "Texas", "Texas and Ohio", "Iowa, Ohio and Texas". */
export function stateNames(states: readonly string[]): string {
  const names = states.map((s) => US_STATES[s as StateCode] ?? s);
  return names.length <= 1
    ? names.join("")
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** What a self-service update of a verified firm does to its licence. */
export interface LicencePlan {
  /** The update without what waits for a check (its licenseStates only keeps or removes). */
  direct: SurveyorProfileUpdate;
  /** States to ask for (not counting now, not already pending). */
  request: StateCode[];
  /** Pending states taken off the list: their requests are withdrawn. */
  withdraw: StateCode[];
  /** A new number to check (string), the pending one withdrawn (null), or no change. */
  pendingNumber?: string | null;
}

/**
 * Splits `update` of the verified firm `current` into what takes effect now and what waits for
 * the licence check (see the module comment). Throws nothing; `VERIFIED_NUMBER_REQUIRED` is the
 * caller's to send when `direct.licenseNumber` would clear the number (`isClearingNumber`).
 */
export function planLicenceChange(
  current: Pick<Surveyor, "licenseNumber" | "licenseStates" | "pendingLicenseStates"> & {
    pendingLicenseNumber: string | null;
  },
  update: SurveyorProfileUpdate,
): LicencePlan {
  const { licenseNumber, licenseStates, ...rest } = update;
  const plan: LicencePlan = { direct: rest, request: [], withdraw: [] };
  if (licenseStates !== undefined) {
    const wanted = new Set(licenseStates);
    plan.direct.licenseStates = current.licenseStates.filter((s) => wanted.has(s));
    plan.request = licenseStates.filter((s) =>
      !current.licenseStates.includes(s) && !current.pendingLicenseStates.includes(s)
    );
    plan.withdraw = current.pendingLicenseStates.filter((s) => !wanted.has(s));
  }
  if (licenseNumber !== undefined && licenseNumber !== null) {
    if (licenseNumber === current.licenseNumber) {
      if (current.pendingLicenseNumber !== null) plan.pendingNumber = null;
    } else if (licenseNumber !== current.pendingLicenseNumber) {
      plan.pendingNumber = licenseNumber;
    }
  }
  return plan;
}

/** True when `update` would clear the licence number of a firm that has one. */
export function isClearingNumber(
  current: Pick<Surveyor, "licenseNumber">,
  update: SurveyorProfileUpdate,
): boolean {
  return update.licenseNumber === null && current.licenseNumber !== null;
}

/**
 * The sentence the surveyor reads after asking for `states` and/or a new `number` (either may
 * be empty), or null when nothing new waits for a check.
 */
export function licenceCheckNotice(
  { states, number, currentNumber }: {
    states: readonly StateCode[];
    number: string | null;
    currentNumber: string | null;
  },
): string | null {
  const parts: string[] = [];
  if (states.length) {
    parts.push(
      `Your licence in ${
        stateNames(states)
      } will be checked by Meridian before you can buy or claim leads there.`,
    );
  }
  if (number) {
    parts.push(
      currentNumber
        ? `Your new licence number ${number} will be checked by Meridian; until then your verified number ${currentNumber} stays on your profile.`
        : `Your licence number ${number} will be checked by Meridian before it is shown on your profile.`,
    );
  }
  return parts.length ? parts.join(" ") : null;
}

/** A firm in the admins' licence check queue: what it asked for and what counts now. */
export interface LicenceCheck {
  surveyorId: string;
  companyName: string;
  /** The number Meridian checked (null: none on record). */
  licenseNumber: string | null;
  /** The states that count now. */
  licenseStates: StateCode[];
  /** A new number to check, or null. */
  pendingLicenseNumber: string | null;
  /** The states to check, each with the number it was asked under and when (ISO). */
  pendingStates: { state: StateCode; licenceNumber: string | null; requestedAt: string }[];
  /** ISO time of the oldest request of the firm. */
  oldestRequestAt: string;
  /**
   * The firm joined (on /for-surveyors or from an invitation) and waits for its first licence
   * check: Verify opens leads to it, Reject pauses it.
   */
  awaitingFirstCheck: boolean;
  principalName: string | null;
  city: string | null;
  state: string | null;
}

/** The licence check queue: at most a page of firms, and how many wait in all. */
export interface LicenceChecks {
  checks: LicenceCheck[];
  total: number;
}
