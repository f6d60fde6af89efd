/**
 * Step 4: the instant quote with its itemised breakdown and the discount-code input. An
 * invalid code shows the server's reason next to the input and leaves the quote as it was.
 */
import { useEffect, useRef, useState } from "react";
import { describedBy, FieldError } from "../_fields.tsx";
import { STARTING_PRICE_NOTE, turnaroundParts } from "../../lib/quote_text.ts";
import { formatMoney } from "./details.ts";
import { QuoteBreakdown } from "./QuoteBreakdown.tsx";
import type { Errors, QuoteState } from "./types.ts";

/** Props of the quote step. */
export interface QuoteStepProps {
  quote: QuoteState | null;
  isStale: boolean;
  isLoading: boolean;
  errors: Errors;
  discountCode: string;
  codeError: string;
  onCodeChange(code: string): void;
  onApply(code: string): void;
  onRemoveCode(): void;
  onRetry(): void;
}

/** The quote step. */
export function QuoteStep(props: QuoteStepProps) {
  const { quote, isStale, isLoading, errors, discountCode, codeError } = props;
  const [isCodeOpen, setCodeOpen] = useState(discountCode !== "" || !!quote?.appliedCode);
  const calculation = quote?.calculation;
  const turnaround = calculation ? turnaroundParts(calculation) : null;
  const codeFieldError = codeError;
  const codeInput = useRef<HTMLInputElement>(null);
  const wasOpened = useRef(false);
  useEffect(() => {
    // Focus the input when the visitor opens it, not when a restored draft shows it.
    if (isCodeOpen && wasOpened.current) codeInput.current?.focus();
  }, [isCodeOpen]);
  return (
    <>
      <div
        className="cs-quote"
        id="cs-quote"
        tabIndex={-1}
        aria-live="polite"
        aria-busy={isLoading || undefined}
      >
        {isLoading
          ? (
            <p className="cs-quote__loading">
              <span className="spinner" aria-hidden="true" /> Calculating your quote…
            </p>
          )
          : null}
        {calculation && !isStale
          ? (
            <>
              <div className="cs-quote__summary">
                <p className="cs-quote__label">
                  {calculation.quoteRequired ? "Your request" : "Your instant quote"}
                </p>
                <p className="cs-quote__total" data-testid="quote-total">
                  {calculation.totalCents === null
                    ? "Quote required"
                    : formatMoney(calculation.totalCents)}
                </p>
                {calculation.minimumApplied && !calculation.quoteRequired
                  ? (
                    <p className="cs-quote__turnaround cs-quote__note" data-testid="quote-note">
                      {STARTING_PRICE_NOTE}
                    </p>
                  )
                  : null}
                {turnaround
                  ? (
                    <p className="cs-quote__turnaround">
                      {turnaround.label}: <strong>{turnaround.value}</strong>
                    </p>
                  )
                  : null}
                <p className="cs-quote__free">
                  Free quote — nothing to pay now. The surveyor confirms the scope with you before
                  any work starts.
                </p>
              </div>
              <QuoteBreakdown quote={calculation} />
            </>
          )
          : null}
        {!isLoading && (!calculation || isStale)
          ? (
            <div className="cs-quote__empty">
              <p id="cs-quote-error" className={errors.quote ? "field__error" : undefined}>
                {errors.quote ?? "We could not calculate your quote yet."}
              </p>
              <button type="button" className="btn btn--secondary btn--sm" onClick={props.onRetry}>
                Try again
              </button>
            </div>
          )
          : null}
      </div>

      {calculation && !calculation.quoteRequired
        ? (
          <div className="cs-discount">
            {quote?.appliedCode
              ? (
                <p className="cs-discount__applied">
                  Code <strong>{quote.appliedCode}</strong> applied.{" "}
                  <button
                    type="button"
                    className="btn btn--ghost btn--sm"
                    onClick={props.onRemoveCode}
                  >
                    Remove code
                  </button>
                </p>
              )
              : null}
            {isCodeOpen
              ? (
                <div className="field">
                  <label className="field__label" htmlFor="cs-discountCode">Discount code</label>
                  <div className="cs-discount__row">
                    <input
                      ref={codeInput}
                      id="cs-discountCode"
                      name="discountCode"
                      className="field__input"
                      value={discountCode}
                      maxLength={40}
                      autoComplete="off"
                      autoCapitalize="characters"
                      spellCheck={false}
                      aria-invalid={codeFieldError ? true : undefined}
                      aria-describedby={describedBy("cs-discountCode", undefined, codeFieldError)}
                      onChange={(e) => props.onCodeChange(e.currentTarget.value)}
                      onKeyDown={(e) => {
                        // Enter applies the code instead of leaving the step.
                        if (e.key === "Enter") {
                          e.preventDefault();
                          props.onApply(discountCode);
                        }
                      }}
                    />
                    <button
                      type="button"
                      className="btn btn--secondary"
                      disabled={isLoading || discountCode.trim() === ""}
                      onClick={() => props.onApply(discountCode)}
                    >
                      Apply
                    </button>
                  </div>
                  <FieldError id="cs-discountCode" error={codeFieldError} />
                </div>
              )
              : (
                <button
                  type="button"
                  className="btn btn--ghost btn--sm"
                  aria-expanded="false"
                  onClick={() => {
                    wasOpened.current = true;
                    setCodeOpen(true);
                  }}
                >
                  Have a discount code?
                </button>
              )}
          </div>
        )
        : null}
    </>
  );
}
