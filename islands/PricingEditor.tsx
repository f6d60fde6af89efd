import { type FormEvent, type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import {
  CheckedForm,
  describedBy,
  FieldError,
  NO_SCRIPT_FORM,
  SelectField,
  TextField,
} from "./_fields.tsx";
import {
  DEFAULT_PRICING_CONFIG,
  formatCents,
  LeadPricingConfigSchema,
  PRICED_SURVEY_TYPES,
  type PricingConfig,
  PricingConfigSchema,
} from "../lib/pricing.ts";
import { describeLeadPrice, priceLead } from "../lib/lead_pricing.ts";
import {
  ALTA_ITEM_IDS,
  ALTA_TABLE_A_ITEMS,
  PROPERTY_TYPE_LABELS,
  PROPERTY_TYPES,
  STATE_CODES,
  TERRAIN_LABELS,
  TERRAINS,
  US_STATES,
  usesFactor,
  VEGETATION_LABELS,
  VEGETATIONS,
} from "../lib/survey_options.ts";
import { SURVEY_TYPE_INFO, SURVEY_TYPES, type SurveyType } from "../lib/survey_types.ts";
import { TableRegion } from "./_table.tsx";

/** One row of the version history. */
export interface PricingVersionRow {
  version: number;
  createdByName: string | null;
  note: string;
  createdAt: string;
}

/** Props of the pricing admin island, as the server rendered them. */
export interface PricingEditorProps {
  active: { version: number; config: PricingConfig };
  history: { versions: PricingVersionRow[]; total: number; pageSize: number };
  codes: { codes: DiscountCodeRow[]; total: number; pageSize: number };
  /** When the server rendered the page (ISO); code statuses use it until hydrated. */
  renderedAt: string;
}

interface PreviewRow {
  label: string;
  current: { totalCents: number | null; minimumApplied: boolean };
  preview: { totalCents: number | null; minimumApplied: boolean };
  changeCents: number | null;
}

type Unit = "dollars" | "factor" | "acres" | "count" | "percent";

/** Form values: every number as the text in its input, keyed by the config path. */
type Draft = Record<string, string>;
interface TierDraft {
  upTo: string;
  rate: string;
}

function toText(value: number, unit: Unit): string {
  return unit === "dollars" ? String(value / 100) : String(value);
}

function toNumber(text: string, unit: Unit): number {
  const trimmed = text.trim();
  // An empty box is not zero: NaN makes the schema say "must be a number".
  const n = trimmed === "" ? NaN : Number(trimmed);
  return unit === "dollars" && Number.isFinite(n) ? Math.round(n * 100) : n;
}

interface FieldSpec {
  path: (string | number)[];
  label: string;
  unit: Unit;
}

const TYPE_NAME = (t: string) => SURVEY_TYPE_INFO[t as keyof typeof SURVEY_TYPE_INFO].name;

/** The priced survey types whose price depends on `factor`. */
function typesUsing(factor: Parameters<typeof usesFactor>[1]) {
  return PRICED_SURVEY_TYPES.filter((t) => usesFactor(t, factor));
}

/** One field per id under `config[key]`, e.g. `terrain.hilly`. */
function fieldsOf<T extends string>(
  key: string,
  ids: readonly T[],
  label: (id: T) => string,
  unit: Unit,
): FieldSpec[] {
  return ids.map((id) => ({ path: [key, id], label: label(id), unit }));
}

/** Every scalar field of the config except the acreage tiers, grouped for the form. */
const GROUPS: { id: string; title: string; hint: string; fields: FieldSpec[] }[] = [
  {
    id: "base",
    title: "Base prices",
    hint: "What each survey type costs before any factor. Whatever is set here, no quote goes " +
      "below the starting price the site advertises for its type.",
    fields: fieldsOf("basePriceCents", PRICED_SURVEY_TYPES, TYPE_NAME, "dollars"),
  },
  {
    id: "acreage-weight",
    title: "Acreage weight by survey type",
    hint: "Multiplies the acreage charge: 0 ignores acreage, 1.5 makes each acre half as dear " +
      "again. Elevation certificates are not priced by acreage.",
    // Only the types whose price uses each factor (SURVEY_TYPE_FACTORS): a field for the
    // others would change nothing.
    fields: fieldsOf("acreageWeight", typesUsing("acreage"), TYPE_NAME, "factor"),
  },
  {
    id: "property",
    title: "Property type",
    hint: "Multipliers on the work: 1 = no change, 1.25 = +25%, 0.95 = −5%.",
    fields: fieldsOf("propertyType", PROPERTY_TYPES, (p) => PROPERTY_TYPE_LABELS[p], "factor"),
  },
  {
    id: "terrain",
    title: "Terrain",
    hint: "Multipliers on the work.",
    fields: fieldsOf("terrain", TERRAINS, (p) => TERRAIN_LABELS[p], "factor"),
  },
  {
    id: "vegetation",
    title: "Vegetation",
    hint: "Multipliers on the work.",
    fields: fieldsOf("vegetation", VEGETATIONS, (p) => VEGETATION_LABELS[p], "factor"),
  },
  {
    id: "structures",
    title: "Structures",
    hint: "Structures beyond those included are charged each.",
    fields: typesUsing("structures").flatMap((t) => [
      { path: ["structures", t, "included"], label: `${TYPE_NAME(t)}: included`, unit: "count" },
      {
        path: ["structures", t, "centsEach"],
        label: `${TYPE_NAME(t)}: each extra`,
        unit: "dollars",
      },
    ]),
  },
  {
    id: "corners",
    title: "Corners",
    hint: "Monuments set on request, and records research when the client does not know " +
      "where the corners are.",
    fields: [
      { path: ["cornerSetCents"], label: "Per corner set", unit: "dollars" },
      ...fieldsOf(
        "cornerSearchCents",
        typesUsing("cornersKnown"),
        (t) => `Corner research: ${TYPE_NAME(t)}`,
        "dollars",
      ),
    ],
  },
  {
    id: "rush",
    title: "Turnaround",
    hint: "Multipliers on the standard price (after the minimum).",
    fields: [
      { path: ["rush", "expedited"], label: "Expedited", unit: "factor" },
      { path: ["rush", "rush"], label: "Rush", unit: "factor" },
    ],
  },
  {
    id: "states",
    title: "State cost index",
    hint: "Regional labour and travel costs: 1 is average, 1.3 is 30% dearer.",
    fields: fieldsOf("stateIndex", STATE_CODES, (s) => `${US_STATES[s]} (${s})`, "factor"),
  },
  {
    id: "alta",
    title: "ALTA/NSPS Table A items",
    hint: "Added to an ALTA survey for each optional item the client orders.",
    fields: fieldsOf(
      "altaItemCents",
      ALTA_ITEM_IDS,
      (id) => `${id}. ${ALTA_TABLE_A_ITEMS[id]}`,
      "dollars",
    ),
  },
];

/** The lead price section (lib/lead_pricing.ts): what a surveyor pays for a lead. */
const LEAD_FIELDS: FieldSpec[] = [
  ...PRICED_SURVEY_TYPES.map((t): FieldSpec => ({
    path: ["lead", "sharePercent", t],
    label: `${TYPE_NAME(t)} (% of quote)`,
    unit: "percent",
  })),
  { path: ["lead", "floorCents"], label: "Lowest lead price", unit: "dollars" },
  { path: ["lead", "capCents"], label: "Highest lead price", unit: "dollars" },
  { path: ["lead", "subdivisionFlatCents"], label: "Subdivision lead (flat)", unit: "dollars" },
  { path: ["lead", "maxBuyers"], label: "Surveyors per lead", unit: "count" },
  { path: ["lead", "expiryDays"], label: "Days a lead stays open", unit: "count" },
];

const ALL_FIELDS = [...GROUPS.flatMap((g) => g.fields), ...LEAD_FIELDS];
const key = (path: (string | number)[]) => path.join(".");

function getIn(obj: unknown, path: (string | number)[]): number {
  // A version saved before a section existed lacks it: its fields start empty.
  return path.reduce<unknown>(
    (o, p) => (o as Record<string, unknown> | undefined)?.[p],
    obj,
  ) as number;
}

function setIn(obj: Record<string, unknown>, path: (string | number)[], value: unknown) {
  let cursor = obj;
  for (const part of path.slice(0, -1)) {
    cursor[part] ??= {};
    cursor = cursor[part] as Record<string, unknown>;
  }
  cursor[path[path.length - 1]] = value;
}

function draftOf(config: PricingConfig): { draft: Draft; tiers: TierDraft[]; included: string } {
  const draft: Draft = {};
  for (const f of ALL_FIELDS) {
    const value = getIn(config, f.path);
    draft[key(f.path)] = typeof value === "number" ? toText(value, f.unit) : "";
  }
  return {
    draft,
    included: String(config.includedAcres),
    tiers: config.acreageTiers.map((t) => ({
      upTo: t.upToAcres === null ? "" : String(t.upToAcres),
      rate: String(t.centsPerAcre / 100),
    })),
  };
}

/**
 * The configuration the form describes: `base` (the version it was loaded from) with every
 * field the form shows written over it. The form hides factors no survey type's price uses
 * (SURVEY_TYPE_FACTORS); starting from `base` keeps their stored values, so the schema still
 * finds them and a save does not drop them.
 */
function configOf(
  base: PricingConfig,
  draft: Draft,
  tiers: TierDraft[],
  included: string,
): unknown {
  const config: Record<string, unknown> = { ...structuredClone(base), schemaVersion: 1 };
  for (const f of ALL_FIELDS) setIn(config, f.path, toNumber(draft[key(f.path)] ?? "", f.unit));
  config.includedAcres = toNumber(included, "acres");
  config.acreageTiers = tiers.map((t, i) => ({
    upToAcres: t.upTo.trim() === "" && i === tiers.length - 1 ? null : toNumber(t.upTo, "acres"),
    centsPerAcre: toNumber(t.rate, "dollars"),
  }));
  return config;
}

// UTC on both server and browser, so hydration sees the same text. Built once:
// `toLocaleString` builds a formatter at every call.
const WHEN = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  dateStyle: "medium",
  timeStyle: "short",
});
const DAY = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "medium" });

