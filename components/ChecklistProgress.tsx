import type { ChecklistProgress } from "../lib/checklist_types.ts";

/** "n of m required done" (or "No required items" for a checklist with none). */
export function requiredDoneText(progress: ChecklistProgress): string {
  return progress.requiredTotal === 0
    ? "No required items"
    : `${progress.requiredDone} of ${progress.requiredTotal} required done`;
}

/**
 * A survey checklist's progress: a bar of the required items done and "n of m required done",
 * with all items (optional ones too) in a smaller line. `progress` undefined (no checklist
 * yet, i.e. no technician assigned) shows "Checklist not started". Server-rendered; the
 * SurveyChecklist island draws the same markup while it edits.
 */
export function ChecklistProgressBar(
  { progress, label = "Checklist progress", compact = false }: {
    progress: ChecklistProgress | undefined;
    /** Accessible name of the bar. */
    label?: string;
    /** One line only (dashboard cards). */
    compact?: boolean;
  },
) {
  if (!progress) {
    return (
      <p className="checklist-progress checklist-progress--none muted">Checklist not started</p>
    );
  }
  const max = Math.max(progress.requiredTotal, 1);
  const value = progress.requiredTotal === 0 ? 1 : progress.requiredDone;
  const complete = progress.requiredDone >= progress.requiredTotal;
  return (
    <div className={`checklist-progress${complete ? " checklist-progress--complete" : ""}`}>
      <progress className="checklist-progress__bar" max={max} value={value} aria-label={label}>
        {requiredDoneText(progress)}
      </progress>
      <p className="checklist-progress__text">
        <strong>{requiredDoneText(progress)}</strong>
        {compact ? null : (
          <span className="muted">
            {` · ${progress.done} of ${progress.total} items answered`}
          </span>
        )}
      </p>
    </div>
  );
}
