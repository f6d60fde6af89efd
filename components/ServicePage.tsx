import type { SessionUser } from "../lib/roles.ts";
import type { ServiceContent } from "../lib/service_content.ts";
import QuoteForm from "../islands/QuoteForm.tsx";
import { Island } from "./Island.tsx";
import { Icon } from "./Icon.tsx";
import { PublicLayout } from "./PublicLayout.tsx";
import { Breadcrumbs } from "./Breadcrumbs.tsx";
import { Faqs } from "./Faqs.tsx";
import { PriceLabel, ServiceCardList, SURVEY_ICONS, turnaroundText } from "./home/ServiceCards.tsx";

function CheckList({ items }: { items: readonly string[] }) {
  return (
    <ul className="check-list" role="list">
      {items.map((item) => (
        <li key={item}>
          <Icon name="check" size={20} />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * One service page: what the survey is, when you need it, what is delivered, turnaround and
 * price, FAQ, a quote form and links to the other services. Everything comes from `content`.
 */
export function ServicePage(
  { content, user }: { content: ServiceContent; user?: SessionUser | null },
) {
  const { type } = content;
  const capitalNoun = content.noun.replace(/^an? /, "");
  return (
    <PublicLayout user={user}>
      <section className="page-hero page-hero--service">
        <div className="container page-hero__grid">
          <div className="page-hero__copy">
            <Breadcrumbs
              items={[
                { href: "/", label: "Home" },
                { href: "/#services", label: "Services" },
                { label: content.heading },
              ]}
            />
            <span className="icon-badge icon-badge--lg">
              <Icon name={SURVEY_ICONS[type.id]} size={28} />
            </span>
            <h1>{content.heading}</h1>
            <p className="page-hero__lead">{content.lead}</p>
            <dl className="facts">
              <div className="facts__item">
                <dt>Price</dt>
                <dd>
                  <PriceLabel info={type} />
                </dd>
              </div>
              <div className="facts__item">
                <dt>Turnaround</dt>
                <dd>{turnaroundText(type)}</dd>
              </div>
              <div className="facts__item">
                <dt>Performed by</dt>
                <dd>A licensed land surveyor</dd>
              </div>
            </dl>
          </div>
          <div className="card quote-card" id="quote">
            <div className="card__body stack">
              <h2 className="quote-card__title">Get your instant free quote</h2>
              <p className="muted">
                Enter the property address to price {content.noun}. No upfront payment.
              </p>
              <Island component={QuoteForm} props={{ id: "service" }} hydrate="interaction" />
            </div>
          </div>
        </div>
      </section>

      <div className="container service-body">
        <section className="service-section" aria-labelledby="what-title">
          <h2 id="what-title">What is {content.noun}?</h2>
          {content.what.map((p) => <p key={p.slice(0, 32)}>{p}</p>)}
        </section>

        <div className="grid-2 service-columns">
          <section className="service-section" aria-labelledby="when-title">
            <h2 id="when-title">When you need one</h2>
            <CheckList items={content.when} />
          </section>
          <section className="service-section" aria-labelledby="delivered-title">
            <h2 id="delivered-title">What you receive</h2>
            <CheckList items={content.deliverables} />
          </section>
        </div>

        <section className="service-section card" aria-labelledby="price-title">
          <div className="card__body grid-2">
            <div className="stack">
              <h2 id="price-title">Turnaround and price</h2>
              <p className="service-price">
                <PriceLabel info={type} />
              </p>
              <p>
                <strong>Turnaround:</strong> {turnaroundText(type)}.
              </p>
              <p className="muted">{content.turnaroundNote}</p>
            </div>
            <div className="stack">
              <h3>What affects the price</h3>
              <ul className="bullet-list">
                {content.priceFactors.map((f) => <li key={f}>{f}</li>)}
              </ul>
              <p className="muted">
                Your instant quote accounts for the parcel itself. Your surveyor confirms the final
                scope and price with you before any work begins.
              </p>
            </div>
          </div>
        </section>

        <section className="service-section" aria-labelledby="faq-title">
          <h2 id="faq-title">{capitalNoun[0].toUpperCase() + capitalNoun.slice(1)} questions</h2>
          <Faqs faqs={content.faqs} />
        </section>

        <section className="service-section" aria-labelledby="ready-title">
          <div className="cluster service-ready">
            <div>
              <h2 id="ready-title">Ready to book {content.noun}?</h2>
              <p className="muted">It takes about two minutes and you pay nothing upfront.</p>
            </div>
            <a className="btn btn--accent btn--lg" href="/create-survey">
              Get Free Quote Now
              <Icon name="arrowRight" size={20} />
            </a>
          </div>
        </section>

        <section className="service-section" aria-labelledby="other-title">
          <h2 id="other-title">Other survey services</h2>
          <ServiceCardList exclude={type.id} />
        </section>
      </div>
    </PublicLayout>
  );
}
