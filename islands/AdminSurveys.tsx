/**
 * The admin surveys table on /admin-dashboard: filters (status, type, date range, search),
 * pagination, multi-select delete with confirmation, and per-row status changes offering only
 * the legal next statuses (with the surveyed or completed date when one is needed, and an
 * optional note that stays internal unless "Visible to client" is ticked).
 *
 * The server renders the first page and passes it in; later pages and filters come from
 * GET /api/surveys, and the URL follows the filters so a reload shows the same page.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { apiJson, errorMessage, getQuery } from "./_api.ts";
import { toast } from "./_toast.ts";
import { localToday } from "./_field_status.ts";
import type { Survey } from "../lib/survey_schema.ts";
import {
  nextStatuses,
  requiredDateField,
  STATUS_INFO,
  SURVEY_STATUSES,
  type SurveyStatus,
} from "../lib/survey_status.ts";
import { SURVEY_TYPE_INFO, SURVEY_TYPES, type SurveyType } from "../lib/survey_types.ts";
import { Pager } from "./_pager.tsx";
import { formatTableDay, TableRegion } from "./_table.tsx";
import { formatCents } from "../lib/quote_text.ts";
import { formatInteger } from "../lib/numbers.ts";

/** What the table shows of a survey (a small slice, to keep the page's props light). */
export interface AdminSurveyRow {
  id: string;
  status: SurveyStatus;
  surveyType: SurveyType;
  address: string;
  clientName: string;
  quotedPriceCents: number | null;
  createdAt: string;
}

/** The table's filters, as query parameters ("" = no filter). */
export interface AdminSurveyFilters {
  status: string;
  surveyType: string;
  from: string;
  to: string;
  q: string;
}

/** One page of rows. */
export interface AdminSurveyPage {
  rows: AdminSurveyRow[];
  total: number;
  page: number;
  pageSize: number;
}

/** Props of the admin table. */
export interface AdminSurveysProps {
  initial: AdminSurveyPage;
  filters: AdminSurveyFilters;
}

/** The row slice of a survey from the API. */
export function toAdminRow(s: Survey): AdminSurveyRow {
  return {
    id: s.id,
    status: s.status,
    surveyType: s.surveyType,
    address: s.formattedAddress || s.address,
    clientName: s.clientName,
    quotedPriceCents: s.quotedPriceCents,
    createdAt: s.createdAt,
  };
}

/** Query string of filters and page, without empty values. */
export function filtersQuery(filters: AdminSurveyFilters, page: number, pageSize?: number) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value.trim()) params.set(key, value.trim());
  }
  if (page > 1) params.set("page", String(page));
  if (pageSize) params.set("pageSize", String(pageSize));
  return params.toString();
}

function money(cents: number | null): string {
  if (cents === null) return "Quote required";
  return formatCents(cents);
}

const DATE_LABEL = {
  scheduledDate: "Scheduled date",
  surveyedDate: "Surveyed date",
  completedDate: "Completed date",
} as const;
// MAX_NOTE_LENGTH of lib/survey_schema.ts, which the server enforces; importing the value
// would bring that module (and zod) into this island's bundle.
const NOTE_MAX_LENGTH = 2000;

/**
 * The per-row status menu: legal next statuses, a date when required, an optional note (for
 * the team unless "Visible to client" is ticked), and Update.
 */
