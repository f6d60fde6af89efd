/**
 * The step list above the form: the current step has `aria-current="step"`, steps already
 * reached are buttons that go back (or forward again) to them, later ones are plain text.
 */
import { STEPS } from "./types.ts";

/** Props of the step indicator. */
export interface StepIndicatorProps {
  step: number;
  furthest: number;
  onGo(step: number): void;
}

/** The numbered steps of the request flow. */
export function StepIndicator({ step, furthest, onGo }: StepIndicatorProps) {
  return (
    <nav className="cs-steps" aria-label="Request steps">
      <ol className="cs-steps__list">
        {STEPS.map((s, i) => {
          const state = i === step ? "current" : i < step ? "done" : "todo";
          const content = (
            <>
              <span className="cs-steps__number" aria-hidden="true">
                {state === "done" ? "✓" : i + 1}
              </span>
              <span className="cs-steps__title">
                {s.title}
                {state === "done" ? <span className="visually-hidden">(completed)</span> : null}
              </span>
            </>
          );
          return (
            <li
              key={s.id}
              className={`cs-steps__item cs-steps__item--${state}`}
              aria-current={i === step ? "step" : undefined}
            >
              {i !== step && i <= furthest
                ? (
                  <button type="button" className="cs-steps__button" onClick={() => onGo(i)}>
                    {content}
                  </button>
                )
                : <span className="cs-steps__label">{content}</span>}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
