/**
 * The demo network `deno task seed --demo` stores, generated from a seed number: surveyor firms
 * at real US city coordinates (the offline ZIP data of the `zipcodes` package), with contacts
 * and contact history, plus a demo admin, a few surveyor accounts linked to in-network firms,
 * a technician in one of those firms' crew, demo clients and their survey requests (each with
 * the stage of its lifecycle the seed takes it to). The same seed, city list and `now` always give the
 * same network; nothing here touches the database (lib/cli/seed.ts stores it).
 *
 * Firms are spread over every state (at least two each) and otherwise by state population,
 * and within a state by city size (a city's number of ZIP codes stands in for its size, as in
 * lib/geo/offline.ts). Every address, email and phone number is fictional: emails end in
 * `@demo.meridian.invalid` (a reserved domain that never receives mail), phones use the
 * 555-0100…0199 range reserved for fiction, websites the reserved `.example` domain.
 */
import { SURVEY_TYPES, type SurveyType } from "./survey_types.ts";
import { STATE_CODES, type StateCode, US_STATES } from "./survey_options.ts";
import type {
  ContactChannel,
  NewSurveyorInput,
  SurveyorContact,
  SurveyorSource,
  SurveyorStatus,
} from "./surveyor_schema.ts";
import type { SurveyRequestInput } from "./survey_schema.ts";
import { loadZipRows } from "./geo/zip_rows.ts";

/** The domain of every demo email address (`.invalid` is reserved: mail never leaves). */
export const DEMO_EMAIL_DOMAIN = "demo.meridian.invalid";

/** The seed used when none is given. */
export const DEFAULT_DEMO_SEED = 1;

/** Firms in the demo network when no count is given. */
export const DEFAULT_DEMO_SURVEYORS = 400;

/** A US city from the offline ZIP data: its main ZIP, centroid and size (ZIP count). */
export interface DemoCity {
  city: string;
  state: StateCode;
  zip: string;
  lat: number;
  lng: number;
  /** Number of ZIP codes the city has: a stand-in for its size. */
  zipCount: number;
}

/** One contact-history entry, dated relative to `now`. */
export interface DemoHistoryEntry {
  channel: ContactChannel;
  summary: string;
  outcome: string | null;
  /** YYYY-MM-DD or null. */
  nextFollowUp: string | null;
  /** How long before `now` it was written, in minutes. */
  minutesAgo: number;
}

/** One generated surveyor firm. `fields` is what `POST /api/surveyors` would accept. */
export interface DemoSurveyor {
  fields: NewSurveyorInput & {
    companyName: string;
    licenseStates: StateCode[];
    state: StateCode;
    lat: number;
    lng: number;
    serviceRadiusMiles: number;
    surveyTypes: SurveyType[];
    inNetwork: boolean;
    status: SurveyorStatus;
  };
  source: SurveyorSource;
  placeId: string | null;
  contacts: SurveyorContact[];
  history: DemoHistoryEntry[];
}

/** A demo account: the password is chosen by the caller (random, printed once). */
export interface DemoAccount {
  email: string;
  fullName: string;
  companyName: string | null;
  phone: string | null;
}

/** A surveyor account linked to the firm at `surveyorIndex` of `DemoNetwork.surveyors`. */
export interface DemoSurveyorAccount extends DemoAccount {
  surveyorIndex: number;
}

/** A technician account in the crew of the firm of `surveyorAccounts[surveyorAccountIndex]`. */
export interface DemoTechnicianAccount extends DemoAccount {
  surveyorAccountIndex: number;
}

/**
 * How far `deno task seed --demo` takes a request through the app: left `requested` (for the
 * admin to dispatch), `offered` to the surveyors around it (an open lead), its lead `bought`,
 * claimed and `assigned`, in `fieldwork` with part of the checklist answered, or `delivered`
 * with its files and the client's review.
 */
export type DemoStage = "requested" | "offered" | "bought" | "assigned" | "fieldwork" | "delivered";

/** A demo client's survey request: `request` is what the request flow would send. */
export interface DemoRequest {
  /** Index into `DemoNetwork.clients`. */
  clientIndex: number;
  request: SurveyRequestInput & { requestId: string; lat: number; lng: number };
  /** How long before `now` it was submitted, in minutes. */
  minutesAgo: number;
  stage: DemoStage;
  /** Index into `DemoNetwork.surveyorAccounts` of who bought or claimed it, for those stages. */
  takenBy: number | null;
}

/** Everything `deno task seed --demo` stores. */
export interface DemoNetwork {
  seed: number;
  admin: DemoAccount;
  surveyors: DemoSurveyor[];
  surveyorAccounts: DemoSurveyorAccount[];
  /** Null only when no firm could hold a surveyor account (a tiny or odd city list). */
  technician: DemoTechnicianAccount | null;
  clients: DemoAccount[];
  requests: DemoRequest[];
}

