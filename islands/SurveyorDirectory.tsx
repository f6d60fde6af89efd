/**
 * The surveyor directory on /surveyors (admins): counts, search by name or city, filters
 * (in-network only, state, survey type, status), the paginated table with a link to each
 * record, and "Add surveyor".
 *
 * The server renders the page the address asks for and passes it in; later pages and filters
 * come from GET /api/surveyors, and the address follows them, so a filtered view can be
 * bookmarked and reloads as it was.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { errorMessage, getQuery } from "./_api.ts";
import { toast } from "./_toast.ts";
import { firmProfilePath } from "../lib/firm_slug.ts";
import { Pager } from "./_pager.tsx";
import { TableRegion } from "./_table.tsx";
import { NewSurveyor } from "./_surveyor_new.tsx";
import {
  NO_FILTERS,
  placeOf,
  ratingText,
  SHORT_TYPE_NAMES,
  STATUS_BADGES,
  STATUS_LABELS,
  STATUSES,
  type SurveyorFilters,
  type SurveyorPage,
  surveyorQuery,
  type SurveyorRow,
  toSurveyorRow,
} from "./_surveyor_shared.ts";
import type { SurveyorListResponse, SurveyorStatus } from "../lib/surveyor_schema.ts";
import { SURVEY_TYPE_INFO, SURVEY_TYPES } from "../lib/survey_types.ts";
import { STATE_CODES, US_STATES } from "../lib/survey_options.ts";
import { formatInteger } from "../lib/numbers.ts";

export { surveyorQuery, toSurveyorRow };
export type { SurveyorFilters, SurveyorPage, SurveyorRow };

/**
 * The page the directory shows. `rows` is undefined in the browser for the page the server
 * rendered: its rows arrive as the server's HTML only (server-only props, components/Island.tsx), and stay as
 * they are until the directory loads a page of its own.
 */
export type ShownSurveyorPage = Omit<SurveyorPage, "rows"> & { rows?: SurveyorRow[] };

