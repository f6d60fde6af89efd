/** Props of the landing/service quote form. */
export interface QuoteFormProps {
  /** Unique per page, e.g. "hero" or "bottom"; used for element ids. */
  id: string;
  /** Submit button text. */
  buttonLabel?: string;
}

/**
 * Quote form: a required property address with suggestions; submitting goes to
 * /create-survey?address={address}. (Stub until the geo work lands.)
 */
export default function QuoteForm({ id, buttonLabel = "Get Free Quote" }: QuoteFormProps) {
  return (
    <form className="quote-form" action="/create-survey" method="get">
      <label htmlFor={`${id}-address`}>Property address</label>
      <input id={`${id}-address`} name="address" required autoComplete="street-address" />
      <button className="btn btn--primary" type="submit">{buttonLabel}</button>
    </form>
  );
}
