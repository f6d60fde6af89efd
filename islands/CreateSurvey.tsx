/**
 * /create-survey: the multi-step survey request. Property → survey type → property details →
 * instant quote → contact and account → review and submit. Free quote, no payment step.
 *
 * Every answer lives in one draft kept in sessionStorage, so Back, Forward and a reload keep
 * them all. Each step is checked before the next one opens; messages sit next to the fields
 * and focus goes to the first one that needs attention, or to the new step's heading.
 * The step modules live in islands/_create_survey/.
 */
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { ApiError, errorMessage } from "./_api.ts";
import { toast, toastAfterNavigation } from "./_toast.ts";
import { navigate } from "./_nav.ts";
import type { AddressSelection } from "./AddressAutocomplete.tsx";
import { SURVEY_TYPE_INFO } from "../lib/survey_types.ts";
import { STATE_CODES } from "../lib/survey_options.ts";
import { isPropertyPrecision } from "../lib/geo/provider.ts";
import {
  type Answers,
  type Draft,
  type Errors,
  type IslandUser,
  STEPS,
} from "./_create_survey/types.ts";
import { clearDraft, loadDraft, newDraft, saveDraft } from "./_create_survey/storage.ts";
import { validateStep } from "./_create_survey/validate.ts";
import { detailsKey, formatMoney, stateFromAddress, toDetails } from "./_create_survey/details.ts";
import {
  calculatePrice,
  discountCodeReason,
  geocode,
  lookupParcel,
  submitErrorMessage,
  submitSurvey,
  surveyBody,
  UnexpectedPricingResponse,
} from "./_create_survey/api.ts";
import { StepIndicator } from "./_create_survey/StepIndicator.tsx";
import { PropertyStep } from "./_create_survey/PropertyStep.tsx";
import { TypeStep } from "./_create_survey/TypeStep.tsx";
import { DetailsStep } from "./_create_survey/DetailsStep.tsx";
import { QuoteStep } from "./_create_survey/QuoteStep.tsx";
import { AccountPanel, ContactFields } from "./_create_survey/ContactStep.tsx";
import { ReviewStep } from "./_create_survey/ReviewStep.tsx";
import { NO_SCRIPT_FORM } from "./_fields.tsx";

/** Props of the request flow, JSON from the page. */
export interface CreateSurveyProps {
  /** The signed-in user, or null for a visitor (who registers or signs in inline). */
  user: IslandUser | null;
  /** `?address=` from the landing page's quote form. */
  initialAddress: string;
  /** Google sign-in is configured: the account step offers "Continue with Google". */
  hasGoogleSignIn?: boolean;
}

const QUOTE_STEP = 3;
const CONTACT_STEP = 4;
const LAST_STEP = STEPS.length - 1;

/** The element to focus for an error on `field`. */
function focusTarget(field: string, isSignedIn: boolean): HTMLElement | null {
  const id = field === "auth"
    ? (isSignedIn ? "cs-account-title" : "cs-auth-tab-register")
    : field === "quote"
    ? "cs-quote"
    : `cs-${field}`;
  return document.getElementById(id);
}

