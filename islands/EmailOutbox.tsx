/**
 * The outbox table of /admin/email-outbox: one row per message (recipient, template, subject
 * linking to the message's page, status with attempts and the last error, when it was queued
 * and sent). A failed message has "Retry now", which makes it due again for the sender; the row
 * then reads "Queued" in place. With no mail server configured nothing is ever sent, and a
 * waiting message says so ("Not sent — no mail server") instead of a "Queued" that never ends.
 * The table is server-rendered and readable without JavaScript; only the button needs it.
 */
import { useEffect, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { TableRegion } from "./_table.tsx";
import type { MailDelivery } from "../lib/mail/delivery.ts";

/** Delivery state of a message (lib/mail/outbox.ts). */
export type OutboxRowStatus = "queued" | "sending" | "sent" | "failed";

/** One message as the page passes it: times are ISO strings, no bodies. */
export interface OutboxRowView {
  id: string;
  toAddress: string;
  template: string;
  /** The template's display name, or its id when the registry no longer has it. */
  templateName: string;
  subject: string;
  status: OutboxRowStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string;
  createdAt: string;
  sentAt: string | null;
}

/** Props of the outbox table: its rows and how this server delivers mail. */
export interface EmailOutboxProps {
  rows: OutboxRowView[];
  delivery: MailDelivery;
}

/** Toast titles of "Retry now". */
export const RETRY_TOASTS = {
  queued: "Email queued again",
  failed: "Could not retry the email",
} as const;

const STATUS_LABEL: Record<OutboxRowStatus, string> = {
  queued: "Queued",
  sending: "Sending",
  sent: "Sent",
  failed: "Failed",
};

const STATUS_BADGE: Record<OutboxRowStatus, string> = {
  queued: "badge--info",
  sending: "badge--info",
  sent: "badge--success",
  failed: "badge--danger",
};

/** What a waiting email is when no mail server is configured: it is not going anywhere. */
export const NOT_SENT_LABEL = "Not sent — no mail server";

/** A message's status as the admin reads it, given how this server delivers mail. */
export function outboxStatus(
  status: OutboxRowStatus,
  delivery: MailDelivery,
): { label: string; badge: string } {
  if (delivery === "none" && (status === "queued" || status === "sending")) {
    return { label: NOT_SENT_LABEL, badge: "badge--warning" };
  }
  return { label: STATUS_LABEL[status], badge: STATUS_BADGE[status] };
}

/** The admin page of message `id`. */
export function outboxMessageHref(id: string): string {
  return `/admin/email-outbox/${encodeURIComponent(id)}`;
}

// Fixed time zone so the server's HTML and the hydrated table print the same text.
const WHEN = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

/** "Nov 21, 2026, 3:04 PM UTC". */
export function formatOutboxTime(iso: string): string {
  return WHEN.format(new Date(iso));
}

/** "1 attempt", "3 attempts". */
export function attemptsText(n: number): string {
  return n === 1 ? "1 attempt" : `${n} attempts`;
}

/** The outbox table with "Retry now" on failed messages. */
export default function EmailOutbox({ rows: initialRows, delivery }: EmailOutboxProps) {
  const [rows, setRows] = useState(initialRows);
  const [busyId, setBusyId] = useState<string | null>(null);
  // Marks the table once the buttons work (end-to-end tests wait for it).
  const [isHydrated, setIsHydrated] = useState(false);
  useEffect(() => setIsHydrated(true), []);

  async function retry(row: OutboxRowView) {
    setBusyId(row.id);
    try {
      const res = await apiJson<{ message: string; email: OutboxRowView }>(
        "POST",
        `/api/admin/email-outbox/${encodeURIComponent(row.id)}/retry`,
      );
      const next = res?.email;
      setRows((all) =>
        all.map((r) => r.id === row.id ? { ...r, ...(next ?? {}), status: "queued" } : r)
      );
      toast({
        title: RETRY_TOASTS.queued,
        description: delivery === "smtp"
          ? `The email to ${row.toAddress} will be sent within a few seconds.`
          : `No mail server is configured, so the email to ${row.toAddress} stays in the outbox.`,
      });
    } catch (err) {
      toast({
        title: RETRY_TOASTS.failed,
        description: errorMessage(err, "Please try again."),
        variant: "destructive",
      });
    } finally {
      setBusyId(null);
    }
  }

  return (
    <TableRegion label="Outbox">
      <table
        className="table table--cards email-outbox"
        data-hydrated={isHydrated ? "" : undefined}
      >
        <caption className="visually-hidden">Emails in the outbox, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Recipient</th>
            <th scope="col">Email</th>
            <th scope="col">Status</th>
            <th scope="col">Queued</th>
            <th scope="col">Sent</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td data-label="Recipient" className="email-outbox__to">{row.toAddress}</td>
              <td data-label="Email">
                <a className="email-outbox__subject" href={outboxMessageHref(row.id)}>
                  {row.subject}
                </a>
                <br />
                <span className="muted">{row.templateName}</span>
              </td>
              <td data-label="Status">
                <span className={`badge ${outboxStatus(row.status, delivery).badge}`}>
                  {outboxStatus(row.status, delivery).label}
                </span>{" "}
                <span className="muted">{attemptsText(row.attempts)}</span>
                {row.lastError && row.status !== "sent"
                  ? <span className="email-outbox__error">Last error: {row.lastError}</span>
                  : null}
              </td>
              <td data-label="Queued">{formatOutboxTime(row.createdAt)}</td>
              <td data-label="Sent">{row.sentAt ? formatOutboxTime(row.sentAt) : "—"}</td>
              <td data-label="Actions">
                {row.status === "failed"
                  ? (
                    <button
                      type="button"
                      className="btn btn--secondary btn--sm"
                      disabled={busyId === row.id}
                      aria-label={`Retry now: ${row.subject} to ${row.toAddress}`}
                      onClick={() => retry(row)}
                    >
                      {busyId === row.id ? "Retrying…" : "Retry now"}
                    </button>
                  )
                  : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
