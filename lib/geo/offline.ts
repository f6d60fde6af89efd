/**
 * Offline geo provider: US ZIP codes and places from the `zipcodes` package, no key and no
 * network. Suggestions keep the street as typed and complete only what the user typed: the
 * trailing town (offered per state, without a ZIP) or ZIP. A street with nothing after it gets
 * no suggestion, since any town would be invented. Geocoding resolves to the ZIP or town
 * centroid and says so (`precision: "zip" | "city"`): this data knows towns, never a street
 * or a parcel, so it never attaches a ZIP the user did not type or pick.
 *
 * The data has no population, so a city's number of ZIP codes stands in for its size (Miami,
 * FL has dozens, Miami, OK one). Candidates for a typed city rank by how well the name matches
 * (the whole name, a whole word of it, or a prefix), then by size, with a nearby place lifted
 * when the browser gave a location, so "Miami" is Miami, FL even for a visitor in Kansas.
 */
import type { GeocodeResult, GeoProvider, Prediction } from "./provider.ts";
import { ADDRESS_AUTOCOMPLETE } from "./constants.ts";
import { loadZipRows, type ZipRow } from "./zip_rows.ts";

/** A coordinate pair in degrees. */
export interface LatLng {
  lat: number;
  lng: number;
}

type RawZip = ZipRow;

/** A point with its unit vector, so "nearer" is a dot product rather than trigonometry. */
interface Point extends LatLng {
  x: number;
  y: number;
  z: number;
}

/** A ZIP as the answers show it, made from the index's columns when one is returned. */
interface ZipEntry extends LatLng {
  zip: string;
  city: CityEntry;
}

/** A town as the answers show it (lat/lng: the centroid of its main ZIP area). */
interface CityEntry extends LatLng {
  name: string;
  state: string;
}

/**
 * The index as columns (typed arrays and arrays of strings) rather than an object per town
 * and per ZIP: 42,555 ZIPs and 29,965 towns. An object each, with their coordinates and unit
 * vectors as boxed numbers, held 17 MB of JavaScript heap and 49 MB resident for the life of
 * the process, on either database; these columns hold about 5 MB (bench/memory.ts, README
 * "Memory"). Towns and ZIPs are referred to by their row number; the few an answer returns
 * become objects then (cityAt, zipAt). Unit vectors are computed when a location asks for
 * them, by the same function as before, so the order of the answers is unchanged.
 */
interface GeoIndex {
  /** Towns, sorted by key (the normalised name, for prefix matching), then bigger first. */
  cityKeys: string[];
  cityNames: string[];
  /** Into `states`. */
  cityState: Uint8Array;
  cityLat: Float64Array;
  cityLng: Float64Array;
  /** Town c's ZIPs are rows cityZips[cityZipStart[c] .. cityZipStart[c + 1]), by ZIP. */
  cityZipStart: Int32Array;
  cityZips: Int32Array;
  /** ZIPs, sorted: the five digits as a number. */
  zipCodes: Int32Array;
  zipLat: Float64Array;
  zipLng: Float64Array;
  /** The ZIP's town (a row of the town columns). */
  zipCity: Int32Array;
  states: string[];
}

/** Full state names (normalised) to their postal codes, plus the codes themselves. */
const STATE_CODES: Record<string, string> = {
  alabama: "AL",
  alaska: "AK",
  arizona: "AZ",
  arkansas: "AR",
  california: "CA",
  colorado: "CO",
  connecticut: "CT",
  delaware: "DE",
  "district of columbia": "DC",
  florida: "FL",
  georgia: "GA",
  hawaii: "HI",
  idaho: "ID",
  illinois: "IL",
  indiana: "IN",
  iowa: "IA",
  kansas: "KS",
  kentucky: "KY",
  louisiana: "LA",
  maine: "ME",
  maryland: "MD",
  massachusetts: "MA",
  michigan: "MI",
  minnesota: "MN",
  mississippi: "MS",
  missouri: "MO",
  montana: "MT",
  nebraska: "NE",
  nevada: "NV",
  "new hampshire": "NH",
  "new jersey": "NJ",
  "new mexico": "NM",
  "new york": "NY",
  "north carolina": "NC",
  "north dakota": "ND",
  ohio: "OH",
  oklahoma: "OK",
  oregon: "OR",
  pennsylvania: "PA",
  "rhode island": "RI",
  "south carolina": "SC",
  "south dakota": "SD",
  tennessee: "TN",
  texas: "TX",
  utah: "UT",
  vermont: "VT",
  virginia: "VA",
  washington: "WA",
  "west virginia": "WV",
  wisconsin: "WI",
  wyoming: "WY",
  "puerto rico": "PR",
  guam: "GU",
  "virgin islands": "VI",
  "american samoa": "AS",
  "northern mariana islands": "MP",
};

