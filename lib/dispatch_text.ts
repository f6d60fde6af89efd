/**
 * The dispatch panel's toast sentences (spec §8), shared by islands/DispatchPanel.tsx and the
 * tests. Browser-safe and light: no database, no zod.
 */
import type { NotifySurveyorsResponse } from "./surveyor_schema.ts";
import { formatLeadPrice } from "./lead_pricing.ts";

/** Description of the 'Surveyors found' toast: "Found 3 nearby surveyor(s)." (spec §8). */
export function foundToastText(n: number): string {
  return `Found ${n} nearby surveyor(s).`;
}

/**
 * Description of the 'Surveyors notified' toast: "Notified 4 surveyors · lead price $38.50"
 * ("1 surveyor" for one), the price in dollars to two decimals (spec §8, §9).
 */
export function notifiedToastText(
  r: Pick<NotifySurveyorsResponse, "notified" | "leadPrice">,
): string {
  const who = r.notified === 1 ? "1 surveyor" : `${r.notified} surveyors`;
  return `Notified ${who} · lead price ${formatLeadPrice(Math.round(r.leadPrice * 100))}`;
}
