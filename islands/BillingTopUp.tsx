/**
 * "Add credit" on /surveyor/billing when card top-ups are configured: one of the usual
 * amounts or another between the minimum and maximum, then Stripe's hosted payment page.
 * Nothing is credited here: the balance changes when Stripe's webhook confirms the payment.
 */
import { type FormEvent, useEffect, useId, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { CheckedForm, RadioGroup, Spinner, TextField } from "./_fields.tsx";
import { fieldErrors } from "./_surveyor_shared.ts";
import { formatCents } from "../lib/quote_text.ts";
import { dollarsToCents } from "./_billing.ts";

/** Props of the top-up form (from lib/billing.ts, so the island needs no server module). */
export interface BillingTopUpProps {
  /** One-click amounts in cents. */
  choicesCents: number[];
  minCents: number;
  maxCents: number;
  /** Where to go; tests pass their own. Not JSON: never set it from a page. */
  navigate?: (url: string) => void;
}

function goTo(url: string) {
  globalThis.location.assign(url);
}

/** Toast title when the payment page cannot be opened. */
export const CHECKOUT_FAILED_TITLE = "Could not open the payment page";

const OTHER = "other";

/** The top-up form. */
export default function BillingTopUp(
  { choicesCents, minCents, maxCents, navigate = goTo }: BillingTopUpProps,
) {
  const id = useId();
  const [choice, setChoice] = useState(String(choicesCents[1] ?? choicesCents[0] ?? OTHER));
  const [other, setOther] = useState("");
  const [errors, setErrors] = useState<{ amount?: string }>({});
  const [isPending, setPending] = useState(false);
  // Until hydrated, the button would submit the form as a plain page request.
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const range = `between ${formatCents(minCents)} and ${formatCents(maxCents)}`;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    let amountCents: number | undefined = Number(choice);
    if (choice === OTHER) {
      amountCents = dollarsToCents(other);
      const problem = amountCents === undefined
        ? `Enter an amount in dollars, ${range}`
        : amountCents < minCents || amountCents > maxCents
        ? `Choose an amount ${range}`
        : undefined;
      setErrors({ amount: problem });
      if (problem) return;
    } else {
      setErrors({});
    }
    setPending(true);
    try {
      const answer = await apiJson<{ url?: string }>("POST", "/api/billing/checkout", {
        amountCents,
      });
      if (!answer?.url) throw new Error("no payment page");
      // Still pending: the page is leaving for Stripe.
      navigate(answer.url);
    } catch (err) {
      const serverErrors = fieldErrors(err);
      if (serverErrors.amountCents) setErrors({ amount: serverErrors.amountCents });
      toast({
        title: CHECKOUT_FAILED_TITLE,
        description: errorMessage(err, "Please check your connection and try again."),
        variant: "destructive",
      });
      setPending(false);
    }
  }

  const choices = [
    ...choicesCents.map((cents) => ({ id: String(cents), label: formatCents(cents) })),
    { id: OTHER, label: "Other amount" },
  ];
  return (
    <CheckedForm
      errors={errors}
      isPending={isPending}
      className="stack billing-topup"
      onSubmit={submit}
    >
      <RadioGroup
        id={`${id}-choice`}
        label="Amount to add"
        value={choice}
        onValue={(value) => {
          setChoice(value);
          setErrors({});
        }}
        choices={choices}
        error={choice === OTHER ? undefined : errors.amount}
      />
      {choice === OTHER
        ? (
          <TextField
            id={`${id}-amount`}
            label="Other amount (US dollars)"
            hint={`Any amount ${range}.`}
            inputMode="decimal"
            autoComplete="off"
            value={other}
            onValue={setOther}
            error={errors.amount}
          />
        )
        : null}
      <p className="muted">
        You pay on Stripe's secure page. Your balance goes up once Stripe confirms the payment,
        usually within seconds.
      </p>
      <p>
        <button
          type="submit"
          className="btn btn--primary"
          disabled={!isHydrated || isPending}
          data-hydrated={isHydrated || undefined}
        >
          {isPending ? <Spinner /> : null}
          {isPending ? "Opening the payment page..." : "Continue to payment"}
        </button>
      </p>
    </CheckedForm>
  );
}
