import { formatDollars, SURVEY_TYPE_INFO } from "../../lib/survey_types.ts";
import type { SurveyType } from "../../lib/survey_types.ts";

const CHOOSER: { need: string; type: SurveyType }[] = [
  { need: "Build a fence, settle a line question, or buy land", type: "boundary" },
  { need: "Design a house, addition, pool or drainage", type: "topographic" },
  { need: "Buy, sell or finance commercial property", type: "alta" },
  { need: "Flood insurance or a flood-zone map amendment", type: "elevation_certificate" },
  { need: "Lay out a foundation or prove what was built", type: "construction" },
  { need: "Split land into new lots", type: "subdivision" },
];

/** Getting started for clients and for surveyors. */
export function GettingStarted() {
  return (
    <>
      <h2 id="clients">For property owners</h2>
      <ol className="numbered">
        <li>
          <strong>Enter the property address.</strong>{" "}
          Start from the quote form on the home page and pick your address from the suggestions, so
          we can find the parcel.
        </li>
        <li>
          <strong>Choose the survey.</strong>{" "}
          Use the table below if you are unsure, and tell us about anything unusual: a closing date,
          a lender's requirements, locked gates.
        </li>
        <li>
          <strong>See your instant quote.</strong>{" "}
          The price appears straight away. Create your account to submit the request; there is no
          upfront payment.
        </li>
        <li>
          <strong>Hear from your surveyor.</strong>{" "}
          A licensed surveyor near the property is assigned and contacts you, in 48 hours on
          average, to confirm the details and book the visit.
        </li>
      </ol>

      <h2 id="choose">Which survey do I need?</h2>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">If you need to…</th>
              <th scope="col">Order</th>
              <th scope="col">Starting at</th>
            </tr>
          </thead>
          <tbody>
            {CHOOSER.map(({ need, type }) => {
              const info = SURVEY_TYPE_INFO[type];
              return (
                <tr key={type}>
                  <td>{need}</td>
                  <td>
                    <a href={info.path}>{info.name}</a>
                  </td>
                  <td>
                    {info.startingPrice === null
                      ? "Quote required"
                      : formatDollars(info.startingPrice)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p>
        Still unsure? Your lender, title company, architect or permit office usually says which
        survey they need. Copy their wording into your request and your surveyor will confirm.
      </p>

      <h2 id="have-ready">What to have ready</h2>
      <ul>
        <li>The property address, and the parcel or tax ID if you know it.</li>
        <li>Your deed and any earlier survey or plat of the property.</li>
        <li>
          For ALTA surveys: the title commitment with its recorded documents, the lender's survey
          requirements and the names to certify the survey to.
        </li>
        <li>For construction staking: the approved site plan, and CAD files if you have them.</li>
        <li>Anything about access: gates, codes, animals, or tenants to notify.</li>
      </ul>

      <h2 id="after">After you submit</h2>
      <p>
        You can follow your request in your dashboard, where notifications tell you when a surveyor
        is assigned and when the survey is complete. The finished, signed and sealed survey is
        delivered to you as a PDF, with CAD files where the survey type includes them. See{" "}
        <a href="/support/timeline-scheduling">Timeline &amp; Scheduling</a>{" "}
        for how long each survey takes.
      </p>

      <h2 id="surveyors">For surveyors</h2>
      <ol className="numbered">
        <li>
          <strong>Create your account</strong> from the{" "}
          <a href="/auth">login page</a>, using your business email.
        </li>
        <li>
          <strong>Verify your license.</strong>{" "}
          Send your state license number and proof of professional liability insurance. We check the
          license with your state board, usually within two business days.
        </li>
        <li>
          <strong>Receive leads near you.</strong>{" "}
          You are notified of survey requests in your area with the survey details and lead price.
          Buy or claim the ones you want; the client's details appear in your dashboard.
        </li>
        <li>
          <strong>Deliver and get rated.</strong>{" "}
          Contact the client, do the work to your state's standards, and upload the sealed survey.
          Clients rate every completed job.
        </li>
      </ol>
      <p>
        Read our <a href="/support/quality-standards">Quality Standards</a>{" "}
        to see what we expect from every survey.
      </p>
    </>
  );
}
