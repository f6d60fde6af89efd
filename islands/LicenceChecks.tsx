/**
 * The licence check queue on the admin console (/admin?tab=licences): firms that joined and wait
 * for their first licence check (Verify or Reject: POST /api/surveyors/{id}/licence), and firms
 * whose surveyor asked for a licence state or gave a new licence number since their licence was
 * verified, oldest request first. Each state and number has Verify and Reject (POST
 * /api/surveyors/{id}/licence-states/{state} or …/licence-number); nothing the surveyor asked
 * for counts before an admin verifies it. The server's answer is the toast; an item leaves the
 * list only when the decision was recorded.
 */
import { useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { emailNoticeToast, type EmailNoticeView } from "./_email_notice.ts";
import { formatDay } from "./_surveyor_shared.ts";
import { type LicenceChecks as Queue, stateNames } from "../lib/surveyor_licence.ts";

/** Props of the queue: what the server read. */
export interface LicenceChecksProps {
  initial: Queue;
}

/** The text of an empty queue. */
export const NO_LICENCE_CHECKS = "No licence checks are waiting.";

type Decision = "verify" | "reject";

/** The licence check queue. */
export default function LicenceChecks({ initial }: LicenceChecksProps) {
  const [checks, setChecks] = useState(initial.checks);
  const [busy, setBusy] = useState<string | null>(null);

  async function decide(
    key: string,
    url: string,
    body: Record<string, string>,
    after: () => void,
  ) {
    setBusy(key);
    try {
      const res = await apiJson<{ message?: string; email?: EmailNoticeView | null }>(
        "POST",
        url,
        body,
      );
      after();
      const title = res?.message ?? "Decision recorded";
      toast(
        res?.email ? emailNoticeToast(res.email, { queued: title, notSent: title }) : { title },
      );
    } catch (err) {
      toast({
        title: "Could not record the decision",
        description: errorMessage(err, "Please check your connection and try again."),
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  }

  function decideState(surveyorId: string, state: string, decision: Decision) {
    return decide(
      `${surveyorId}:${state}`,
      `/api/surveyors/${encodeURIComponent(surveyorId)}/licence-states/${state}`,
      { decision },
      () =>
        setChecks((all) =>
          all.map((c) =>
            c.surveyorId === surveyorId
              ? { ...c, pendingStates: c.pendingStates.filter((p) => p.state !== state) }
              : c
          ).filter((c) => c.pendingStates.length || c.pendingLicenseNumber)
        ),
    );
  }

  function decideNumber(surveyorId: string, licenseNumber: string, decision: Decision) {
    return decide(
      `${surveyorId}:number`,
      `/api/surveyors/${encodeURIComponent(surveyorId)}/licence-number`,
      { decision, licenseNumber },
      () =>
        setChecks((all) =>
          all.map((c) => c.surveyorId === surveyorId ? { ...c, pendingLicenseNumber: null } : c)
            .filter((c) => c.pendingStates.length || c.pendingLicenseNumber)
        ),
    );
  }

  function decideFirm(surveyorId: string, decision: Decision) {
    return decide(
      `${surveyorId}:firm`,
      `/api/surveyors/${encodeURIComponent(surveyorId)}/licence`,
      { decision },
      () => setChecks((all) => all.filter((c) => c.surveyorId !== surveyorId)),
    );
  }

  if (checks.length === 0) return <p>{NO_LICENCE_CHECKS}</p>;
  return (
    <ul className="stack licence-checks">
      {checks.map((c) => (
        <li key={c.surveyorId} className="card stack">
          <h3>
            <a href={`/surveyor-detail/${c.surveyorId}`}>{c.companyName}</a>
          </h3>
          {c.awaitingFirstCheck
            ? (
              <>
                <p>
                  <span className="badge badge--info">New firm</span>{" "}
                  {`${c.principalName ?? "A surveyor"} joined${
                    c.city || c.state ? ` from ${[c.city, c.state].filter(Boolean).join(", ")}` : ""
                  } on ${
                    formatDay(c.oldestRequestAt)
                  } and waits for the first licence check: licence ${
                    c.licenseNumber ?? "(no number)"
                  }${
                    c.licenseStates.length ? ` in ${stateNames(c.licenseStates)}` : ", no states"
                  }. Check it with the licensing board. Verify opens leads to them; Reject pauses the firm. Either way they are told in the app and by email.`}
                </p>
                <div className="cluster">
                  <button
                    type="button"
                    className="btn btn--primary btn--sm"
                    disabled={busy === `${c.surveyorId}:firm`}
                    onClick={() => decideFirm(c.surveyorId, "verify")}
                  >
                    Verify licence
                    <span className="visually-hidden">{` of ${c.companyName}`}</span>
                  </button>
                  <button
                    type="button"
                    className="btn btn--secondary btn--sm"
                    disabled={busy === `${c.surveyorId}:firm`}
                    onClick={() => decideFirm(c.surveyorId, "reject")}
                  >
                    Reject licence
                    <span className="visually-hidden">{` of ${c.companyName}`}</span>
                  </button>
                </div>
              </>
            )
            : (
              <p>
                {`Verified: licence ${c.licenseNumber ?? "(no number)"}${
                  c.licenseStates.length ? ` in ${stateNames(c.licenseStates)}` : ", no states"
                }. Check each request with the state's licensing board; nothing counts until you verify it.`}
              </p>
            )}
          <ul className="stack">
            {c.pendingStates.map((p) => {
              const name = stateNames([p.state]);
              const key = `${c.surveyorId}:${p.state}`;
              return (
                <li key={p.state} className="cluster">
                  <span>
                    {`${name}: asked on ${formatDay(p.requestedAt)}, licence ${
                      p.licenceNumber ?? "(no number)"
                    }`}
                  </span>
                  <button
                    type="button"
                    className="btn btn--primary btn--sm"
                    disabled={busy === key}
                    onClick={() => decideState(c.surveyorId, p.state, "verify")}
                  >
                    {`Verify ${name}`}
                  </button>
                  <button
                    type="button"
                    className="btn btn--secondary btn--sm"
                    disabled={busy === key}
                    onClick={() => decideState(c.surveyorId, p.state, "reject")}
                  >
                    {`Reject ${name}`}
                  </button>
                </li>
              );
            })}
            {c.pendingLicenseNumber
              ? (
                <li className="cluster">
                  <span>{`New licence number: ${c.pendingLicenseNumber}`}</span>
                  <button
                    type="button"
                    className="btn btn--primary btn--sm"
                    disabled={busy === `${c.surveyorId}:number`}
                    onClick={() => decideNumber(c.surveyorId, c.pendingLicenseNumber!, "verify")}
                  >
                    {`Verify ${c.pendingLicenseNumber}`}
                  </button>
                  <button
                    type="button"
                    className="btn btn--secondary btn--sm"
                    disabled={busy === `${c.surveyorId}:number`}
                    onClick={() => decideNumber(c.surveyorId, c.pendingLicenseNumber!, "reject")}
                  >
                    {`Reject ${c.pendingLicenseNumber}`}
                  </button>
                </li>
              )
              : null}
          </ul>
        </li>
      ))}
    </ul>
  );
}
