/**
 * Local pages for organic search (issue 24): which towns Meridian serves, and what their pages
 * say. Pure: the towns come from the offline ZIP data (lib/geo/offline.ts), the firms and
 * surveys from db/local_pages.ts, prices from the pricing engine.
 *
 * A town is served when at least one public firm (active, verified) covers it: licensed in the
 * town's state and with the town's centre within its own service radius of its office (the
 * rule matching uses, on the same sphere as `geo_distance_m`). Every other town has no page.
 */
import {
  PRICED_SURVEY_TYPES,
  type PricedSurveyType,
  priceSurvey,
  type PricingConfig,
} from "./pricing.ts";
import type { Quote } from "./pricing.ts";
import { priceLead } from "./lead_pricing.ts";
import type { SurveyDetails } from "./survey_details.ts";
import { type StateCode, US_STATES } from "./survey_options.ts";
import { SURVEY_TYPE_INFO } from "./survey_types.ts";
import { licensingBoard } from "./licensing_boards.ts";
import { typeAnswer, typeNoun, typeQuestion, withArticle } from "./local_faq_text.ts";
import type { OfflineTown } from "./geo/offline.ts";
import { SPHERE_RADIUS_M } from "./geo/cells.ts";
import { METERS_PER_MILE } from "./matching.ts";
import { formatInteger } from "./numbers.ts";

/** The sphere `geo_point` uses, in miles. */
const EARTH_RADIUS_MILES = SPHERE_RADIUS_M / METERS_PER_MILE;

/** Nearby served towns a town page links to. */
export const NEARBY_TOWNS = 8;
/** Miles around a town within which its page lists recent completed surveys. */
export const RECENT_SURVEY_MILES = 30;
/** Recent completed surveys a town page lists. */
export const RECENT_SURVEYS = 8;
/** URLs per sitemap file (the sitemaps.org limit). */
export const SITEMAP_MAX_URLS = 50_000;

/** A public firm as the local pages use it. */
export interface LocalFirm {
  id: string;
  slug: string;
  companyName: string;
  city: string | null;
  state: string | null;
  lat: number;
  lng: number;
  serviceRadiusMiles: number;
  licenseStates: string[];
  surveyTypes: string[];
}

/** A served town: the offline town, its slug and the firms covering it, nearest first. */
export interface ServedTown {
  town: OfflineTown;
  slug: string;
  firms: { firm: LocalFirm; miles: number }[];
}

/** What a state's pages are built from. */
export interface StateCoverage {
  state: StateCode;
  /** Firms licensed in the state. */
  firms: LocalFirm[];
  /** Served towns by name. */
  towns: ServedTown[];
  bySlug: Map<string, ServedTown>;
}

/** A completed survey as the pages show it: nothing that names or locates a person. */
export interface RecentSurvey {
  surveyType: string;
  zip: string | null;
  acreage: number;
  priceCents: number | null;
  daysToDelivery: number;
  /** Miles from the town's centre (not shown; used to pick the nearest). */
  miles: number;
  completedDate: string;
}

