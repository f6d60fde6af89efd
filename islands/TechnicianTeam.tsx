/**
 * A firm's field crew (or Meridian's staff technicians): who is on it, whether they have
 * signed in yet, how many open jobs each has; an invitation form (name, email, phone) and, per
 * technician, "Resend invitation" until they sign in and "Remove" (asks first: their open
 * jobs lose their technician and their account is closed).
 *
 * `POST /api/technicians`, `POST /api/technicians/{id}/invite`, `DELETE /api/technicians/{id}`.
 * Toasts: 'Invitation queued' (or 'Invitation not emailed' when no mail server is configured,
 * with a link to the message for admins) / 'Error inviting technician', 'Technician removed' /
 * 'Error removing technician', each failure with the server's message.
 *
 * Placing it: the surveyor dashboard's "Your crew" card, with the firm's first page from
 * db/technicians.ts `listTechnicians` through `toTeamMember`.
 */
import { endSentence } from "../lib/text.ts";
import { type FormEvent, useEffect, useId, useState } from "react";
import type { MailDelivery } from "../lib/mail/delivery.ts";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { emailNoticeToast, type EmailNoticeView } from "./_email_notice.ts";
import { CheckedForm, isEmail, TextField } from "./_fields.tsx";
import { TECHNICIAN_TOASTS, telLink } from "../lib/technician_constants.ts";

/** A technician as the crew list shows them (plain JSON). */
export interface TeamMember {
  id: string;
  fullName: string;
  email: string;
  phone: string | null;
  /** Null until they used their invitation. */
  lastLogin: string | null;
  disabledAt: string | null;
  openJobs: number;
}

/**
 * Props of TechnicianTeam:
 * - `members`: the crew's first page; `total`: how many there are in all.
 * - `surveyorId`: for an admin's list, the firm invited to (null: Meridian staff); leave it
 *   out for a surveyor's own crew (the server knows their firm).
 * - `crewName`: "your crew", or the firm's name, for the texts.
 * - `mailDelivery`: whether invitations really leave (a mail server is set up); the empty
 *   list's text says what happens to one either way.
 */
export interface TechnicianTeamProps {
  members: TeamMember[];
  total: number;
  surveyorId?: string | null;
  crewName: string;
  mailDelivery: MailDelivery;
}

/**
 * The empty list's text, by mail delivery: an invitation is only said to be emailed when a mail
 * server sends it; without one it waits in the outbox (admins open it in Emails).
 */
function emptyTeamText(delivery: MailDelivery, isAdmin: boolean): string {
  const invite = "Invite the technicians who do your fieldwork";
  const assign = "you assign them jobs from each job's page.";
  if (delivery === "smtp") {
    return `Nobody yet. ${invite}: each gets an email to choose a password, and ${assign}`;
  }
  const passOn = isAdmin
    ? "open it in Emails and pass its link on"
    : "an administrator can pass its link on";
  return `Nobody yet. ${invite}: each gets an invitation to choose a password, but no mail server is configured, so it is not emailed (${passOn}). Then ${assign}`;
}

interface InviteAnswer {
  message: string;
  email?: EmailNoticeView;
  technician: TeamMember;
}

const INVITE_TITLES = {
  queued: TECHNICIAN_TOASTS.invited,
  notSent: TECHNICIAN_TOASTS.invitedNotSent,
};

type Errors = { fullName?: string; email?: string; phone?: string };

const PHONE = /^[0-9+()\-.\s]{7,30}$/;

function check(fullName: string, email: string, phone: string): Errors {
  const errors: Errors = {};
  if (!fullName.trim()) errors.fullName = "Enter the technician's name";
  if (!email.trim()) errors.email = "Enter the technician's email address";
  else if (!isEmail(email)) errors.email = "Enter a valid email address";
  if (phone.trim() && !PHONE.test(phone.trim())) errors.phone = "Enter a valid phone number";
  return errors;
}

function statusOf(m: TeamMember): { label: string; badge: string } {
  if (m.disabledAt) return { label: "Account disabled", badge: "danger" };
  if (!m.lastLogin) return { label: "Invited, not signed in yet", badge: "warning" };
  return { label: "Active", badge: "success" };
}

