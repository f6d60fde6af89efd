/**
 * The surveyor's available leads on /leads and /surveyor/available-leads: filters by survey
 * type and distance from the office, the list newest first (components/LeadCard.tsx, no
 * personal data), paging, and "Not interested" (hides a lead for good, costs nothing).
 *
 * The server renders the page the address asks for and passes it in; later pages and filters
 * come from GET /api/leads, and the address follows them, so a filtered view can be
 * bookmarked and reloads as it was (with the map redrawn for it).
 */
import { type MouseEvent, useEffect, useRef, useState } from "react";
import { apiJson, errorMessage, getQuery } from "./_api.ts";
import { toast } from "./_toast.ts";
import { Pager } from "./_pager.tsx";
import { LeadCard, leadTitle } from "../components/LeadCard.tsx";
import type { LeadSummary } from "../lib/lead_market_schema.ts";
import { SURVEY_TYPE_INFO, SURVEY_TYPES, type SurveyType } from "../lib/survey_types.ts";
import { formatInteger } from "../lib/numbers.ts";
import { type MailDelivery, whoTellsYou } from "../lib/mail/delivery.ts";

/** Distances (miles from the office) the distance filter offers; "" is any distance. */
export const LEAD_DISTANCES = [10, 25, 50, 100] as const;

/** The list's filters as the address spells them ("" = not set). */
export interface LeadFilters {
  surveyType: SurveyType | "";
  /** One of LEAD_DISTANCES as text, or "". */
  maxDistance: string;
}

/** No filter set. */
export const NO_LEAD_FILTERS: LeadFilters = { surveyType: "", maxDistance: "" };

/** One page of the list, as GET /api/leads answers it. */
export interface LeadPage {
  leads: LeadSummary[];
  total: number;
  page: number;
  pageSize: number;
}

/** The query string for `filters` and `page` (page 1 and unset filters left out). */
export function leadQuery(filters: LeadFilters, page: number): string {
  const params = new URLSearchParams();
  if (filters.surveyType) params.set("surveyType", filters.surveyType);
  if (filters.maxDistance) params.set("maxDistance", filters.maxDistance);
  if (page > 1) params.set("page", String(page));
  return params.toString();
}

/**
 * The page the list shows. `leads` is undefined in the browser for the page the server rendered:
 * its cards arrive as the server's HTML only (`listHtml`, a server-only prop: components/Island.tsx),
 * and stay as they are
 * until the list loads a page of its own.
 */
export type ShownLeadPage = Omit<LeadPage, "leads"> & { leads?: LeadSummary[] };

/** The lead "Not interested" asks about: its id and its card's title. */
export interface HidingLead {
  id: string;
  title: string;
}

/** Props of the list: the page the server rendered, its filters and the server's clock. */
export interface AvailableLeadsProps {
  initial: ShownLeadPage;
  filters: LeadFilters;
  /**
   * When `initial.leads` was read (ISO): the cards' "2 hours ago" count from it. Only for cards
   * the island renders itself: the server sends its cards as HTML (`listHtml`), their times
   * already written, and no `now`, so the page's bytes depend on the clock only through what
   * its cards show (routes/lead_pages.tsx remembers the whole page by them).
   */
  now?: string;
  /**
   * On the server only: `initial`'s cards, each `LeadListItem` rendered disabled (not yet
   * hydrated), when `initial.leads` is left out; the list is this HTML as it is.
   */
  listHtml?: string[];
  /** Whether a new lead's email really leaves (a mail server is set up), for the empty list. */
  mailDelivery: MailDelivery;
}

/** Props of `LeadListItem`. */
export interface LeadListItemProps {
  lead: LeadSummary;
  now: string;
  /** "Not interested" disabled: not hydrated yet, or a page is loading. */
  isDisabled: boolean;
  onHide?: (lead: HidingLead) => void;
}

/**
 * One lead of the list: its card with "View and buy" and "Not interested". The server renders
 * the first page's items on their own (routes/lead_pages.tsx), the island the later ones.
 */
