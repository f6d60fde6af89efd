/**
 * The admin's review of sign-ups that named a firm already on record (issue 22), on
 * /surveyor-detail/{id}: who signed up, why it came to review, what they typed, and "Link
 * account" or "Decline" (POST /api/surveyors/{id}/claim-requests/{requestId}). A decided
 * request shows its outcome.
 */
import { useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { emailNoticeToast, type EmailNoticeView } from "./_email_notice.ts";

/** One request as the card shows it. */
export interface ClaimRequestItem {
  id: string;
  name: string;
  email: string;
  /** Why it came to review, in words. */
  why: string;
  /** What they typed: company, licence, office. */
  typed: string;
  status: "pending" | "approved" | "denied";
}

/** Props of the card. */
export interface ClaimRequestsProps {
  surveyorId: string;
  requests: ClaimRequestItem[];
}

const STATUS_TEXT = { approved: "Linked", denied: "Declined" } as const;

/** The claim requests card's body. */
export default function ClaimRequests({ surveyorId, requests }: ClaimRequestsProps) {
  const [items, setItems] = useState(requests);
  const [busy, setBusy] = useState<string | null>(null);

  async function decide(id: string, decision: "approve" | "deny") {
    setBusy(id);
    try {
      const res = await apiJson<{ message: string; email?: EmailNoticeView | null }>(
        "POST",
        `/api/surveyors/${surveyorId}/claim-requests/${id}`,
        { decision },
      );
      toast(
        res?.email
          ? emailNoticeToast(res.email, {
            queued: res.message,
            notSent: `${res.message}; the email was not sent`,
          })
          : { title: res?.message ?? "Saved" },
      );
      setItems((all) =>
        all.map((r) =>
          r.id === id ? { ...r, status: decision === "approve" ? "approved" : "denied" } : r
        )
      );
    } catch (err) {
      toast({
        title: "Could not save the decision",
        description: errorMessage(err, "Please try again."),
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  }

  return (
    <ul className="stack" role="list">
      {items.map((r) => (
        <li key={r.id} className="stack">
          <p>
            <strong>{r.name}</strong> ({r.email}) — {r.why}
          </p>
          <p className="muted">{r.typed}</p>
          {r.status === "pending"
            ? (
              <p className="form-actions">
                <button
                  type="button"
                  className="btn btn--primary btn--sm"
                  disabled={busy !== null}
                  onClick={() => decide(r.id, "approve")}
                >
                  Link account
                </button>
                <button
                  type="button"
                  className="btn btn--secondary btn--sm"
                  disabled={busy !== null}
                  onClick={() => decide(r.id, "deny")}
                >
                  Decline
                </button>
              </p>
            )
            : <p className="badge badge--neutral">{STATUS_TEXT[r.status]}</p>}
        </li>
      ))}
    </ul>
  );
}