/** The crew card's content (see the file's comment). */
export default function TechnicianTeam(props: TechnicianTeamProps) {
  const [members, setMembers] = useState(props.members);
  const [total, setTotal] = useState(props.total);
  const [fullName, setFullName] = useState("");
  const [email, setEmail] = useState("");
  const [phone, setPhone] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const id = useId();
  const disabled = !isHydrated || busy !== null;

  async function invite(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const found = check(fullName, email, phone);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy("invite");
    try {
      const body: Record<string, unknown> = {
        fullName: fullName.trim(),
        email: email.trim(),
        phone: phone.trim() || null,
      };
      if (props.surveyorId !== undefined) body.surveyorId = props.surveyorId;
      const data = await apiJson<InviteAnswer>("POST", "/api/technicians", body);
      if (!data?.technician) throw new Error("Empty answer");
      const added = data.technician;
      setMembers((list) => [...list, added].sort((a, b) => a.fullName.localeCompare(b.fullName)));
      setTotal((n) => n + 1);
      setFullName("");
      setEmail("");
      setPhone("");
      toast(emailNoticeToast(data.email, INVITE_TITLES, data.message));
    } catch (err) {
      toast({
        title: TECHNICIAN_TOASTS.inviteFailed,
        description: errorMessage(err, TECHNICIAN_TOASTS.inviteFallback),
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  }

  async function resend(member: TeamMember) {
    setBusy(`resend-${member.id}`);
    try {
      const data = await apiJson<Omit<InviteAnswer, "technician">>(
        "POST",
        `/api/technicians/${encodeURIComponent(member.id)}/invite`,
      );
      toast(emailNoticeToast(data?.email, INVITE_TITLES, data?.message));
    } catch (err) {
      toast({
        title: TECHNICIAN_TOASTS.inviteFailed,
        description: errorMessage(err, TECHNICIAN_TOASTS.inviteFallback),
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  }

  async function remove(member: TeamMember) {
    setBusy(`remove-${member.id}`);
    try {
      const data = await apiJson<{ message: string; endedJobs: string[] }>(
        "DELETE",
        `/api/technicians/${encodeURIComponent(member.id)}`,
      );
      setMembers((list) => list.filter((m) => m.id !== member.id));
      setTotal((n) => n - 1);
      setConfirming(null);
      const ended = data?.endedJobs.length ?? 0;
      toast({
        title: TECHNICIAN_TOASTS.removed,
        description: ended
          ? `${member.fullName} is off ${endSentence(props.crewName)} ${
            ended === 1 ? "1 open job needs" : `${ended} open jobs need`
          } another technician.`
          : `${member.fullName} is off ${endSentence(props.crewName)}`,
      });
    } catch (err) {
      toast({
        title: TECHNICIAN_TOASTS.removeFailed,
        description: errorMessage(err, TECHNICIAN_TOASTS.removeFallback),
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="stack technician-team" data-hydrated={isHydrated || undefined}>
      {members.length === 0
        ? (
          <p className="muted">
            {emptyTeamText(props.mailDelivery, props.surveyorId !== undefined)}
          </p>
        )
        : (
          <ul className="dash-list technician-team__list" aria-label="Technicians">
            {members.map((m) => {
              const status = statusOf(m);
              return (
                <li key={m.id} className="dash-list__item technician-team__item">
                  <span className="technician-team__name">
                    <strong>{m.fullName}</strong>{" "}
                    <span className={`badge badge--${status.badge}`}>{status.label}</span>
                  </span>
                  <span className="dash-list__meta technician-team__contact">
                    <a href={`mailto:${m.email}`}>{m.email}</a>
                    {m.phone
                      ? (
                        <>
                          {" · "}
                          <a href={telLink(m.phone)}>{m.phone}</a>
                        </>
                      )
                      : null}
                    {` · ${m.openJobs === 1 ? "1 open job" : `${m.openJobs} open jobs`}`}
                  </span>
                  {confirming === m.id
                    ? (
                      <span className="stack technician-team__confirm">
                        <span>
                          {`Remove ${m.fullName}? `}
                          {m.openJobs
                            ? "Their open jobs lose their technician and their account is closed."
                            : "Their account is closed."}
                        </span>
                        <span className="cluster">
                          <button
                            type="button"
                            className="btn btn--danger btn--sm"
                            disabled={disabled}
                            onClick={() => remove(m)}
                          >
                            {busy === `remove-${m.id}` ? "Removing..." : `Remove ${m.fullName}`}
                          </button>
                          <button
                            type="button"
                            className="btn btn--secondary btn--sm"
                            disabled={busy !== null}
                            onClick={() => setConfirming(null)}
                          >
                            Keep
                          </button>
                        </span>
                      </span>
                    )
                    : (
                      <span className="cluster technician-team__actions">
                        {!m.lastLogin && !m.disabledAt
                          ? (
                            <button
                              type="button"
                              className="btn btn--secondary btn--sm"
                              disabled={disabled}
                              aria-label={`Resend invitation to ${m.fullName}`}
                              onClick={() => resend(m)}
                            >
                              {busy === `resend-${m.id}` ? "Sending..." : "Resend invitation"}
                            </button>
                          )
                          : null}
                        <button
                          type="button"
                          className="btn btn--secondary btn--sm"
                          disabled={disabled}
                          aria-label={`Remove ${m.fullName}`}
                          onClick={() => setConfirming(m.id)}
                        >
                          Remove
                        </button>
                      </span>
                    )}
                </li>
              );
            })}
          </ul>
        )}
      {total > members.length
        ? <p className="muted">{`And ${total - members.length} more.`}</p>
        : null}
      <h3 className="technician-team__subtitle" id={`${id}-invite-title`}>Invite a technician</h3>
      <CheckedForm errors={errors} isPending={busy === "invite"} onSubmit={invite}>
        <TextField
          id={`${id}-name`}
          label="Full name"
          autoComplete="off"
          maxLength={100}
          value={fullName}
          onValue={setFullName}
          error={errors.fullName}
        />
        <TextField
          id={`${id}-email`}
          label="Email"
          type="email"
          autoComplete="off"
          maxLength={254}
          value={email}
          onValue={setEmail}
          error={errors.email}
        />
        <TextField
          id={`${id}-phone`}
          label="Phone"
          type="tel"
          optional
          autoComplete="off"
          maxLength={30}
          value={phone}
          onValue={setPhone}
          error={errors.phone}
        />
        <div className="cluster">
          <button type="submit" className="btn btn--primary" disabled={disabled}>
            {busy === "invite" ? "Sending..." : "Send invitation"}
          </button>
        </div>
      </CheckedForm>
    </div>
  );
}
