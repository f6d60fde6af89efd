import type { Db } from "./client.ts";
import { integerLiteral } from "./sql_literals.ts";
import {
  DEFAULT_PRICING_CONFIG,
  priceSurvey,
  type PricingConfig,
  PricingConfigSchema,
  type Quote,
} from "../lib/pricing.ts";
import type { SurveyDetails } from "../lib/survey_details.ts";
import { checkDiscountCode, type DiscountFailure } from "./discounts.ts";

/** A stored pricing configuration. */
export interface PricingConfigVersion {
  version: number;
  config: PricingConfig;
  createdBy: string | null;
  /** Full name of the admin who saved it, when known. */
  createdByName: string | null;
  note: string;
  createdAt: Date;
}

/** The configuration quotes use now. */
export interface ActivePricingConfig {
  version: number;
  config: PricingConfig;
}

const PAGE_SIZE = 20;
function parseStored(version: number, raw: unknown): PricingConfig {
  const result = PricingConfigSchema.safeParse(raw);
  // Every stored config passed this schema when it was saved; a failure here means a code
  // change broke compatibility, which must be loud rather than price wrongly.
  if (!result.success) {
    throw new Error(`pricing_configs version ${version} does not match PricingConfigSchema`);
  }
  return result.data;
}

// Parsing a stored config with zod costs ~0.1 ms, a large share of a quote; versions never
// change once written, so each is parsed once. Keyed by version and creation time because
// tests recreate tables and reuse version numbers.
const parsedConfigs = new Map<string, PricingConfig>();

// Shared between requests, so nobody may change it in place.
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function parseCached(version: number, createdAt: Date, raw: unknown): PricingConfig {
  const key = `${version}:${createdAt.getTime()}`;
  let config = parsedConfigs.get(key);
  if (!config) {
    config = deepFreeze(parseStored(version, raw));
    if (parsedConfigs.size >= 64) parsedConfigs.clear();
    parsedConfigs.set(key, config);
  }
  return config;
}

/**
 * The highest-versioned pricing configuration. When the table is empty the defaults from
 * lib/pricing.ts are inserted as version 1 first (`on conflict do nothing`, so two first
 * requests at once both end up reading the same row). Throws if a stored config is invalid.
 */
export async function getActivePricingConfig(db: Db): Promise<ActivePricingConfig> {
  const [row] = await db<{ version: number; createdAt: Date; config: unknown }[]>`
    select version, created_at, config from pricing_configs order by version desc limit 1`;
  if (row) {
    return { version: row.version, config: parseCached(row.version, row.createdAt, row.config) };
  }
  await db`
    insert into pricing_configs (version, config, note)
    values (1, ${db.json(DEFAULT_PRICING_CONFIG)}, 'Defaults')
    on conflict (version) do nothing`;
  return await getActivePricingConfig(db);
}

/**
 * Saves `config` as the next version (validated again here; throws on an invalid one) and
 * returns it. Concurrent saves each get their own version number.
 */
export async function insertPricingConfig(
  db: Db,
  { config, createdBy, note = "" }: {
    config: PricingConfig;
    createdBy: string | null;
    note?: string;
  },
): Promise<PricingConfigVersion> {
  const valid = PricingConfigSchema.parse(config);
  // Make sure version 1 (the defaults) exists, so the first admin save is version 2 and the
  // history shows what it replaced.
  await getActivePricingConfig(db);
  for (let attempt = 0; attempt < 5; attempt++) {
    const [row] = await db<{ version: number }[]>`
      insert into pricing_configs (version, config, created_by, note)
      select coalesce(max(version), 0) + 1, ${db.json(valid)}, ${createdBy}, ${note}
      from pricing_configs
      on conflict (version) do nothing
      returning version`;
    if (row) {
      const saved = await getPricingConfig(db, { version: row.version });
      if (saved) return saved;
    }
  }
  throw new Error("Could not allocate a pricing configuration version");
}

/** One stored version with its author's name, or undefined. */
export async function getPricingConfig(
  db: Db,
  { version }: { version: number },
): Promise<PricingConfigVersion | undefined> {
  const [row] = await db<(Omit<PricingConfigVersion, "config"> & { config: unknown })[]>`
    select p.version, p.config, p.created_by, u.full_name as created_by_name, p.note, p.created_at
    from pricing_configs p left join users u on u.id = p.created_by
    where p.version = ${version}`;
  if (!row) return undefined;
  return { ...row, config: parseCached(row.version, row.createdAt, row.config) };
}

/** A page of the version history, newest first, without the configs themselves. */
export async function listPricingConfigs(
  db: Db,
  { page = 1 }: { page?: number } = {},
): Promise<{
  versions: Omit<PricingConfigVersion, "config">[];
  page: number;
  pageSize: number;
  total: number;
}> {
  const offset = (Math.max(1, page) - 1) * PAGE_SIZE;
  // The page size in the text and no offset on the first page (`integerLiteral`): a generic
  // plan has to guess a parameter's limit or offset (a tenth of the table for an offset), so it
  // looked dearer than planning for 20 from 0, was never chosen, and Postgres planned the
  // statement afresh at every view (bench/plans.ts).
  // The page is a lateral join on the count (db/users.ts `usersPageStatement`): one statement,
  // and the total still comes back past the last page, on a row with no version.
  const rows = await db<(Partial<Omit<PricingConfigVersion, "config">> & { total: number })[]>`
    select c.total, r.*
    from (select count(*)::int as total from pricing_configs) c
    left join lateral (
      select p.version, p.created_by, u.full_name as created_by_name, p.note, p.created_at
      from pricing_configs p left join users u on u.id = p.created_by
      order by p.version desc
      limit ${integerLiteral(db, PAGE_SIZE)} ${offset === 0 ? db`` : db`offset ${offset}`}
    ) r on true
    order by r.version desc`;
  const versions = rows.filter((r) => r.version != null).map(({ total: _, ...v }) =>
    v as Omit<PricingConfigVersion, "config">
  );
  return { versions, page: Math.max(1, page), pageSize: PAGE_SIZE, total: rows[0]?.total ?? 0 };
}

/** A priced quote, or why the discount code in the details cannot be used. */
export type QuoteResult = { ok: true; quote: Quote } | DiscountFailure;

/**
 * Prices `details` with the active configuration and, when `details.discountCode` is set,
 * checks the code (once-per-client too when `clientId` is given) and applies it. An unusable
 * code gives its failure and no quote. The quote carries `configVersion`.
 *
 * This only checks the code; a submission must also call `redeemDiscountCode` in its
 * transaction, which checks again atomically.
 */
export async function quoteSurvey(
  db: Db,
  { details, clientId, now }: { details: SurveyDetails; clientId?: string | null; now?: Date },
): Promise<QuoteResult> {
  const active = await getActivePricingConfig(db);
  let discount = null;
  if (details.discountCode) {
    const check = await checkDiscountCode(db, { code: details.discountCode, clientId, now });
    if (!check.ok) return check;
    discount = check.discount;
  }
  const quote = priceSurvey(active.config, details, discount);
  quote.configVersion = active.version;
  return { ok: true, quote };
}
