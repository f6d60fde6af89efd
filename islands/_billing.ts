/** Money helpers shared by the billing islands and the billing page (no server modules). */
import { formatCents } from "../lib/quote_text.ts";

/**
 * Whole cents from a dollar amount as typed ("150", "$1,250.50"), or undefined when it is not
 * one (more than two decimals, letters, a sign, empty).
 */
export function dollarsToCents(text: string): number | undefined {
  const cleaned = text.trim().replace(/^\$/, "").replace(/,/g, "");
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** A ledger amount with its sign: "+$50" for a credit, "−$12.50" for a debit. */
export function signedCents(cents: number): string {
  return cents > 0 ? `+${formatCents(cents)}` : formatCents(cents);
}
