/**
 * The admin's licence check on /surveyor-detail/{id}: for a record waiting for it (pending, or
 * prospect/invited with an account), the licence number and states to check and "Verify
 * licence" with a confirmation; POST /api/surveyors/{id}/verify makes it active. For a
 * verified record (every active one is), when, how and by whom.
 */
import { useEffect, useId, useRef, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { formatDay } from "./_surveyor_shared.ts";
import type { SurveyorStatus, VerifiedVia } from "../lib/surveyor_constants.ts";

/** Props of the licence-check card. */
export interface VerifySurveyorProps {
  surveyorId: string;
  companyName: string;
  licenseNumber: string | null;
  licenseStates: string[];
  status: SurveyorStatus;
  /** The record waits for the check (the server decides, the island only shows it). */
  canVerify: boolean;
  /** ISO time of the verification, or null. */
  verifiedAt: string | null;
  /** Who recorded it: an admin, a command (seed), or the 0026 repair. */
  verifiedVia: VerifiedVia | null;
  /** The admin's name, when an admin verified it and their account still exists. */
  verifiedByName: string | null;
}

/** The card's text for a record whose licence is verified: when, and who recorded it. */
export function verifiedText(
  verifiedAt: string,
  via: VerifiedVia | null,
  by: string | null,
): string {
  const day = formatDay(verifiedAt);
  if (via === "seed") {
    return `Marked verified on ${day} by a command that made the record active (demo or imported data); no one has checked this licence in Meridian.`;
  }
  if (via === "migration") {
    return `Marked verified on ${day} by a data repair: the record was active before Meridian recorded licence checks.`;
  }
  return `Licence verified on ${day}${by ? ` by ${by}` : ""}.`;
}

/** The card's text for a record that is not verified and cannot be verified here. */
export function unverifiedText(status: SurveyorStatus): string {
  return status === "paused"
    ? "Paused before its licence was verified. Setting its status to Active records the licence as verified by you."
    : "Not verified. A surveyor's licence is checked once they have an account.";
}

/** The licence check. */
export default function VerifySurveyor(props: VerifySurveyorProps) {
  const [verifiedAt, setVerifiedAt] = useState(props.verifiedAt);
  const [verifiedVia, setVerifiedVia] = useState(props.verifiedVia);
  const [verifiedBy, setVerifiedBy] = useState(props.verifiedByName);
  const [canVerify, setCanVerify] = useState(props.canVerify);
  const [isConfirming, setConfirming] = useState(false);
  const [isPending, setPending] = useState(false);
  const id = useId();
  const confirmButton = useRef<HTMLButtonElement>(null);
  const verifyButton = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  // Keyboard users keep their place: the confirmation's button, then back to "Verify licence".
  useEffect(() => {
    if (isConfirming) confirmButton.current?.focus();
    else if (wasConfirming.current) verifyButton.current?.focus();
    wasConfirming.current = isConfirming;
  }, [isConfirming]);
  const licence = props.licenseNumber
    ? `${props.licenseNumber}${
      props.licenseStates.length ? ` (${props.licenseStates.join(", ")})` : ""
    }`
    : "no licence number given";

  async function verify() {
    setPending(true);
    try {
      const res = await apiJson<{ message?: string }>(
        "POST",
        `/api/surveyors/${encodeURIComponent(props.surveyorId)}/verify`,
      );
      setCanVerify(false);
      setConfirming(false);
      setVerifiedAt(new Date().toISOString());
      setVerifiedVia("admin");
      setVerifiedBy("you");
      toast({
        title: res?.message ?? "Licence verified",
        description: "Reload the page to see the new status in the profile.",
      });
    } catch (err) {
      toast({
        title: "Could not verify the licence",
        description: errorMessage(err, "Please check your connection and try again."),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  if (!canVerify) {
    return (
      <p>
        {verifiedAt
          ? verifiedText(verifiedAt, verifiedVia, verifiedBy)
          : unverifiedText(props.status)}
      </p>
    );
  }
  return (
    <div className="stack">
      <p>
        {`${props.companyName} is waiting for a licence check: ${licence}. Check it with the state licensing board, then verify it so they can buy and claim leads.`}
      </p>
      {isConfirming
        ? (
          <div className="stack" role="group" aria-labelledby={`${id}-confirm`}>
            <p id={`${id}-confirm`}>
              {`Verify ${props.companyName}'s licence ${licence}? They become active and can buy and claim leads at once.`}
            </p>
            <p className="cluster">
              <button
                ref={confirmButton}
                type="button"
                className="btn btn--primary btn--sm"
                disabled={isPending}
                onClick={verify}
              >
                {isPending ? "Verifying..." : "Yes, verify licence"}
              </button>
              <button
                type="button"
                className="btn btn--secondary btn--sm"
                disabled={isPending}
                onClick={() => setConfirming(false)}
              >
                Cancel
              </button>
            </p>
          </div>
        )
        : (
          <p>
            <button
              ref={verifyButton}
              type="button"
              className="btn btn--primary btn--sm"
              onClick={() => setConfirming(true)}
            >
              Verify licence
            </button>
          </p>
        )}
    </div>
  );
}
