import { Island } from "../Island.tsx";
import { Icon } from "../Icon.tsx";
import QuoteForm from "../../islands/QuoteForm.tsx";

/** Closing call to action with the second quote form. */
export function BottomCta() {
  return (
    <section className="cta" aria-labelledby="cta-title">
      <div className="container cta__grid">
        <div className="cta__copy">
          <h2 id="cta-title">Ready for your free quote?</h2>
          <p>
            Enter the property address to see your price in about two minutes. A licensed surveyor
            will contact you to confirm the details, and there is nothing to pay upfront.
          </p>
          <ul className="cta__points" role="list">
            <li>
              <Icon name="check" size={18} /> Free, with no obligation to book
            </li>
            <li>
              <Icon name="check" size={18} /> Sealed results, typically in 5-10 business days
            </li>
          </ul>
        </div>
        <div className="cta__form">
          <Island component={QuoteForm} props={{ id: "bottom" }} hydrate="interaction" />
        </div>
      </div>
    </section>
  );
}
