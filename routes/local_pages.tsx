import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppDeps, AppEnv } from "./_env.ts";
import type { AppContext } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { keyedPublicPage } from "./_pages.ts";
import {
  StatePage,
  townHeading,
  TownPage,
  withSignedOutLayout,
} from "../components/LocalPages.tsx";
import { embeddedChangeFeed } from "../db/embedded.ts";
import {
  listLocalFirms,
  listLocalPageVersions,
  listRecentCompletedSurveys,
  type LocalPageVersion,
  type LocatedSurvey,
  recentSurveysNear,
} from "../db/local_pages.ts";
import { type ActivePricingConfig, getActivePricingConfig } from "../db/pricing.ts";
import { listOfflineTowns } from "../lib/geo/offline.ts";
import {
  examplePrice,
  median,
  nearbyTowns,
  priceRange,
  type RecentSurvey,
  type ServedTown,
  SITEMAP_MAX_URLS,
  type StateCoverage,
  stateCoverage,
  stateFromSlug,
  statePath,
  townFaqs,
  townJsonLd,
  townPath,
  typeFromServiceSlug,
} from "../lib/local_pages.ts";
import { PRICED_SURVEY_TYPES, type PricedSurveyType } from "../lib/pricing.ts";
import type { ExamplePrice } from "../lib/local_pages.ts";
import { STATE_CODES, type StateCode, US_STATES } from "../lib/survey_options.ts";
import { SURVEY_TYPE_INFO } from "../lib/survey_types.ts";
import { jsonLdText } from "../lib/firm_json_ld.ts";
import { formatCents } from "../lib/quote_text.ts";

/** The message of a local page that does not exist (no firm covers the town, unknown place). */
export const LOCAL_PAGE_NOT_FOUND = "No Meridian surveyor covers this place yet";

type Versions = Map<string, LocalPageVersion>;

/**
 * The change counters. `read()` reads them after the call: concurrent callers share one read,
 * and a caller arriving while a read is in flight waits for the next one (which starts after
 * it arrived), so no answer predates the request. One query serves every request of a burst.
 *
 * `known()` answers without a query when it can: on the embedded database the app learns of
 * every committed counter change (0046's pg_notify, `embeddedChangeFeed`) before the writer
 * does, so the counters last read stay current until a notification arrives. Each read
 * remembers how many notifications had arrived when it was sent, and is trusted only while no
 * further one has: a change committed during the read costs one more read, never a stale page.
 * On Postgres (several instances, each with its own memory) `known()` is always undefined and
 * every request reads: exact, at one small query per request.
 */
function versionReader(deps: AppDeps): {
  read: () => Promise<Versions>;
  known: () => Versions | undefined;
} {
  let current: Promise<Versions> | undefined;
  let queued: Promise<Versions> | undefined;
  /** Notifications so far; -1 until the feed listens (then reads are trusted). */
  let changes = -1;
  let last: { changes: number; versions: Versions } | undefined;
  embeddedChangeFeed(deps.sql, "local_pages", () => {
    changes++;
  }).then((stop) => {
    if (stop) changes = 0;
  }, (err) => console.error("local pages: no change feed; counters read per request", err));
  const start = (): Promise<Versions> => {
    const sentAt = changes;
    const read: Promise<Versions> = listLocalPageVersions(deps.sql)
      .then((rows) => {
        const versions = new Map(rows.map((r) => [r.scope, r]));
        if (sentAt >= 0) last = { changes: sentAt, versions };
        return versions;
      })
      .finally(() => {
        if (current === read) current = undefined;
      });
    current = read;
    return read;
  };
  return {
    read: () => {
      if (!current) return start();
      queued ??= current.then(() => {}, () => {}).then(() => {
        queued = undefined;
        return start();
      });
      return queued;
    },
    known: () => (last && last.changes === changes ? last.versions : undefined),
  };
}

/** Everything a state's pages are built from, under one key: nothing else is read per page. */
interface StateData {
  coverage: StateCoverage;
  pricing: ActivePricingConfig;
  surveys: LocatedSurvey[];
  /** The example jobs priced in the state (the same on each of its town pages). */
  prices: Record<PricedSurveyType, ExamplePrice>;
}

interface LocalState {
  versions: () => Promise<Versions>;
  /** The counters when they are known current without a read (see `versionReader`). */
  knownVersions: () => Versions | undefined;
  states: Map<StateCode, { key: string; data: Promise<StateData> }>;
  sitemap?: { key: string; urls: Promise<SitemapUrl[]> };
}

const states = new WeakMap<AppDeps, LocalState>();

function localState(deps: AppDeps): LocalState {
  let s = states.get(deps);
  if (!s) {
    const reader = versionReader(deps);
    s = { versions: reader.read, knownVersions: reader.known, states: new Map() };
    states.set(deps, s);
  }
  return s;
}