// 2020 census population in thousands: how firms are shared out between states.
// deno-fmt-ignore
const POPULATION: Record<StateCode, number> = {
  AL: 5025, AK: 733, AZ: 7152, AR: 3012, CA: 39538, CO: 5774, CT: 3606, DE: 990, DC: 690,
  FL: 21538, GA: 10712, HI: 1455, ID: 1839, IL: 12813, IN: 6786, IA: 3190, KS: 2938, KY: 4506,
  LA: 4658, ME: 1362, MD: 6177, MA: 7030, MI: 10077, MN: 5706, MS: 2961, MO: 6155, MT: 1084,
  NE: 1962, NV: 3105, NH: 1378, NJ: 9289, NM: 2118, NY: 20201, NC: 10439, ND: 779, OH: 11799,
  OK: 3959, OR: 4237, PA: 13003, RI: 1097, SC: 5118, SD: 887, TN: 6911, TX: 29146, UT: 3272,
  VT: 643, VA: 8631, WA: 7705, WV: 1794, WI: 5894, WY: 577,
};

// Land borders: a firm near a state line is often licensed on both sides.
// deno-fmt-ignore
const NEIGHBOURS: Record<StateCode, readonly StateCode[]> = {
  AL: ["FL", "GA", "MS", "TN"], AK: [], AZ: ["CA", "CO", "NM", "NV", "UT"],
  AR: ["LA", "MO", "MS", "OK", "TN", "TX"], CA: ["AZ", "NV", "OR"],
  CO: ["AZ", "KS", "NE", "NM", "OK", "UT", "WY"], CT: ["MA", "NY", "RI"], DE: ["MD", "NJ", "PA"],
  DC: ["MD", "VA"], FL: ["AL", "GA"], GA: ["AL", "FL", "NC", "SC", "TN"], HI: [],
  ID: ["MT", "NV", "OR", "UT", "WA", "WY"], IL: ["IN", "IA", "KY", "MO", "WI"],
  IN: ["IL", "KY", "MI", "OH"], IA: ["IL", "MN", "MO", "NE", "SD", "WI"],
  KS: ["CO", "MO", "NE", "OK"], KY: ["IL", "IN", "MO", "OH", "TN", "VA", "WV"],
  LA: ["AR", "MS", "TX"], ME: ["NH"], MD: ["DE", "PA", "VA", "WV", "DC"],
  MA: ["CT", "NH", "NY", "RI", "VT"], MI: ["IN", "OH", "WI"], MN: ["IA", "ND", "SD", "WI"],
  MS: ["AL", "AR", "LA", "TN"], MO: ["AR", "IL", "IA", "KS", "KY", "NE", "OK", "TN"],
  MT: ["ID", "ND", "SD", "WY"], NE: ["CO", "IA", "KS", "MO", "SD", "WY"],
  NV: ["AZ", "CA", "ID", "OR", "UT"], NH: ["ME", "MA", "VT"], NJ: ["DE", "NY", "PA"],
  NM: ["AZ", "CO", "OK", "TX", "UT"], NY: ["CT", "MA", "NJ", "PA", "VT"],
  NC: ["GA", "SC", "TN", "VA"], ND: ["MN", "MT", "SD"], OH: ["IN", "KY", "MI", "PA", "WV"],
  OK: ["AR", "CO", "KS", "MO", "NM", "TX"], OR: ["CA", "ID", "NV", "WA"],
  PA: ["DE", "MD", "NJ", "NY", "OH", "WV"], RI: ["CT", "MA"], SC: ["GA", "NC"],
  SD: ["IA", "MN", "MT", "NE", "ND", "WY"], TN: ["AL", "AR", "GA", "KY", "MS", "MO", "NC", "VA"],
  TX: ["AR", "LA", "NM", "OK"], UT: ["AZ", "CO", "ID", "NV", "NM", "WY"],
  VT: ["MA", "NH", "NY"], VA: ["KY", "MD", "NC", "TN", "WV", "DC"], WA: ["ID", "OR"],
  WV: ["KY", "MD", "OH", "PA", "VA"], WI: ["IL", "IA", "MI", "MN"],
  WY: ["CO", "ID", "MT", "NE", "SD", "UT"],
};

// Wide, thinly settled states: firms drive further.
const RURAL = new Set<StateCode>(["AK", "MT", "WY", "ND", "SD", "NM", "NV", "ID", "NE", "UT"]);
// Flood-prone coasts and rivers: more firms do elevation certificates.
const FLOOD = new Set<StateCode>(["FL", "LA", "TX", "NC", "SC", "NJ", "MS", "AL", "GA", "VA"]);

