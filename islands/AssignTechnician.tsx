/**
 * Who does a survey's fieldwork: pick a technician of the working firm (admins also see
 * Meridian's staff technicians) and write notes for the crew, then
 * `PATCH /api/surveys/{surveyId}/assign-technician` `{technicianId, notes}`. Picking the current
 * technician again only saves the notes.
 *
 * Toasts (spec §8, word for word): 'Technician assigned', or 'Error assigning technician' with
 * the server's message (fallback 'Failed to assign technician').
 *
 * Placing it: on the surveyor's job page once they accepted the job and on the admin's
 * /survey/{id}, with props from lib/technicians.ts `assignTechnicianProps`:
 *
 * ```tsx
 * <Island component={AssignTechnician} props={await assignTechnicianProps(db, …)} hydrate="idle" />
 * ```
 */
import { type FormEvent, useEffect, useId, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { CheckedForm, RadioGroup, TextareaField } from "./_fields.tsx";
import { CREW_NOTES_MAX, TECHNICIAN_TOASTS } from "../lib/technician_constants.ts";

/**
 * A technician the form offers, with their firm (or "Meridian staff") for an admin choosing
 * among firms; "" for a surveyor's own crew, whose firm goes without saying.
 */
export interface TechnicianChoice {
  id: string;
  name: string;
  detail: string;
}

/** The survey's current technician as the form shows it. */
export interface CurrentTechnician {
  technicianId: string;
  name: string;
  notes: string | null;
}

/**
 * Props of AssignTechnician (plain JSON):
 * - `surveyId`: the survey (the URL of the PATCH).
 * - `technicians`: whom the viewer may assign.
 * - `current`: the technician assigned now, or null.
 * - `invitePath`: where the viewer adds technicians to their crew (surveyors), or null.
 */
export interface AssignTechnicianProps {
  surveyId: string;
  technicians: TechnicianChoice[];
  current: CurrentTechnician | null;
  invitePath: string | null;
}

interface AssignAnswer {
  message: string;
  assignment: { technicianId: string; technicianName: string; notes: string | null };
}

/** The assign form (see the file's comment). */
export default function AssignTechnician(props: AssignTechnicianProps) {
  const [current, setCurrent] = useState(props.current);
  const [technicianId, setTechnicianId] = useState(props.current?.technicianId ?? "");
  const [notes, setNotes] = useState(props.current?.notes ?? "");
  const [errors, setErrors] = useState<{ technicianId?: string }>({});
  const [isBusy, setBusy] = useState(false);
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const id = useId();

  const isSame = current !== null && technicianId === current.technicianId;
  const known = props.technicians.some((t) => t.id === technicianId);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!technicianId || !known) {
      setErrors({ technicianId: "Choose a technician" });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const data = await apiJson<AssignAnswer>(
        "PATCH",
        `/api/surveys/${encodeURIComponent(props.surveyId)}/assign-technician`,
        { technicianId, notes: notes.trim() || null },
      );
      if (!data?.assignment) throw new Error("Empty answer");
      const { assignment } = data;
      const wasSame = isSame;
      setCurrent({
        technicianId: assignment.technicianId,
        name: assignment.technicianName,
        notes: assignment.notes,
      });
      setNotes(assignment.notes ?? "");
      toast({
        title: TECHNICIAN_TOASTS.assigned,
        description: wasSame
          ? `Notes for ${assignment.technicianName} saved.`
          : `${assignment.technicianName} will do the fieldwork: the job is on their dashboard and they were notified.`,
      });
    } catch (err) {
      toast({
        title: TECHNICIAN_TOASTS.assignFailed,
        description: errorMessage(err, TECHNICIAN_TOASTS.assignFallback),
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="stack assign-technician" data-hydrated={isHydrated || undefined}>
      <p className="assign-technician__current" role="status" aria-live="polite">
        {current ? `Assigned: ${current.name}` : "No technician assigned yet."}
      </p>
      {props.technicians.length === 0
        ? (
          <p className="muted">
            {props.invitePath
              ? (
                <>
                  Nobody in your crew yet. <a href={props.invitePath}>Invite a technician</a>{" "}
                  on your crew page, then assign them here.
                </>
              )
              : "No technicians can be assigned: the firm doing this job has no crew on Meridian yet, and there are no Meridian staff technicians."}
          </p>
        )
        : (
          <CheckedForm errors={errors} isPending={isBusy} onSubmit={submit}>
            {/* Radio buttons, not a select: a long name wraps instead of being cut on a phone. */}
            <RadioGroup
              id={`${id}-technician`}
              label="Technician"
              value={technicianId}
              onValue={(v) => {
                setTechnicianId(v);
                setErrors({});
              }}
              choices={props.technicians.map((t) => ({
                id: t.id,
                label: t.detail ? `${t.name} (${t.detail})` : t.name,
              }))}
              inline={false}
              error={errors.technicianId}
            />
            <TextareaField
              id={`${id}-notes`}
              label="Notes for the crew"
              optional
              rows={3}
              maxLength={CREW_NOTES_MAX}
              value={notes}
              onValue={setNotes}
              hint="What to bring, where to start, who to call on site. The technician sees them on the job's page."
            />
            <div className="cluster">
              <button
                type="submit"
                className="btn btn--primary"
                disabled={!isHydrated || isBusy}
              >
                {isBusy ? "Saving..." : isSame ? "Save notes" : "Assign technician"}
              </button>
            </div>
          </CheckedForm>
        )}
    </div>
  );
}