/** Great-circle miles between two points on the `geo_point` sphere. */
export function milesBetween(
  a: { lat: number; lng: number },
  b: { lat: number; lng: number },
): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** "Austin" → "austin", "St. Louis" → "st-louis", "Cañon City" → "canon-city". */
export function townSlug(name: string): string {
  return name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

/** The state for a lower-case URL code ("tx"), or undefined. */
export function stateFromSlug(slug: string): StateCode | undefined {
  const code = slug.toUpperCase();
  return slug === slug.toLowerCase() && Object.hasOwn(US_STATES, code)
    ? code as StateCode
    : undefined;
}

/** The URL slug of a priced type's local pages: its service page's ("boundary-surveys"). */
export const SERVICE_SLUGS: Record<PricedSurveyType, string> = Object.fromEntries(
  PRICED_SURVEY_TYPES.map((t) => [t, SURVEY_TYPE_INFO[t].path.split("/").pop()!]),
) as Record<PricedSurveyType, string>;

/** The priced type for a service slug, or undefined. */
export function typeFromServiceSlug(slug: string): PricedSurveyType | undefined {
  return PRICED_SURVEY_TYPES.find((t) => SERVICE_SLUGS[t] === slug);
}

/** `/land-surveyors/tx`. */
export function statePath(state: string): string {
  return `/land-surveyors/${state.toLowerCase()}`;
}

/** `/land-surveyors/tx/austin`, or `/services/boundary-surveys/tx/austin` with a type. */
export function townPath(state: string, slug: string, type?: PricedSurveyType): string {
  return type
    ? `/services/${SERVICE_SLUGS[type]}/${state.toLowerCase()}/${slug}`
    : `/land-surveyors/${state.toLowerCase()}/${slug}`;
}

/**
 * The state's served towns from its `towns` (offline data) and the public `firms` licensed in
 * it. A firm covers a town when the town's centre is within its service radius.
 */
export function stateCoverage(
  state: StateCode,
  towns: readonly OfflineTown[],
  firms: readonly LocalFirm[],
): StateCoverage {
  const licensed = firms.filter((f) => f.licenseStates.includes(state));
  const served: ServedTown[] = [];
  const bySlug = new Map<string, ServedTown>();
  for (const town of towns) {
    if (town.state !== state) continue;
    const covering: ServedTown["firms"] = [];
    for (const firm of licensed) {
      const miles = milesBetween(firm, town);
      if (miles <= firm.serviceRadiusMiles) covering.push({ firm, miles });
    }
    if (covering.length === 0) continue;
    const slug = townSlug(town.name);
    // Two spellings of one name ("St Louis", "St. Louis") share a slug: the first one wins.
    if (!slug || bySlug.has(slug)) continue;
    covering.sort((a, b) => a.miles - b.miles || (a.firm.id < b.firm.id ? -1 : 1));
    const entry = { town, slug, firms: covering };
    served.push(entry);
    bySlug.set(slug, entry);
  }
  return { state, firms: licensed, towns: served, bySlug };
}

/**
 * The served towns nearest `town` in its state, nearest first, without it. Remembered per
 * coverage and town (a town's six pages ask for the same list; a new coverage is a new key).
 */
export function nearbyTowns(
  coverage: StateCoverage,
  town: ServedTown,
  count = NEARBY_TOWNS,
): { town: ServedTown; miles: number }[] {
  let memo = nearbyMemo.get(coverage);
  if (!memo) nearbyMemo.set(coverage, memo = new Map());
  const memoKey = `${town.slug} ${count}`;
  let nearby = memo.get(memoKey);
  if (!nearby) {
    memo.set(memoKey, nearby = computeNearbyTowns(coverage, town, count));
    if (memo.size > NEARBY_MEMO_MAX) memo.delete(memo.keys().next().value!);
  }
  return nearby;
}

/**
 * Towns whose nearby list is remembered per coverage (oldest out): a town's pages are asked for
 * one after another, and every town of a state kept until its next change grew the heap along
 * a crawl of all 169k pages.
 */
const NEARBY_MEMO_MAX = 256;

const nearbyMemo = new WeakMap<StateCoverage, Map<string, { town: ServedTown; miles: number }[]>>();

/** A coverage's served towns by latitude, south to north (for `computeNearbyTowns`). */
const byLatitude = new WeakMap<StateCoverage, ServedTown[]>();

/**
 * The `count` nearest, scanning out from the town along the coverage's towns sorted by
 * latitude and stopping on each side once the latitude gap alone is farther than the
 * `count`-th best: a great-circle distance is never shorter than its latitude difference
 * (R·|Δφ|). The same towns, in the same order, as comparing against every town in the state,
 * which was a few percent of building all 169k pages (thousands of towns per state).
 */
function computeNearbyTowns(coverage: StateCoverage, town: ServedTown, count: number) {
  const closer = (a: { town: ServedTown; miles: number }, b: typeof a) =>
    a.miles - b.miles || (a.town.slug < b.town.slug ? -1 : 1);
  const best: { town: ServedTown; miles: number }[] = [];
  if (count <= 0) return best;
  let sorted = byLatitude.get(coverage);
  if (!sorted) {
    sorted = [...coverage.towns].sort((a, b) => a.town.lat - b.town.lat);
    byLatitude.set(coverage, sorted);
  }
  const consider = (t: ServedTown) => {
    if (t === town) return;
    const entry = { town: t, miles: milesBetween(t.town, town.town) };
    if (best.length === count && closer(entry, best[count - 1]) >= 0) return;
    let i = best.length === count ? count - 1 : best.length;
    while (i > 0 && closer(entry, best[i - 1]) < 0) {
      best[i] = best[i - 1];
      i--;
    }
    best[i] = entry;
  };
  // Binary search for the first town at or north of this one's latitude.
  const lat = town.town.lat;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid].town.lat < lat) lo = mid + 1;
    else hi = mid;
  }
  const milesPerDegree = (EARTH_RADIUS_MILES * Math.PI) / 180;
  const beyond = (t: ServedTown) =>
    best.length === count && Math.abs(t.town.lat - lat) * milesPerDegree > best[count - 1].miles;
  for (let up = lo, down = lo - 1; up < sorted.length || down >= 0;) {
    if (up < sorted.length) {
      if (beyond(sorted[up])) up = sorted.length;
      else consider(sorted[up++]);
    }
    if (down >= 0) {
      if (beyond(sorted[down])) down = -1;
      else consider(sorted[down--]);
    }
  }
  return best;
}