// Regional words firms name themselves after.
// deno-fmt-ignore
const REGIONAL: Partial<Record<StateCode, readonly string[]>> = {
  WA: ["Cascade", "Puget Sound", "Evergreen"], OR: ["Cascade", "Willamette", "Columbia"],
  CA: ["Golden State", "Sierra", "Pacific Coast"], NV: ["Silver State", "High Desert"],
  AZ: ["Saguaro", "Desert Sun", "Mogollon"], NM: ["Mesa", "Rio Grande", "Enchanted"],
  CO: ["Front Range", "Rocky Mountain", "Summit"], UT: ["Wasatch", "Red Rock"],
  TX: ["Lone Star", "Gulf Coast", "Hill Country"], OK: ["Red River", "Prairie"],
  FL: ["Sunshine", "Gulf Coast", "Suwannee"], GA: ["Peach State", "Piedmont"],
  NC: ["Blue Ridge", "Piedmont", "Tar Heel"], SC: ["Palmetto", "Lowcountry"],
  VA: ["Blue Ridge", "Shenandoah", "Tidewater"], TN: ["Volunteer", "Smoky Mountain"],
  KY: ["Bluegrass"], LA: ["Bayou", "Delta"], MS: ["Delta", "Magnolia"], AL: ["Mobile Bay"],
  PA: ["Keystone", "Allegheny"], NY: ["Empire", "Hudson Valley", "Adirondack"],
  NJ: ["Garden State", "Shore"], MA: ["Bay State", "Berkshire"], ME: ["Pine Tree", "Downeast"],
  NH: ["Granite State", "White Mountain"], VT: ["Green Mountain"], CT: ["Nutmeg"],
  MI: ["Great Lakes", "Northern Lights"], OH: ["Buckeye", "Western Reserve"],
  WI: ["Badger", "Northwoods"], MN: ["North Star", "Lakeland"], IL: ["Prairie State"],
  IN: ["Hoosier", "Wabash"], IA: ["Heartland", "Prairie"], MO: ["Ozark", "Show-Me"],
  AR: ["Ozark", "Natural State"], KS: ["Sunflower", "Flint Hills"], NE: ["Platte Valley"],
  SD: ["Black Hills"], ND: ["Red River", "Dakota"], MT: ["Big Sky", "Treasure State"],
  WY: ["Big Horn", "Cowboy State"], ID: ["Snake River", "Gem State"], AK: ["Denali", "Northern"],
  HI: ["Aloha", "Island"], MD: ["Chesapeake", "Old Line"], DE: ["First State"],
  DC: ["Capitol"], WV: ["Mountain State", "Appalachian"], RI: ["Ocean State", "Narragansett"],
};

// deno-fmt-ignore
const GENERIC_WORDS = [
  "Benchmark", "True North", "Polaris", "Landmark", "Cornerstone", "Monument",
  "Baseline", "Compass Point", "Keystone", "Pinnacle", "Traverse", "Summit", "Precision",
  "Heritage", "Iron Pin", "Section Line", "Plumb Line", "Geodetic",
];

// deno-fmt-ignore
const FIRST_NAMES = [
  "James", "Maria", "Robert", "Linda", "Michael", "Patricia", "David", "Jennifer", "William",
  "Elizabeth", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Carlos", "Karen",
  "Daniel", "Nancy", "Matthew", "Lisa", "Anthony", "Betty", "Mark", "Sandra", "Steven",
  "Ashley", "Andrew", "Kimberly", "Joshua", "Emily", "Kevin", "Donna", "Brian", "Michelle",
  "Luis", "Carol", "Jose", "Amanda", "Ryan", "Melissa", "Jacob", "Deborah", "Gary", "Laura",
  "Eric", "Rebecca", "Hiroshi", "Priya", "Dmitri", "Aisha", "Wei", "Fatima", "Tyrone", "Keisha",
  "Noah", "Olivia", "Ethan", "Grace",
];

// deno-fmt-ignore
const LAST_NAMES = [
  "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
  "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor",
  "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez",
  "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright",
  "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker", "Hall",
  "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Okafor", "Patel", "Kowalski",
  "Lindqvist", "Yamamoto", "Brennan", "Delgado", "Whitfield", "Hartley", "McAllister",
];

// deno-fmt-ignore
const STREETS = [
  "Main", "Oak", "Maple", "Cedar", "Pine", "Elm", "Washington", "Lake", "Hill", "Park",
  "Ridge", "Mill", "Church", "Walnut", "Spring", "River", "Market", "Highland", "Sunset",
  "Jefferson", "Lincoln", "Franklin", "Meadow", "Forest", "Valley", "Commerce", "Industrial",
];
const STREET_KINDS = ["St", "Ave", "Rd", "Dr", "Blvd", "Ln", "Way", "Pkwy", "Ct"];

// deno-fmt-ignore
const CONTACT_TITLES = [
  "Office Manager", "Project Manager", "Survey Technician", "Party Chief", "CAD Manager",
  "Scheduling Coordinator", "Business Development",
];

// deno-fmt-ignore
const NOTES = [
  "Prefers leads within 40 miles of the office.",
  "Two field crews; busiest March to October.",
  "Strong on rural boundary work; no drone topography yet.",
  "Runs a drone for topographic surveys.",
  "Answers fastest by text message.",
  "Also does flood elevation certificates for local insurers.",
  "Asked to be contacted by email only.",
];

