/**
 * The US map drawn on the server: states from the `us-atlas` TopoJSON, projected with
 * d3-geo's Albers USA (Alaska and Hawaii as insets) into a fixed 975 × 610 box, written as SVG
 * path data. No tiles, no key, no JavaScript in the browser.
 *
 * The outline is the same for every page, so it is projected and simplified once (on first
 * use) and kept as two strings: the land (one filled path) and the borders between states (one
 * stroked path, each shared border drawn once). Only the dots change per page
 * (`projectPoint`). components/UsMap.tsx renders both.
 */
// @ts-types="@types/d3-geo"
import { geoAlbersUsa, geoPath } from "d3-geo";
// @ts-types="@types/topojson-client"
import { feature, mesh } from "topojson-client";
import atlas from "us-atlas/states-10m.json" with { type: "json" };

/** Width of the map's viewBox, in SVG units (the us-atlas Albers convention). */
export const MAP_WIDTH = 975;
/** Height of the map's viewBox, in SVG units. */
export const MAP_HEIGHT = 610;

/**
 * Simplification tolerance in viewBox units: points closer than this to the line through their
 * neighbours are dropped (Douglas–Peucker). 0.4 of 975 units is under half a CSS pixel on
 * the widest screen the map is shown at, so the outline looks the same and weighs a third.
 */
const TOLERANCE = 0.6;
/** Islands smaller than this (in square viewBox units) are invisible at any size; left out. */
const MIN_RING_AREA = 0.5;

const projection = geoAlbersUsa().scale(1300).translate([MAP_WIDTH / 2, MAP_HEIGHT / 2]);

/**
 * Where a point falls on the map, in viewBox units, or null when Albers USA does not show it
 * (outside the lower 48, Alaska and Hawaii: Puerto Rico, Guam, other countries) or when the
 * coordinates are not finite numbers.
 */