/** A typical job of a priced type: a real lot size and what the form asks about it. */
export interface ExampleLot {
  type: PricedSurveyType;
  /** "0.25-acre flat residential lot". */
  lot: string;
  details: Omit<SurveyDetails, "state">;
}

/** The example job per priced type that the local pages price. */
export const EXAMPLE_LOTS: Record<PricedSurveyType, ExampleLot> = {
  boundary: {
    type: "boundary",
    lot: "0.25-acre flat residential lot",
    details: {
      surveyType: "boundary",
      propertyType: "residential",
      acreage: 0.25,
      terrain: "flat",
      vegetation: "clear",
      cornersToSet: 0,
      cornersKnown: true,
      rush: "standard",
    },
  },
  elevation_certificate: {
    type: "elevation_certificate",
    lot: "single-family home",
    details: {
      surveyType: "elevation_certificate",
      propertyType: "residential",
      structures: 1,
      rush: "standard",
    },
  },
  topographic: {
    type: "topographic",
    lot: "1-acre rolling residential lot with a house",
    details: {
      surveyType: "topographic",
      propertyType: "residential",
      acreage: 1,
      terrain: "rolling",
      vegetation: "light",
      structures: 1,
      rush: "standard",
    },
  },
  alta: {
    type: "alta",
    lot: "2-acre flat commercial site with one building",
    details: {
      surveyType: "alta",
      propertyType: "commercial",
      acreage: 2,
      terrain: "flat",
      vegetation: "clear",
      structures: 1,
      cornersToSet: 0,
      rush: "standard",
      altaItems: [],
    },
  },
  construction: {
    type: "construction",
    lot: "0.5-acre flat residential lot, one new house",
    details: {
      surveyType: "construction",
      propertyType: "residential",
      acreage: 0.5,
      terrain: "flat",
      vegetation: "clear",
      structures: 1,
      rush: "standard",
    },
  },
};

/** An example job priced in a state: the quote the form would give and the lead price. */
export interface ExamplePrice {
  example: ExampleLot;
  details: SurveyDetails;
  quote: Quote;
  totalCents: number;
  leadCents: number;
}