function part(v: LocalPageVersion | undefined): string {
  return v ? `${v.version}@${v.changedAt.getTime()}` : "0";
}

/** The cache key of `state`'s pages: pricing's counter and the state's. */
function stateKey(versions: Versions, state: StateCode): string {
  return `${part(versions.get("*"))}|${part(versions.get(state))}`;
}

/** The key of everything (the sitemap). */
function allKey(versions: Versions): string {
  return [...versions.values()].map((v) => `${v.scope}:${part(v)}`).sort().join(",");
}

/**
 * The state's served towns, the pricing and the state's recent completed surveys under `key`,
 * read once per key: the key's counters change with each of them (0045_local_pages.sql).
 */
function stateData(deps: AppDeps, state: StateCode, key: string): Promise<StateData> {
  const local = localState(deps);
  const cached = local.states.get(state);
  if (cached && cached.key === key) return cached.data;
  const data = Promise.all([
    listOfflineTowns(),
    listLocalFirms(deps.sql, { state }),
    getActivePricingConfig(deps.sql),
    listRecentCompletedSurveys(deps.sql, { state }),
  ]).then(([towns, firms, pricing, surveys]) => ({
    coverage: stateCoverage(state, towns, firms),
    pricing,
    surveys,
    prices: Object.fromEntries(
      PRICED_SURVEY_TYPES.map((t) => [t, examplePrice(pricing.config, t, state)]),
    ) as Record<PricedSurveyType, ExamplePrice>,
  }));
  data.catch(() => local.states.delete(state));
  local.states.set(state, { key, data });
  return data;
}

const StateParam = z.object({ state: z.string().max(10) });
const TownParam = z.object({ state: z.string().max(10), town: z.string().max(200) });
const TypeTownParam = TownParam.extend({ type: z.string().max(100) });

function notFound(): never {
  throw new HTTPException(404, { message: LOCAL_PAGE_NOT_FOUND });
}

/**
 * `path` (always "/…", lower-case letters, digits and hyphens) on the public origin: the same
 * as `new URL(path, PUBLIC_URL).href` without a URL parse per link (2% of building every page).
 */
function absolute(c: AppContext, path: string): string {
  const base = c.var.deps.config.PUBLIC_URL;
  let origin = origins.get(base);
  if (origin === undefined) origins.set(base, origin = new URL(base).origin);
  return origin + path;
}

const origins = new Map<string, string>();

/**
 * The current key of `state`'s pages: at once when the counters are known current (embedded
 * database), else after a read that starts after this call.
 */
function currentStateKey(local: LocalState, state: StateCode): string | Promise<string> {
  const known = local.knownVersions();
  if (!known) return local.versions().then((v) => stateKey(v, state));
  // Built once per state and counter read: this runs on every cached hit.
  let keys = knownKeys.get(known);
  if (!keys) knownKeys.set(known, keys = new Map());
  let key = keys.get(state);
  if (key === undefined) keys.set(state, key = stateKey(known, state));
  return key;
}

const knownKeys = new WeakMap<Versions, Map<StateCode, string>>();

/**
 * The recent completed surveys near `town` and their median days to delivery, worked out once
 * for its six pages (a scan of up to 300 surveys each): kept for recently built towns, oldest
 * out. A served town is rebuilt with its state's surveys under a new key, never older.
 */
function townSurveys(
  town: ServedTown,
  surveys: readonly LocatedSurvey[],
): { recent: RecentSurvey[]; medianDays: number | null } {
  let found = townSurveyMemo.get(town);
  if (!found) {
    const recent = recentSurveysNear(surveys, town.town);
    found = {
      recent,
      medianDays: recent.length ? median(recent.map((r) => r.daysToDelivery)) : null,
    };
    townSurveyMemo.set(town, found);
    if (townSurveyMemo.size > TOWN_SURVEYS_MAX) {
      townSurveyMemo.delete(townSurveyMemo.keys().next().value!);
    }
  }
  return found;
}

const townSurveyMemo = new Map<
  ServedTown,
  { recent: RecentSurvey[]; medianDays: number | null }
>();
const TOWN_SURVEYS_MAX = 256;

