import { SURVEY_TYPE_INFO, SURVEY_TYPES } from "../../lib/survey_types.ts";

const STAGES = [
  { when: "Day 0", title: "You submit your request", text: "with the instant quote." },
  {
    when: "Within 48 hours on average",
    title: "Your surveyor contacts you",
    text: "to confirm the scope and price and book the field visit.",
  },
  {
    when: "Usually within a week",
    title: "Fieldwork",
    text: "takes a few hours for most homes and a day or more for large or commercial sites.",
  },
  {
    when: "Following days",
    title: "Research, drafting and review",
    text: "the surveyor reconciles records with field measurements and prepares the drawing.",
  },
  {
    when: "Delivery",
    title: "Signed and sealed survey",
    text: "delivered to your dashboard and inbox.",
  },
];

/** Turnaround per survey type and how scheduling works. */
export function TimelineScheduling() {
  return (
    <>
      <p className="callout">
        <strong>Turnaround at a glance:</strong>{" "}
        mostly 5-10 business days; elevation certificates 3-5 days; ALTA 7-14 days.
      </p>

      <h2 id="turnaround">Turnaround by survey</h2>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Survey</th>
              <th scope="col">Typical turnaround</th>
            </tr>
          </thead>
          <tbody>
            {SURVEY_TYPES.map((id) => {
              const info = SURVEY_TYPE_INFO[id];
              return (
                <tr key={id}>
                  <td>
                    <a href={info.path}>{info.name}</a>
                  </td>
                  <td>
                    {info.startingPrice === null
                      ? "Quoted per project, with local approval time on top"
                      : info.turnaround}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="muted">
        Business days are counted from the day your surveyor schedules the work, and exclude
        weekends and public holidays.
      </p>

      <h2 id="stages">From request to delivery</h2>
      <ol className="timeline" role="list">
        {STAGES.map((s) => (
          <li key={s.title} className="timeline__item">
            <span className="timeline__when">{s.when}</span>
            <p>
              <strong>{s.title}</strong> {s.text}
            </p>
          </li>
        ))}
      </ol>

      <h2 id="what-changes">What can change the timeline</h2>
      <ul>
        <li>
          <strong>Weather:</strong>{" "}
          storms, deep snow or flooding can stop fieldwork; the schedule moves by the days lost.
        </li>
        <li>
          <strong>Records research:</strong>{" "}
          old or conflicting deeds and missing corner markers take longer to resolve.
        </li>
        <li>
          <strong>Access:</strong>{" "}
          locked gates, animals or tenants who need notice. Put access notes in your request.
        </li>
        <li>
          <strong>Documents from others:</strong>{" "}
          ALTA surveys cannot finish before the title commitment and its recorded documents arrive.
        </li>
        <li>
          <strong>Local approvals:</strong>{" "}
          subdivision plats wait on county or city review, which the surveyor does not control.
        </li>
        <li>
          <strong>Season:</strong>{" "}
          spring and early summer are the busiest months for surveyors in most states; request early
          if you have a deadline.
        </li>
      </ul>

      <h2 id="rush">Deadlines and rush requests</h2>
      <p>
        Put your closing, permit or construction date in your request. Your surveyor will tell you
        when they call whether they can meet it and whether an expedited schedule changes the price.
      </p>

      <h2 id="changes">Rescheduling and cancelling</h2>
      <p>
        Need to move the visit? Tell your surveyor as early as you can. Because there is no upfront
        payment, cancelling before fieldwork starts costs you nothing. Once fieldwork has begun, the
        surveyor may charge for the work already done, as agreed when they confirmed the job.
      </p>
    </>
  );
}