function StatusControl(
  { row, onUpdated }: { row: AdminSurveyRow; onUpdated(row: AdminSurveyRow): void },
) {
  const [to, setTo] = useState<SurveyStatus | "">("");
  const [date, setDate] = useState("");
  const [note, setNote] = useState("");
  const [isNoteVisibleToClient, setNoteVisibleToClient] = useState(false);
  const [isPending, setPending] = useState(false);
  const options = nextStatuses("admin", row.status);
  const field = to ? requiredDateField(to) : undefined;
  if (options.length === 0) return <span className="muted">No further changes</span>;

  async function submit() {
    if (!to) return;
    setPending(true);
    try {
      const body: Record<string, string | boolean> = { status: to };
      if (field) body[field] = date;
      if (note.trim()) {
        body.note = note.trim();
        body.isNoteVisibleToClient = isNoteVisibleToClient;
      }
      const data = await apiJson<{ survey?: Survey }>(
        "PATCH",
        `/api/surveys/${row.id}/status`,
        body,
      );
      const updated = data?.survey ? toAdminRow(data.survey) : { ...row, status: to };
      toast({
        title: "Status updated",
        description: `${updated.address}: ${STATUS_INFO[updated.status].label}`,
      });
      setTo("");
      setDate("");
      setNote("");
      setNoteVisibleToClient(false);
      onUpdated(updated);
    } catch (err) {
      toast({
        title: "Error updating status",
        description: errorMessage(err, "Could not update the status. Please try again."),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="admin-status">
      <label className="visually-hidden" htmlFor={`status-${row.id}`}>
        New status for {row.address}
      </label>
      <select
        id={`status-${row.id}`}
        className="field__input admin-status__select"
        value={to}
        onChange={(e) => {
          const next = e.currentTarget.value as SurveyStatus | "";
          setTo(next);
          if (next && requiredDateField(next) && !date) setDate(localToday());
        }}
      >
        <option value="">Change status…</option>
        {options.map((s) => <option key={s} value={s}>{STATUS_INFO[s].label}</option>)}
      </select>
      {field
        ? (
          <>
            <label className="visually-hidden" htmlFor={`date-${row.id}`}>
              {DATE_LABEL[field]}
            </label>
            <input
              id={`date-${row.id}`}
              type="date"
              className="field__input admin-status__date"
              value={date}
              required
              title={DATE_LABEL[field]}
              onChange={(e) => setDate(e.currentTarget.value)}
            />
          </>
        )
        : null}
      {to
        ? (
          <>
            <label className="visually-hidden" htmlFor={`note-${row.id}`}>
              Note for {row.address} (optional)
            </label>
            <textarea
              id={`note-${row.id}`}
              className="field__input admin-status__note"
              rows={2}
              maxLength={NOTE_MAX_LENGTH}
              placeholder="Note (optional)"
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
            />
            <label className="admin-status__visibility" htmlFor={`note-visible-${row.id}`}>
              <input
                id={`note-visible-${row.id}`}
                type="checkbox"
                checked={isNoteVisibleToClient}
                aria-describedby={`note-visible-hint-${row.id}`}
                onChange={(e) => setNoteVisibleToClient(e.currentTarget.checked)}
              />{" "}
              Visible to client
            </label>
            <span id={`note-visible-hint-${row.id}`} className="visually-hidden">
              Unticked, the note is internal: only admins see it.
            </span>
          </>
        )
        : null}
      <button
        type="button"
        className="btn btn--primary btn--sm"
        disabled={!to || isPending || (!!field && !date)}
        onClick={submit}
      >
        {isPending ? "Updating..." : "Update"}
      </button>
    </div>
  );
}

/** The admin surveys table. */
export default function AdminSurveys({ initial, filters: initialFilters }: AdminSurveysProps) {
  const [data, setData] = useState<AdminSurveyPage>(initial);
  const [filters, setFilters] = useState<AdminSurveyFilters>(initialFilters);
  const [selected, setSelected] = useState<string[]>([]);
  const [isLoading, setLoading] = useState(false);
  const [isDeleting, setDeleting] = useState(false);
  const [pendingDelete, setPendingDelete] = useState<string[]>([]);
  const dialog = useRef<HTMLDialogElement>(null);
  const selectAll = useRef<HTMLInputElement>(null);
  const request = useRef(0);
  // Marks the table as interactive (tests wait for it; until then the SSR copy is inert).
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const pageIds = data.rows.map((r) => r.id);
  const selectedOnPage = selected.filter((id) => pageIds.includes(id));
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));

  useEffect(() => {
    if (selectAll.current) {
      selectAll.current.indeterminate = selectedOnPage.length > 0 &&
        selectedOnPage.length < pageIds.length;
    }
  });

  async function load(next: AdminSurveyFilters, page: number) {
    const n = ++request.current;
    setLoading(true);
    try {
      const query = filtersQuery(next, page, data.pageSize);
      const res = await getQuery<
        { surveys: Survey[]; total: number; page: number; pageSize: number }
      >(
        `/api/surveys?${query}`,
      );
      if (n !== request.current) return;
      if (!res) throw new Error("Signed out");
      // Past the last page (after a delete): show the last one that exists.
      const last = Math.max(1, Math.ceil(res.total / res.pageSize));
      if (res.surveys.length === 0 && res.total > 0 && page > last) return load(next, last);
      setData({
        rows: res.surveys.map(toAdminRow),
        total: res.total,
        page: res.page,
        pageSize: res.pageSize,
      });
      setSelected([]);
      const shown = filtersQuery(next, res.page);
      history.replaceState(null, "", `${location.pathname}${shown ? `?${shown}` : ""}`);
    } catch (err) {
      if (n !== request.current) return;
      toast({
        title: "Error",
        description: errorMessage(err, "Could not load surveys. Please try again."),
        variant: "destructive",
      });
    } finally {
      if (n === request.current) setLoading(false);
    }
  }

  function setFilter(key: keyof AdminSurveyFilters, value: string, apply: boolean) {
    const next = { ...filters, [key]: value };
    setFilters(next);
    if (apply) load(next, 1);
  }

  function onSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    load(filters, 1);
  }

  function askDelete(ids: string[]) {
    setPendingDelete(ids);
    dialog.current?.showModal();
  }

  async function confirmDelete() {
    const ids = pendingDelete;
    setDeleting(true);
    try {
      const res = ids.length === 1
        ? await apiJson<{ message?: string }>("DELETE", `/api/surveys/${ids[0]}`)
        : await apiJson<{ message?: string }>("POST", "/api/surveys/delete-multiple", { ids });
      toast({ title: "Survey deleted", description: res?.message });
      dialog.current?.close();
      setSelected((s) => s.filter((id) => !ids.includes(id)));
      await load(filters, data.page);
    } catch (err) {
      dialog.current?.close();
      toast({
        title: ids.length === 1 ? "Error deleting survey" : "Error deleting surveys",
        description: errorMessage(err, "Could not delete. Please try again."),
        variant: "destructive",
      });
    } finally {
      setDeleting(false);
    }
  }

  const hasFilters = Object.values(filters).some((v) => v.trim() !== "");
  return (
    <div className="admin-surveys" data-hydrated={isHydrated || undefined}>
      <form className="admin-filters" onSubmit={onSearch} aria-label="Filter survey requests">
        <div className="field">
          <label className="field__label" htmlFor="admin-filter-status">Status</label>
          <select
            id="admin-filter-status"
            className="field__input"
            value={filters.status}
            onChange={(e) => setFilter("status", e.currentTarget.value, true)}
          >
            <option value="">All statuses</option>
            {SURVEY_STATUSES.map((s) => <option key={s} value={s}>{STATUS_INFO[s].label}</option>)}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="admin-filter-type">Type</label>
          <select
            id="admin-filter-type"
            className="field__input"
            value={filters.surveyType}
            onChange={(e) => setFilter("surveyType", e.currentTarget.value, true)}
          >
            <option value="">All types</option>
            {SURVEY_TYPES.map((t) => <option key={t} value={t}>{SURVEY_TYPE_INFO[t].name}</option>)}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="admin-filter-from">From</label>
          <input
            id="admin-filter-from"
            type="date"
            className="field__input"
            value={filters.from}
            max={filters.to || undefined}
            onChange={(e) => setFilter("from", e.currentTarget.value, true)}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="admin-filter-to">To</label>
          <input
            id="admin-filter-to"
            type="date"
            className="field__input"
            value={filters.to}
            min={filters.from || undefined}
            onChange={(e) => setFilter("to", e.currentTarget.value, true)}
          />
        </div>
        <div className="field admin-filters__search">
          <label className="field__label" htmlFor="admin-filter-q">Search</label>
          <input
            id="admin-filter-q"
            type="search"
            className="field__input"
            placeholder="Address, client name or email"
            maxLength={200}
            value={filters.q}
            onChange={(e) => setFilter("q", e.currentTarget.value, false)}
          />
        </div>
        <div className="admin-filters__actions">
          <button type="submit" className="btn btn--secondary">Search</button>
          {hasFilters
            ? (
              <button
                type="button"
                className="btn btn--ghost"
                onClick={() => {
                  const cleared = { status: "", surveyType: "", from: "", to: "", q: "" };
                  setFilters(cleared);
                  load(cleared, 1);
                }}
              >
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
            : `${formatInteger(data.total)} request${data.total === 1 ? "" : "s"}`}
          {selectedOnPage.length ? ` · ${selectedOnPage.length} selected` : ""}
        </p>
        <button
          type="button"
          className="btn btn--danger btn--sm"
          disabled={selectedOnPage.length === 0 || isDeleting}
          onClick={() => askDelete(selectedOnPage)}
        >
          Delete selected
        </button>
      </div>

      <TableRegion label="Survey requests">
        <table
          className="table table--cards admin-surveys__table"
          aria-busy={isLoading || undefined}
        >
          <caption className="visually-hidden">Survey requests, newest first</caption>
          <thead>
            <tr>
              <th scope="col" className="admin-surveys__check">
                <input
                  ref={selectAll}
                  type="checkbox"
                  aria-label="Select all requests on this page"
                  checked={pageIds.length > 0 && selectedOnPage.length === pageIds.length}
                  disabled={pageIds.length === 0}
                  onChange={(e) => setSelected(e.currentTarget.checked ? pageIds : [])}
                />
              </th>
              <th scope="col">Requested</th>
              <th scope="col">Client</th>
              <th scope="col">Property</th>
              <th scope="col">Type</th>
              <th scope="col">Quote</th>
              <th scope="col">Status</th>
              <th scope="col">Change status</th>
              <th scope="col" className="table__actions-cell">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.rows.length === 0
              ? (
                <tr>
                  <td colSpan={9} className="admin-surveys__empty">
                    {hasFilters ? "No requests match these filters." : "No survey requests yet."}
                  </td>
                </tr>
              )
              : data.rows.map((row) => (
                <tr key={row.id} data-survey-id={row.id}>
                  <td className="admin-surveys__check">
                    <input
                      type="checkbox"
                      aria-label={`Select request for ${row.address}`}
                      checked={selected.includes(row.id)}
                      onChange={(e) => {
                        const checked = e.currentTarget.checked;
                        setSelected((s) =>
                          checked ? [...s, row.id] : s.filter((id) => id !== row.id)
                        );
                      }}
                    />
                  </td>
                  <td data-label="Requested">
                    <time dateTime={row.createdAt}>{formatTableDay(row.createdAt)}</time>
                  </td>
                  <td data-label="Client">{row.clientName}</td>
                  <td className="admin-surveys__address" data-label="Property">
                    <a href={`/survey/${row.id}`}>{row.address}</a>
                  </td>
                  <td data-label="Type">
                    {SURVEY_TYPE_INFO[row.surveyType]?.name ?? row.surveyType}
                  </td>
                  <td className="admin-surveys__money" data-label="Quote">
                    {money(row.quotedPriceCents)}
                  </td>
                  <td data-label="Status">
                    <span className={`badge badge--${STATUS_INFO[row.status].badge}`}>
                      {STATUS_INFO[row.status].label}
                    </span>
                  </td>
                  <td data-label="Change status">
                    <StatusControl
                      row={row}
                      onUpdated={(updated) =>
                        setData((d) => ({
                          ...d,
                          rows: d.rows.map((r) => (r.id === updated.id ? updated : r)),
                        }))}
                    />
                  </td>
                  <td className="table__actions-cell">
                    <button
                      type="button"
                      className="btn btn--ghost btn--sm"
                      onClick={() => askDelete([row.id])}
                    >
                      Delete<span className="visually-hidden">{` request for ${row.address}`}</span>
                    </button>
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      </TableRegion>

      <Pager
        label="Survey pages"
        page={data.page}
        pages={pages}
        isLoading={isLoading}
        onPage={(page) => load(filters, page)}
      />

      <dialog ref={dialog} className="confirm-dialog" aria-labelledby="admin-delete-title">
        <h2 id="admin-delete-title" className="confirm-dialog__title">
          {pendingDelete.length === 1
            ? "Delete this survey request?"
            : `Delete ${pendingDelete.length} survey requests?`}
        </h2>
        <p>
          The request{pendingDelete.length === 1 ? "" : "s"} and{" "}
          {pendingDelete.length === 1 ? "its" : "their"}{" "}
          history will be removed for good. Clients will no longer see{" "}
          {pendingDelete.length === 1 ? "it" : "them"}.
        </p>
        <div className="form-actions">
          <button
            type="button"
            className="btn btn--ghost"
            autoFocus
            disabled={isDeleting}
            onClick={() => dialog.current?.close()}
          >
            Keep
          </button>
          <button
            type="button"
            className="btn btn--danger"
            disabled={isDeleting}
            onClick={confirmDelete}
          >
            {isDeleting ? "Deleting..." : "Delete"}
          </button>
        </div>
      </dialog>
    </div>
  );
}