async function townPage(
  c: AppContext,
  { state: stateSlug, town: slug, type }: {
    state: string;
    town: string;
    type: PricedSurveyType | null;
  },
): Promise<Response> {
  const state = stateFromSlug(stateSlug);
  if (!state) notFound();
  const deps = c.var.deps;
  const local = localState(deps);
  const key = await currentStateKey(local, state);
  const { coverage, pricing, surveys, prices } = await stateData(deps, state, key);
  const town = coverage.bySlug.get(slug);
  if (!town) notFound();
  const { recent, medianDays } = townSurveys(town, surveys);
  const stateName = US_STATES[state];
  const place = `${town.town.name}, ${state}`;
  const main = prices[type ?? "boundary"];
  const firmCount = town.firms.length;
  const path = townPath(state, town.slug, type ?? undefined);
  const faqs = townFaqs({ townName: town.town.name, state, prices, firmCount, type });
  const firmsText = `${firmCount} verified, licensed ${
    firmCount === 1 ? "firm covers" : "firms cover"
  } ${town.town.name}`;
  const title = type
    ? `${SURVEY_TYPE_INFO[type].name} in ${place}: ${formatCents(main.totalCents)} Typical Cost`
    : `Land Surveyors in ${place}: Prices and Verified Firms`;
  const description = type
    ? `${SURVEY_TYPE_INFO[type].name} in ${place}: ${
      formatCents(main.totalCents)
    } for a ${main.example.lot}. ${firmsText}. Instant quote, recent local jobs, FAQs.`
    : `Land survey prices in ${place}: boundary survey ${
      formatCents(prices.boundary.totalCents)
    } for a ${prices.boundary.example.lot}. ${firmsText}. Instant quotes and recent jobs.`;
  const crumbs = [
    { name: "Home", url: absolute(c, "/") },
    { name: `Land surveyors in ${stateName}`, url: absolute(c, statePath(state)) },
    { name: place, url: absolute(c, townPath(state, town.slug)) },
    ...(type ? [{ name: SURVEY_TYPE_INFO[type].name, url: absolute(c, path) }] : []),
  ];
  const jsonLd = townJsonLd({
    url: absolute(c, path),
    crumbs,
    name: townHeading({ town, state, type }),
    description,
    townName: town.town.name,
    stateName,
    price: main,
    faqs,
  });
  const data = {
    stateName,
    state,
    town,
    type,
    prices,
    recent,
    nearby: nearbyTowns(coverage, town).map((n) => n.town),
    faqs,
    medianDays,
    pricingVersion: pricing.version,
  };
  return keyedPublicPage(
    c,
    { title, description, path },
    // Signed out, the header and footer are put in as strings rendered once.
    { key, currentKey: () => currentStateKey(local, state), finish: withSignedOutLayout },
    (user) => (
      <>
        <TownPage data={data} user={user} layout="marks" />
        <script
          type="application/ld+json"
          dangerouslySetInnerHTML={{ __html: jsonLdText(jsonLd) }}
        />
      </>
    ),
  );
}

interface SitemapUrl {
  path: string;
  lastmod: string;
}

/** Every local page's path and lastmod, states in order, towns by slug. */
async function sitemapUrls(deps: AppDeps, versions: Versions): Promise<SitemapUrl[]> {
  const urls: SitemapUrl[] = [];
  const pricingChanged = versions.get("*")?.changedAt.getTime() ?? 0;
  for (const state of STATE_CODES) {
    const { coverage } = await stateData(deps, state, stateKey(versions, state));
    if (coverage.towns.length === 0) continue;
    const changed = Math.max(pricingChanged, versions.get(state)?.changedAt.getTime() ?? 0);
    const lastmod = new Date(changed || Date.now()).toISOString().slice(0, 10);
    urls.push({ path: statePath(state), lastmod });
    for (const t of [...coverage.towns].sort((a, b) => (a.slug < b.slug ? -1 : 1))) {
      urls.push({ path: townPath(state, t.slug), lastmod });
      for (const type of PRICED_SURVEY_TYPES) {
        urls.push({ path: townPath(state, t.slug, type), lastmod });
      }
    }
  }
  return urls;
}

/** The local pages' URLs under the current versions, built once per change. */
async function currentSitemap(deps: AppDeps): Promise<SitemapUrl[]> {
  const local = localState(deps);
  const versions = local.knownVersions() ?? await local.versions();
  const key = allKey(versions);
  if (local.sitemap?.key !== key) {
    const urls = sitemapUrls(deps, versions);
    urls.catch(() => (local.sitemap = undefined));
    local.sitemap = { key, urls };
  }
  return await local.sitemap.urls;
}

const XML = { "Content-Type": "application/xml; charset=utf-8" };
const SitemapFile = z.object({ file: z.string().max(40) });

/**
 * Local pages for organic search (issue 24), public and cached per change (see
 * `keyedPublicPage`, 0045_local_pages.sql):
 * - `GET /land-surveyors/{state}`: the state's served towns, price ranges, firm count, map;
 * - `GET /land-surveyors/{state}/{town}` and `GET /services/{type}/{state}/{town}` (the five
 *   instant-quote types): prices of typical jobs, the verified firms covering the town, recent
 *   completed surveys nearby, the quote form, FAQs, nearby towns;
 * - `GET /sitemap-local.xml` (a sitemap index) and `GET /sitemaps/local-{n}.xml` (at most
 *   50,000 URLs each).
 * A town no active, verified firm covers, an unknown state or town: the 404 page.
 */
