import { Icon, type IconName } from "../Icon.tsx";

const PILLARS: { icon: IconName; title: string; text: string }[] = [
  {
    icon: "award",
    title: "Licensed in your state",
    text:
      "Only professional land surveyors with an active license in the property's state can take work, and we confirm each license with the state board.",
  },
  {
    icon: "file",
    title: "Signed and sealed",
    text:
      "Every survey is signed and sealed by the licensed surveyor responsible for it, the same as if you had hired them directly.",
  },
  {
    icon: "star",
    title: "Rated by clients",
    text:
      "Clients rate every completed survey. Our surveyors average 4.9 out of 5, and we act on every low rating.",
  },
];

/** What we require of surveyors and what every survey includes. */
export function QualityStandards() {
  return (
    <>
      <ul className="pillars" role="list">
        {PILLARS.map((p) => (
          <li key={p.title} className="card">
            <div className="card__body stack">
              <span className="icon-badge">
                <Icon name={p.icon} />
              </span>
              <h2 className="pillars__title">{p.title}</h2>
              <p className="muted">{p.text}</p>
            </div>
          </li>
        ))}
      </ul>

      <h2 id="verification">How we verify surveyors</h2>
      <ul>
        <li>
          An active professional land surveyor license in each state where the surveyor accepts
          work, checked against the state licensing board before their first lead and again every
          year.
        </li>
        <li>Current professional liability and general liability insurance.</li>
        <li>A review of disciplinary actions on the state board's public record.</li>
        <li>Agreement to our standards of communication and delivery below.</li>
      </ul>

      <h2 id="standards">Standards every survey meets</h2>
      <ul>
        <li>
          <strong>State minimum technical standards</strong>{" "}
          for accuracy, monumentation and drawing content, which vary by state and which your
          surveyor is licensed to apply.
        </li>
        <li>
          <strong>ALTA/NSPS 2021 standards</strong>{" "}
          for land title surveys, with the Table A items agreed in writing.
        </li>
        <li>
          <strong>FEMA's Elevation Certificate instructions</strong>{" "}
          for every elevation certificate, including the required photographs.
        </li>
        <li>
          <strong>A stated datum and basis of bearings</strong>{" "}
          on every drawing, so later surveys and designs can tie in.
        </li>
      </ul>

      <h2 id="communication">Communication you can count on</h2>
      <ul>
        <li>
          Your surveyor contacts you within two business days of assignment (48 hours on average).
        </li>
        <li>Scope, price and date are confirmed with you before fieldwork; no surprise charges.</li>
        <li>Request status is kept up to date in your dashboard.</li>
        <li>
          Turnaround as published: mostly 5-10 business days; elevation certificates 3-5 days; ALTA
          surveys 7-14 days.
        </li>
      </ul>

      <h2 id="problems">If something is not right</h2>
      <p>
        Tell your surveyor first: drafting errors and missing items are corrected without charge. If
        that does not resolve it, <a href="/support/contact">contact us</a>{" "}
        and our support team will review the job with the surveyor and reply within one business
        day. Surveyors who repeatedly miss our standards are removed from the marketplace, and
        concerns about professional conduct can also be raised with the state licensing board.
      </p>
    </>
  );
}