/** Props of the directory: the page the server rendered and the filters it was asked for. */
export interface SurveyorDirectoryProps {
  initial: ShownSurveyorPage;
  filters: SurveyorFilters;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatInteger(n)} ${n === 1 ? one : many}`;
}

/** The counts strip: each count is also a quick filter (by status, or in-network only). */
function Counts({ page, filters, isLoading, onPick }: {
  page: ShownSurveyorPage;
  filters: SurveyorFilters;
  isLoading: boolean;
  onPick(next: Partial<SurveyorFilters>): void;
}) {
  const { counts } = page;
  const isAll = !filters.status && !filters.inNetworkOnly;
  const items: {
    key: string;
    label: string;
    count: number;
    isPressed: boolean;
    tone: string;
    next: Partial<SurveyorFilters>;
  }[] = [
    {
      key: "all",
      label: "All surveyors",
      count: counts.total,
      isPressed: isAll,
      tone: "neutral",
      next: { status: "", inNetworkOnly: "" },
    },
    {
      key: "network",
      label: "In network",
      count: counts.inNetwork,
      isPressed: filters.inNetworkOnly === "true" && !filters.status,
      tone: "success",
      next: { status: "", inNetworkOnly: "true" },
    },
    ...STATUSES.map((s: SurveyorStatus) => ({
      key: s,
      label: STATUS_LABELS[s],
      count: counts.byStatus[s] ?? 0,
      isPressed: filters.status === s && !filters.inNetworkOnly,
      tone: STATUS_BADGES[s],
      next: { status: s, inNetworkOnly: "" },
    })),
  ];
  return (
    <ul className="surveyor-counts" aria-label="Surveyor counts">
      {items.map((item) => (
        <li key={item.key}>
          <button
            type="button"
            className={`surveyor-counts__item surveyor-counts__item--${item.tone}`}
            aria-pressed={item.isPressed}
            disabled={isLoading}
            onClick={() => onPick(item.next)}
          >
            <span className="surveyor-counts__count">{formatInteger(item.count)}</span>
            <span className="surveyor-counts__label">{item.label}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function Row({ row }: { row: SurveyorRow }) {
  return (
    <tr>
      <th scope="row">
        <a href={`/surveyor-detail/${row.id}`}>{row.companyName}</a>
        {row.principalName
          ? <span className="surveyor-table__sub">{row.principalName}</span>
          : null}
      </th>
      <td data-label="Location">{placeOf(row)}</td>
      <td data-label="Status">
        <span className={`badge badge--${STATUS_BADGES[row.status]}`}>
          {STATUS_LABELS[row.status]}
        </span>
        {
          // Active firms are verified (0026): they have a public profile.
          row.status === "active"
            ? (
              <span className="surveyor-table__sub">
                <a href={firmProfilePath(row.companyName, row.id)}>
                  Public profile<span className="visually-hidden">{` of ${row.companyName}`}</span>
                </a>
              </span>
            )
            : null
        }
      </td>
      <td data-label="In network">{row.inNetwork ? "Yes" : "No"}</td>
      <td data-label="Types">
        {row.surveyTypes.length
          ? row.surveyTypes.map((t) => SHORT_TYPE_NAMES[t] ?? t).join(", ")
          : <span className="muted">None set</span>}
      </td>
      <td data-label="Radius">
        {`${formatInteger(row.serviceRadiusMiles)} mi`}
      </td>
      <td data-label="Rating">
        {ratingText(row.rating, row.reviewCount)}
      </td>
      <td data-label="Contacts">
        {row.contactCount
          ? (
            <>
              {row.mainContact}
              {row.contactCount > 1
                ? <span className="surveyor-table__sub">{`+${row.contactCount - 1} more`}</span>
                : null}
            </>
          )
          : <span className="muted">None</span>}
      </td>
    </tr>
  );
}

/** The directory. */
export default function SurveyorDirectory(
  { initial, filters: initialFilters }: SurveyorDirectoryProps,
) {
  const [data, setData] = useState<ShownSurveyorPage>(initial);
  const [filters, setFilters] = useState<SurveyorFilters>(initialFilters);
  const [isLoading, setLoading] = useState(false);
  const request = useRef(0);
  // Marks the directory as interactive (tests wait for it; until then the SSR copy is inert).
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  const hasFilters = Object.values(filters).some((v) => v.trim() !== "");

  async function load(next: SurveyorFilters, page: number) {
    const n = ++request.current;
    setLoading(true);
    try {
      const res = await getQuery<SurveyorListResponse>(
        `/api/surveyors?${surveyorQuery(next, page, data.pageSize)}`,
      );
      if (n !== request.current) return;
      if (!res) throw new Error("Signed out");
      setData({
        rows: res.surveyors.map(toSurveyorRow),
        total: res.total,
        page: res.page,
        pageSize: res.pageSize,
        counts: res.counts,
      });
      const shown = surveyorQuery(next, res.page);
      history.replaceState(null, "", `${location.pathname}${shown ? `?${shown}` : ""}`);
    } catch (err) {
      if (n !== request.current) return;
      toast({
        title: "Error",
        description: errorMessage(err, "Could not load surveyors. Please try again."),
        variant: "destructive",
      });
    } finally {
      if (n === request.current) setLoading(false);
    }
  }

  function apply(change: Partial<SurveyorFilters>) {
    const next = { ...filters, ...change };
    setFilters(next);
    load(next, 1);
  }

  function onSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    load(filters, 1);
  }

  return (
    <div className="surveyor-directory" data-hydrated={isHydrated || undefined}>
      <Counts page={data} filters={filters} isLoading={isLoading} onPick={apply} />

      <form
        className="admin-filters surveyor-filters"
        role="search"
        aria-label="Search and filter surveyors"
        onSubmit={onSearch}
      >
        <div className="field admin-filters__search">
          <label className="field__label" htmlFor="surveyor-filter-q">Search</label>
          <input
            id="surveyor-filter-q"
            type="search"
            name="q"
            className="field__input"
            placeholder="Company or city"
            maxLength={200}
            value={filters.q}
            onChange={(e) => {
              const q = e.currentTarget.value;
              setFilters((f) => ({ ...f, q }));
            }}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="surveyor-filter-state">State</label>
          <select
            id="surveyor-filter-state"
            name="state"
            className="field__input"
            value={filters.state}
            onChange={(e) => apply({ state: e.currentTarget.value })}
          >
            <option value="">All states</option>
            {STATE_CODES.map((code) => <option key={code} value={code}>{US_STATES[code]}</option>)}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="surveyor-filter-type">Survey type</label>
          <select
            id="surveyor-filter-type"
            name="surveyType"
            className="field__input"
            value={filters.surveyType}
            onChange={(e) => apply({ surveyType: e.currentTarget.value })}
          >
            <option value="">All types</option>
            {SURVEY_TYPES.map((t) => <option key={t} value={t}>{SURVEY_TYPE_INFO[t].name}</option>)}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="surveyor-filter-status">Status</label>
          <select
            id="surveyor-filter-status"
            name="status"
            className="field__input"
            value={filters.status}
            onChange={(e) => apply({ status: e.currentTarget.value })}
          >
            <option value="">All statuses</option>
            {STATUSES.map((s) => <option key={s} value={s}>{STATUS_LABELS[s]}</option>)}
          </select>
        </div>
        <label
          className="surveyor-check surveyor-filters__network"
          htmlFor="surveyor-filter-network"
        >
          <input
            id="surveyor-filter-network"
            type="checkbox"
            name="inNetworkOnly"
            value="true"
            checked={filters.inNetworkOnly === "true"}
            onChange={(e) => apply({ inNetworkOnly: e.currentTarget.checked ? "true" : "" })}
          />{" "}
          In network only
        </label>
        <div className="admin-filters__actions">
          <button type="submit" className="btn btn--secondary">Search</button>
          {hasFilters
            ? (
              <button type="button" className="btn btn--ghost" onClick={() => apply(NO_FILTERS)}>
                Clear filters
              </button>
            )
            : null}
        </div>
      </form>

      <div className="admin-surveys__bar">
        <p className="admin-surveys__count" role="status" aria-live="polite">
          {isLoading
            ? "Loading…"
            : `${plural(data.total, "surveyor")}${hasFilters ? " match these filters" : ""}`}
        </p>
        <NewSurveyor />
      </div>

      <TableRegion label="Surveyors">
        <table className="table table--cards surveyor-table" aria-busy={isLoading || undefined}>
          <caption className="visually-hidden">
            {`Surveyors A to Z, page ${data.page} of ${pages}`}
          </caption>
          <thead>
            <tr>
              <th scope="col">Company</th>
              <th scope="col">Location</th>
              <th scope="col">Status</th>
              <th scope="col">In network</th>
              <th scope="col">Types</th>
              <th scope="col">Radius</th>
              <th scope="col">Rating</th>
              <th scope="col">Contacts</th>
            </tr>
          </thead>
          {data.rows === undefined
            ? (
              // The server's rows, kept as it wrote them (see ShownSurveyorPage): React leaves
              // this body's content alone until another page replaces it.
              <tbody
                key="server"
                dangerouslySetInnerHTML={{ __html: "" }}
                suppressHydrationWarning
              />
            )
            : (
              <tbody key="rows">
                {data.rows.length === 0
                  ? (
                    <tr>
                      <td colSpan={8} className="admin-surveys__empty">
                        {hasFilters
                          ? "No surveyors match these filters."
                          : "No surveyors yet. Add one, or convert a business found near a request."}
                      </td>
                    </tr>
                  )
                  : data.rows.map((row) => <Row key={row.id} row={row} />)}
              </tbody>
            )}
        </table>
      </TableRegion>

      {pages > 1
        ? (
          <Pager
            label="Surveyor pages"
            page={data.page}
            pages={pages}
            isLoading={isLoading}
            onPage={(page) => load(filters, page)}
          />
        )
        : null}
    </div>
  );
}