export const localPages = new Hono<AppEnv>()
  .get("/land-surveyors/:state", zValidator("param", StateParam, onInvalid), async (c) => {
    const state = stateFromSlug(c.req.valid("param").state);
    if (!state) notFound();
    const deps = c.var.deps;
    const local = localState(deps);
    const key = await currentStateKey(local, state);
    const { coverage, pricing } = await stateData(deps, state, key);
    if (coverage.towns.length === 0) notFound();
    const stateName = US_STATES[state];
    const ranges = Object.fromEntries(
      PRICED_SURVEY_TYPES.map((t) => [t, priceRange(pricing.config, t, state)]),
    ) as Record<PricedSurveyType, { low: number; high: number }>;
    const firmIds = new Set(coverage.towns.flatMap((t) => t.firms.map((f) => f.firm.id)));
    const firms = coverage.firms.filter((f) => firmIds.has(f.id)).map((f) => ({
      lat: f.lat,
      lng: f.lng,
      label: f.companyName,
      href: `/firms/${f.slug}`,
    }));
    const data = {
      state,
      stateName,
      towns: coverage.towns,
      firmCount: firms.length,
      firms,
      ranges,
    };
    return keyedPublicPage(
      c,
      {
        title: `Land Surveyors in ${stateName}: ${coverage.towns.length} Towns Served`,
        description: `Verified, licensed land surveyors in ${stateName}: ${firms.length} ${
          firms.length === 1 ? "firm serves" : "firms serve"
        } ${coverage.towns.length} towns. Boundary surveys from ${
          formatCents(ranges.boundary.low)
        }; instant quotes.`,
        path: statePath(state),
      },
      // Signed out, the header and footer are put in as strings rendered once.
      { key, currentKey: () => currentStateKey(local, state), finish: withSignedOutLayout },
      (user) => <StatePage data={data} user={user} layout="marks" />,
    );
  })
  .get("/land-surveyors/:state/:town", zValidator("param", TownParam, onInvalid), (c) => {
    const { state, town } = c.req.valid("param");
    return townPage(c, { state, town, type: null });
  })
  .get("/services/:type/:state/:town", zValidator("param", TypeTownParam, onInvalid), (c) => {
    const { type: typeSlug, state, town } = c.req.valid("param");
    const type = typeFromServiceSlug(typeSlug);
    if (!type) notFound();
    return townPage(c, { state, town, type });
  })
  .get("/sitemap-local.xml", async (c) => {
    const urls = await currentSitemap(c.var.deps);
    const base = c.var.deps.config.PUBLIC_URL;
    const files: string[] = [];
    for (let i = 0; i * SITEMAP_MAX_URLS < Math.max(urls.length, 1); i++) {
      const chunk = urls.slice(i * SITEMAP_MAX_URLS, (i + 1) * SITEMAP_MAX_URLS);
      const lastmod = chunk.reduce((m, u) => (u.lastmod > m ? u.lastmod : m), "");
      files.push(
        `<sitemap><loc>${new URL(`/sitemaps/local-${i + 1}.xml`, base).href}</loc>${
          lastmod ? `<lastmod>${lastmod}</lastmod>` : ""
        }</sitemap>`,
      );
    }
    c.header("Cache-Control", "public, max-age=3600");
    return c.body(
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${
        files.join("")
      }</sitemapindex>\n`,
      200,
      XML,
    );
  })
  .get("/sitemaps/:file", zValidator("param", SitemapFile, onInvalid), async (c) => {
    const match = /^local-([1-9][0-9]{0,5})\.xml$/.exec(c.req.valid("param").file);
    if (!match) throw new HTTPException(404, { message: "Sitemap not found" });
    const n = Number(match[1]);
    const urls = await currentSitemap(c.var.deps);
    const chunk = urls.slice((n - 1) * SITEMAP_MAX_URLS, n * SITEMAP_MAX_URLS);
    if (chunk.length === 0 && n > 1) throw new HTTPException(404, { message: "Sitemap not found" });
    const base = c.var.deps.config.PUBLIC_URL;
    // Paths are lower-case letters, digits, hyphens and slashes: nothing to escape.
    const body = chunk.map((u) =>
      `<url><loc>${new URL(u.path, base).href}</loc><lastmod>${u.lastmod}</lastmod></url>`
    ).join("");
    c.header("Cache-Control", "public, max-age=3600");
    return c.body(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body}</urlset>\n`,
      200,
      XML,
    );
  });
