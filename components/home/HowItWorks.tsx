/** The four steps from address to scheduled survey. */
export const STEPS = [
  {
    title: "Enter the property address",
    text:
      "Type the address and pick it from the suggestions, then choose the survey you need. Not sure which one? The Getting Started guide explains each in plain English.",
  },
  {
    title: "Get your instant quote",
    text:
      "See a starting price immediately, calculated from the survey type, parcel size and local rates. Free, and no obligation.",
  },
  {
    title: "We match a licensed surveyor",
    text:
      "We notify licensed surveyors near the property and assign the one with the right expertise and availability for your job.",
  },
  {
    title: "Your surveyor confirms and schedules",
    text:
      "Your surveyor calls to confirm the details and book the field visit, usually within 48 hours. Sealed results follow, typically in 5-10 business days.",
  },
] as const;

/** The "How It Works" section the hero button scrolls to. */
export function HowItWorks() {
  return (
    <section id="how-it-works" className="section section--tint" aria-labelledby="how-title">
      <div className="container">
        <div className="section__intro">
          <p className="eyebrow">Four simple steps</p>
          <h2 id="how-title">How It Works</h2>
          <p className="section__lead">
            From address to surveyor on your property, without chasing quotes.
          </p>
        </div>
        <ol className="steps" role="list">
          {STEPS.map((s, i) => (
            <li key={s.title} className="steps__item">
              <span className="steps__number" aria-hidden="true">{i + 1}</span>
              <h3 className="steps__title">
                <span className="visually-hidden">Step {i + 1}:</span>
                {s.title}
              </h3>
              <p className="muted">{s.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
