/**
 * "Cancel request" on the client dashboard and the survey page: asks for confirmation in a
 * modal dialog, then DELETE /api/surveys/{id} (for a client that cancels, it never deletes)
 * and reloads the page so the server renders the new status.
 */
import { useEffect, useRef, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast, toastAfterNavigation } from "./_toast.ts";
import { navigate } from "./_nav.ts";

/** Props of the cancel button. */
export interface CancelSurveyButtonProps {
  surveyId: string;
  /** Names the request in the dialog, e.g. "Boundary Survey at 123 Main St". */
  description: string;
}

/** The cancel button and its confirmation dialog. */
export default function CancelSurveyButton({ surveyId, description }: CancelSurveyButtonProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [isPending, setPending] = useState(false);
  const titleId = `cancel-${surveyId}-title`;
  // The dialog is rendered at the first click, not on the server: closed, it shows nothing, and
  // a dashboard of ten requests sent ten copies of it (7 KB).
  const [isMounted, setMounted] = useState(false);
  useEffect(() => {
    if (isMounted) dialog.current?.showModal();
  }, [isMounted]);

  function open() {
    if (dialog.current) dialog.current.showModal();
    else setMounted(true);
  }

  async function confirm() {
    setPending(true);
    try {
      const data = await apiJson<{ message?: string }>("DELETE", `/api/surveys/${surveyId}`);
      toastAfterNavigation({
        title: data?.message || "Survey request cancelled",
        description: description,
      });
      navigate(globalThis.location.pathname + globalThis.location.search);
    } catch (err) {
      setPending(false);
      dialog.current?.close();
      toast({
        title: "Error deleting survey",
        description: errorMessage(err, "Could not cancel the request. Please try again."),
        variant: "destructive",
      });
    }
  }

  return (
    <>
      <button
        type="button"
        className="btn btn--secondary btn--sm"
        onClick={open}
      >
        Cancel request
      </button>
      {isMounted
        ? (
          <dialog
            ref={dialog}
            className="confirm-dialog"
            aria-labelledby={titleId}
            aria-describedby={`${titleId}-text`}
          >
            <h2 id={titleId} className="confirm-dialog__title">Cancel this survey request?</h2>
            <p id={`${titleId}-text`}>
              {description}. Surveyors will no longer be offered this job. This cannot be undone.
            </p>
            <div className="form-actions">
              <button
                type="button"
                className="btn btn--ghost"
                autoFocus
                onClick={() => dialog.current?.close()}
                disabled={isPending}
              >
                Keep request
              </button>
              <button
                type="button"
                className="btn btn--danger"
                onClick={confirm}
                disabled={isPending}
              >
                {isPending ? "Cancelling..." : "Cancel request"}
              </button>
            </div>
          </dialog>
        )
        : null}
    </>
  );
}