/** Military mail "states" are not property locations. */
const EXCLUDED_STATES = new Set(["AA", "AE", "AP"]);

/** Words that end or qualify a street, so a trailing one is not the start of a city. */
const STREET_WORDS = new Set([
  "st",
  "street",
  "ave",
  "av",
  "avenue",
  "rd",
  "road",
  "dr",
  "drive",
  "ln",
  "lane",
  "ct",
  "court",
  "blvd",
  "boulevard",
  "way",
  "pl",
  "place",
  "pkwy",
  "parkway",
  "hwy",
  "highway",
  "cir",
  "circle",
  "ter",
  "terrace",
  "trl",
  "trail",
  "sq",
  "square",
  "loop",
  "n",
  "s",
  "e",
  "w",
  "ne",
  "nw",
  "se",
  "sw",
  "apt",
  "unit",
  "ste",
  "suite",
]);

/** Names of single-company ZIPs the data lists as if they were towns. */
const BUSINESS_NAME =
  /\b(inc|co|corp|ins|insurance|dept|svc|assoc|assc|ctr|bmc|lending|irs|natl|mail|return|services?|lottery|card|elec|edison|penney|allstate|kemper|citicorp|communications|amsouth|centerre)\b|\b(national|union) bank\b|^bank of\b|\w telephone\b/i;

const COUNTRY_WORDS = new Set(["us", "usa", "united states", "united states of america"]);

const MAX = ADDRESS_AUTOCOMPLETE.maxPredictions;
const EARTH_RADIUS_KM = 6371;

