/**
 * How a quote reads wherever it is shown (the request flow, the client's pages, the admin
 * preview, the emails): money, the turnaround line and the starting-price note. No zod and
 * no server APIs, so the islands import it without growing their bundles.
 */
import type { Quote } from "./pricing.ts";
import { formatInteger } from "./numbers.ts";

/** Shown with a quote whose details came to less than the type's starting price. */
export const STARTING_PRICE_NOTE = "Starting price applies";

/** The turnaround of a survey type that is quoted by hand (subdivision). */
export const QUOTED_TURNAROUND = "Quoted per project";

/**
 * Cents as dollars: "$1,234" for whole dollars, which every quote since whole-dollar
 * rounding is, and "$1,234.56" otherwise, so a quote stored with cents before then still reads
 * exactly as it was given and its lines still add up. Negative amounts get a minus sign.
 */
export function formatCents(amount: number): string {
  const cents = Math.round(amount);
  const sign = cents < 0 ? "−" : "";
  const abs = Math.abs(cents);
  const whole = formatInteger(Math.floor(abs / 100));
  const rest = abs % 100;
  return `${sign}$${whole}${rest ? "." + String(rest).padStart(2, "0") : ""}`;
}

/**
 * The quote's turnaround as a label and a value: "Estimated turnaround" and "5-10 business
 * days", or "Turnaround" and "quoted per project" when a surveyor prices the job (whatever
 * an older quote stored as its turnaround text).
 */
export function turnaroundParts(
  quote: Pick<Quote, "quoteRequired" | "turnaround">,
): { label: string; value: string } {
  return quote.quoteRequired
    ? { label: "Turnaround", value: QUOTED_TURNAROUND.toLowerCase() }
    : { label: "Estimated turnaround", value: quote.turnaround };
}

/** The turnaround as one sentence: "Estimated turnaround: 5-10 business days". */
export function turnaroundLine(quote: Pick<Quote, "quoteRequired" | "turnaround">): string {
  const { label, value } = turnaroundParts(quote);
  return `${label}: ${value}`;
}

/** The turnaround alone, for a labelled cell: "5-10 business days" or "Quoted per project". */
export function turnaroundValue(quote: Pick<Quote, "quoteRequired" | "turnaround">): string {
  return quote.quoteRequired ? QUOTED_TURNAROUND : quote.turnaround;
}