function formatWhen(iso: string): string {
  return WHEN.format(new Date(iso)) + " UTC";
}

function money(cents: number | null): string {
  return cents === null ? "Quote required" : formatCents(cents);
}

function NumberField(
  { id, label, value, onValue, error, unit }: {
    id: string;
    label: ReactNode;
    value: string;
    onValue(v: string): void;
    error?: string;
    unit: Unit;
  },
) {
  const prefix = unit === "dollars" ? "$" : unit === "factor" ? "×" : "";
  const suffix = unit === "percent" ? "%" : "";
  // Flat on purpose: the form has 137 of these, and each wrapper or class name costs 137 times
  // over in the page (static/css/pricing.css lays them out: label, then unit and input in a row).
  return (
    <div className="pricing-field">
      <label htmlFor={id}>{label}</label>
      {prefix ? <span aria-hidden="true">{prefix}</span> : null}
      <input
        id={id}
        className="field__input"
        inputMode="decimal"
        value={value}
        onChange={(e) => onValue(e.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, undefined, error)}
      />
      {suffix ? <span aria-hidden="true">{suffix}</span> : null}
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A quote's lead price as the sentence surveyors read, or why there is none. */
function leadSentence(
  lead: ReturnType<typeof LeadPricingConfigSchema.safeParse>,
  surveyType: SurveyType,
  quotedPriceCents: number | null,
): string {
  if (!lead.success) return "Fix the lead price fields to see this.";
  return describeLeadPrice(priceLead(lead.data, { surveyType, quotedPriceCents }).inputs);
}

const SURVEY_TYPE_CHOICES = SURVEY_TYPES.map((t) => ({ id: t, label: TYPE_NAME(t) }));

/**
 * The lead price section: each priced type's share of the quote, the floor and cap, the flat
 * subdivision price, surveyors per lead and expiry; under them the lead price of every type's
 * starting price and of any quote the admin tries, in the words surveyors read, recomputed
 * on every keystroke (lib/lead_pricing.ts runs here, no round trip).
 */
function LeadPriceSection(
  { lead, draft, errors, onValue }: {
    lead: unknown;
    draft: Draft;
    errors: Record<string, string>;
    onValue(key: string, value: string): void;
  },
) {
  const [tryType, setTryType] = useState<SurveyType>("alta");
  const [tryQuote, setTryQuote] = useState("2400");
  const parsed = useMemo(() => LeadPricingConfigSchema.safeParse(lead), [lead]);
  const tryCents = toNumber(tryQuote, "dollars");
  const isTryValid = Number.isFinite(tryCents) && tryCents >= 0 && tryCents <= 100_000_000;
  return (
    <section className="card pricing-group pricing-group--lead" aria-labelledby="pricing-lead">
      <div className="card__header">
        <h2 id="pricing-lead">Lead price</h2>
      </div>
      <div className="card__body stack">
        <p className="muted">
          What a surveyor pays for a lead: a share of the client's quote by survey type, raised to
          the lowest price and cut to the highest. Subdivision surveys are quoted by hand, so their
          leads have a flat price. Each lead keeps the price it was offered at.
        </p>
        <div className="pricing-grid">
          {LEAD_FIELDS.map((f) => {
            const k = key(f.path);
            return (
              <NumberField
                key={k}
                id={`pf-${k.replace(/\./g, "-")}`}
                label={f.label}
                unit={f.unit}
                value={draft[k] ?? ""}
                onValue={(v) => onValue(k, v)}
                error={errors[k]}
              />
            );
          })}
        </div>
        <h3>Lead prices at each starting price</h3>
        <ul>
          {PRICED_SURVEY_TYPES.map((t) => {
            const from = SURVEY_TYPE_INFO[t].startingPrice;
            return (
              <li key={t}>
                <strong>{TYPE_NAME(t)}:</strong>{" "}
                {leadSentence(parsed, t, from === null ? null : from * 100)}
              </li>
            );
          })}
          <li>
            <strong>{TYPE_NAME("subdivision")}:</strong> {leadSentence(parsed, "subdivision", null)}
          </li>
        </ul>
        <div className="pricing-grid pricing-grid--try">
          <SelectField
            id="lead-try-type"
            label="Try a survey type"
            value={tryType}
            onValue={(v) => setTryType(v as SurveyType)}
            choices={SURVEY_TYPE_CHOICES}
            placeholder={null}
          />
          <NumberField
            id="lead-try-quote"
            label="and a quote"
            unit="dollars"
            value={tryQuote}
            onValue={setTryQuote}
            error={isTryValid ? undefined : "Enter a quote in dollars, like 1285"}
          />
        </div>
        <p aria-live="polite">
          {isTryValid
            ? leadSentence(parsed, tryType, tryType === "subdivision" ? null : tryCents)
            : null}
        </p>
      </div>
    </section>
  );
}

/**
 * /pricing-algorithm: edits every pricing factor and the lead price (validated with the
 * server's schema as you type), previews sample properties and lead prices under the unsaved
 * configuration, saves a new version with a note, shows the version history, and manages
 * discount codes.
 */
export default function PricingEditor(
  { active, history, codes, renderedAt }: PricingEditorProps,
) {
  const [activeVersion, setActiveVersion] = useState(active.version);
  const [baseline, setBaseline] = useState(active.config);
  // The version the form was last filled from: where the factors it hides come from.
  const [source, setSource] = useState(active.config);
  const initial = useMemo(() => draftOf(active.config), [active.config]);
  const [draft, setDraft] = useState<Draft>(initial.draft);
  const [tiers, setTiers] = useState<TierDraft[]>(initial.tiers);
  const [included, setIncluded] = useState(initial.included);
  const [note, setNote] = useState("");
  const [isSaving, setSaving] = useState(false);
  const [versions, setVersions] = useState(history.versions);
  const [versionTotal, setVersionTotal] = useState(history.total);
  const [preview, setPreview] = useState<PreviewRow[] | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [isPreviewing, setPreviewing] = useState(false);
  const previewSeq = useRef(0);

  const candidate = useMemo(
    () => configOf(source, draft, tiers, included),
    [source, draft, tiers, included],
  );
  const parsed = useMemo(() => PricingConfigSchema.safeParse(candidate), [candidate]);
  const errors = useMemo(() => {
    const out: Record<string, string> = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) out[issue.path.join(".")] ??= issue.message;
    }
    return out;
  }, [parsed]);
  const errorCount = Object.keys(errors).length;
  const isDirty = JSON.stringify(candidate) !== JSON.stringify(baseline);

  function load(config: PricingConfig) {
    const next = draftOf(config);
    setSource(config);
    setDraft(next.draft);
    setTiers(next.tiers);
    setIncluded(next.included);
  }

  async function runPreview() {
    if (!parsed.success) return;
    const seq = ++previewSeq.current;
    setPreviewing(true);
    setPreviewError(null);
    try {
      const body = await apiJson<{ samples: PreviewRow[] }>("POST", "/api/admin/pricing-preview", {
        config: parsed.data,
      });
      if (seq === previewSeq.current) setPreview(body?.samples ?? []);
    } catch (err) {
      if (seq === previewSeq.current) {
        setPreviewError(errorMessage(err, "Could not preview prices."));
      }
    } finally {
      if (seq === previewSeq.current) setPreviewing(false);
    }
  }

  // Re-price the samples shortly after the admin stops typing, when the config is valid.
  useEffect(() => {
    if (!parsed.success) return;
    const timer = setTimeout(runPreview, 500);
    return () => clearTimeout(timer);
    // runPreview reads only `parsed`, so that is the one dependency.
  }, [parsed]);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!parsed.success) {
      toast({
        title: "Fix the highlighted fields",
        description: `${errorCount} ${errorCount === 1 ? "field needs" : "fields need"} attention.`,
        variant: "destructive",
      });
      return;
    }
    setSaving(true);
    try {
      const saved = await apiJson<
        { version: number; message: string; config: PricingConfig } & PricingVersionRow
      >("PUT", "/api/admin/pricing-config", { config: parsed.data, note });
      if (saved) {
        setActiveVersion(saved.version);
        setBaseline(saved.config);
        setVersions((rows) => [
          {
            version: saved.version,
            createdByName: saved.createdByName,
            note: saved.note,
            createdAt: saved.createdAt,
          },
          ...rows,
        ]);
        setVersionTotal((n) => n + 1);
        setNote("");
        toast({ title: "Pricing saved", description: saved.message });
      }
    } catch (err) {
      toast({
        title: "Error saving pricing",
        description: errorMessage(err, "Could not save the pricing configuration."),
        variant: "destructive",
      });
    } finally {
      setSaving(false);
    }
  }

  async function loadVersion(version: number) {
    try {
      const row = await apiJson<{ config: PricingConfig }>(
        "GET",
        `/api/admin/pricing-config/versions/${version}`,
      );
      if (row) {
        load(row.config);
        toast({
          title: `Version ${version} loaded`,
          description: "Review the preview, then save to make it active.",
        });
      }
    } catch (err) {
      toast({
        title: "Error",
        description: errorMessage(err, "Could not load that version."),
        variant: "destructive",
      });
    }
  }

  return (
    <div className="pricing-editor">
      <form
        {...NO_SCRIPT_FORM}
        className="pricing-form"
        onSubmit={save}
        noValidate
        aria-describedby="pricing-status"
      >
        <div className="pricing-form__fields">
          <section className="card pricing-group" aria-labelledby="pricing-acreage">
            <div className="card__header">
              <h2 id="pricing-acreage">Acreage</h2>
            </div>
            <div className="card__body stack">
              <p className="muted">
                Acres beyond those included are charged at the rate of the tier they fall in, like
                tax brackets. Rates must not rise with size; the last tier has no limit.
              </p>
              <NumberField
                id="pf-includedAcres"
                label="Acres included in the base price"
                unit="acres"
                value={included}
                onValue={setIncluded}
                error={errors.includedAcres}
              />
              <TableRegion label="Acreage tiers">
                <table className="table table--cards pricing-tiers">
                  <caption className="visually-hidden">Acreage tiers</caption>
                  <thead>
                    <tr>
                      <th scope="col">Up to (acres)</th>
                      <th scope="col">Per acre</th>
                      <th scope="col" className="table__actions-cell">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {tiers.map((tier, i) => (
                      <tr key={i}>
                        <td data-label="Up to (acres)">
                          <NumberField
                            id={`pf-tier-${i}-upTo`}
                            label={
                              <span className="visually-hidden">{`Tier ${i + 1} up to acres`}</span>
                            }
                            unit="acres"
                            value={tier.upTo}
                            onValue={(v) =>
                              setTiers((ts) => ts.map((t, j) => (j === i ? { ...t, upTo: v } : t)))}
                            error={errors[`acreageTiers.${i}.upToAcres`] ??
                              errors[`acreageTiers.${i}`]}
                          />
                          {i === tiers.length - 1 && tier.upTo.trim() === ""
                            ? <span className="muted pricing-tiers__nolimit">No limit</span>
                            : null}
                        </td>
                        <td data-label="Per acre">
                          <NumberField
                            id={`pf-tier-${i}-rate`}
                            label={
                              <span className="visually-hidden">
                                {`Tier ${i + 1} price per acre`}
                              </span>
                            }
                            unit="dollars"
                            value={tier.rate}
                            onValue={(v) =>
                              setTiers((ts) => ts.map((t, j) => (j === i ? { ...t, rate: v } : t)))}
                            error={errors[`acreageTiers.${i}.centsPerAcre`]}
                          />
                        </td>
                        <td className="table__actions-cell">
                          <button
                            type="button"
                            className="btn btn--ghost btn--sm"
                            disabled={tiers.length <= 1}
                            onClick={() => setTiers((ts) => ts.filter((_, j) => j !== i))}
                          >
                            Remove<span className="visually-hidden">{` tier ${i + 1}`}</span>
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableRegion>
              {errors.acreageTiers ? <p className="field__error">{errors.acreageTiers}</p> : null}
              <div>
                <button
                  type="button"
                  className="btn btn--secondary btn--sm"
                  disabled={tiers.length >= 12}
                  onClick={() =>
                    setTiers((ts) => {
                      const last = ts[ts.length - 1];
                      return [...ts, { upTo: "", rate: last?.rate ?? "" }];
                    })}
                >
                  Add tier
                </button>
              </div>
            </div>
          </section>

          {GROUPS.map((group) => (
            <section
              key={group.id}
              className={`card pricing-group pricing-group--${group.id}`}
              aria-labelledby={`pricing-${group.id}`}
            >
              <div className="card__header">
                <h2 id={`pricing-${group.id}`}>{group.title}</h2>
              </div>
              <div className="card__body stack">
                <p className="muted">{group.hint}</p>
                <div className="pricing-grid">
                  {group.fields.map((f) => {
                    const k = key(f.path);
                    return (
                      <NumberField
                        key={k}
                        id={`pf-${k.replace(/\./g, "-")}`}
                        label={f.label}
                        unit={f.unit}
                        value={draft[k] ?? ""}
                        onValue={(v) => setDraft((d) => ({ ...d, [k]: v }))}
                        error={errors[k]}
                      />
                    );
                  })}
                </div>
              </div>
            </section>
          ))}

          <LeadPriceSection
            lead={(candidate as { lead?: unknown }).lead}
            draft={draft}
            errors={errors}
            onValue={(k, v) => setDraft((d) => ({ ...d, [k]: v }))}
          />
        </div>

        <aside className="pricing-form__side">
          <section className="card" aria-labelledby="pricing-preview">
            <div className="card__header">
              <h2 id="pricing-preview">Preview</h2>
            </div>
            <div className="card__body stack">
              <p className="muted">
                Sample properties priced with version {activeVersion} and with your edits.
              </p>
              {previewError
                ? <p className="alert alert--error" role="alert">{previewError}</p>
                : null}
              {preview
                ? (
                  <TableRegion label="Sample prices">
                    <table className="table pricing-preview">
                      <thead>
                        <tr>
                          <th scope="col">Sample</th>
                          <th scope="col">Now</th>
                          <th scope="col">Edited</th>
                        </tr>
                      </thead>
                      <tbody>
                        {preview.map((row) => (
                          <tr key={row.label}>
                            <th scope="row">{row.label}</th>
                            <td>{money(row.current.totalCents)}</td>
                            <td>
                              {money(row.preview.totalCents)}
                              {row.changeCents
                                ? (
                                  <span
                                    className={`pricing-change ${
                                      row.changeCents > 0
                                        ? "pricing-change--up"
                                        : "pricing-change--down"
                                    }`}
                                  >
                                    {row.changeCents > 0 ? " +" : " "}
                                    {formatCents(row.changeCents)}
                                  </span>
                                )
                                : null}
                              {row.preview.minimumApplied
                                ? <span className="badge badge--neutral">minimum</span>
                                : null}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </TableRegion>
                )
                : <p className="muted">{isPreviewing ? "Pricing samples…" : "No preview yet."}</p>}
              <button
                type="button"
                className="btn btn--secondary btn--sm"
                onClick={runPreview}
                disabled={!parsed.success || isPreviewing}
              >
                {isPreviewing ? "Previewing…" : "Refresh preview"}
              </button>
            </div>
          </section>

          <section className="card" aria-labelledby="pricing-save">
            <div className="card__header">
              <h2 id="pricing-save">Save</h2>
            </div>
            <div className="card__body stack">
              <p
                id="pricing-status"
                className={errorCount ? "field__error" : "muted"}
                role="status"
              >
                {errorCount
                  ? `${errorCount} ${errorCount === 1 ? "field needs" : "fields need"} attention.`
                  : isDirty
                  ? "Unsaved changes."
                  : `This is version ${activeVersion}, the active configuration.`}
              </p>
              <div className="field">
                <label className="field__label" htmlFor="pricing-note">Note (optional)</label>
                <textarea
                  id="pricing-note"
                  className="field__input"
                  rows={2}
                  maxLength={500}
                  value={note}
                  onChange={(e) => setNote(e.currentTarget.value)}
                />
              </div>
              <button
                type="submit"
                className="btn btn--primary btn--block"
                disabled={isSaving || !isDirty || errorCount > 0}
              >
                {isSaving ? "Saving…" : `Save as version ${activeVersion + 1}`}
              </button>
              <div className="cluster">
                <button
                  type="button"
                  className="btn btn--ghost btn--sm"
                  onClick={() => load(baseline)}
                  disabled={!isDirty}
                >
                  Discard edits
                </button>
                <button
                  type="button"
                  className="btn btn--ghost btn--sm"
                  onClick={() => load(DEFAULT_PRICING_CONFIG)}
                >
                  Load defaults
                </button>
              </div>
            </div>
          </section>
        </aside>
      </form>

      <section className="card" aria-labelledby="pricing-history">
        <div className="card__header">
          <h2 id="pricing-history">Version history</h2>
        </div>
        <div className="card__body">
          <TableRegion label="Version history">
            <table className="table table--cards">
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">Saved by</th>
                  <th scope="col">When</th>
                  <th scope="col">Note</th>
                  <th scope="col" className="table__actions-cell">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {versions.map((v) => (
                  <tr key={v.version}>
                    <td data-label="Version">
                      {v.version} {v.version === activeVersion
                        ? <span className="badge badge--success">active</span>
                        : null}
                    </td>
                    <td data-label="Saved by">
                      {v.createdByName ?? (v.version === 1 ? "Defaults" : "Unknown")}
                    </td>
                    <td data-label="When">{formatWhen(v.createdAt)}</td>
                    <td data-label="Note">{v.note || <span className="muted">—</span>}</td>
                    <td className="table__actions-cell">
                      <button
                        type="button"
                        className="btn btn--ghost btn--sm"
                        onClick={() => loadVersion(v.version)}
                      >
                        Load<span className="visually-hidden">version {v.version}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
          {versionTotal > versions.length
            ? (
              <p className="muted">
                Showing the latest {versions.length} of {versionTotal} versions.
              </p>
            )
            : null}
        </div>
      </section>

      <DiscountCodes initial={codes.codes} total={codes.total} renderedAt={renderedAt} />
    </div>
  );
}

/** A discount code as GET /api/admin/discount-codes lists it. */
export interface DiscountCodeRow {
  id: string;
  code: string;
  kind: "percent" | "fixed";
  value: number;
  validFrom: string | null;
  validUntil: string | null;
  maxUses: number | null;
  uses: number;
  oncePerClient: boolean;
  active: boolean;
  note: string;
  createdAt: string;
}

function describeDiscount(code: Pick<DiscountCodeRow, "kind" | "value">): string {
  return code.kind === "percent" ? `${code.value}% off` : `${formatCents(code.value)} off`;
}

function windowText(code: DiscountCodeRow): string {
  const day = (iso: string) => DAY.format(new Date(iso));
  if (code.validFrom && code.validUntil) return `${day(code.validFrom)} – ${day(code.validUntil)}`;
  if (code.validFrom) return `From ${day(code.validFrom)}`;
  if (code.validUntil) return `Until ${day(code.validUntil)}`;
  return "Always";
}

/**
 * A code's status at `now` (ms): what its badge says. The page is the same while every shown
 * code's status is (routes/pricing_pages.tsx remembers it by them).
 */
export function statusOf(
  code: DiscountCodeRow,
  now: number,
): { label: string; badge: string } {
  if (!code.active) return { label: "Inactive", badge: "badge--neutral" };
  if (code.validUntil && Date.parse(code.validUntil) <= now) {
    return { label: "Expired", badge: "badge--warning" };
  }
  if (code.validFrom && Date.parse(code.validFrom) > now) {
    return { label: "Scheduled", badge: "badge--info" };
  }
  if (code.maxUses !== null && code.uses >= code.maxUses) {
    return { label: "Used up", badge: "badge--warning" };
  }
  return { label: "Active", badge: "badge--success" };
}

interface CodeForm {
  code: string;
  kind: "percent" | "fixed";
  value: string;
  validFrom: string;
  validUntil: string;
  maxUses: string;
  oncePerClient: boolean;
  note: string;
}

const EMPTY_CODE: CodeForm = {
  code: "",
  kind: "percent",
  value: "",
  validFrom: "",
  validUntil: "",
  maxUses: "",
  oncePerClient: true,
  note: "",
};

/** Checks the form the way the server will, so most mistakes show before a round trip. */
function codeErrors(form: CodeForm): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!/^[A-Za-z0-9_-]{3,40}$/.test(form.code.trim())) {
    errors.code = "Codes are 3 to 40 letters, numbers, dashes or underscores";
  }
  const value = Number(form.value);
  if (form.value.trim() === "" || !Number.isFinite(value) || value <= 0) {
    errors.value = "Value must be greater than 0";
  } else if (form.kind === "percent" && (!Number.isInteger(value) || value > 100)) {
    errors.value = "A percentage must be a whole number from 1 to 100";
  }
  if (form.maxUses.trim() !== "") {
    const max = Number(form.maxUses);
    if (!Number.isInteger(max) || max < 1) errors.maxUses = "Maximum uses must be at least 1";
  }
  if (form.validFrom && form.validUntil && form.validUntil <= form.validFrom) {
    errors.validUntil = "Valid until must be after valid from";
  }
  return errors;
}

const DISCOUNT_KINDS = [
  { id: "percent", label: "Percent off" },
  { id: "fixed", label: "Fixed amount off" },
];

/** The discount-code section: create codes, list them with their uses, turn them on and off. */
function DiscountCodes(
  { initial, total, renderedAt }: { initial: DiscountCodeRow[]; total: number; renderedAt: string },
) {
  const [codes, setCodes] = useState(initial);
  const [form, setForm] = useState<CodeForm>(EMPTY_CODE);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isCreating, setCreating] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);
  // Status badges depend on the clock; the server's render time keeps hydration stable.
  const [now, setNow] = useState(() => Date.parse(renderedAt));
  useEffect(() => setNow(Date.now()), []);

  const set = <K extends keyof CodeForm>(k: K, v: CodeForm[K]) =>
    setForm((f) => ({ ...f, [k]: v }));

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = codeErrors(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    setCreating(true);
    try {
      const value = Number(form.value);
      const body = await apiJson<{ message: string; code: DiscountCodeRow }>(
        "POST",
        "/api/admin/discount-codes",
        {
          code: form.code.trim(),
          kind: form.kind,
          value: form.kind === "fixed" ? Math.round(value * 100) : value,
          // datetime-local is the admin's local time; the API takes an instant.
          validFrom: form.validFrom ? new Date(form.validFrom).toISOString() : null,
          validUntil: form.validUntil ? new Date(form.validUntil).toISOString() : null,
          maxUses: form.maxUses.trim() ? Number(form.maxUses) : null,
          oncePerClient: form.oncePerClient,
          note: form.note,
        },
      );
      if (body) {
        setCodes((rows) => [body.code, ...rows]);
        setForm(EMPTY_CODE);
        toast({ title: "Discount code created", description: body.message });
      }
    } catch (err) {
      toast({
        title: "Error creating discount code",
        description: errorMessage(err, "Could not create the discount code."),
        variant: "destructive",
      });
    } finally {
      setCreating(false);
    }
  }

  async function toggle(code: DiscountCodeRow) {
    setBusyId(code.id);
    try {
      const body = await apiJson<{ message: string; code: DiscountCodeRow }>(
        "PATCH",
        `/api/admin/discount-codes/${code.id}`,
        { active: !code.active },
      );
      if (body) {
        setCodes((rows) => rows.map((r) => (r.id === code.id ? body.code : r)));
        toast({ title: "Discount code updated", description: body.message });
      }
    } catch (err) {
      toast({
        title: "Error updating discount code",
        description: errorMessage(err, "Could not update the discount code."),
        variant: "destructive",
      });
    } finally {
      setBusyId(null);
    }
  }

  return (
    <section className="card" aria-labelledby="discount-codes">
      <div className="card__header">
        <h2 id="discount-codes">Discount codes</h2>
      </div>
      <div className="card__body stack">
        <CheckedForm
          errors={errors}
          isPending={isCreating}
          className="discount-form"
          onSubmit={create}
        >
          <TextField
            id="dc-code"
            label="Code"
            value={form.code}
            maxLength={40}
            autoComplete="off"
            onValue={(v) => set("code", v)}
            hint="Clients type it in any case."
            error={errors.code}
          />
          <SelectField
            id="dc-kind"
            label="Type"
            value={form.kind}
            onValue={(v) => set("kind", v as CodeForm["kind"])}
            choices={DISCOUNT_KINDS}
            placeholder={null}
          />
          <TextField
            id="dc-value"
            label={form.kind === "percent" ? "Percent" : "Amount ($)"}
            inputMode="decimal"
            value={form.value}
            onValue={(v) => set("value", v)}
            error={errors.value}
          />
          <TextField
            id="dc-from"
            label="Valid from"
            optional
            type="datetime-local"
            value={form.validFrom}
            onValue={(v) => set("validFrom", v)}
          />
          <TextField
            id="dc-until"
            label="Valid until"
            optional
            type="datetime-local"
            value={form.validUntil}
            onValue={(v) => set("validUntil", v)}
            error={errors.validUntil}
          />
          <TextField
            id="dc-max"
            label="Maximum uses"
            optional
            inputMode="numeric"
            value={form.maxUses}
            onValue={(v) => set("maxUses", v)}
            error={errors.maxUses}
          />
          <div className="field field--check">
            <input
              id="dc-once"
              type="checkbox"
              checked={form.oncePerClient}
              onChange={(e) => set("oncePerClient", e.currentTarget.checked)}
            />
            <label htmlFor="dc-once">Once per client</label>
          </div>
          <div className="discount-form__note">
            <TextField
              id="dc-note"
              label="Note"
              optional
              maxLength={500}
              value={form.note}
              onValue={(v) => set("note", v)}
            />
          </div>
          <div className="form-actions">
            <button type="submit" className="btn btn--primary" disabled={isCreating}>
              {isCreating ? "Creating…" : "Create code"}
            </button>
          </div>
        </CheckedForm>

        {codes.length
          ? (
            <TableRegion label="Discount codes">
              <table className="table table--cards">
                <thead>
                  <tr>
                    <th scope="col">Code</th>
                    <th scope="col">Discount</th>
                    <th scope="col">Valid</th>
                    <th scope="col">Uses</th>
                    <th scope="col">Per client</th>
                    <th scope="col">Status</th>
                    <th scope="col" className="table__actions-cell">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {codes.map((code) => {
                    const status = statusOf(code, now);
                    return (
                      <tr key={code.id}>
                        <th scope="row">
                          <code>{code.code}</code>
                          {code.note ? <div className="muted">{code.note}</div> : null}
                        </th>
                        <td data-label="Discount">{describeDiscount(code)}</td>
                        <td data-label="Valid">{windowText(code)}</td>
                        <td data-label="Uses">
                          {code.uses}
                          {code.maxUses !== null ? ` / ${code.maxUses}` : ""}
                        </td>
                        <td data-label="Per client">{code.oncePerClient ? "Once" : "Unlimited"}</td>
                        <td data-label="Status">
                          <span className={`badge ${status.badge}`}>{status.label}</span>
                        </td>
                        <td className="table__actions-cell">
                          <button
                            type="button"
                            className={`btn btn--sm ${
                              code.active ? "btn--danger" : "btn--secondary"
                            }`}
                            disabled={busyId === code.id}
                            onClick={() => toggle(code)}
                          >
                            {code.active ? "Deactivate" : "Activate"}
                            <span className="visually-hidden">{code.code}</span>
                          </button>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </TableRegion>
          )
          : <p className="empty-state">No discount codes yet.</p>}
        {total > codes.length
          ? <p className="muted">Showing the newest {codes.length} of {total} codes.</p>
          : null}
      </div>
    </section>
  );
}