export function projectPoint(lat: number, lng: number): [x: number, y: number] | null {
  if (!Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  const xy = projection([lng, lat]);
  if (!xy) return null;
  return [round1(xy[0]), round1(xy[1])];
}

/** A part of the map to show, in viewBox units. */
export interface MapView {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The whole map. */
export const FULL_VIEW: MapView = { x: 0, y: 0, width: MAP_WIDTH, height: MAP_HEIGHT };

/**
 * Smallest width `fitView` zooms to: about 900 miles across (one unit is about 3 miles at this
 * scale), so the property's state and its neighbours give the place while surveyors a few
 * dozen miles apart are still told apart.
 */
export const MIN_VIEW_WIDTH = 300;

/**
 * The part of the map that holds `points` with a margin, in the map's own proportions and
 * never narrower than `MIN_VIEW_WIDTH`, kept inside the map where it fits. The outline is the
 * same; only the SVG's viewBox changes, so zooming costs nothing. The whole map when there are
 * no points.
 */
export function fitView(points: readonly (readonly [number, number])[]): MapView {
  if (points.length === 0) return FULL_VIEW;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const [minX, maxX, minY, maxY] = [
    Math.min(...xs),
    Math.max(...xs),
    Math.min(...ys),
    Math.max(...ys),
  ];
  const margin = 0.2;
  const ratio = MAP_WIDTH / MAP_HEIGHT;
  let width = Math.max((maxX - minX) * (1 + 2 * margin), MIN_VIEW_WIDTH);
  let height = Math.max((maxY - minY) * (1 + 2 * margin), width / ratio);
  width = Math.max(width, height * ratio);
  if (width >= MAP_WIDTH || height >= MAP_HEIGHT) return FULL_VIEW;
  height = width / ratio;
  const clamp = (v: number, size: number, max: number) => Math.min(Math.max(v, 0), max - size);
  return {
    x: round1(clamp((minX + maxX) / 2 - width / 2, width, MAP_WIDTH)),
    y: round1(clamp((minY + maxY) / 2 - height / 2, height, MAP_HEIGHT)),
    width: round1(width),
    height: round1(height),
  };
}

/** The outline's path data: `land` is filled, `borders` (between states) is stroked. */
export interface StatesPaths {
  land: string;
  borders: string;
}

let cached: StatesPaths | undefined;

/**
 * The states outline as SVG path data, projected and simplified on first call and then the
 * same strings for every caller (about 60 KB together; see `statesPathsSize`).
 */
export function statesPaths(): StatesPaths {
  if (cached) return cached;
  const us = atlas as unknown as Parameters<typeof mesh>[0];
  const objects = us.objects as Record<
    "states" | "nation",
    NonNullable<Parameters<typeof mesh>[1]>
  >;
  const land = feature(us, objects.nation);
  const borders = mesh(us, objects.states, (a, b) => a !== b);
  cached = {
    land: toPathData(collectLines(land), true),
    borders: toPathData(collectLines(borders), false),
  };
  return cached;
}

/**
 * The outline as a standalone SVG file, written by the build (dev.ts) under a content-hashed
 * name and drawn by `<use href="…#land">` and `<use href="…#borders">`: the browser fetches
 * and caches it once instead of every map page carrying it inline. The paths carry no colours,
 * so they inherit the page's (`.us-map__land`, `.us-map__borders` on the `<use>`); only
 * `vector-effect`, which is not inherited, is set here, so the borders keep their width when a
 * map zooms in.
 */
export function statesSprite(): string {
  const { land, borders } = statesPaths();
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${MAP_WIDTH} ${MAP_HEIGHT}">` +
    `<path id="land" d="${land}"/>` +
    `<path id="borders" fill="none" vector-effect="non-scaling-stroke" d="${borders}"/>` +
    `</svg>\n`;
}

/** Bytes of the cached outline's path data (both paths), for the docs and the size test. */
export function statesPathsSize(): number {
  const { land, borders } = statesPaths();
  return land.length + borders.length;
}

type Point = [number, number];

/** Runs d3's path generator into a context that keeps each projected ring or line. */
function collectLines(object: Parameters<ReturnType<typeof geoPath>>[0]): Point[][] {
  const lines: Point[][] = [];
  let current: Point[] = [];
  const context = {
    moveTo(x: number, y: number) {
      current = [[x, y]];
      lines.push(current);
    },
    lineTo(x: number, y: number) {
      current.push([x, y]);
    },
    closePath() {},
    arc() {},
    beginPath() {},
  };
  geoPath(projection, context as unknown as CanvasRenderingContext2D)(object);
  return lines;
}

/**
 * Compact path data: each line simplified, coordinates in tenths, the first point absolute and
 * the rest relative to the previous rounded point (so rounding never drifts), closed with Z
 * when `isClosed`.
 */
function toPathData(lines: Point[][], isClosed: boolean): string {
  const parts: string[] = [];
  for (const line of lines) {
    if (isClosed && Math.abs(ringArea(line)) < MIN_RING_AREA) continue;
    const kept = simplify(line, TOLERANCE);
    // Integers in tenths of a unit: exact arithmetic for the relative steps.
    const tenths = kept.map(([x, y]) => [Math.round(x * 10), Math.round(y * 10)] as Point);
    const unique = tenths.filter((p, i) =>
      i === 0 || p[0] !== tenths[i - 1][0] || p[1] !== tenths[i - 1][1]
    );
    if (unique.length < (isClosed ? 3 : 2)) continue;
    let d = `M${num(unique[0][0])} ${num(unique[0][1])}l`;
    for (let i = 1; i < unique.length; i++) {
      const dx = unique[i][0] - unique[i - 1][0];
      const dy = unique[i][1] - unique[i - 1][1];
      d += (i > 1 && dx >= 0 ? " " : "") + num(dx) + (dy >= 0 ? " " : "") + num(dy);
    }
    parts.push(isClosed ? `${d}z` : d);
  }
  return parts.join("");
}

/** Tenths as the shortest decimal text: 12 → "1.2", -3 → "-.3", 40 → "4". */
function num(tenths: number): string {
  const sign = tenths < 0 ? "-" : "";
  const abs = Math.abs(tenths);
  const whole = Math.floor(abs / 10);
  const frac = abs % 10;
  if (frac === 0) return `${sign}${whole}`;
  return `${sign}${whole === 0 ? "" : whole}.${frac}`;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function ringArea(ring: Point[]): number {
  let area = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    area += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  }
  return area / 2;
}

/** Douglas–Peucker on a projected line; keeps both ends, so shared borders still meet. */
function simplify(line: Point[], tolerance: number): Point[] {
  if (line.length <= 2) return line;
  const keep = new Uint8Array(line.length);
  keep[0] = 1;
  keep[line.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, line.length - 1]];
  const limit = tolerance * tolerance;
  while (stack.length) {
    const [first, last] = stack.pop()!;
    let farthest = -1;
    let farthestDistance = limit;
    for (let i = first + 1; i < last; i++) {
      const d = segmentDistanceSquared(line[i], line[first], line[last]);
      if (d > farthestDistance) {
        farthest = i;
        farthestDistance = d;
      }
    }
    if (farthest !== -1) {
      keep[farthest] = 1;
      stack.push([first, farthest], [farthest, last]);
    }
  }
  return line.filter((_, i) => keep[i] === 1);
}

function segmentDistanceSquared(p: Point, a: Point, b: Point): number {
  let [x, y] = a;
  let dx = b[0] - x;
  let dy = b[1] - y;
  if (dx !== 0 || dy !== 0) {
    const t = ((p[0] - x) * dx + (p[1] - y) * dy) / (dx * dx + dy * dy);
    if (t > 1) {
      x = b[0];
      y = b[1];
    } else if (t > 0) {
      x += dx * t;
      y += dy * t;
    }
  }
  dx = p[0] - x;
  dy = p[1] - y;
  return dx * dx + dy * dy;
}
