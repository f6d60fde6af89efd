import { type FormEvent, useEffect, useRef, useState } from "react";
import AddressAutocomplete, { type AddressSelection } from "./AddressAutocomplete.tsx";
import { navigate as goTo } from "./_nav.ts";

/** Props of the landing/service quote form. */
export interface QuoteFormProps {
  /** Unique per page, e.g. "hero" or "bottom"; used for element ids. */
  id: string;
  /** Submit button text. */
  buttonLabel?: string;
  /** Text the address starts with, e.g. the town of a local page ("Austin, TX"). */
  defaultAddress?: string;
  /** Where to go; tests pass their own. Not JSON: never set it from a page. */
  navigate?: (url: string) => void;
}

/** Shown when the form is submitted without an address. */
export const QUOTE_FORM_EMPTY_MESSAGE = "Please enter the property address.";

/** Refuses a blank address in the plain-HTML form: at least one character that is not a space. */
const NOT_BLANK = ".*\\S.*";

/** /create-survey?address=… for `address`. */
export function createSurveyUrl(address: string): string {
  return `/create-survey?address=${encodeURIComponent(address)}`;
}

/**
 * Quote form: a required property address with suggestions. A non-empty trimmed address goes
 * to /create-survey?address={address}, a picked suggestion preferred over the typed text.
 * Without JavaScript it is a plain GET form to the same place.
 */
export default function QuoteForm(
  { id, buttonLabel = "Get Free Quote", defaultAddress, navigate = goTo }: QuoteFormProps,
) {
  const inputId = `${id}-address`;
  const errorId = `${id}-address-error`;
  const [text, setText] = useState(defaultAddress ?? "");
  const [picked, setPicked] = useState<AddressSelection | null>(null);
  const [error, setError] = useState("");
  // Browser validation covers the no-JS form (and presses before the runtime has loaded;
  // later ones wait for hydration): `required` and, for an address of only spaces, `pattern`.
  // Once hydrated, our own check takes over so the message can be shown in the page.
  const [isHydrated, setIsHydrated] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => setIsHydrated(true), []);

  function handleSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const typed = (formRef.current?.elements.namedItem("address") as HTMLInputElement | null)
      ?.value ?? text;
    const address = (picked ? picked.formattedAddress ?? picked.description : typed).trim();
    if (!address) {
      setError(QUOTE_FORM_EMPTY_MESSAGE);
      document.getElementById(inputId)?.focus();
      return;
    }
    setError("");
    navigate(createSurveyUrl(address));
  }

  return (
    <form
      ref={formRef}
      className="quote-form"
      action="/create-survey"
      method="get"
      noValidate={isHydrated}
      onSubmit={handleSubmit}
    >
      <div className="quote-form__row">
        <AddressAutocomplete
          id={inputId}
          name="address"
          label="Property address"
          placeholder="e.g. 123 Main St, Austin, TX"
          defaultValue={defaultAddress}
          required
          pattern={isHydrated ? undefined : NOT_BLANK}
          title={isHydrated ? undefined : QUOTE_FORM_EMPTY_MESSAGE}
          invalid={Boolean(error)}
          describedBy={error ? errorId : undefined}
          onChange={(value) => {
            setText(value);
            setPicked(null);
            if (error && value.trim()) setError("");
          }}
          onSelect={(selection) => {
            setPicked(selection);
            setError("");
          }}
        />
        <button className="btn btn--primary quote-form__submit" type="submit">
          {buttonLabel}
        </button>
      </div>
      {error && <p id={errorId} className="field__error quote-form__error" role="alert">{error}</p>}
    </form>
  );
}
