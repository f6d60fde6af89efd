import { TRUST_STATS } from "../home/TrustStats.tsx";

const PRINCIPLES = [
  {
    title: "Prices you can see",
    text:
      "An instant quote before you talk to anyone, and no upfront payment. The price you see is based on your parcel, not a guess.",
  },
  {
    title: "Professionals first",
    text:
      "Every survey is done and sealed by a surveyor licensed in your state. We handle the matching and paperwork so they can spend their time surveying.",
  },
  {
    title: "Your time matters",
    text:
      "Surveyors respond in 48 hours on average, and we publish honest turnaround times for every survey type.",
  },
  {
    title: "Your data is yours",
    text:
      "We share your details only with the surveyor doing your job and the services that run the site, and we never sell them.",
  },
];

/** The About page: who we are, how the marketplace works and what we stand for. */
export function About() {
  return (
    <>
      <p>
        Ordering a land survey used to mean calling one office after another, waiting days for a
        callback and getting a price only after someone visited. Meanwhile, skilled surveyors spent
        hours answering calls for jobs outside their area or specialty.
      </p>
      <p>
        Meridian is a nationwide marketplace that fixes both sides. Property owners, developers and
        investors get an instant, free quote for the survey they need, with no upfront payment. We
        match each request to a licensed surveyor by location, expertise and availability, and the
        surveyor contacts the client to confirm the details and schedule the work.
      </p>

      <h2 id="numbers">Meridian in numbers</h2>
      <ul className="about-stats" role="list">
        {TRUST_STATS.map((s) => (
          <li key={s.label}>
            <span className="about-stats__value">{s.value}</span>{" "}
            <span className="about-stats__label">{s.label}</span>
          </li>
        ))}
      </ul>

      <h2 id="name">Why "Meridian"?</h2>
      <p>
        A meridian is the north-south reference line that surveyors have measured from for
        centuries; across much of the United States, property descriptions still trace back to the
        principal meridians of the Public Land Survey System. We want to be that fixed reference for
        anyone who needs a survey.
      </p>

      <h2 id="how">How the marketplace works</h2>
      <div className="grid-2">
        <div>
          <h3>For property owners</h3>
          <p>
            Enter an address, choose from six survey types, and see your price straight away. Your
            request goes to licensed surveyors nearby, and one is assigned to you. You follow
            progress in your dashboard and receive the sealed survey when it is done.
          </p>
        </div>
        <div>
          <h3>For surveyors</h3>
          <p>
            Verified surveyors receive priced leads for properties in their service area and choose
            the work that fits their schedule and expertise. No cold calls, no advertising spend,
            and clients who already know the price.
          </p>
        </div>
      </div>

      <h2 id="principles">What we stand for</h2>
      <ul className="principles" role="list">
        {PRINCIPLES.map((p) => (
          <li key={p.title}>
            <h3>{p.title}</h3>
            <p>{p.text}</p>
          </li>
        ))}
      </ul>

      <h2 id="talk">Talk to us</h2>
      <p>
        Questions, partnerships or press: use our{" "}
        <a href="/support/contact">contact form</a>. Surveyors interested in joining can start with
        {" "}
        <a href="/support/getting-started#surveyors">Getting Started</a>.
      </p>
    </>
  );
}
