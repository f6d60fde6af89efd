import { Icon, type IconName } from "../Icon.tsx";
import {
  formatDollars,
  SURVEY_TYPE_INFO,
  SURVEY_TYPES,
  type SurveyType,
  type SurveyTypeInfo,
} from "../../lib/survey_types.ts";

/** The icon drawn on each survey type's card. */
export const SURVEY_ICONS: Record<SurveyType, IconName> = {
  boundary: "map",
  elevation_certificate: "water",
  topographic: "mountain",
  alta: "building",
  construction: "hammer",
  subdivision: "grid",
};

/** "Starting at $385", or "Quote required" when a type has no fixed price. */
export function PriceLabel({ info }: { info: SurveyTypeInfo }) {
  return info.startingPrice === null
    ? <span className="price price--quote">Quote required</span>
    : (
      <span className="price">
        <span className="price__from">Starting at</span>{" "}
        <span className="price__amount">{formatDollars(info.startingPrice)}</span>
      </span>
    );
}

/** Turnaround text for a card; a quoted type's timeline is set with its quote. */
export function turnaroundText(info: SurveyTypeInfo): string {
  return info.startingPrice === null ? "Quoted per project" : info.turnaround;
}

/** One survey type as a card linking to its service page. */
export function ServiceCard({ info }: { info: SurveyTypeInfo }) {
  return (
    <li className="card service-card">
      <div className="card__body service-card__body">
        <span className="icon-badge">
          <Icon name={SURVEY_ICONS[info.id]} />
        </span>
        <h3 className="service-card__title">
          <a href={info.path} className="service-card__link">{info.name}</a>
        </h3>
        <p className="muted service-card__summary">{info.summary}</p>
        <dl className="service-card__facts">
          <div>
            <dt>Price</dt>
            <dd>
              <PriceLabel info={info} />
            </dd>
          </div>
          <div>
            <dt>Turnaround</dt>
            <dd>
              <Icon name="clock" size={16} />
              {turnaroundText(info)}
            </dd>
          </div>
        </dl>
        <span className="service-card__more" aria-hidden="true">
          Learn more <Icon name="arrowRight" size={16} />
        </span>
      </div>
    </li>
  );
}

/** The card list of all six survey types, or all but `exclude`. */
export function ServiceCardList({ exclude }: { exclude?: SurveyType }) {
  return (
    <ul className="grid-3 service-cards" role="list">
      {SURVEY_TYPES.filter((id) => id !== exclude).map((id) => (
        <ServiceCard key={id} info={SURVEY_TYPE_INFO[id]} />
      ))}
    </ul>
  );
}

/** Landing section with every survey type's card. */
export function ServiceCards() {
  return (
    <section id="services" className="section section--tint" aria-labelledby="services-title">
      <div className="container">
        <div className="section__intro">
          <p className="eyebrow">Survey services</p>
          <h2 id="services-title">Every kind of land survey, one simple request</h2>
          <p className="section__lead">
            Clear starting prices and typical turnaround for each survey. Your instant quote is
            tailored to your parcel.
          </p>
        </div>
        <ServiceCardList />
      </div>
    </section>
  );
}
