/**
 * The "Account" card of /surveyor-detail/{id} (admins): the surveyor account linked to the
 * record (name, email, last sign-in), or "No account yet" with "Send invitation" (an account
 * made from the record and a set-password link by email; disabled, with the reason, while the
 * record has no email) and "Link an existing surveyor account" by email. A linked account
 * that was never used can be sent a fresh invitation; any linked account can be unlinked.
 * Every action ends in a toast with the server's message; an invitation's says whether the
 * email was queued for the mail server or, with none configured, not sent (and links to it).
 */
import { type FormEvent, useId, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { emailNoticeToast, type EmailNoticeView } from "./_email_notice.ts";
import { CheckedForm, isEmail, TextField } from "./_fields.tsx";
import { formatDay } from "./_surveyor_shared.ts";
import type { SurveyorAccount } from "../lib/surveyor_profile.ts";

/** Props of the account panel. */
export interface SurveyorAccountPanelProps {
  surveyorId: string;
  /** The record's email, where an invitation goes; null when it has none. */
  recordEmail: string | null;
  /** The linked account, or null. */
  account: SurveyorAccount | null;
}

interface AccountAnswer {
  message?: string;
  /** The invitation's email: queued for the mail server, or not sent without one. */
  email?: EmailNoticeView;
  account?: SurveyorAccount | null;
}

/** Toast titles of "Send invitation". */
export const INVITATION_TOASTS = {
  queued: "Invitation queued",
  notSent: "Invitation not emailed",
} as const;

/** Says why "Send invitation" is unavailable. */
export const NO_EMAIL_REASON =
  "Add an email address to this surveyor's profile to send an invitation (then reload this page).";

/** The admin's account card for one surveyor record. */
export default function SurveyorAccountPanel(
  { surveyorId, recordEmail, account: initial }: SurveyorAccountPanelProps,
) {
  const [account, setAccount] = useState(initial);
  const [busy, setBusy] = useState<"" | "invite" | "link" | "unlink">("");
  const [isConfirmingUnlink, setConfirmingUnlink] = useState(false);
  const [email, setEmail] = useState("");
  const [errors, setErrors] = useState<{ email?: string }>({});
  const ids = useId();
  const base = `/api/surveyors/${encodeURIComponent(surveyorId)}`;

  async function run(
    kind: "invite" | "link" | "unlink",
    request: () => Promise<AccountAnswer | null>,
    failure: string,
  ): Promise<boolean> {
    setBusy(kind);
    try {
      const answer = await request();
      if (answer?.account !== undefined) setAccount(answer.account);
      toast(
        answer?.email
          ? emailNoticeToast(answer.email, INVITATION_TOASTS)
          : { title: answer?.message ?? "Done" },
      );
      return true;
    } catch (err) {
      toast({
        title: failure,
        description: errorMessage(err, "Please check your connection and try again."),
        variant: "destructive",
      });
      return false;
    } finally {
      setBusy("");
    }
  }

  function invite() {
    return run(
      "invite",
      () => apiJson<AccountAnswer>("POST", `${base}/invite`),
      "Could not send the invitation",
    );
  }

  async function link(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = !email.trim()
      ? "Enter the email address of the surveyor's account"
      : isEmail(email)
      ? undefined
      : "Enter a valid email address";
    setErrors({ email: problem });
    if (problem) return;
    const isLinked = await run(
      "link",
      () => apiJson<AccountAnswer>("POST", `${base}/link-user`, { email: email.trim() }),
      "Could not link the account",
    );
    if (isLinked) setEmail("");
  }

  async function unlink() {
    const isUnlinked = await run(
      "unlink",
      () => apiJson<AccountAnswer>("DELETE", `${base}/link-user`),
      "Could not unlink the account",
    );
    if (isUnlinked) setConfirmingUnlink(false);
  }

  if (account) {
    const isUnused = !account.lastLogin && !account.disabledAt;
    return (
      <div className="stack">
        <dl className="email-preview__meta">
          <dt>Name</dt>
          <dd>{account.fullName}</dd>
          <dt>Email</dt>
          <dd>
            <a href={`mailto:${account.email}`}>{account.email}</a>
          </dd>
          <dt>Last sign-in</dt>
          <dd>
            {account.lastLogin
              ? formatDay(account.lastLogin)
              : "Never (the invitation has not been used yet)"}
          </dd>
          {account.disabledAt
            ? (
              <>
                <dt>Status</dt>
                <dd>
                  <span className="badge badge--danger">Disabled</span>
                </dd>
              </>
            )
            : null}
        </dl>
        {isConfirmingUnlink
          ? (
            <div className="stack" role="group" aria-labelledby={`${ids}-unlink`}>
              <p id={`${ids}-unlink`}>
                {`Unlink ${account.email} from this record? The account stays, but it no longer edits this surveyor's coverage.`}
              </p>
              <p className="cluster">
                <button
                  type="button"
                  className="btn btn--danger btn--sm"
                  disabled={busy !== ""}
                  onClick={unlink}
                >
                  {busy === "unlink" ? "Unlinking..." : "Unlink account"}
                </button>
                <button
                  type="button"
                  className="btn btn--secondary btn--sm"
                  disabled={busy !== ""}
                  onClick={() => setConfirmingUnlink(false)}
                >
                  Keep it
                </button>
              </p>
            </div>
          )
          : (
            <p className="cluster">
              {isUnused
                ? (
                  <button
                    type="button"
                    className="btn btn--primary btn--sm"
                    disabled={busy !== ""}
                    onClick={invite}
                  >
                    {busy === "invite" ? "Sending..." : "Resend invitation"}
                  </button>
                )
                : null}
              <button
                type="button"
                className="btn btn--secondary btn--sm"
                disabled={busy !== ""}
                onClick={() => setConfirmingUnlink(true)}
              >
                Unlink account
              </button>
            </p>
          )}
      </div>
    );
  }

  const reasonId = `${ids}-invite-reason`;
  return (
    <div className="stack">
      <p>
        <strong>No account yet.</strong>{" "}
        Invite the surveyor to create one, or link an account they already have.
      </p>
      <div className="stack">
        <p className="cluster">
          <button
            type="button"
            className="btn btn--primary btn--sm"
            disabled={!recordEmail || busy !== ""}
            aria-describedby={reasonId}
            onClick={invite}
          >
            {busy === "invite" ? "Sending..." : "Send invitation"}
          </button>
        </p>
        <p className="field__hint" id={reasonId}>
          {recordEmail
            ? `Creates a surveyor account for ${recordEmail} and emails a link to choose a password (valid for 7 days).`
            : NO_EMAIL_REASON}
        </p>
      </div>
      <CheckedForm errors={errors} isPending={busy === "link"} onSubmit={link}>
        <TextField
          id={`${ids}-link-email`}
          name="email"
          type="email"
          label="Link an existing surveyor account"
          hint="The email address the surveyor signs in with."
          autoComplete="off"
          maxLength={254}
          value={email}
          error={errors.email}
          onValue={setEmail}
        />
        <div className="form-actions">
          <button type="submit" className="btn btn--secondary btn--sm" disabled={busy !== ""}>
            {busy === "link" ? "Linking..." : "Link account"}
          </button>
        </div>
      </CheckedForm>
    </div>
  );
}
