/**
 * The contact messages tab of the admin console (/admin?tab=messages): what visitors sent
 * through the contact form, newest first, unread ones marked. Opening a message shows all of
 * it with a reply link and marks it read; 'Load older' fetches the next keyset page.
 */
import { useEffect, useRef, useState } from "react";
import { apiJson, errorMessage, getQuery } from "./_api.ts";
import { toast } from "./_toast.ts";
import { CONTACT_TOPICS } from "../lib/contact.ts";

/** A contact message as GET /api/admin/contact-messages returns it. */
export interface ContactMessageView {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  topic: string;
  message: string;
  createdAt: string;
  readAt: string | null;
}

/** One page of GET /api/admin/contact-messages. */
export interface ContactMessagePage {
  messages: ContactMessageView[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

/** Props of the messages tab: the first page, rendered by the server. */
export interface AdminMessagesProps {
  initial: ContactMessagePage;
}

/** Subject of a reply started from the console. */
export const REPLY_SUBJECT = "Re: your message to Meridian";

const TOPIC_LABELS: Record<string, string> = Object.fromEntries(
  CONTACT_TOPICS.map((t) => [t.value, t.label]),
);

// Fixed time zone so the server's HTML and the hydrated list print the same time.
const WHEN = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

/** The mailto: link of a reply to `m`. */
export function replyHref(m: Pick<ContactMessageView, "email">): string {
  return `mailto:${encodeURIComponent(m.email).replace("%40", "@")}?subject=${
    encodeURIComponent(REPLY_SUBJECT)
  }`;
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 90 ? `${flat.slice(0, 89)}…` : flat;
}

/** The messages tab. */
export default function AdminMessages({ initial }: AdminMessagesProps) {
  const [messages, setMessages] = useState<ContactMessageView[]>(initial.messages);
  const [nextCursor, setNextCursor] = useState<string | null>(initial.nextCursor);
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [open, setOpen] = useState<string[]>([]);
  const [isLoading, setLoading] = useState(false);
  const marking = useRef(new Set<string>());
  const request = useRef(0);
  // Marks the list as interactive (tests wait for it; until then the SSR copy is inert).
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function load(filter: boolean, before: string | null) {
    const n = ++request.current;
    setLoading(true);
    try {
      const params = new URLSearchParams();
      if (before) params.set("before", before);
      if (filter) params.set("unread", "true");
      const query = params.toString();
      const res = await getQuery<ContactMessagePage>(
        `/api/admin/contact-messages${query ? `?${query}` : ""}`,
      );
      if (n !== request.current) return;
      if (!res || !Array.isArray(res.messages)) throw new Error("No message list");
      setMessages((current) => {
        if (!before) return res.messages;
        const seen = new Set(current.map((m) => m.id));
        return [...current, ...res.messages.filter((m) => !seen.has(m.id))];
      });
      setNextCursor(res.nextCursor);
    } catch (err) {
      if (n !== request.current) return;
      toast({
        title: "Error",
        description: errorMessage(err, "Failed to load messages"),
        variant: "destructive",
      });
    } finally {
      if (n === request.current) setLoading(false);
    }
  }

  async function markRead(m: ContactMessageView) {
    if (m.readAt || marking.current.has(m.id)) return;
    marking.current.add(m.id);
    try {
      await apiJson("PATCH", `/api/admin/contact-messages/${m.id}/read`);
      const readAt = new Date().toISOString();
      setMessages((list) => list.map((x) => (x.id === m.id ? { ...x, readAt } : x)));
    } catch (err) {
      toast({
        title: "Error",
        description: errorMessage(err, "Could not mark the message as read"),
        variant: "destructive",
      });
    } finally {
      marking.current.delete(m.id);
    }
  }

  function toggle(m: ContactMessageView) {
    const isOpen = open.includes(m.id);
    setOpen((ids) => (isOpen ? ids.filter((id) => id !== m.id) : [...ids, m.id]));
    if (!isOpen) markRead(m);
  }

  const unread = messages.filter((m) => !m.readAt).length;
  return (
    <div className="admin-messages" data-hydrated={isHydrated || undefined}>
      <div className="admin-messages__bar">
        <label className="admin-messages__filter">
          <input
            type="checkbox"
            checked={unreadOnly}
            onChange={(e) => {
              const next = e.currentTarget.checked;
              setUnreadOnly(next);
              setOpen([]);
              load(next, null);
            }}
          />{" "}
          Unread only
        </label>
        <p className="admin-messages__count" role="status" aria-live="polite">
          {isLoading
            ? "Loading…"
            : `${messages.length} shown${unread ? `, ${unread} unread` : ""}${
              nextCursor ? " (older ones below)" : ""
            }`}
        </p>
      </div>

      {messages.length === 0
        ? (
          <div className="empty-state">
            <h3>{unreadOnly ? "No unread messages" : "No messages yet"}</h3>
            <p className="muted">
              {unreadOnly
                ? "Every message has been read."
                : "Messages sent through the contact form at /support/contact appear here."}
            </p>
          </div>
        )
        : (
          <ul className="admin-messages__list">
            {messages.map((m) => (
              <MessageItem
                key={m.id}
                message={m}
                isOpen={open.includes(m.id)}
                onToggle={() => toggle(m)}
              />
            ))}
          </ul>
        )}

      {nextCursor
        ? (
          <p className="admin-messages__more">
            <button
              type="button"
              className="btn btn--secondary"
              disabled={isLoading}
              onClick={() => load(unreadOnly, nextCursor)}
            >
              {isLoading ? "Loading..." : "Load older"}
            </button>
          </p>
        )
        : null}
    </div>
  );
}

function MessageItem({ message: m, isOpen, onToggle }: {
  message: ContactMessageView;
  isOpen: boolean;
  onToggle(): void;
}) {
  const bodyId = `admin-message-${m.id}`;
  const isUnread = !m.readAt;
  return (
    <li
      className={isUnread ? "admin-message admin-message--unread" : "admin-message"}
      data-message-id={m.id}
    >
      <button
        type="button"
        className="admin-message__summary"
        aria-expanded={isOpen}
        aria-controls={bodyId}
        onClick={onToggle}
      >
        <span className="admin-message__head">
          <span className="admin-message__from">{m.name}</span>
          {isUnread ? <span className="badge badge--info">New</span> : null}
          <span className="admin-message__topic">{TOPIC_LABELS[m.topic] ?? m.topic}</span>
          <time className="admin-message__when" dateTime={m.createdAt}>
            {WHEN.format(new Date(m.createdAt))}
          </time>
        </span>
        {isOpen ? null : <span className="admin-message__snippet">{snippet(m.message)}</span>}
      </button>
      <div id={bodyId} className="admin-message__body" hidden={!isOpen}>
        <p className="admin-message__text">{m.message}</p>
        <dl className="admin-message__meta">
          <dt>Email</dt>
          <dd>{m.email}</dd>
          <dt>Phone</dt>
          <dd>{m.phone ? <a href={`tel:${m.phone}`}>{m.phone}</a> : "Not given"}</dd>
        </dl>
        <p>
          <a className="btn btn--primary btn--sm" href={replyHref(m)}>
            Reply to {m.name}
          </a>
        </p>
      </div>
    </li>
  );
}
