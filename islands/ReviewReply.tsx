/**
 * The firm's one public answer to a review, under the review on its profile (/firms/{slug}),
 * shown only to the firm's own surveyor account: a text box sent once to
 * `POST /api/reviews/{id}/reply`; after sending, the reply as everyone sees it.
 */
import { useEffect, useId, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { REVIEW_MESSAGES, REVIEW_REPLY_MAX } from "../lib/review_types.ts";
import { NO_SCRIPT_FORM } from "./_fields.tsx";

/** Props of ReviewReply (plain JSON): the review answered and the firm's name. */
export interface ReviewReplyProps {
  reviewId: string;
  companyName: string;
}

/** The reply form, then the reply (see the file's comment). */
export default function ReviewReply({ reviewId, companyName }: ReviewReplyProps) {
  const [body, setBody] = useState("");
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const id = useId();

  if (sent !== null) {
    return (
      <div className="review-list__reply" data-testid="review-reply">
        <p>
          <strong>{`Reply from ${companyName}`}</strong>
        </p>
        <p>{sent}</p>
      </div>
    );
  }

  async function submit(e: { preventDefault(): void }) {
    e.preventDefault();
    const text = body.trim();
    if (!text) {
      setError("Write your reply first.");
      document.getElementById(`${id}-body`)?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const res = await apiJson<{ reply: { body: string }; clientTold?: string }>(
        "POST",
        `/api/reviews/${encodeURIComponent(reviewId)}/reply`,
        { body: text },
      );
      setSent(res?.reply.body ?? text);
      toast({ title: REVIEW_MESSAGES.replied, description: res?.clientTold });
    } catch (err) {
      setError(errorMessage(err, "Your reply could not be sent. Please try again."));
    } finally {
      setBusy(false);
    }
  }

  const tooLong = body.length > REVIEW_REPLY_MAX;
  return (
    <form
      {...NO_SCRIPT_FORM}
      className="stack review-list__reply-form"
      onSubmit={submit}
      noValidate
    >
      <div className="field">
        <label className="field__label" htmlFor={`${id}-body`}>
          Reply publicly <span className="muted">(once)</span>
        </label>
        <textarea
          id={`${id}-body`}
          className="field__input"
          rows={3}
          value={body}
          aria-invalid={tooLong || error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          onChange={(e) => setBody(e.currentTarget.value)}
        />
        <p id={`${id}-hint`} className={tooLong ? "field__error" : "field__hint"}>
          {tooLong
            ? `Reply must be at most ${REVIEW_REPLY_MAX} characters`
            : "Shown under the review on your public profile. You can reply once."}
        </p>
      </div>
      {error ? <p id={`${id}-error`} className="field__error" role="alert">{error}</p> : null}
      <div>
        <button
          type="submit"
          className="btn btn--secondary btn--sm"
          disabled={!isHydrated || isBusy || tooLong}
        >
          {isBusy ? "Sending..." : "Post reply"}
        </button>
      </div>
    </form>
  );
}