/** The example job of `type` priced in `state` under `config` (the current version). */
export function examplePrice(
  config: PricingConfig,
  type: PricedSurveyType,
  state: StateCode,
): ExamplePrice {
  const example = EXAMPLE_LOTS[type];
  const details = { ...example.details, state } as SurveyDetails;
  const quote = priceSurvey(config, details);
  const totalCents = quote.totalCents ?? 0;
  const leadCents = priceLead(config.lead, { surveyType: type, quotedPriceCents: totalCents })
    .priceCents;
  return { example, details, quote, totalCents, leadCents };
}

/**
 * A typical price range of `type` in `state`: the example lot, and one four times its size on
 * rolling, moderately wooded ground (types priced by the acre), under `config`.
 */
export function priceRange(
  config: PricingConfig,
  type: PricedSurveyType,
  state: StateCode,
): { low: number; high: number } {
  const small = examplePrice(config, type, state).totalCents;
  const example = EXAMPLE_LOTS[type];
  const bigger = {
    ...example.details,
    state,
    ...(example.details.acreage ? { acreage: example.details.acreage * 4 } : {}),
    ...(example.details.terrain ? { terrain: "rolling", vegetation: "moderate" } : {}),
  } as SurveyDetails;
  const large = priceSurvey(config, bigger).totalCents ?? small;
  return { low: Math.min(small, large), high: Math.max(small, large) };
}

/** Median of `values` (0 for none), rounded to a whole number. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return Math.round(sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2);
}

/** A question and its answer. */
export interface LocalFaq {
  q: string;
  a: string;
}

/**
 * The questions of a town page: what the example job costs, who licenses surveyors in the state
 * (the board's name from lib/licensing_boards.ts where it was checked), and what the survey is
 * for there. A type's page asks what that type is for and when it is needed; every page says
 * how to find out whether a building is in a flood zone (Meridian has no flood data, so it
 * never says whether the town is in one) and when an elevation certificate is then needed.
 */