export function LeadListItem({ lead, now, isDisabled, onHide }: LeadListItemProps) {
  const href = `/surveyor/leads/${encodeURIComponent(lead.id)}`;
  return (
    <li>
      <LeadCard
        lead={lead}
        now={now}
        href={href}
        actions={
          <>
            <a
              className="btn btn--primary btn--sm"
              href={href}
              aria-describedby={`lead-${lead.id}-title`}
            >
              View and buy
            </a>
            <button
              type="button"
              className="btn btn--ghost btn--sm"
              aria-describedby={`lead-${lead.id}-title`}
              disabled={isDisabled}
              onClick={() => onHide?.({ id: lead.id, title: leadTitle(lead) })}
            >
              Not interested
            </button>
          </>
        }
      />
    </li>
  );
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatInteger(n)} ${n === 1 ? one : many}`;
}

/** The list with its filters (see the file's comment). */
export default function AvailableLeads(
  { initial, filters: initialFilters, now: initialNow, listHtml, mailDelivery }:
    AvailableLeadsProps,
) {
  const [data, setData] = useState<ShownLeadPage>(initial);
  const [filters, setFilters] = useState<LeadFilters>(initialFilters);
  const [now, setNow] = useState(initialNow ?? "");
  const [isLoading, setLoading] = useState(false);
  const [hiding, setHiding] = useState<HidingLead | null>(null);
  const [isHidePending, setHidePending] = useState(false);
  const request = useRef(0);
  const dialog = useRef<HTMLDialogElement>(null);
  const summary = useRef<HTMLParagraphElement>(null);
  const list = useRef<HTMLUListElement>(null);
  // Marks the list as interactive (tests wait for it; until then the SSR copy is inert).
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  const hasFilters = Boolean(filters.surveyType || filters.maxDistance);
  // The server's cards (see ShownLeadPage) are not React's: their "Not interested" buttons
  // follow the same rule as the list's own, disabled until hydrated and while loading.
  const isServerList = data.leads === undefined;
  useEffect(() => {
    if (!isServerList) return;
    for (const button of list.current?.querySelectorAll("button") ?? []) {
      button.disabled = !isHydrated || isLoading;
    }
  }, [isServerList, isHydrated, isLoading]);

  async function load(next: LeadFilters, page: number): Promise<boolean> {
    const n = ++request.current;
    setLoading(true);
    try {
      const query = leadQuery(next, page);
      const res = await getQuery<LeadPage>(`/api/leads${query ? `?${query}` : ""}`);
      if (n !== request.current) return false;
      if (!res) throw new Error("Signed out");
      setData({ leads: res.leads, total: res.total, page: res.page, pageSize: res.pageSize });
      setNow(new Date().toISOString());
      const shown = leadQuery(next, res.page);
      history.replaceState(null, "", `${location.pathname}${shown ? `?${shown}` : ""}`);
      return true;
    } catch (err) {
      if (n !== request.current) return false;
      toast({
        title: "Error",
        description: errorMessage(err, "Could not load leads. Please try again."),
        variant: "destructive",
      });
      return false;
    } finally {
      if (n === request.current) setLoading(false);
    }
  }

  function apply(change: Partial<LeadFilters>) {
    const next = { ...filters, ...change };
    setFilters(next);
    load(next, 1);
  }

  function askHide(lead: HidingLead) {
    setHiding(lead);
    dialog.current?.showModal();
  }

  // A click on a server card's "Not interested" (one listener for the list; the cards are the
  // server's HTML, with the lead's id on the card and its title in the heading).
  function onServerListClick(event: MouseEvent<HTMLUListElement>) {
    const button = (event.target as Element).closest("button");
    const card = button?.closest<HTMLElement>("[data-lead-id]");
    if (!button || button.disabled || !card?.dataset.leadId) return;
    askHide({
      id: card.dataset.leadId,
      title: card.querySelector(".lead-card__title")?.textContent ?? "This lead",
    });
  }

  async function confirmHide() {
    if (!hiding) return;
    setHidePending(true);
    try {
      await apiJson("POST", `/api/leads/${encodeURIComponent(hiding.id)}/dismiss`);
      dialog.current?.close();
      toast({ title: "Lead hidden", description: `${hiding.title} will not show again.` });
      setHiding(null);
      // The page may now be short by one, or empty: read it again (or the one before it).
      const shown = data.leads?.length ?? list.current?.children.length ?? 0;
      const page = shown === 1 && data.page > 1 ? data.page - 1 : data.page;
      if (await load(filters, page)) summary.current?.focus();
    } catch (err) {
      dialog.current?.close();
      toast({
        title: "Error",
        description: errorMessage(err, "Could not hide the lead. Please try again."),
        variant: "destructive",
      });
    } finally {
      setHidePending(false);
    }
  }

  return (
    <div className="available-leads" data-hydrated={isHydrated || undefined}>
      <form
        className="lead-filters"
        role="search"
        aria-label="Filter leads"
        onSubmit={(e) => e.preventDefault()}
      >
        <div className="field">
          <label className="field__label" htmlFor="lead-filter-type">Survey type</label>
          <select
            id="lead-filter-type"
            name="surveyType"
            className="field__input"
            value={filters.surveyType}
            onChange={(e) => apply({ surveyType: e.currentTarget.value as SurveyType | "" })}
          >
            <option value="">All types</option>
            {SURVEY_TYPES.map((t) => <option key={t} value={t}>{SURVEY_TYPE_INFO[t].name}</option>)}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="lead-filter-distance">Distance</label>
          <select
            id="lead-filter-distance"
            name="maxDistance"
            className="field__input"
            value={filters.maxDistance}
            onChange={(e) => apply({ maxDistance: e.currentTarget.value })}
          >
            <option value="">Any distance</option>
            {LEAD_DISTANCES.map((d) => (
              <option key={d} value={String(d)}>{`Within ${d} miles`}</option>
            ))}
          </select>
        </div>
        {hasFilters
          ? (
            <button
              type="button"
              className="btn btn--ghost btn--sm lead-filters__clear"
              disabled={isLoading}
              onClick={() => apply(NO_LEAD_FILTERS)}
            >
              Clear filters
            </button>
          )
          : null}
      </form>

      <p
        className="available-leads__summary"
        ref={summary}
        tabIndex={-1}
        role="status"
        aria-busy={isLoading}
      >
        {isLoading
          ? "Loading leads…"
          : data.total === 0
          ? "No open leads"
          : `${plural(data.total, "open lead")}${
            hasFilters ? (data.total === 1 ? " matches these filters" : " match these filters") : ""
          }, newest first`}
      </p>

      {data.leads?.length === 0 && !isLoading
        ? (
          <div className="empty-state">
            {hasFilters
              ? (
                <>
                  <h3>No leads match these filters</h3>
                  <p className="muted">Try another survey type or a wider distance.</p>
                  <p>
                    <button
                      type="button"
                      className="btn btn--secondary"
                      onClick={() => apply(NO_LEAD_FILTERS)}
                    >
                      Clear filters
                    </button>
                  </p>
                </>
              )
              : (
                <>
                  <h3>No open leads in your area right now</h3>
                  <p className="muted">
                    {`When a client inside your service radius requests a survey type you offer, it shows here, and ${
                      whoTellsYou(mailDelivery, "the bell")
                    }. More types or a wider radius bring more leads.`}
                  </p>
                  <p>
                    <a className="btn btn--secondary" href="/profile#coverage-heading">
                      Edit your coverage
                    </a>
                  </p>
                </>
              )}
          </div>
        )
        : isServerList
        ? (
          // Kept as the server wrote it (see ShownLeadPage); React leaves its content alone.
          <ul
            key="server"
            ref={list}
            className="lead-list"
            aria-label="Available leads"
            aria-busy={isLoading}
            onClick={onServerListClick}
            // Concatenated, not joined: `+` makes a rope of the twenty cached cards, which the
            // page's one flattening for the response copies once; `join` copied them here as
            // well, some 30 KB per view (bench/signed_in_pages.ts, heap sampling).
            dangerouslySetInnerHTML={{
              __html: listHtml?.reduce((html, item) => html + item, "") ?? "",
            }}
            suppressHydrationWarning
          />
        )
        : (
          <ul key="list" className="lead-list" aria-label="Available leads" aria-busy={isLoading}>
            {data.leads!.map((lead) => (
              <LeadListItem
                key={lead.id}
                lead={lead}
                now={now}
                isDisabled={!isHydrated || isLoading}
                onHide={askHide}
              />
            ))}
          </ul>
        )}

      {pages > 1
        ? (
          <Pager
            label="Lead pages"
            page={data.page}
            pages={pages}
            isLoading={isLoading}
            onPage={(page) => load(filters, page)}
          />
        )
        : null}

      <dialog
        ref={dialog}
        className="confirm-dialog"
        aria-labelledby="lead-hide-title"
        aria-describedby="lead-hide-text"
        onClose={() => setHiding(null)}
      >
        <h2 id="lead-hide-title" className="confirm-dialog__title">Hide this lead?</h2>
        <p id="lead-hide-text">
          {hiding ? `${hiding.title} will no longer show in your list. ` : ""}
          Nothing is charged. This cannot be undone.
        </p>
        <div className="form-actions">
          <button
            type="button"
            className="btn btn--ghost"
            autoFocus
            disabled={isHidePending}
            onClick={() => dialog.current?.close()}
          >
            Keep it
          </button>
          <button
            type="button"
            className="btn btn--primary"
            disabled={isHidePending}
            onClick={confirmHide}
          >
            {isHidePending ? "Hiding..." : "Not interested"}
          </button>
        </div>
      </dialog>
    </div>
  );
}
