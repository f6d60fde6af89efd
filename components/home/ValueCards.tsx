import { Icon, type IconName } from "../Icon.tsx";

const VALUES: { icon: IconName; title: string; text: string }[] = [
  {
    icon: "dollar",
    title: "Instant, free quote",
    text:
      "Enter the address and the survey you need and see a price in seconds, based on the parcel's size, the survey type and local rates. Asking costs nothing.",
  },
  {
    icon: "shield",
    title: "No upfront payment",
    text:
      "You pay nothing to request a survey or to be matched. Your surveyor confirms the scope, price and date with you before any fieldwork begins.",
  },
  {
    icon: "award",
    title: "Licensed surveyors only",
    text:
      "Every job goes to a professional land surveyor licensed in the property's state. We check each license with the state board before a surveyor can take work.",
  },
];

/** The three reasons to choose Meridian. */
export function ValueCards() {
  return (
    <section className="section" aria-labelledby="values-title">
      <div className="container">
        <div className="section__intro">
          <p className="eyebrow">Why Meridian</p>
          <h2 id="values-title">A survey without the phone tag</h2>
          <p className="section__lead">
            Finding a surveyor used to mean calling around for days. We give you a price now and a
            qualified professional soon after.
          </p>
        </div>
        <ul className="grid-3 value-cards" role="list">
          {VALUES.map((v) => (
            <li key={v.title} className="card value-card">
              <div className="card__body stack">
                <span className="icon-badge">
                  <Icon name={v.icon} />
                </span>
                <h3>{v.title}</h3>
                <p className="muted">{v.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
