import { formatCents } from "../../quote_text.ts";

/**
 * A price in an email, written as on the site: "$1,285" for whole dollars (every quote since
 * whole-dollar rounding), "$1,285.50" for a quote stored with cents before then.
 */
export function formatPrice(cents: number): string {
  return formatCents(cents);
}
