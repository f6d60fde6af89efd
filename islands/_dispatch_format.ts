/**
 * Small formatters shared by the dispatch panel (an island) and the server-drawn map
 * (components/UsMap.tsx). Browser-safe and free of heavy imports, so the island's bundle stays
 * small: the map's outline data (lib/maps.ts) never reaches the browser.
 */

import { formatOneDecimal } from "../lib/numbers.ts";

/** A distance in miles with at most one decimal: "12.3 mi", "1,204 mi". */
export function formatMiles(miles: number): string {
  return `${formatOneDecimal(miles)} mi`;
}
