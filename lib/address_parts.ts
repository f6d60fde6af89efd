/**
 * The town and ZIP of a formatted US address ("12 Main St, Austin, TX 78701, USA"), for every
 * place that may name where a property is but never the property itself: lead cards, the
 * public lead page, emails, a surveyor's work list.
 *
 * The town is the part just before the one that starts with the state code. It is null when
 * that part holds a digit (a house number or unit: the address had no town and the street
 * would show instead), so a malformed address gives no town rather than the street.
 */

// The state part's pattern per state code, built once (a lead list asked for it per card).
const statePatterns = new Map<string, RegExp>();

/** The part of an address that is `state` (two capital letters), maybe with its ZIP. */
function statePattern(state: string): RegExp {
  let pattern = statePatterns.get(state);
  if (!pattern) {
    pattern = new RegExp(`^${state}(?:\\s+(\\d{5})(?:-\\d{4})?)?$`);
    statePatterns.set(state, pattern);
  }
  return pattern;
}

/** Town and ZIP of `address` in `state` (a two-letter code); either may be null. */
export function townAndZip(
  address: string | null,
  state: string,
): { town: string | null; zip: string | null } {
  if (!address || !/^[A-Z]{2}$/.test(state)) return { town: null, zip: null };
  const statePart = statePattern(state);
  const parts = address.split(",").map((p) => p.trim());
  const at = parts.findIndex((p, i) => i > 0 && statePart.test(p));
  if (at < 1) return { town: null, zip: null };
  const town = parts[at - 1];
  return {
    town: town && !/\d/.test(town) ? town : null,
    zip: parts[at].match(statePart)?.[1] ?? null,
  };
}

/** The town of `address` (see `townAndZip`), or null. */
export function townFromAddress(address: string | null, state: string): string | null {
  return townAndZip(address, state).town;
}

/** The five-digit ZIP after the state code of `address`, or null. */
export function zipFromAddress(address: string | null, state: string): string | null {
  return townAndZip(address, state).zip;
}
