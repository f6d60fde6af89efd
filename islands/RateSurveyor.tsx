/**
 * The client's rating of their surveyor on /survey/{id} once the survey is completed: 1–5
 * stars (a radio group, so arrow keys move between the stars and a screen reader reads
 * "4 stars, Very good"), an optional public review (shown on the firm's profile with the
 * client's first name and town) and an optional private comment, sent once to
 * `POST /api/surveys/{id}/review`.
 * With `existing`, or after sending, it shows the rating given instead of the form.
 */
import { useEffect, useId, useState } from "react";
import { ApiError, apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import {
  REVIEW_COMMENT_MAX,
  REVIEW_MESSAGES,
  REVIEW_TEXT_MAX,
  STAR_LABELS,
} from "../lib/review_types.ts";
import { NO_SCRIPT_FORM } from "./_fields.tsx";

/** A rating already given. */
export interface GivenRating {
  rating: number;
  comment: string | null;
  /** The public review text, or null. */
  text?: string | null;
}

/**
 * Props of RateSurveyor (plain JSON): the survey, the company rated, and the rating already
 * given (null while there is none).
 */
export interface RateSurveyorProps {
  surveyId: string;
  companyName: string;
  existing: GivenRating | null;
}

const STARS = [1, 2, 3, 4, 5] as const;

/** "★★★★☆" for 4, with the words for screen readers beside it. */
export function StarLine({ rating }: { rating: number }) {
  const n = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span className="stars">
      <span aria-hidden="true" className="stars__glyphs">
        {"★".repeat(n)}
        <span className="stars__empty">{"☆".repeat(5 - n)}</span>
      </span>
      <span className="visually-hidden">{`${n} out of 5 stars`}</span>
    </span>
  );
}

/** The rating form or the rating given (see the file's comment). */
export default function RateSurveyor(props: RateSurveyorProps) {
  const [given, setGiven] = useState<GivenRating | null>(props.existing);
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState("");
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const id = useId();

  if (given) {
    return (
      <div className="stack rate-surveyor rate-surveyor--done" data-testid="rating-given">
        <p>
          <strong>Your rating of {props.companyName}:</strong> <StarLine rating={given.rating} />
        </p>
        {given.text
          ? (
            <>
              <p className="muted">Your public review:</p>
              <blockquote className="rate-surveyor__quote">{given.text}</blockquote>
            </>
          )
          : null}
        {given.comment
          ? (
            <>
              {given.text ? <p className="muted">Your comment to the firm and Meridian:</p> : null}
              <blockquote className="rate-surveyor__quote">{given.comment}</blockquote>
            </>
          )
          : null}
        <p className="muted">Thank you: ratings help other clients choose a surveyor.</p>
      </div>
    );
  }

  async function submit(e: { preventDefault(): void }) {
    e.preventDefault();
    if (rating < 1) {
      setError("Choose from 1 to 5 stars.");
      document.getElementById(`${id}-star-1`)?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    const body = {
      rating,
      ...(comment.trim() ? { comment: comment.trim() } : {}),
      ...(text.trim() ? { text: text.trim() } : {}),
    };
    try {
      await apiJson("POST", `/api/surveys/${encodeURIComponent(props.surveyId)}/review`, body);
      setGiven({ rating, comment: comment.trim() || null, text: text.trim() || null });
      toast({ title: REVIEW_MESSAGES.thanks });
    } catch (err) {
      const message = errorMessage(err, "Your rating could not be sent. Please try again.");
      if (err instanceof ApiError && err.status === 409) {
        toast({ title: message, variant: "destructive" });
      }
      setError(message);
    } finally {
      setBusy(false);
    }
  }

  const tooLong = comment.length > REVIEW_COMMENT_MAX;
  const textTooLong = text.length > REVIEW_TEXT_MAX;
  return (
    <form {...NO_SCRIPT_FORM} className="stack rate-surveyor" onSubmit={submit} noValidate>
      <fieldset
        className="field rate-surveyor__stars"
        aria-describedby={error ? `${id}-error` : undefined}
      >
        <legend className="field__label">How was your experience with {props.companyName}?</legend>
        <div className="rate-surveyor__options">
          {STARS.map((n) => (
            <label key={n} className="rate-surveyor__star" data-on={n <= rating || undefined}>
              <input
                type="radio"
                id={`${id}-star-${n}`}
                name={`${id}-rating`}
                value={n}
                checked={rating === n}
                aria-invalid={error && rating < 1 ? true : undefined}
                onChange={() =>
                  setRating(n)}
              />
              <span aria-hidden="true" className="rate-surveyor__glyph">★</span>
              <span className="visually-hidden">
                {`${n} star${n === 1 ? "" : "s"}, ${STAR_LABELS[n]}`}
              </span>
            </label>
          ))}
        </div>
        <p className="muted rate-surveyor__chosen" aria-hidden="true">
          {rating ? `${rating} of 5: ${STAR_LABELS[rating as 1 | 2 | 3 | 4 | 5]}` : "Not rated yet"}
        </p>
      </fieldset>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-text`}>
          Public review <span className="muted">(optional)</span>
        </label>
        <textarea
          id={`${id}-text`}
          className="field__input"
          rows={3}
          value={text}
          aria-invalid={textTooLong ? true : undefined}
          aria-describedby={`${id}-text-hint`}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        <p id={`${id}-text-hint`} className={textTooLong ? "field__error" : "field__hint"}>
          {textTooLong
            ? `Review must be at most ${REVIEW_TEXT_MAX} characters`
            : "Shown on the firm's public profile with your first name and the town of the property."}
        </p>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-comment`}>
          Comment <span className="muted">(optional, private)</span>
        </label>
        <textarea
          id={`${id}-comment`}
          className="field__input"
          rows={3}
          value={comment}
          aria-invalid={tooLong ? true : undefined}
          aria-describedby={`${id}-comment-hint`}
          onChange={(e) => setComment(e.currentTarget.value)}
        />
        <p id={`${id}-comment-hint`} className={tooLong ? "field__error" : "field__hint"}>
          {tooLong
            ? `Comment must be at most ${REVIEW_COMMENT_MAX} characters`
            : "What went well, what could be better. Your surveyor and Meridian's team read it."}
        </p>
      </div>
      {error ? <p id={`${id}-error`} className="field__error" role="alert">{error}</p> : null}
      <div>
        <button
          type="submit"
          className="btn btn--primary"
          disabled={!isHydrated || isBusy || tooLong || textTooLong}
        >
          {isBusy ? "Sending..." : "Send rating"}
        </button>
      </div>
    </form>
  );
}