/** A small, fast, seedable generator (mulberry32): the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Picker {
  constructor(readonly next: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }
  pickOrUndefined<T>(list: readonly T[]): T | undefined {
    return list.length ? this.pick(list) : undefined;
  }
  /** An index of `weights`, each chosen in proportion to its weight. */
  weighted(cumulative: readonly number[]): number {
    const target = this.next() * cumulative[cumulative.length - 1];
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
  /** A version-4-shaped UUID from this sequence (deterministic, so not for secrets). */
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(0, 15).toString(16));
    hex[12] = "4";
    hex[16] = (8 + this.int(0, 3)).toString(16);
    const s = hex.join("");
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${
      s.slice(20)
    }`;
  }
}

function cumulate(weights: readonly number[]): number[] {
  let sum = 0;
  return weights.map((w) => (sum += w));
}

const STATE_SET = new Set<string>(STATE_CODES);

/** A row of the offline ZIP data (lib/geo/zip_rows.ts) or of the `zipcodes` package. */
interface RawZipCode {
  zip: string;
  latitude: number | null;
  longitude: number | null;
  city: string;
  state: string;
}
// Names of single-company ZIPs the data lists as if they were towns (see lib/geo/offline.ts).
const NOT_A_TOWN =
  /\b(inc|co|corp|ins|insurance|dept|svc|assoc|ctr|irs|natl|mail|services?|bank|box|university|college|base|afb)\b/i;

/**
 * The US cities of the offline ZIP data (states and DC only), one entry per city and state,
 * sorted by state then city: the city's lowest ZIP, the median of its ZIP centroids, and its
 * ZIP count. `codes` is the offline ZIP rows (lib/geo/zip_rows.ts, see `loadDemoCities`) or
 * a table keyed like the `zipcodes` package's.
 */
export function citiesFromZipCodes(
  codes:
    | Record<string, RawZipCode>
    | readonly RawZipCode[],
): DemoCity[] {
  const groups = new Map<
    string,
    { city: string; state: StateCode; zips: string[]; lat: number[]; lng: number[] }
  >();
  for (const z of Object.values(codes)) {
    if (!STATE_SET.has(z.state) || !/^\d{5}$/.test(z.zip)) continue;
    if (typeof z.latitude !== "number" || typeof z.longitude !== "number") continue;
    if (!Number.isFinite(z.latitude) || !Number.isFinite(z.longitude)) continue;
    if (!/^[A-Za-z][A-Za-z .'-]*$/.test(z.city) || NOT_A_TOWN.test(z.city)) continue;
    const key = `${z.city.toLowerCase()}|${z.state}`;
    let g = groups.get(key);
    if (!g) {
      groups.set(
        key,
        g = { city: z.city, state: z.state as StateCode, zips: [], lat: [], lng: [] },
      );
    }
    g.zips.push(z.zip);
    g.lat.push(z.latitude);
    g.lng.push(z.longitude);
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)];
  };
  const cities = [...groups.values()].map((g): DemoCity => ({
    city: g.city,
    state: g.state,
    zip: [...g.zips].sort()[0],
    lat: Math.round(median(g.lat) * 1e4) / 1e4,
    lng: Math.round(median(g.lng) * 1e4) / 1e4,
    zipCount: g.zips.length,
  }));
  return cities.sort((a, b) =>
    a.state < b.state ? -1 : a.state > b.state ? 1 : a.city < b.city ? -1 : a.city > b.city ? 1 : 0
  );
}

let citiesPromise: Promise<DemoCity[]> | undefined;

/** The offline ZIP data's cities (`citiesFromZipCodes`), loaded once per process. */
export function loadDemoCities(): Promise<DemoCity[]> {
  citiesPromise ??= loadZipRows().then(citiesFromZipCodes);
  return citiesPromise;
}

/** Shares `total` between states: `min` each, the rest by population (largest remainder). */
function firmsPerState(total: number, min: number): Map<StateCode, number> {
  const floor = Math.min(min, Math.floor(total / STATE_CODES.length));
  const rest = total - floor * STATE_CODES.length;
  const people = STATE_CODES.reduce((s, st) => s + POPULATION[st], 0);
  const shares = STATE_CODES.map((st) => {
    const exact = (rest * POPULATION[st]) / people;
    return { st, n: floor + Math.floor(exact), frac: exact - Math.floor(exact) };
  });
  let left = total - shares.reduce((s, x) => s + x.n, 0);
  for (const x of [...shares].sort((a, b) => b.frac - a.frac || (a.st < b.st ? -1 : 1))) {
    if (left-- <= 0) break;
    x.n++;
  }
  return new Map(shares.map((x) => [x.st, x.n]));
}

function slugOf(name: string): string {
  return name.toLowerCase().replace(/&/g, "and").replace(/[^a-z0-9]+/g, "-").replace(
    /^-|-$/g,
    "",
  );
}

function phoneOf(r: Picker): string {
  // Area codes start 2–9 and are never N11; 555-0100…0199 is reserved for fiction.
  let area: number;
  do area = r.int(201, 989); while (area % 100 === 11);
  return `(${area}) 555-01${String(r.int(0, 99)).padStart(2, "0")}`;
}

/** Moves a point up to `miles` in a random direction (offices are not all at the centroid). */
function jitter(r: Picker, lat: number, lng: number, miles: number) {
  const d = (r.next() * miles) / 69;
  const a = r.next() * 2 * Math.PI;
  const round = (x: number) => Math.round(x * 1e5) / 1e5;
  return {
    lat: round(Math.max(-89.9, Math.min(89.9, lat + d * Math.sin(a)))),
    lng: round(lng + (d * Math.cos(a)) / Math.max(0.2, Math.cos((lat * Math.PI) / 180))),
  };
}

function distanceMiles(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

function licensePrefix(state: StateCode): string {
  return state === "TX"
    ? "RPLS"
    : state === "CA"
    ? "PLS"
    : state === "FL"
    ? "LS"
    : state === "NY"
    ? "LS"
    : "PS";
}

function surveyTypesFor(r: Picker, state: StateCode): SurveyType[] {
  const odds: Record<SurveyType, number> = {
    boundary: 0.95,
    topographic: 0.75,
    elevation_certificate: FLOOD.has(state) ? 0.8 : 0.45,
    construction: 0.5,
    alta: 0.4,
    subdivision: 0.3,
  };
  const types = SURVEY_TYPES.filter((t) => r.chance(odds[t]));
  return types.length ? types : ["boundary"];
}

function statusFor(r: Picker): { status: SurveyorStatus; inNetwork: boolean } {
  const x = r.next();
  if (x < 0.6) return { status: "active", inNetwork: true };
  if (x < 0.68) return { status: "paused", inNetwork: true };
  if (x < 0.78) return { status: "invited", inNetwork: false };
  return { status: "prospect", inNetwork: false };
}

function historyFor(r: Picker, status: SurveyorStatus, now: Date): DemoHistoryEntry[] {
  const day = 24 * 60;
  const followUp = (days: number) =>
    new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);
  const at = (minDays: number, maxDays: number) => r.int(minDays * day, maxDays * day);
  switch (status) {
    case "pending":
    case "prospect":
      return r.chance(0.5) ? [] : [
        r.chance(0.5)
          ? {
            channel: "call",
            summary: "Called the office to introduce Meridian; left a voicemail.",
            outcome: "No answer",
            nextFollowUp: followUp(r.int(3, 14)),
            minutesAgo: at(1, 20),
          }
          : {
            channel: "note",
            summary: "Found on the map while looking for coverage in the area.",
            outcome: null,
            nextFollowUp: null,
            minutesAgo: at(5, 40),
          },
      ];
    case "invited":
      return [
        {
          channel: "call",
          summary: "Walked the principal through how leads are priced and sent.",
          outcome: "Interested",
          nextFollowUp: null,
          minutesAgo: at(20, 40),
        },
        {
          channel: "email",
          summary: "Sent the network invitation with the lead pricing sheet.",
          outcome: "Awaiting reply",
          nextFollowUp: followUp(r.int(2, 10)),
          minutesAgo: at(1, 19),
        },
      ];
    case "paused":
      return [
        {
          channel: "meeting",
          summary: "Onboarding call: confirmed coverage radius and survey types.",
          outcome: "Joined the network",
          nextFollowUp: null,
          minutesAgo: at(90, 200),
        },
        {
          channel: "call",
          summary: "Asked to pause new leads during their busy season.",
          outcome: "Paused until further notice",
          nextFollowUp: followUp(r.int(14, 45)),
          minutesAgo: at(3, 30),
        },
      ];
    case "active": {
      const entries: DemoHistoryEntry[] = [{
        channel: "meeting",
        summary: "Onboarding call: confirmed coverage radius and survey types.",
        outcome: "Joined the network",
        nextFollowUp: null,
        minutesAgo: at(60, 300),
      }];
      if (r.chance(0.6)) {
        entries.push({
          channel: r.pick(["call", "text"] as const),
          summary: r.pick([
            "Quarterly check-in: workload is fine, happy to take more boundary work.",
            "Confirmed they can take rush jobs within 30 miles.",
            "Asked for more ALTA leads; says turnaround is about two weeks.",
          ]),
          outcome: "Good standing",
          nextFollowUp: r.chance(0.3) ? followUp(r.int(20, 90)) : null,
          minutesAgo: at(1, 55),
        });
      }
      return entries;
    }
  }
}

/**
 * `count` surveyor firms from `cities`, deterministic for `seed` and `now` (follow-up dates
 * are relative to it). Company names are unique within one call. Every `fields` passes
 * NewSurveyorSchema, every contact ContactSchema and every history entry ContactHistorySchema.
 */
export function generateDemoSurveyors(
  cities: readonly DemoCity[],
  { seed = DEFAULT_DEMO_SEED, count = DEFAULT_DEMO_SURVEYORS, now = new Date() }: {
    seed?: number;
    count?: number;
    now?: Date;
  } = {},
): DemoSurveyor[] {
  const r = new Picker(seededRandom(seed));
  const byState = new Map<StateCode, { list: DemoCity[]; cumulative: number[] }>();
  for (const c of cities) {
    const entry = byState.get(c.state) ?? { list: [], cumulative: [] };
    entry.list.push(c);
    byState.set(c.state, entry);
  }
  for (const entry of byState.values()) {
    // Bigger cities get more than their share of ZIPs' worth: that is where firms cluster.
    entry.cumulative = cumulate(entry.list.map((c) => c.zipCount ** 1.6));
  }
  const names = new Set<string>();
  const emails = new Set<string>();
  // The next numeric suffix to try per base, so a large count stays linear.
  const suffixes = new Map<string, number>();
  const unique = (taken: Set<string>, base: string, join: (base: string, n: number) => string) => {
    let candidate = base;
    let n = suffixes.get(base) ?? 2;
    while (taken.has(candidate)) candidate = join(base, n++);
    suffixes.set(base, n);
    taken.add(candidate);
    return candidate;
  };
  const uniqueEmail = (local: string) =>
    `${unique(emails, local, (b, n) => `${b}${n}`)}@${DEMO_EMAIL_DOMAIN}`;
  const surveyors: DemoSurveyor[] = [];
  const perState = firmsPerState(count, 2);
  for (const state of STATE_CODES) {
    const pool = byState.get(state);
    if (!pool) continue;
    for (let i = 0; i < (perState.get(state) ?? 0); i++) {
      const city = pool.list[r.weighted(pool.cumulative)];
      const first = r.pick(FIRST_NAMES);
      const last = r.pick(LAST_NAMES);
      const partner = r.pick(LAST_NAMES);
      const regional = REGIONAL[state] ?? [];
      const templates = [
        () => `${city.city} Land Surveying`,
        () => `${city.city} Survey Co.`,
        () => `${last} Surveying`,
        () => `${last} & Associates Land Surveyors`,
        () => `${last} & ${partner} Surveying`,
        () => `${r.pick(GENERIC_WORDS)} Surveying`,
        () => `${r.pick(GENERIC_WORDS)} Land Surveys`,
        () => `${last} Engineering & Surveying`,
        () => `${US_STATES[state]} Geomatics`,
        ...regional.map((word) => () => `${word} Land Surveying`),
        ...regional.map((word) => () => `${word} Survey Group`),
      ];
      // A few tries for a name not yet taken, then "… of {City}", then a number.
      let companyName = r.pick(templates)();
      for (let tries = 0; tries < 3 && names.has(companyName); tries++) {
        companyName = r.pick(templates)();
      }
      if (names.has(companyName)) {
        companyName = `${companyName.replace(/ Co\.$/, "")} of ${city.city}`;
      }
      companyName = unique(names, companyName, (b, n) => `${b} ${n}`);
      const slug = slugOf(companyName);

      const { status, inNetwork } = statusFor(r);
      const licenseStates: StateCode[] = [state];
      const neighbours = NEIGHBOURS[state];
      if (neighbours.length && r.chance(0.3)) licenseStates.push(r.pick(neighbours));
      if (neighbours.length > 1 && r.chance(0.08)) {
        const other = r.pick(neighbours);
        if (!licenseStates.includes(other)) licenseStates.push(other);
      }
      const radii = RURAL.has(state) ? [50, 60, 75, 100, 100] : [25, 30, 40, 50, 50, 60, 75, 100];
      const { lat, lng } = jitter(r, city.lat, city.lng, 4);
      const fromPlace = status === "prospect" && r.chance(0.4);
      const hasRating = fromPlace || r.chance(0.7);
      const contactCount = status === "prospect" ? r.int(1, 2) : r.int(1, 3);
      const contacts: SurveyorContact[] = [];
      for (let c = 0; c < contactCount; c++) {
        const cf = c === 0 ? first : r.pick(FIRST_NAMES);
        const cl = c === 0 ? last : r.pick(LAST_NAMES);
        contacts.push({
          name: `${cf} ${cl}`,
          title: c === 0 ? "Principal, Professional Land Surveyor" : r.pick(CONTACT_TITLES),
          email: uniqueEmail(`${cf}.${cl}`.toLowerCase().replace(/[^a-z.]/g, "")),
          phone: phoneOf(r),
          isPrimary: c === 0,
        });
      }
      surveyors.push({
        fields: {
          companyName,
          principalName: `${first} ${last}`,
          licenseNumber: `${licensePrefix(state)} ${r.int(1000, 99999)}`,
          licenseStates,
          email: uniqueEmail(`office.${slug}`),
          phone: phoneOf(r),
          website: r.chance(0.75) ? `https://${slug}.example` : null,
          address: `${r.int(10, 9899)} ${r.pick(STREETS)} ${r.pick(STREET_KINDS)}`,
          city: city.city,
          state,
          zip: city.zip,
          lat,
          lng,
          serviceRadiusMiles: r.pick(radii),
          surveyTypes: surveyTypesFor(r, state),
          inNetwork,
          status,
          rating: hasRating ? Math.round((3.4 + r.next() * 1.6) * 10) / 10 : null,
          reviewCount: hasRating ? r.int(2, 240) : null,
          notes: r.chance(0.25) ? r.pick(NOTES) : null,
        },
        source: fromPlace ? "place" : "manual",
        placeId: fromPlace ? `demo-place-${seed}-${surveyors.length + 1}` : null,
        contacts,
        history: historyFor(r, status, now),
      });
    }
  }
  return surveyors;
}

