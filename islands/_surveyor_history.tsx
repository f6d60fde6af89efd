/**
 * The contact history of /surveyor-detail/{id}: a form to log a call, email, text, meeting or
 * note (summary, outcome, next follow-up), and the log, newest first. Entries are
 * append-only, as the server keeps them.
 */
import { type FormEvent, useEffect, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { CheckedForm, SelectField, TextareaField, TextField } from "./_fields.tsx";
import { formatLocalDateTime, formatUtcDateTime } from "./LocalTime.tsx";
import { CHANNEL_LABELS, CHANNELS, fieldErrors, formatDay } from "./_surveyor_shared.ts";
import type { ContactHistoryEntry } from "../lib/surveyor_schema.ts";

const CHANNEL_CHOICES = CHANNELS.map((c) => ({ id: c, label: CHANNEL_LABELS[c] }));

interface EntryDraft {
  channel: string;
  summary: string;
  outcome: string;
  nextFollowUp: string;
}

const EMPTY: EntryDraft = { channel: "call", summary: "", outcome: "", nextFollowUp: "" };

/** When an entry was written: UTC on the server, the viewer's zone once hydrated. */
function When({ iso }: { iso: string }) {
  const [shown, setShown] = useState(() => formatUtcDateTime(iso));
  useEffect(() => setShown(formatLocalDateTime(iso)), [iso]);
  return <time dateTime={iso}>{shown}</time>;
}

/** Props of the history card. */
export interface HistoryLogProps {
  surveyorId: string;
  entries: ContactHistoryEntry[];
  /** How many entries the page loaded at most (to say when older ones are not shown). */
  limit: number;
}

/** The contact-history card. */
export function HistoryLog({ surveyorId, entries: initial, limit }: HistoryLogProps) {
  const [entries, setEntries] = useState(initial);
  const [draft, setDraft] = useState<EntryDraft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isPending, setPending] = useState(false);

  function set<K extends keyof EntryDraft>(key: K, value: EntryDraft[K]) {
    setDraft((d) => ({ ...d, [key]: value }));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!draft.summary.trim()) {
      setErrors({ summary: "Say what happened" });
      return;
    }
    setPending(true);
    setErrors({});
    try {
      const res = await apiJson<{ message?: string; entry?: ContactHistoryEntry }>(
        "POST",
        `/api/surveyors/${surveyorId}/contact-history`,
        {
          channel: draft.channel,
          summary: draft.summary.trim(),
          outcome: draft.outcome.trim(),
          nextFollowUp: draft.nextFollowUp,
        },
      );
      const entry = res?.entry;
      if (!entry) throw new Error("No entry in the answer");
      setEntries((list) => [entry, ...list.filter((e) => e.id !== entry.id)]);
      setDraft(EMPTY);
      toast({ title: "Contact logged", description: res?.message });
    } catch (err) {
      setErrors(fieldErrors(err));
      toast({
        title: "Failed to add contact history",
        description: errorMessage(err, "Could not save the entry. Please try again."),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card" aria-labelledby="surveyor-history-title">
      <div className="card__header">
        <h2 id="surveyor-history-title">Contact history</h2>
      </div>
      <div className="card__body stack">
        <CheckedForm
          errors={errors}
          isPending={isPending}
          className="stack surveyor-history__form"
          onSubmit={submit}
        >
          <SelectField
            id="history-channel"
            name="channel"
            label="Channel"
            placeholder={null}
            choices={CHANNEL_CHOICES}
            value={draft.channel}
            error={errors.channel}
            onValue={(v) => set("channel", v)}
          />
          <TextareaField
            id="history-summary"
            name="summary"
            label="Summary"
            rows={3}
            maxLength={2000}
            value={draft.summary}
            error={errors.summary}
            onValue={(v) => set("summary", v)}
          />
          <TextField
            id="history-outcome"
            name="outcome"
            label="Outcome"
            optional
            maxLength={500}
            value={draft.outcome}
            error={errors.outcome}
            onValue={(v) => set("outcome", v)}
          />
          <TextField
            id="history-follow-up"
            name="nextFollowUp"
            type="date"
            label="Next follow-up"
            optional
            value={draft.nextFollowUp}
            error={errors.nextFollowUp}
            onValue={(v) => set("nextFollowUp", v)}
          />
          <div className="form-actions">
            <button type="submit" className="btn btn--primary btn--sm" disabled={isPending}>
              {isPending ? "Saving..." : "Log contact"}
            </button>
          </div>
        </CheckedForm>

        {entries.length === 0
          ? <p className="muted">Nothing logged yet.</p>
          : (
            <ol className="surveyor-history" aria-label="Contact history, newest first">
              {entries.map((e) => (
                <li key={e.id} className="surveyor-history__entry" data-entry-id={e.id}>
                  <p className="surveyor-history__meta">
                    <span className="badge badge--neutral">{CHANNEL_LABELS[e.channel]}</span>{" "}
                    <When iso={e.createdAt} />
                    {` · ${e.authorName ?? "Former admin"}`}
                  </p>
                  <p className="surveyor-history__summary">{e.summary}</p>
                  {e.outcome
                    ? (
                      <p className="surveyor-history__line">
                        <strong>Outcome:</strong> {e.outcome}
                      </p>
                    )
                    : null}
                  {e.nextFollowUp
                    ? (
                      <p className="surveyor-history__line">
                        <strong>Follow up by:</strong>{" "}
                        <time dateTime={e.nextFollowUp}>{formatDay(e.nextFollowUp)}</time>
                      </p>
                    )
                    : null}
                </li>
              ))}
            </ol>
          )}
        {initial.length >= limit
          ? <p className="muted">{`Showing the latest ${limit} entries.`}</p>
          : null}
      </div>
    </section>
  );
}