export function townFaqs(
  { townName, state, prices, firmCount, type }: {
    townName: string;
    state: StateCode;
    prices: Record<PricedSurveyType, ExamplePrice>;
    firmCount: number;
    type: PricedSurveyType | null;
  },
): LocalFaq[] {
  const stateName = US_STATES[state];
  // The state as a noun in running text: "in Texas", "in the District of Columbia".
  const inState = state === "DC" ? `the ${stateName}` : stateName;
  const place = `${townName}, ${state}`;
  const main = prices[type ?? "boundary"];
  const name = typeNoun(main.example.type);
  const board = licensingBoard(state);
  const checked = `the ${
    firmCount === 1 ? "firm" : `${firmCount} firms`
  } listed here passed that check.`;
  const licensing = board
    ? `In ${inState}, land surveyors are licensed by the ${board.name}. Only a professional land surveyor licensed by it may sign and seal a survey of property lines in ${townName}. Meridian checks each firm's ${stateName} licence against its public records before the firm can take jobs; ${checked}${
      board.url ? ` Its website is ${board.url}.` : ""
    }`
    : `Only a professional land surveyor licensed by ${inState}'s state licensing board may sign and seal a survey of property in ${townName}. Meridian checks each firm's ${stateName} licence against the board's public records before it can take jobs; ${checked}`;
  const ecPrice = dollars(prices.elevation_certificate.totalCents);
  const floodLookup =
    `Meridian has no flood-zone data for ${townName}, so it cannot say whether a building there is in one: look the address up on FEMA's Flood Map Service Center at msc.fema.gov, which shows the Flood Insurance Rate Map in force.`;
  const floodFaq: LocalFaq = type === "elevation_certificate"
    ? {
      q: `How do I find out whether my building in ${townName} is in a flood zone?`,
      a: `${floodLookup} A zone starting with A or V is a Special Flood Hazard Area: a federally regulated or insured lender requires flood insurance on a mortgage there, and an elevation certificate is what records the building's elevation against the base flood elevation.`,
    }
    : {
      q: `Do I need an elevation certificate in ${townName}?`,
      a: `Only if it is asked for, which mostly happens in a FEMA Special Flood Hazard Area (a zone starting with A or V on the Flood Insurance Rate Map). ${floodLookup} In those zones a federally regulated or insured lender requires flood insurance on a loan secured by the building, a community in the National Flood Insurance Program must record the lowest-floor elevation of new or substantially improved buildings, and an elevation certificate can lower a flood insurance premium or support a Letter of Map Amendment. Outside them it is optional. With Meridian's current prices, one for a single-family home in ${townName} costs ${ecPrice}.`,
    };
  const costFaq: LocalFaq = {
    q: `How much does ${withArticle(name)} cost in ${place}?`,
    a: `With Meridian's current prices, ${
      withArticle(name)
    } for a ${main.example.lot} in ${townName} costs ${
      dollars(main.totalCents)
    }, including ${inState}'s regional cost index. Lot size, terrain, vegetation, structures and rush change it; the instant quote prices your own parcel.`,
  };
  const licensingFaq: LocalFaq = {
    q: `Who licenses land surveyors in ${inState}?`,
    a: licensing,
  };
  if (type) {
    return [
      costFaq,
      { q: typeQuestion(type, inState), a: typeAnswer(type, inState) },
      licensingFaq,
      floodFaq,
    ];
  }
  return [
    costFaq,
    licensingFaq,
    floodFaq,
    {
      q: `Which survey do I need in ${townName}?`,
      a: `A boundary survey marks your property lines (fences, disputes, sales). A topographic survey maps the ground for design (${
        dollars(prices.topographic.totalCents)
      } for a 1-acre lot). An elevation certificate records a building's elevation for flood insurance and floodplain rules. An ALTA/NSPS survey is what lenders and title insurers ask for on commercial property. A construction survey stakes out a new building before you dig.`,
    },
  ];
}

function dollars(cents: number): string {
  return `$${formatInteger(Math.round(cents / 100))}`;
}

/**
 * schema.org JSON-LD of a town page: the `Service` (with the example price as an offer and the
 * town as its area), the `BreadcrumbList` and the `FAQPage`.
 */
export function townJsonLd(
  { url, crumbs, name, description, townName, stateName, price, faqs }: {
    url: string;
    crumbs: { name: string; url: string }[];
    name: string;
    description: string;
    townName: string;
    stateName: string;
    price: ExamplePrice;
    faqs: readonly LocalFaq[];
  },
): Record<string, unknown>[] {
  return [
    {
      "@context": "https://schema.org",
      "@type": "Service",
      "@id": `${url}#service`,
      name,
      description,
      url,
      serviceType: SURVEY_TYPE_INFO[price.example.type].name,
      provider: { "@type": "Organization", name: "Meridian" },
      areaServed: {
        "@type": "City",
        name: townName,
        containedInPlace: { "@type": "State", name: stateName },
      },
      offers: {
        "@type": "Offer",
        price: (price.totalCents / 100).toFixed(2),
        priceCurrency: "USD",
        description: `${SURVEY_TYPE_INFO[price.example.type].name}, ${price.example.lot}`,
      },
    },
    {
      "@context": "https://schema.org",
      "@type": "BreadcrumbList",
      itemListElement: crumbs.map((c, i) => ({
        "@type": "ListItem",
        position: i + 1,
        name: c.name,
        item: c.url,
      })),
    },
    {
      "@context": "https://schema.org",
      "@type": "FAQPage",
      mainEntity: faqs.map((f) => ({
        "@type": "Question",
        name: f.q,
        acceptedAnswer: { "@type": "Answer", text: f.a },
      })),
    },
  ];
}