// The states the surveyor accounts are in: large, and far apart on the map. The first one's
// firm is the demo's crew: its technician works there and it carries the jobs past the lead.
const ACCOUNT_STATES: readonly StateCode[] = ["TX", "CA", "FL", "CO", "NC"];

// What a survey type is usually ordered for, and on what kind of property.
const TYPE_USE: Record<
  SurveyType,
  { purpose: SurveyRequestInput["purpose"]; propertyType: SurveyRequestInput["propertyType"] }
> = {
  boundary: { purpose: "selling", propertyType: "residential" },
  topographic: { purpose: "building_permit", propertyType: "residential" },
  elevation_certificate: { purpose: "flood_insurance", propertyType: "residential" },
  construction: { purpose: "construction", propertyType: "commercial" },
  alta: { purpose: "lender_title", propertyType: "commercial" },
  subdivision: { purpose: "subdividing", propertyType: "vacant" },
};

// Each planned request: where, by whom, of which type (the first the firm offers), how far the
// seed takes it, and how long ago it came in. `account` places it inside that surveyor account's
// coverage; without one it goes to any active firm of `state` (none of them with an account).
// Stages past "offered" need an instant quote to claim, so they never ask for a subdivision.
// deno-fmt-ignore
const REQUEST_PLANS: readonly {
  account?: number;
  state: StateCode;
  types: readonly SurveyType[];
  stage: DemoStage;
  clientIndex: number;
  /** Submitted between these many days ago. */
  daysAgo: readonly [number, number];
}[] = [
  { account: 0, state: "TX", types: ["boundary", "topographic"], stage: "delivered", clientIndex: 0, daysAgo: [12, 16] },
  { account: 0, state: "TX", types: ["boundary", "topographic"], stage: "fieldwork", clientIndex: 0, daysAgo: [6, 9] },
  { account: 0, state: "TX", types: ["topographic", "boundary"], stage: "assigned", clientIndex: 0, daysAgo: [3, 5] },
  { account: 0, state: "TX", types: ["elevation_certificate", "boundary"], stage: "bought", clientIndex: 1, daysAgo: [1, 3] },
  { account: 0, state: "TX", types: ["boundary", "topographic"], stage: "offered", clientIndex: 0, daysAgo: [0.1, 1] },
  { account: 1, state: "CA", types: ["topographic", "boundary"], stage: "offered", clientIndex: 1, daysAgo: [0.1, 2] },
  { account: 2, state: "FL", types: ["elevation_certificate", "boundary"], stage: "offered", clientIndex: 2, daysAgo: [0.1, 2] },
  { account: 3, state: "CO", types: ["boundary", "topographic"], stage: "offered", clientIndex: 3, daysAgo: [0.1, 2] },
  { account: 4, state: "NC", types: ["alta", "boundary"], stage: "offered", clientIndex: 2, daysAgo: [0.1, 2] },
  { state: "WA", types: ["construction", "boundary"], stage: "offered", clientIndex: 3, daysAgo: [0.5, 3] },
  { state: "IL", types: ["boundary"], stage: "offered", clientIndex: 1, daysAgo: [0.5, 3] },
  { state: "NY", types: ["subdivision", "boundary"], stage: "requested", clientIndex: 3, daysAgo: [0.02, 0.1] },
];