function focus(el: HTMLElement | null) {
  if (!el) return;
  if (el.tabIndex < 0 && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
  el.focus();
}

/** The survey request flow. */
export default function CreateSurvey(
  { user: initialUser, initialAddress, hasGoogleSignIn = false }: CreateSurveyProps,
) {
  const [draft, setDraft] = useState<Draft>(() => newDraft(initialAddress));
  const [isRestored, setRestored] = useState(false);
  const [user, setUser] = useState(initialUser);
  const [errors, setErrors] = useState<Errors>({});
  const [lookup, setLookup] = useState<"idle" | "pending" | "not_found">("idle");
  const [isQuoting, setQuoting] = useState(false);
  const [codeError, setCodeError] = useState("");
  const [isSubmitting, setSubmitting] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusHeading = useRef(false);
  const focusField = useRef<string | null>(null);
  const quoteRequest = useRef(0);

  const { step, answers, quote } = draft;

  // Storage is only readable in the browser: restore after hydration so the server's HTML
  // (always step 1) and the first browser render agree.
  useEffect(() => {
    const restored = loadDraft(initialAddress);
    if (initialUser) {
      restored.answers.contactName ||= initialUser.fullName;
      restored.answers.contactPhone ||= initialUser.phone ?? "";
    }
    setDraft(restored);
    setRestored(true);
  }, []);

  useEffect(() => {
    if (isRestored) saveDraft(draft);
  }, [draft, isRestored]);

  useEffect(() => {
    if (focusHeading.current) {
      focusHeading.current = false;
      headingRef.current?.focus();
    }
  }, [step]);

  useEffect(() => {
    const field = focusField.current;
    if (!field) return;
    focusField.current = null;
    focus(focusTarget(field, !!user));
  }, [errors]);

  const update = useCallback((patch: Partial<Answers>) => {
    setDraft((d) => ({ ...d, answers: { ...d.answers, ...patch } }));
    setErrors((e) => {
      const keys = Object.keys(patch).filter((k) => k in e);
      if (keys.length === 0) return e;
      const next = { ...e };
      for (const k of keys) delete next[k as keyof Errors];
      return next;
    });
  }, []);

  // A page opened with ?address= confirms that address straight away.
  useEffect(() => {
    if (!isRestored || step !== 0) return;
    const a = draft.answers;
    if (a.address.trim().length >= 5 && !a.formattedAddress && a.address === draft.seedAddress) {
      lookUpAddress(a.address);
    }
  }, [isRestored]);

  // Parcel records prefill the acreage, unless the visitor typed their own. The lookup is
  // for signed-in users (each one costs a paid API call).
  // A town or ZIP centre is not the property: its parcel would be someone else's.
  const { lat, lng } = answers;
  const isPinpointed = isPropertyPrecision(answers.precision);
  const isSignedIn = user !== null;
  useEffect(() => {
    if (!isRestored || !isSignedIn || !isPinpointed || lat === null || lng === null) return;
    let isCurrent = true;
    lookupParcel(lat, lng).then((parcel) => {
      if (!isCurrent || !parcel?.acreage) return;
      setDraft((d) => {
        if (d.answers.acreage !== "" && d.answers.acreageSource !== "parcel") return d;
        return {
          ...d,
          answers: {
            ...d.answers,
            acreage: String(Math.round(parcel.acreage! * 100) / 100),
            acreageSource: "parcel",
            parcelNumber: parcel.parcelNumber ?? "",
          },
        };
      });
    });
    return () => {
      isCurrent = false;
    };
  }, [lat, lng, isPinpointed, isRestored, isSignedIn]);

  async function lookUpAddress(address: string) {
    setLookup("pending");
    const found = await geocode(address.trim());
    if (!found) {
      setLookup("not_found");
      return false;
    }
    setLookup("idle");
    setDraft((d) => {
      if (d.answers.address !== address) return d; // typed on since: stale
      return {
        ...d,
        answers: {
          ...d.answers,
          formattedAddress: found.formattedAddress,
          lat: found.lat,
          lng: found.lng,
          precision: found.precision,
          state: stateFromAddress(found.formattedAddress, STATE_CODES) || d.answers.state,
        },
      };
    });
    setErrors((e) => ({ ...e, address: undefined, state: undefined }));
    return true;
  }

  function onSelect(selection: AddressSelection) {
    const formatted = selection.formattedAddress ?? "";
    setLookup("idle");
    update({
      address: formatted || selection.description,
      placeId: selection.placeId,
      formattedAddress: formatted,
      lat: selection.lat ?? null,
      lng: selection.lng ?? null,
      precision: selection.precision ?? "",
      ...(formatted ? { state: stateFromAddress(formatted, STATE_CODES) || answers.state } : {}),
    });
  }

  async function requestQuote(code: string, { isApply = false } = {}) {
    const current = draft.answers;
    const key = detailsKey(current);
    const request = ++quoteRequest.current;
    setQuoting(true);
    try {
      const answer = await calculatePrice(toDetails(current), code.trim());
      if (request !== quoteRequest.current) return;
      // A re-price without the code that just stopped working keeps that code's reason shown.
      if (code || isApply) setCodeError("");
      setDraft((d) => ({
        ...d,
        answers: { ...d.answers, discountCode: answer.calculation.discount?.code ?? "" },
        quote: {
          key,
          price: answer.price,
          message: answer.message,
          calculation: answer.calculation,
          appliedCode: answer.calculation.discount?.code ?? "",
        },
      }));
      setErrors({});
    } catch (err) {
      if (request !== quoteRequest.current) return;
      const reason = code ? discountCodeReason(err) : null;
      if (reason) {
        setCodeError(reason);
        // A code that stopped working while the details changed: price without it.
        if (!isApply) requestQuote("");
        return;
      }
      toast({
        title: "Error calculating price",
        description: err instanceof UnexpectedPricingResponse
          ? "Unexpected response format from pricing API"
          : errorMessage(err, "Could not calculate the price. Please try again."),
        variant: "destructive",
      });
    } finally {
      if (request === quoteRequest.current) setQuoting(false);
    }
  }

  // Opening the quote step prices the current answers (again, if they changed since).
  const isQuoteStale = !quote || quote.key !== detailsKey(answers);
  useEffect(() => {
    if (isRestored && step === QUOTE_STEP && isQuoteStale && !isQuoting) {
      requestQuote(quote?.appliedCode ?? "");
    }
  }, [step, isRestored]);

  function go(target: number) {
    focusHeading.current = true;
    setErrors({});
    setCodeError("");
    setDraft((d) => ({ ...d, step: target, furthest: Math.max(d.furthest, target) }));
  }

  /** Moves to `target`, checking every step on the way when going forward. */
  function goTo(target: number) {
    if (target <= step) return go(target);
    for (let s = step; s < target; s++) {
      const found = validateStep(s, { answers, quote, user });
      const first = Object.keys(found)[0];
      if (first) {
        if (s !== step) go(s);
        focusField.current = first;
        setErrors(found);
        return;
      }
    }
    go(target);
  }

  async function onContinue(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSubmitting || isQuoting) return;
    if (
      step === 0 && !answers.formattedAddress && lookup !== "not_found" &&
      answers.address.trim().length >= 5
    ) {
      // Confirm a typed address before moving on; the visitor sees what we found.
      if (await lookUpAddress(answers.address)) return;
    }
    if (step === LAST_STEP) return await submit();
    goTo(step + 1);
  }

  async function submit() {
    for (let s = 0; s < LAST_STEP; s++) {
      const found = validateStep(s, { answers, quote, user });
      const first = Object.keys(found)[0];
      if (first) {
        // Something changed since that step was checked (e.g. the session ended).
        go(s);
        focusField.current = first;
        setErrors(found);
        return;
      }
    }
    setSubmitting(true);
    try {
      await submitSurvey(surveyBody(answers, draft.requestId, quote?.appliedCode ?? ""));
      clearDraft();
      toastAfterNavigation({
        title: "Survey request submitted",
        description: "We are finding licensed surveyors near your property.",
      });
      navigate("/client-dashboard");
    } catch (err) {
      setSubmitting(false);
      toast({
        title: "Error submitting survey",
        description: submitErrorMessage(err),
        variant: "destructive",
      });
      if (err instanceof ApiError && err.status === 401) {
        // The session ended: sign in again on the contact step, answers intact.
        setUser(null);
        go(CONTACT_STEP);
      }
    }
  }

  /**
   * Signed in on the contact step: the forms that had focus are gone, so focus moves on. With
   * the step complete the review opens (focus on its heading); otherwise focus goes to what the
   * step still needs, without error messages, since nothing was submitted.
   */
  function onSignedIn(signedIn: IslandUser) {
    setUser(signedIn);
    const contact = {
      contactName: answers.contactName || signedIn.fullName,
      contactPhone: answers.contactPhone || (signedIn.phone ?? ""),
    };
    setDraft((d) => ({ ...d, answers: { ...d.answers, ...contact } }));
    const found = validateStep(CONTACT_STEP, {
      answers: { ...answers, ...contact },
      quote,
      user: signedIn,
    });
    const first = Object.keys(found)[0];
    if (!first) return go(CONTACT_STEP + 1);
    focusField.current = first;
    // An account that cannot request surveys says why; a field still to fill only takes focus.
    setErrors((e) => ({ ...e, auth: found.auth }));
  }

  const type = answers.surveyType ? SURVEY_TYPE_INFO[answers.surveyType] : undefined;
  const shownQuote = quote && !isQuoteStale ? quote.calculation : undefined;

  let body;
  switch (step) {
    case 0:
      body = (
        <PropertyStep
          key={isRestored ? "restored" : "server"}
          answers={answers}
          errors={errors}
          update={update}
          onSelect={onSelect}
          onLookup={() => lookUpAddress(answers.address)}
          lookup={lookup}
        />
      );
      break;
    case 1:
      body = <TypeStep answers={answers} errors={errors} update={update} />;
      break;
    case 2:
      body = <DetailsStep answers={answers} errors={errors} update={update} />;
      break;
    case 3:
      body = (
        <QuoteStep
          quote={quote}
          isStale={isQuoteStale}
          isLoading={isQuoting}
          errors={errors}
          discountCode={answers.discountCode}
          codeError={codeError}
          onCodeChange={(discountCode) => {
            setCodeError("");
            update({ discountCode });
          }}
          onApply={(code) => {
            if (!code.trim()) return setCodeError("Enter a discount code");
            requestQuote(code, { isApply: true });
          }}
          onRemoveCode={() => {
            update({ discountCode: "" });
            requestQuote("");
          }}
          onRetry={() => requestQuote(quote?.appliedCode ?? "")}
        />
      );
      break;
    case 4:
      body = <ContactFields answers={answers} errors={errors} update={update} />;
      break;
    default:
      body = (
        <ReviewStep
          answers={answers}
          quote={quote}
          user={user}
          onEdit={goTo}
        />
      );
  }

  const isBusy = isSubmitting || isQuoting || lookup === "pending";
  return (
    <div className="cs">
      <StepIndicator step={step} furthest={draft.furthest} onGo={goTo} />
      <div className="cs-layout">
        <div className="card cs-card">
          <div className="card__body">
            <h2 className="cs-heading" id="cs-heading" ref={headingRef} tabIndex={-1}>
              <span className="cs-heading__count">{`Step ${step + 1} of ${STEPS.length}`}</span>
              {STEPS[step].title}
            </h2>
            <form
              {...NO_SCRIPT_FORM}
              id="cs-form"
              className="cs-form"
              noValidate
              aria-labelledby="cs-heading"
              onSubmit={onContinue}
            >
              {body}
            </form>
            {step === CONTACT_STEP
              ? (
                <AccountPanel
                  user={user}
                  error={errors.auth}
                  onSignedIn={onSignedIn}
                  hasGoogleSignIn={hasGoogleSignIn}
                />
              )
              : null}
            <div className="form-actions cs-actions">
              {step > 0
                ? (
                  <button type="button" className="btn btn--ghost" onClick={() => go(step - 1)}>
                    Back
                  </button>
                )
                : null}
              <button
                type="submit"
                form="cs-form"
                className="btn btn--primary"
                disabled={isBusy}
                aria-disabled={isBusy || undefined}
              >
                {step === LAST_STEP
                  ? (isSubmitting ? "Submitting..." : "Submit request")
                  : step === QUOTE_STEP && shownQuote
                  ? "Continue with this quote"
                  : "Continue"}
              </button>
            </div>
          </div>
        </div>
        <aside className="cs-summary" aria-label="Your request so far">
          <h2 className="cs-summary__title">Your request</h2>
          <dl className="cs-summary__list">
            <div>
              <dt>Property</dt>
              <dd>{answers.formattedAddress || answers.address || "—"}</dd>
            </div>
            <div>
              <dt>Survey</dt>
              <dd>{type?.name ?? "—"}</dd>
            </div>
            <div>
              <dt>Quote</dt>
              <dd>
                {shownQuote
                  ? shownQuote.totalCents === null
                    ? "Quote required"
                    : formatMoney(shownQuote.totalCents)
                  : "—"}
              </dd>
            </div>
          </dl>
          <p className="cs-summary__free">
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
              <path
                d="m5 12 5 5L20 7"
                fill="none"
                stroke="currentColor"
                strokeWidth="2.5"
                strokeLinecap="round"
              />
            </svg>
            Free quote. No payment now.
          </p>
        </aside>
      </div>
    </div>
  );
}