/** Lower case, no accents or dots/apostrophes, hyphens as spaces, single spaces. */
function normalizeName(text: string): string {
  return text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
    .replace(/[.'\u2019]/g, "").replace(/[-/]/g, " ").replace(/\s+/g, " ").trim();
}

/** A typed city fragment as a key prefix; "St Lo" finds "Saint Louis" as the data spells it. */
function normalizeCityQuery(text: string): string {
  return normalizeName(text).replace(/^(st|ste|ft|mt)( |$)/, (_m, word: string, rest: string) => {
    // Only a complete leading word is an abbreviation; "st" alone may still become "Sterling".
    if (!rest) return word;
    const full = { st: "saint", ste: "sainte", ft: "fort", mt: "mount" }[word]!;
    return full + rest;
  });
}

/** "melcher-dallas" → "Melcher-Dallas"; the data is otherwise title case already. */
function tidyCityName(name: string): string {
  return name.replace(/(^|[\s-])([a-z])/g, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** Great-circle distance in km. */
export function haversineKm(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The unit vector on the sphere of a point. */
function unitVector(lat: number, lng: number): [x: number, y: number, z: number] {
  const rad = Math.PI / 180;
  const cosLat = Math.cos(lat * rad);
  return [cosLat * Math.cos(lng * rad), cosLat * Math.sin(lng * rad), Math.sin(lat * rad)];
}

/** `p` with its unit vector on the sphere. */
function withVector(p: LatLng): Point {
  const [x, y, z] = unitVector(p.lat, p.lng);
  return { lat: p.lat, lng: p.lng, x, y, z };
}

/** Larger is nearer: the cosine of the angle between two points. */
function closeness(a: Point, b: Point): number {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

function buildIndex(rows: readonly RawZip[]): GeoIndex {
  const groups = new Map<string, RawZip[]>();
  // US rows with a five-digit ZIP and finite coordinates only (lib/geo/zip_rows.ts).
  for (const raw of rows) {
    if (EXCLUDED_STATES.has(raw.state)) continue;
    // Business-only ZIPs ("Shell Oil Box 150", "At&t") are not places a property is in.
    if (/[\d&/]/.test(raw.city) || BUSINESS_NAME.test(raw.city)) continue;
    const id = `${normalizeName(raw.city)}|${raw.state}`;
    let group = groups.get(id);
    if (!group) groups.set(id, group = []);
    group.push(raw);
  }

  // One short-lived record per town, sorted, then written into the columns.
  const towns: { key: string; state: string; lat: number; lng: number; group: RawZip[] }[] = [];
  for (const group of groups.values()) {
    group.sort((a, b) => a.zip < b.zip ? -1 : a.zip > b.zip ? 1 : 0);
    // The city's main ZIP area is the lowest 3-digit prefix holding at least half as many ZIPs
    // as the commonest one (Austin: 787, not the IRS's 733; New York: 100, not the
    // building-only 101). Its mean is the centroid.
    const prefixCounts = new Map<string, number>();
    for (const z of group) {
      prefixCounts.set(z.zip.slice(0, 3), (prefixCounts.get(z.zip.slice(0, 3)) ?? 0) + 1);
    }
    const most = Math.max(...prefixCounts.values());
    const mainPrefix = [...prefixCounts].filter(([, n]) => n * 2 >= most).map(([p]) => p).sort()[0];
    const main = group.filter((z) => z.zip.startsWith(mainPrefix));
    const lat = main.reduce((s, z) => s + z.latitude, 0) / main.length;
    const lng = main.reduce((s, z) => s + z.longitude, 0) / main.length;
    towns.push({ key: normalizeName(group[0].city), state: group[0].state, lat, lng, group });
  }
  towns.sort((a, b) =>
    a.key < b.key
      ? -1
      : a.key > b.key
      ? 1
      : b.group.length - a.group.length || cmp(a.state, b.state)
  );

  const zipCount = towns.reduce((n, t) => n + t.group.length, 0);
  const states: string[] = [];
  const stateIds = new Map<string, number>();
  const index: GeoIndex = {
    cityKeys: new Array<string>(towns.length),
    cityNames: new Array<string>(towns.length),
    cityState: new Uint8Array(towns.length),
    cityLat: new Float64Array(towns.length),
    cityLng: new Float64Array(towns.length),
    cityZipStart: new Int32Array(towns.length + 1),
    cityZips: new Int32Array(zipCount),
    zipCodes: new Int32Array(zipCount),
    zipLat: new Float64Array(zipCount),
    zipLng: new Float64Array(zipCount),
    zipCity: new Int32Array(zipCount),
    states,
  };
  // ZIP rows in ZIP order: each ZIP's place in the sorted list, by town.
  const order = towns.flatMap((t, c) => t.group.map((raw) => ({ code: Number(raw.zip), c, raw })))
    .sort((a, b) => a.code - b.code);
  const rowOf = new Map<RawZip, number>();
  order.forEach(({ code, c, raw }, row) => {
    index.zipCodes[row] = code;
    index.zipLat[row] = raw.latitude;
    index.zipLng[row] = raw.longitude;
    index.zipCity[row] = c;
    rowOf.set(raw, row);
  });
  let next = 0;
  towns.forEach((t, c) => {
    let stateId = stateIds.get(t.state);
    if (stateId === undefined) {
      stateIds.set(t.state, stateId = states.length);
      states.push(t.state);
    }
    index.cityKeys[c] = t.key;
    index.cityNames[c] = tidyCityName(t.group[0].city);
    index.cityState[c] = stateId;
    index.cityLat[c] = t.lat;
    index.cityLng[c] = t.lng;
    index.cityZipStart[c] = next;
    for (const raw of t.group) index.cityZips[next++] = rowOf.get(raw)!;
  });
  index.cityZipStart[towns.length] = next;
  return index;
}

/** The state of town `c`. */
function stateOfCity(index: GeoIndex, c: number): string {
  return index.states[index.cityState[c]];
}

/** How many ZIPs town `c` has: the data's only measure of its size. */
function zipCountOf(index: GeoIndex, c: number): number {
  return index.cityZipStart[c + 1] - index.cityZipStart[c];
}

/** The five digits of ZIP row `z`. */
function zipCodeOf(index: GeoIndex, z: number): string {
  return String(index.zipCodes[z]).padStart(5, "0");
}

/** Town `c` as an answer shows it. */
function cityAt(index: GeoIndex, c: number): CityEntry {
  return {
    name: index.cityNames[c],
    state: stateOfCity(index, c),
    lat: index.cityLat[c],
    lng: index.cityLng[c],
  };
}

/** ZIP row `z` as an answer shows it. */
function zipAt(index: GeoIndex, z: number): ZipEntry {
  return {
    zip: zipCodeOf(index, z),
    lat: index.zipLat[z],
    lng: index.zipLng[z],
    city: cityAt(index, index.zipCity[z]),
  };
}

/** The rows [start, end) of the ZIPs that begin with `prefix` (one to five digits). */
function zipPrefixRange(index: GeoIndex, prefix: string): [number, number] {
  const scale = 10 ** (5 - prefix.length);
  const low = Number(prefix) * scale;
  return [numberLowerBound(index.zipCodes, low), numberLowerBound(index.zipCodes, low + scale)];
}

/** First index whose value is >= target, in a sorted column. */
function numberLowerBound(values: Int32Array, target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The row of a five-digit ZIP, by binary search of the sorted codes. */
function zipByCode(index: GeoIndex, zip: string): number | undefined {
  const [start, end] = zipPrefixRange(index, zip);
  return start < end ? start : undefined;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareBySize(index: GeoIndex): (a: number, b: number) => number {
  return (a, b) =>
    zipCountOf(index, b) - zipCountOf(index, a) || cmp(index.cityKeys[a], index.cityKeys[b]) ||
    cmp(stateOfCity(index, a), stateOfCity(index, b));
}

/** First index whose key is >= target. */
function lowerBound(keys: string[], target: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** [start, end) of the keys that start with `prefix`. */
function prefixRange(keys: string[], prefix: string): [number, number] {
  return [lowerBound(keys, prefix), lowerBound(keys, prefix + "\uffff")];
}

/** The best `k` items under `compare`, best first, without sorting everything. */
function topK<T>(items: Iterable<T>, k: number, compare: (a: T, b: T) => number): T[] {
  const best: T[] = [];
  for (const item of items) {
    if (best.length === k && compare(item, best[k - 1]) >= 0) continue;
    let i = best.length === k ? k - 1 : best.length;
    while (i > 0 && compare(item, best[i - 1]) < 0) {
      best[i] = best[i - 1];
      i--;
    }
    best[i] = item;
  }
  return best;
}

/** The rows start .. end - 1 that `keep` keeps. */
function* rows(start: number, end: number, keep?: (row: number) => boolean) {
  for (let i = start; i < end; i++) if (!keep || keep(i)) yield i;
}

/** How a city name answers typed text: the whole name, a whole word of it, or a prefix. */
const MATCH_SCORE = { exact: 2, word: 1, prefix: 0 } as const;

/**
 * Score of a place `km` away from the visitor: up to 9 in their own town (worth a city 500
 * times bigger), about 3 within a couple of hundred km (the same region), nothing across the
 * country, so a location only lifts places near it and never buries a big, well-matched one.
 */
function nearbyScore(km: number): number {
  return 6 * Math.exp(-km / 80) + 3 * Math.exp(-km / 400);
}

/**
 * Best first for cities whose names start with `query`: match (MATCH_SCORE) plus size (log2
 * of the ZIP count, the data's only proxy for population) plus nearness to `near`. The
 * weights make a complete name beat a longer one of similar size ("Miami" before
 * "Miamisburg"), a big city beat a hamlet of the same name anywhere ("Portland" is Oregon),
 * and the visitor's own town win when they are in it (Portland, ME typed in Portland, ME).
 */
function candidateOrder(
  index: GeoIndex,
  query: string,
  near?: LatLng,
): (a: number, b: number) => number {
  const p = near ? withVector({ lat: near.lat, lng: near.lng }) : undefined;
  const scores = new Map<number, number>();
  const bySize = compareBySize(index);
  const score = (c: number) => {
    let value = scores.get(c);
    if (value === undefined) {
      const key = index.cityKeys[c];
      const match = key === query
        ? MATCH_SCORE.exact
        : key.startsWith(query + " ")
        ? MATCH_SCORE.word
        : MATCH_SCORE.prefix;
      value = match + Math.log2(zipCountOf(index, c)) +
        (p
          ? nearbyScore(kmBetween(p, withVector({ lat: index.cityLat[c], lng: index.cityLng[c] })))
          : 0);
      scores.set(c, value);
    }
    return value;
  };
  return (a, b) => score(b) - score(a) || bySize(a, b);
}

/** Distance along the surface between two unit-vector points, in km. */
function kmBetween(a: Point, b: Point): number {
  return EARTH_RADIUS_KM * Math.acos(Math.min(1, Math.max(-1, closeness(a, b))));
}

function zipOrder(index: GeoIndex, near?: LatLng): (a: number, b: number) => number {
  const codes = index.zipCodes;
  if (!near) return (a, b) => codes[a] - codes[b];
  const p = withVector({ lat: near.lat, lng: near.lng });
  const near_ = new Map<number, number>();
  const to = (z: number) => {
    let value = near_.get(z);
    if (value === undefined) {
      value = closeness(p, withVector({ lat: index.zipLat[z], lng: index.zipLng[z] }));
      near_.set(z, value);
    }
    return value;
  };
  return (a, b) => to(b) - to(a) || codes[a] - codes[b];
}

/** One reading of the input: the street as typed and what the rest should match. */
interface Reading {
  street: string;
  /** Normalised city-name prefix, or "" for none. */
  city: string;
  state?: string;
  zip?: string;
  /** Lower is tried first. */
  rank: number;
}

/** Input as comma segments of space-separated tokens, with control characters removed. */
function segmentsOf(input: string): { segments: string[][]; trailingComma: boolean } {
  const clean = input.replace(/[\p{Cc}\p{Cf}]/gu, " ").replace(/\s+/g, " ").trim();
  const parts = clean.split(",").map((s) => s.trim());
  const trailingComma = parts.length > 1 && parts[parts.length - 1] === "";
  const segments = parts.filter((s) => s !== "").map((s) => s.split(" "));
  if (segments.length > 1 && COUNTRY_WORDS.has(normalizeName(segments.at(-1)!.join(" ")))) {
    segments.pop();
  }
  return { segments, trailingComma };
}

function countTokens(segments: string[][]): number {
  return segments.reduce((n, s) => n + s.length, 0);
}

/** Removes `count` tokens from the end, dropping segments left empty. */
function dropTail(segments: string[][], count: number): string[][] {
  const out = segments.map((s) => [...s]);
  out[out.length - 1].splice(out[out.length - 1].length - count, count);
  if (out[out.length - 1].length === 0) out.pop();
  return out;
}

/** A trailing state (code or full name) as [code, tokens used], or undefined. */
function trailingState(segments: string[][]): [string, number] | undefined {
  const last = segments.at(-1);
  if (!last) return undefined;
  for (let n = Math.min(4, last.length); n >= 1; n--) {
    const words = normalizeName(last.slice(last.length - n).join(" "));
    const code = STATE_CODES[words] ??
      (n === 1 && /^[a-z]{2}$/.test(words) && STATE_SET.has(words.toUpperCase())
        ? words.toUpperCase()
        : undefined);
    if (code) return [code, n];
  }
  return undefined;
}

const STATE_SET = new Set(Object.values(STATE_CODES));

function joinStreet(segments: string[][]): string {
  return segments.map((s) => s.join(" ")).join(", ");
}

function isStreetWord(token: string | undefined): boolean {
  return token !== undefined && STREET_WORDS.has(token.toLowerCase().replace(/\.$/, ""));
}

/** Street text that is plausibly complete: a house number, a name and a suffix. */
function looksLikeStreet(tokens: string[], trailingComma: boolean): boolean {
  return tokens.length >= 2 && /^\d/.test(tokens[0]) &&
    (trailingComma || isStreetWord(tokens.at(-1)));
}

/** Every reading of the input, most specific first. */
function readingsOf(input: string): Reading[] {
  const { segments, trailingComma } = segmentsOf(input);
  if (segments.length === 0) return [];
  let rest = segments;
  let zip: string | undefined;
  const lastToken = rest.at(-1)!.at(-1)!;
  const zipMatch = /^(\d{1,5})(-\d{0,4})?$/.exec(lastToken);
  if (zipMatch && (countTokens(rest) > 1 || zipMatch[1].length >= 3)) {
    zip = zipMatch[1];
    rest = dropTail(rest, 1);
  }

  const branches: { rest: string[][]; state?: string; explicit: boolean }[] = [];
  const state = trailingState(rest);
  if (state && (countTokens(rest) > state[1] || zip)) {
    branches.push({ rest: dropTail(rest, state[1]), state: state[0], explicit: true });
  }
  branches.push({ rest, explicit: false });

  const readings: Reading[] = [];
  for (const { rest, state, explicit } of branches) {
    const hasQualifier = Boolean(state || zip);
    // A city reading is preferred; a state-only reading comes after the plain city reading
    // because "123 Main St, Al" is more likely "Albany" being typed than "Alabama".
    const cityRank = explicit ? 0 : 1;
    const bareRank = explicit ? 2 : 3;
    if (rest.length === 0) {
      if (hasQualifier) readings.push({ street: "", city: "", state, zip, rank: bareRank });
      continue;
    }
    const flat = rest.flat();
    if (trailingComma && !hasQualifier) {
      if (looksLikeStreet(flat, true)) {
        readings.push({ street: joinStreet(rest), city: "", rank: bareRank });
      }
      continue;
    }
    if (rest.length >= 2) {
      // Commas delimit: the last segment is the city, everything before it the street.
      const cityTokens = rest.at(-1)!;
      if (!cityTokens.some((t) => /\d/.test(t))) {
        readings.push({
          street: joinStreet(rest.slice(0, -1)),
          city: normalizeCityQuery(cityTokens.join(" ")),
          state,
          zip,
          rank: cityRank,
        });
      }
    } else {
      const tokens = rest[0];
      for (let k = Math.min(4, tokens.length); k >= 1; k--) {
        const cityTokens = tokens.slice(tokens.length - k);
        const streetTokens = tokens.slice(0, tokens.length - k);
        if (cityTokens.some((t) => /\d/.test(t))) continue;
        if (streetTokens.length === 1 && /^\d+$/.test(streetTokens[0])) continue;
        // "123 Main St" is still the street; "123 Main St St Lo" is Saint Louis.
        if (
          streetTokens.length > 0 && isStreetWord(cityTokens[0]) &&
          !isStreetWord(streetTokens.at(-1))
        ) continue;
        readings.push({
          street: streetTokens.join(" "),
          city: normalizeCityQuery(cityTokens.join(" ")),
          state,
          zip,
          rank: cityRank,
        });
      }
    }
    // A bare state needs a real street before it: in "123 Ma" the "Ma" is not Massachusetts.
    const bareOk = zip ? true : state ? looksLikeStreet(flat, true) : looksLikeStreet(flat, false);
    if (bareOk) {
      readings.push({ street: joinStreet(rest), city: "", state, zip, rank: bareRank });
    }
  }
  // Stable: within a rank, longer city readings (pushed first) win.
  return readings.sort((a, b) => a.rank - b.rank);
}

function describe(street: string, zip: ZipEntry): string {
  const place = `${zip.city.name}, ${zip.city.state} ${zip.zip}`;
  return street ? `${street}, ${place}` : place;
}

/** A ZIP the user typed (whole or begun): the street, its town and that ZIP. */
function zipPrediction(street: string, zip: ZipEntry): Prediction {
  return { description: describe(street, zip), placeId: `zip:${zip.zip}|${street}` };
}

/**
 * A town the user typed (whole or begun), with no ZIP: the data knows the town's ZIP codes,
 * not which one a street is in, so it attaches none ("1200 Barton Springs Rd, Austin, TX" is
 * 78704, not the town's first ZIP).
 */
function cityPrediction(street: string, city: CityEntry): Prediction {
  const place = `${city.name}, ${city.state}`;
  return {
    description: street ? `${street}, ${place}` : place,
    placeId: `city:${city.state}|${city.name}|${street}`,
  };
}

/**
 * Suggestions for one reading, best first; empty when it matches nothing. Only what the user
 * typed is completed: a town name or a ZIP they began (a town's ZIPs only when they typed
 * some of it). A street with only a state, or nothing, after it is never given a town: any
 * town would be invented, so the field asks for the town or ZIP instead.
 */
function matchReading(index: GeoIndex, reading: Reading, near?: LatLng): Prediction[] {
  const { street, city, state, zip } = reading;
  const inState = state ? (c: number) => stateOfCity(index, c) === state : undefined;
  if (city) {
    const [start, end] = prefixRange(index.cityKeys, city);
    if (start === end) return [];
    if (zip) {
      const found: number[] = [];
      for (const c of rows(start, end, inState)) {
        for (let k = index.cityZipStart[c]; k < index.cityZipStart[c + 1]; k++) {
          const z = index.cityZips[k];
          if (zipCodeOf(index, z).startsWith(zip)) found.push(z);
        }
      }
      return topK(found, MAX, zipOrder(index, near)).map((z) =>
        zipPrediction(street, zipAt(index, z))
      );
    }
    return topK(rows(start, end, inState), MAX, candidateOrder(index, city, near))
      .map((c) => cityPrediction(street, cityAt(index, c)));
  }
  if (!zip) return [];
  const [start, end] = zipPrefixRange(index, zip);
  const keep = state ? (z: number) => stateOfCity(index, index.zipCity[z]) === state : undefined;
  const found: number[] = [];
  if (!near) {
    for (const z of rows(start, end, keep)) {
      found.push(z);
      if (found.length === MAX) break;
    }
  } else found.push(...topK(rows(start, end, keep), MAX, zipOrder(index, near)));
  return found.map((z) => zipPrediction(street, zipAt(index, z)));
}

/** Cities whose normalised name is exactly `key`, optionally in `state`, biggest first. */
function exactCities(index: GeoIndex, key: string, state?: string): number[] {
  if (!key) return [];
  const [start, end] = prefixRange(index.cityKeys, key);
  const out: number[] = [];
  for (let c = start; c < end; c++) {
    if (index.cityKeys[c] === key && (!state || stateOfCity(index, c) === state)) out.push(c);
  }
  return out.sort(compareBySize(index));
}

/**
 * Splits the trailing city off `segments`: the last segment when commas delimit, else the
 * longest run of trailing words naming a city in `state` (or anywhere).
 */
function splitCity(
  index: GeoIndex,
  segments: string[][],
  state?: string,
  only?: number,
): { street: string; city: number } | undefined {
  if (segments.length === 0) return undefined;
  // A town in several states with none typed is not picked for the user: "Austin" alone may
  // be Texas or Minnesota, and only a suggestion they choose (or a state, or a ZIP) says which.
  const matches = (key: string) => {
    if (only !== undefined) return index.cityKeys[only] === key ? only : undefined;
    const found = exactCities(index, key, state);
    return found.length === 1 ? found[0] : undefined;
  };
  if (segments.length >= 2) {
    const city = matches(normalizeName(segments.at(-1)!.join(" ")));
    if (city) return { street: joinStreet(segments.slice(0, -1)), city };
  }
  const last = segments.at(-1)!;
  for (let k = Math.min(5, last.length); k >= 1; k--) {
    const city = matches(normalizeName(last.slice(last.length - k).join(" ")));
    if (city) {
      const head = segments.slice(0, -1);
      const remaining = last.slice(0, last.length - k);
      return { street: joinStreet(remaining.length ? [...head, remaining] : head), city };
    }
  }
  return undefined;
}

function geocodeAddress(index: GeoIndex, address: string): GeocodeResult | undefined {
  let { segments } = segmentsOf(address);
  if (segments.length === 0) return undefined;
  const zipMatch = /^(\d{5})(-\d{4})?$/.exec(segments.at(-1)!.at(-1)!);
  if (zipMatch) {
    segments = dropTail(segments, 1);
    const row = zipByCode(index, zipMatch[1]);
    if (row !== undefined) {
      const entry = zipAt(index, row);
      const state = trailingState(segments);
      if (state && state[0] === entry.city.state) segments = dropTail(segments, state[1]);
      const split = splitCity(index, segments, entry.city.state, index.zipCity[row]);
      const street = split ? split.street : joinStreet(segments);
      return zipCentroid(street, entry);
    }
  }
  const state = trailingState(segments);
  if (state && countTokens(segments) > state[1]) {
    const split = splitCity(index, dropTail(segments, state[1]), state[0]);
    if (split) return centroid(split.street, cityAt(index, split.city));
  }
  const split = splitCity(index, segments);
  return split ? centroid(split.street, cityAt(index, split.city)) : undefined;
}

function centroid(street: string, city: CityEntry): GeocodeResult {
  const place = `${city.name}, ${city.state}`;
  return {
    formattedAddress: street ? `${street}, ${place}` : place,
    lat: city.lat,
    lng: city.lng,
    precision: "city",
  };
}

/** The ZIP's centre: the street is kept as typed, never located. */
function zipCentroid(street: string, zip: ZipEntry): GeocodeResult {
  return { formattedAddress: describe(street, zip), lat: zip.lat, lng: zip.lng, precision: "zip" };
}

let indexPromise: Promise<GeoIndex> | undefined;

/** The index, built once per process at first use from the packed rows. */
function loadIndex(): Promise<GeoIndex> {
  indexPromise ??= loadZipRows().then(buildIndex);
  return indexPromise;
}

/** Suggestions for `input` from the offline data; at most five, nearest first with `near`. */
export async function suggestOffline(input: string, near?: LatLng): Promise<Prediction[]> {
  if (input.length > ADDRESS_AUTOCOMPLETE.maxInputLength * 2) return [];
  if (input.trim().length < ADDRESS_AUTOCOMPLETE.minChars) return [];
  const index = await loadIndex();
  for (const reading of readingsOf(input)) {
    const found = matchReading(index, reading, near);
    if (found.length) return found;
  }
  return [];
}

/** Geocodes a placeId from `suggestOffline` exactly, or an address to its ZIP or city. */
export async function geocodeOffline(
  query: { address?: string; placeId?: string },
): Promise<GeocodeResult | undefined> {
  const index = await loadIndex();
  if (query.placeId !== undefined) {
    const town = /^city:([A-Z]{2})\|([^|]*)\|([^]*)$/.exec(query.placeId);
    if (town) {
      const city = exactCities(index, normalizeName(town[2]), town[1])[0];
      if (city === undefined || town[3].length > ADDRESS_AUTOCOMPLETE.maxInputLength) {
        return undefined;
      }
      return centroid(joinStreet(segmentsOf(town[3]).segments), cityAt(index, city));
    }
    const m = /^zip:(\d{5})\|([^]*)$/.exec(query.placeId);
    const row = m ? zipByCode(index, m[1]) : undefined;
    if (!m || row === undefined || m[2].length > ADDRESS_AUTOCOMPLETE.maxInputLength) {
      return undefined;
    }
    return zipCentroid(joinStreet(segmentsOf(m[2]).segments), zipAt(index, row));
  }
  if (query.address !== undefined) {
    if (query.address.length > ADDRESS_AUTOCOMPLETE.maxInputLength * 2) return undefined;
    return geocodeAddress(index, query.address);
  }
  return undefined;
}

/** Builds the index now instead of on the first request (a start-up or benchmark warm-up). */
export async function warmOfflineIndex(): Promise<void> {
  await loadIndex();
}

/** The offline provider. Its index is shared by every instance in the process. */
export function createOfflineGeoProvider(): GeoProvider {
  return {
    name: "offline",
    suggest: (input, near) => suggestOffline(input, near).catch(() => []),
    geocode: (query) => geocodeOffline(query).catch(() => undefined),
  };
}

/** A town of the offline data: its name, state, centroid and ZIP codes. */
export interface OfflineTown extends LatLng {
  name: string;
  state: string;
  zips: string[];
}

/** The list while anyone holds it (a local page being built); then V8 may collect it. */
let townsKept: WeakRef<OfflineTown[]> | undefined;
let townsBuilding: Promise<OfflineTown[]> | undefined;

/**
 * Every town of the offline data (the local pages' places, issue 24), one per name and state,
 * sorted by state, then name. Built from the same index as suggestions, and not kept for the
 * life of the process: held, it cost 10.3 MB of heap from the first local page or sitemap on,
 * and it is needed only when a state's page data is rebuilt (routes/local_pages.tsx keeps that
 * per state). A rebuild takes about 20 ms; calls while one list is alive share it.
 */
export function listOfflineTowns(): Promise<OfflineTown[]> {
  const kept = townsKept?.deref();
  if (kept) return Promise.resolve(kept);
  townsBuilding ??= loadIndex().then((index) => {
    const list = index.cityKeys
      .map((_, c) => {
        const zips: string[] = [];
        for (let k = index.cityZipStart[c]; k < index.cityZipStart[c + 1]; k++) {
          zips.push(zipCodeOf(index, index.cityZips[k]));
        }
        return { ...cityAt(index, c), zips };
      })
      .sort((a, b) => cmp(a.state, b.state) || cmp(a.name, b.name));
    townsKept = new WeakRef(list);
    return list;
  }).finally(() => townsBuilding = undefined);
  return townsBuilding;
}