/**
 * The whole demo network for `seed`: `surveyorCount` firms (`generateDemoSurveyors`), a demo
 * admin, one surveyor account per account state linked to an active in-network firm there, a
 * technician in the first account's firm, four clients, and twelve requests each inside the
 * coverage of an active in-network firm licensed there that offers its survey type — every
 * surveyor account's firm covers at least one that stays open, and the first one's covers the
 * jobs it takes through the later stages (`DemoRequest.stage`). Deterministic for `seed`,
 * `cities` and `now`.
 */
export function generateDemoNetwork(
  cities: readonly DemoCity[],
  { seed = DEFAULT_DEMO_SEED, surveyorCount = DEFAULT_DEMO_SURVEYORS, now = new Date() }: {
    seed?: number;
    surveyorCount?: number;
    now?: Date;
  } = {},
): DemoNetwork {
  const surveyors = generateDemoSurveyors(cities, { seed, count: surveyorCount, now });
  const r = new Picker(seededRandom(seed ^ 0x5eed));
  const taken = new Set(
    surveyors.flatMap((s) => [s.fields.email, ...s.contacts.map((c) => c.email)]),
  );
  const emailFor = (first: string, last: string) => {
    const local = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, "");
    let email = `${local}@${DEMO_EMAIL_DOMAIN}`;
    for (let n = 2; taken.has(email); n++) email = `${local}${n}@${DEMO_EMAIL_DOMAIN}`;
    taken.add(email);
    return email;
  };

  const admin: DemoAccount = {
    email: `admin@${DEMO_EMAIL_DOMAIN}`,
    fullName: "Demo Admin",
    companyName: "Meridian (demo)",
    phone: null,
  };
  taken.add(admin.email);

  const isActive = (s: DemoSurveyor) => s.fields.status === "active" && s.fields.inNetwork;
  const surveyorAccounts: DemoSurveyorAccount[] = [];
  for (const state of ACCOUNT_STATES) {
    // A firm that does boundary work, the bread and butter of the demo's jobs, if there is one.
    const inState = (s: DemoSurveyor) => isActive(s) && s.fields.state === state;
    let index = surveyors.findIndex((s) => inState(s) && s.fields.surveyTypes.includes("boundary"));
    if (index < 0) index = surveyors.findIndex(inState);
    if (index < 0) continue;
    const s = surveyors[index];
    s.source = "signup";
    const primary = s.contacts[0];
    surveyorAccounts.push({
      surveyorIndex: index,
      // The account is the principal's: the primary contact's address.
      email: primary.email!,
      fullName: primary.name,
      companyName: s.fields.companyName,
      phone: primary.phone,
    });
  }

  const clients: DemoAccount[] = [];
  for (let i = 0; i < 4; i++) {
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    clients.push({
      email: emailFor(first, last),
      fullName: `${first} ${last}`,
      companyName: i === 3 ? `${last} Development LLC` : null,
      phone: phoneOf(r),
    });
  }

  const crew = surveyorAccounts[0];
  const techFirst = r.pick(FIRST_NAMES);
  const techLast = r.pick(LAST_NAMES);
  const technician: DemoTechnicianAccount | null = crew
    ? {
      surveyorAccountIndex: 0,
      email: emailFor(techFirst, techLast),
      fullName: `${techFirst} ${techLast}`,
      companyName: crew.companyName,
      phone: phoneOf(r),
    }
    : null;

  const requests: DemoRequest[] = [];
  const accountIndexes = new Set(surveyorAccounts.map((a) => a.surveyorIndex));
  for (const plan of REQUEST_PLANS) {
    const account = plan.account === undefined ? undefined : surveyorAccounts[plan.account];
    if (plan.account !== undefined && !account) continue;
    const offers = (s: DemoSurveyor) => plan.types.some((t) => s.fields.surveyTypes.includes(t));
    const firm = account
      ? surveyors[account.surveyorIndex]
      : r.pickOrUndefined(surveyors.filter((s, i) =>
        isActive(s) && s.fields.state === plan.state && offers(s) && !accountIndexes.has(i)
      ));
    if (!firm) continue;
    const surveyType = plan.types.find((t) => firm.fields.surveyTypes.includes(t)) ??
      firm.fields.surveyTypes.find((t) => t !== "subdivision");
    if (
      !surveyType || (plan.stage !== "offered" && plan.stage !== "requested" &&
        surveyType === "subdivision")
    ) continue;
    const { purpose, propertyType } = TYPE_USE[surveyType];
    // A town of the firm's state well inside its radius, else the firm's own town.
    const near = cities.filter((c) =>
      c.state === firm.fields.state &&
      distanceMiles(c, firm.fields) < firm.fields.serviceRadiusMiles * 0.6
    );
    const city = near.length
      ? r.pick(near)
      : cities.find((c) => c.state === firm.fields.state && c.city === firm.fields.city)!;
    const point = jitter(r, city.lat, city.lng, 1);
    const client = clients[plan.clientIndex];
    const street = `${r.int(100, 9899)} ${r.pick(STREETS)} ${r.pick(STREET_KINDS)}`;
    const address = `${street}, ${city.city}, ${city.state} ${city.zip}`;
    const acreage = propertyType === "residential"
      ? Math.round((0.15 + r.next() * 1.5) * 100) / 100
      : Math.round((1 + r.next() * 30) * 10) / 10;
    const [minDays, maxDays] = plan.daysAgo;
    requests.push({
      clientIndex: plan.clientIndex,
      minutesAgo: r.int(Math.round(minDays * 24 * 60), Math.round(maxDays * 24 * 60)),
      stage: plan.stage,
      takenBy: plan.stage === "offered" || plan.stage === "requested" ? null : plan.account ?? null,
      request: {
        requestId: r.uuid(),
        surveyType,
        propertyType,
        acreage,
        terrain: r.pick(["flat", "rolling", "hilly"] as const),
        vegetation: r.pick(["clear", "light", "moderate"] as const),
        structures: r.int(0, 3),
        cornersToSet: surveyType === "boundary" ? r.int(0, 4) : 0,
        cornersKnown: r.chance(0.5),
        rush: r.chance(0.2) ? "expedited" : "standard",
        state: city.state,
        altaItems: surveyType === "alta" ? ["1", "2", "3", "4", "8", "11a"] : [],
        address,
        formattedAddress: address,
        lat: point.lat,
        lng: point.lng,
        purpose,
        contactName: client.fullName,
        contactPhone: client.phone!,
        contactEmail: client.email,
        notes: r.chance(0.5) ? "Gate code is 1234; the dog is friendly." : undefined,
      },
    });
  }

  return { seed, admin, surveyors, surveyorAccounts, technician, clients, requests };
}
