/**
 * The buyer's own pipeline for a purchased lead (/surveyor/purchased-leads/{id}): where they
 * are with the client (new, contacted, quoted, won, lost) and a private note. Saving sends only
 * what changed to PATCH /api/purchased-leads/{id}; the answer's lead becomes the saved state,
 * and the server's field errors are shown by their fields.
 */
import { type FormEvent, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { CheckedForm, RadioGroup, TextareaField } from "./_fields.tsx";
import { fieldErrors } from "./_surveyor_shared.ts";

/**
 * The pipeline statuses with their labels, in order. Kept here because islands never import
 * the zod schema modules; tests/islands/pipeline_form_test.tsx checks they equal
 * PIPELINE_STATUSES / PIPELINE_LABELS of lib/lead_market_schema.ts.
 */
export const PIPELINE_CHOICES = [
  { id: "new", label: "New" },
  { id: "contacted", label: "Contacted" },
  { id: "quoted", label: "Quoted" },
  { id: "won", label: "Won" },
  { id: "lost", label: "Lost" },
] as const;

/** A pipeline status, as the island knows it. */
export type PipelineChoice = typeof PIPELINE_CHOICES[number]["id"];

/** Longest note the server keeps. */
export const PIPELINE_NOTE_MAX = 2000;

/** Props of the pipeline form: the purchase as the server rendered it. */
export interface PipelineFormProps {
  /** The lead's id (the API addresses purchased leads by lead id). */
  leadId: string;
  pipelineStatus: PipelineChoice;
  pipelineNote: string | null;
}

interface Values {
  pipelineStatus: string;
  pipelineNote: string;
}

/** What differs from `saved`: the status, and the note trimmed ("" clears it, sent as null). */
function patchOf(saved: Values, values: Values): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  if (values.pipelineStatus !== saved.pipelineStatus) {
    patch.pipelineStatus = values.pipelineStatus;
  }
  const note = values.pipelineNote.trim();
  if (note !== saved.pipelineNote.trim()) patch.pipelineNote = note || null;
  return patch;
}

function check(values: Values): Record<string, string> {
  const errors: Record<string, string> = {};
  if (values.pipelineNote.trim().length > PIPELINE_NOTE_MAX) {
    errors.pipelineNote = `Note must be at most ${PIPELINE_NOTE_MAX} characters`;
  }
  return errors;
}

function labelOf(status: string): string {
  return PIPELINE_CHOICES.find((c) => c.id === status)?.label ?? status;
}

/** The pipeline card's form. */
export default function PipelineForm({ leadId, pipelineStatus, pipelineNote }: PipelineFormProps) {
  const [saved, setSaved] = useState<Values>(() => ({
    pipelineStatus,
    pipelineNote: pipelineNote ?? "",
  }));
  const [values, setValues] = useState(saved);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isPending, setPending] = useState(false);
  const patch = patchOf(saved, values);
  const isDirty = Object.keys(patch).length > 0;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = check(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    if (!isDirty) {
      toast({ title: "Nothing to save", description: "The status and note are as saved." });
      return;
    }
    setPending(true);
    try {
      const res = await apiJson<{
        message?: string;
        lead?: { pipelineStatus: PipelineChoice; pipelineNote: string | null };
      }>("PATCH", `/api/purchased-leads/${leadId}`, patch);
      if (!res?.lead) throw new Error("No lead in the answer");
      const next = {
        pipelineStatus: res.lead.pipelineStatus,
        pipelineNote: res.lead.pipelineNote ?? "",
      };
      setSaved(next);
      setValues(next);
      toast({
        title: res.message ?? "Saved",
        description: `Pipeline status: ${labelOf(next.pipelineStatus)}.`,
      });
    } catch (err) {
      const byField = fieldErrors(err);
      setErrors(byField);
      toast({
        title: "Could not save the pipeline",
        description: errorMessage(err, "Please check your connection and try again."),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  const noteLength = values.pipelineNote.trim().length;
  return (
    <CheckedForm
      errors={errors}
      isPending={isPending}
      className="stack pipeline-form"
      onSubmit={submit}
    >
      <RadioGroup
        id="pipeline-status"
        label="Status"
        hint="Where you are with this client. Only you see it; it sets your win rate."
        choices={PIPELINE_CHOICES}
        value={values.pipelineStatus}
        error={errors.pipelineStatus}
        onValue={(v) => setValues((s) => ({ ...s, pipelineStatus: v }))}
      />
      <TextareaField
        id="pipeline-note"
        name="pipelineNote"
        label="Note"
        optional
        rows={4}
        maxLength={PIPELINE_NOTE_MAX}
        hint={`Only you see this note. ${noteLength} of ${PIPELINE_NOTE_MAX} characters.`}
        value={values.pipelineNote}
        error={errors.pipelineNote}
        onValue={(v) => setValues((s) => ({ ...s, pipelineNote: v }))}
      />
      <div className="form-actions">
        {isDirty
          ? (
            <button
              type="button"
              className="btn btn--ghost"
              disabled={isPending}
              onClick={() => {
                setValues(saved);
                setErrors({});
              }}
            >
              Discard changes
            </button>
          )
          : null}
        <button type="submit" className="btn btn--primary" disabled={isPending}>
          {isPending ? "Saving..." : "Save"}
        </button>
      </div>
    </CheckedForm>
  );
}
