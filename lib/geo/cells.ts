/**
 * Whole-degree cells of latitude and longitude: the grid migration 0057 records a request's
 * writes under (`area:<state>:<lat>:<lng>`, the floor of each), and the cells a page that shows
 * what lies within some distance of a point depends on (db/lead_market.ts, the available leads).
 * The distance is the database's: great-circle on the sphere `geo_point` puts points on
 * (0025_geo_functions.sql, radius 6,378,168 m, latitude and longitude taken as spherical).
 */

/** The sphere's radius in metres, as in `geo_point` (earthdistance's `earth()`). */
export const SPHERE_RADIUS_M = 6_378_168;

/** A cell: the floor of a latitude and of a longitude, in whole degrees. */
export interface Cell {
  lat: number;
  lng: number;
}

/** The cell a point lies in (SQL: `floor(lat)::int`, `floor(lng)::int`). */
export function cellOf(lat: number, lng: number): Cell {
  return { lat: Math.floor(lat), lng: Math.floor(lng) };
}

/**
 * Every cell holding a point within `meters` (great-circle) of (`lat`, `lng`): the cells of the
 * smallest latitude and longitude box around that cap, widened by a thousandth of a degree for
 * rounding. Undefined when the box reaches a pole or crosses the 180th meridian (the Aleutians):
 * no box of cells says it there, and the caller depends on something coarser.
 */
export function cellsWithin(lat: number, lng: number, meters: number): Cell[] | undefined {
  const margin = 0.001;
  const angle = meters / SPHERE_RADIUS_M;
  const dLat = (angle * 180) / Math.PI + margin;
  if (!(dLat > 0) || lat + dLat >= 90 || lat - dLat <= -90) return undefined;
  // The cap's widest longitude from its centre: asin(sin(angle) / cos(lat)), defined while the
  // cap stays off the pole (checked above: then sin(angle) < cos(lat)).
  const ratio = Math.sin(angle) / Math.cos((lat * Math.PI) / 180);
  if (!(ratio < 1)) return undefined;
  const dLng = (Math.asin(ratio) * 180) / Math.PI + margin;
  if (lng - dLng < -180 || lng + dLng >= 180) return undefined;
  const cells: Cell[] = [];
  for (let y = Math.floor(lat - dLat); y <= Math.floor(lat + dLat); y++) {
    for (let x = Math.floor(lng - dLng); x <= Math.floor(lng + dLng); x++) {
      cells.push({ lat: y, lng: x });
    }
  }
  return cells;
}
