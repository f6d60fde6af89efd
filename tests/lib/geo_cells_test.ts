import { assert, assertEquals } from "../_assert.ts";
import { cellOf, cellsWithin, SPHERE_RADIUS_M as R } from "../../lib/geo/cells.ts";

const rad = (deg: number) => (deg * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** The point `meters` from (lat, lng) along `bearing` (degrees) on geo_point's sphere. */
function destination(lat: number, lng: number, meters: number, bearing: number) {
  const [phi, lambda, theta, delta] = [rad(lat), rad(lng), rad(bearing), meters / R];
  const phi2 = Math.asin(
    Math.sin(phi) * Math.cos(delta) + Math.cos(phi) * Math.sin(delta) * Math.cos(theta),
  );
  const lambda2 = lambda + Math.atan2(
    Math.sin(theta) * Math.sin(delta) * Math.cos(phi),
    Math.cos(delta) - Math.sin(phi) * Math.sin(phi2),
  );
  return { lat: deg(phi2), lng: deg(lambda2) };
}

// A small seeded generator: the same points on every run.
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

Deno.test("[geo cells] every point within the distance lies in one of the cells", () => {
  const next = random(23);
  let checked = 0;
  for (let i = 0; i < 2_000; i++) {
    // Offices from Hawaii to Maine and into Alaska; radii up to 200 miles.
    const lat = 18 + next() * 50;
    const lng = -170 + next() * 105;
    const meters = next() * 200 * 1609.344;
    const cells = cellsWithin(lat, lng, meters);
    if (!cells) continue;
    const keys = new Set(cells.map((c) => `${c.lat}:${c.lng}`));
    // Points on the circle itself (the farthest a listed lead can be) and inside it, every way.
    for (let b = 0; b < 360; b += 7.5) {
      for (const share of [1, 0.5 + next() / 2]) {
        const p = destination(lat, lng, meters * share, b);
        const c = cellOf(p.lat, p.lng);
        assert(keys.has(`${c.lat}:${c.lng}`), `${p.lat},${p.lng} from ${lat},${lng} (${meters} m)`);
        checked++;
      }
    }
  }
  assert(checked > 50_000, `${checked} points checked`);
});

Deno.test("[geo cells] the cells are the box around the distance, no wider", () => {
  // Houston, 50.5 miles and 800 m: ±0.74° of latitude, ±0.85° of longitude.
  const cells = cellsWithin(29.76, -95.37, 50.5 * 1609.344 + 800)!;
  assertEquals(
    cells.map((c) => `${c.lat}:${c.lng}`),
    ["29:-97", "29:-96", "29:-95", "30:-97", "30:-96", "30:-95"],
  );
  assertEquals(cellsWithin(30.2, -97.7, 0)!.map((c) => `${c.lat}:${c.lng}`), ["30:-98"]);
  // El Paso is not among Houston's.
  const elPaso = cellOf(31.76, -106.44);
  assert(!cells.some((c) => c.lat === elPaso.lat && c.lng === elPaso.lng));
});

Deno.test("[geo cells] no cells where a box of them cannot say it", () => {
  // Across the 180th meridian (Adak, in the Aleutians, 100 miles) and over a pole.
  assertEquals(cellsWithin(51.88, -176.66, 400_000), undefined);
  assertEquals(cellsWithin(89.5, 0, 100_000), undefined);
  assertEquals(cellsWithin(-89.5, 0, 100_000), undefined);
  // Negative degrees floor down, as SQL's floor() does.
  assertEquals(cellOf(29.9, -95.1), { lat: 29, lng: -96 });
  assertEquals(cellOf(-0.5, -0.5), { lat: -1, lng: -1 });
});
