import { Island } from "../Island.tsx";
import { Icon } from "../Icon.tsx";
import QuoteForm from "../../islands/QuoteForm.tsx";

const PROMISES = [
  "Instant free quote",
  "No upfront payment",
  "Licensed surveyors only",
] as const;

/** Landing hero: the promise, the two calls to action and the first quote form. */
export function Hero() {
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="container hero__grid">
        <div className="hero__copy">
          <p className="eyebrow">Land surveys, nationwide</p>
          <h1 id="hero-title" className="hero__title">
            Get a licensed land surveyor, with an instant free quote.
          </h1>
          <p className="hero__lead">
            Tell us the property address and the survey you need. You see your price right away, a
            licensed surveyor near the property is matched to your job, and you pay nothing upfront.
          </p>
          <div className="cluster hero__actions">
            <a className="btn btn--accent btn--lg" href="/create-survey">
              Get Free Quote Now
              <Icon name="arrowRight" size={20} />
            </a>
            <a className="btn btn--secondary btn--lg" href="#how-it-works">How It Works</a>
          </div>
          <ul className="hero__promises" role="list">
            {PROMISES.map((p) => (
              <li key={p}>
                <Icon name="checkCircle" size={20} />
                {p}
              </li>
            ))}
          </ul>
        </div>
        <div className="hero__card card">
          <div className="card__body stack">
            <h2 className="hero__card-title">Start with the property address</h2>
            <p className="muted">
              Boundary, topographic, ALTA, elevation certificate, construction and subdivision
              surveys in every state.
            </p>
            <Island component={QuoteForm} props={{ id: "hero" }} hydrate="interaction" />
            <p className="hero__card-note">
              <Icon name="lock" size={16} />
              Free and without obligation. We never sell your details.
            </p>
          </div>
        </div>
      </div>
    </section>
  );
}
