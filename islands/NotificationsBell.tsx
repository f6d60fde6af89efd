import { useCallback, useEffect, useId, useRef, useState } from "react";
import type { MouseEvent as ReactMouseEvent } from "react";
import { apiJson, errorMessage, getQuery } from "./_api.ts";
import { toast, toastAfterNavigation } from "./_toast.ts";
import { navigate } from "./_nav.ts";
import { useDismiss } from "./_disclosure.ts";
import { formatLocalDateTime } from "./LocalTime.tsx";
import type { Notification, NotificationListResponse } from "../lib/survey_schema.ts";

/** Props of the header's notifications dropdown. */
export interface NotificationsBellProps {
  /** Unread count known when the page rendered, shown until the first load answers. */
  initialUnread?: number;
}

/** Spec section 8: the notification error texts. */
export const NOTIFICATION_ERRORS = {
  fetch: "Failed to fetch notifications",
  markRead: "Failed to mark notification as read",
  markAllRead: "Failed to mark all notifications as read",
} as const;

function failure(title: string, err: unknown) {
  const description = errorMessage(err, "");
  toast({ title, description: description || undefined, variant: "destructive" });
}

const relativeTime = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });
// Built once: `toLocaleDateString` builds a formatter at every call.
const OLDER = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" });

/**
 * "just now", "5 minutes ago", "yesterday", then a date in the viewer's time zone (the list
 * only ever renders in the browser, after it loads).
 */
export function formatWhen(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return "just now";
  if (abs < 3600) return relativeTime.format(Math.round(seconds / 60), "minute");
  if (abs < 86_400) return relativeTime.format(Math.round(seconds / 3600), "hour");
  if (abs < 7 * 86_400) return relativeTime.format(Math.round(seconds / 86_400), "day");
  return OLDER.format(new Date(iso));
}

function badgeText(count: number): string {
  return count > 99 ? "99+" : String(count);
}

// A click the browser should handle itself (new tab, new window, download).
function isModifiedClick(event: ReactMouseEvent): boolean {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
}

/**
 * The header's notifications dropdown: a bell with the unread count, a panel listing the
 * newest notifications (title, text, time, link to the related page), marking one read when it
 * is opened and all of them with 'Mark all as read'. Loads once after hydration and again each
 * time the panel opens; it never polls (spec section 9).
 */
export default function NotificationsBell({ initialUnread = 0 }: NotificationsBellProps) {
  const [isOpen, setOpen] = useState(false);
  const [items, setItems] = useState<Notification[]>([]);
  const [unread, setUnread] = useState(initialUnread);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [isLoading, setLoading] = useState(false);
  const [hasLoaded, setLoaded] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const headingId = useId();

  // A list read that was on its way while a read was recorded (or that a newer read overtook)
  // answers what the server had before: shown, it would put back the unread marks and count the
  // user just cleared. Such an answer is dropped, and read again when a write came in between.
  const latestLoad = useRef(0);
  const writes = useRef(0);
  const load = useCallback(async (nextPage = 1): Promise<void> => {
    const seq = ++latestLoad.current;
    const writesAtStart = writes.current;
    setLoading(true);
    try {
      const data = await getQuery<NotificationListResponse>(
        `/api/notifications?page=${nextPage}`,
      );
      if (seq !== latestLoad.current) return;
      if (writesAtStart !== writes.current) {
        void load(nextPage);
        return;
      }
      // Signed out (401) or an unreadable body: nothing to show.
      const list = data?.notifications ?? [];
      setItems((current) => (nextPage === 1 ? list : [...current, ...list]));
      setUnread(data?.unreadCount ?? 0);
      setHasMore(data?.hasMore ?? false);
      setPage(nextPage);
      setLoaded(true);
    } catch (err) {
      if (seq === latestLoad.current) failure(NOTIFICATION_ERRORS.fetch, err);
    } finally {
      if (seq === latestLoad.current) setLoading(false);
    }
  }, []);

  // Marks the bell as working (tests wait for it; until then the button is inert).
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => {
    setHydrated(true);
    load();
  }, [load]);

  const close = useCallback((isEscape: boolean) => {
    setOpen(false);
    if (isEscape) buttonRef.current?.focus();
  }, []);
  useDismiss(isOpen, rootRef, close);

  function toggle() {
    const next = !isOpen;
    setOpen(next);
    if (next) load();
  }

  async function markRead(item: Notification): Promise<boolean> {
    if (item.isRead) return true;
    try {
      const data = await apiJson<{ unreadCount?: number }>(
        "PATCH",
        `/api/notifications/${item.id}/read`,
      );
      writes.current++;
      setItems((current) => current.map((n) => (n.id === item.id ? { ...n, isRead: true } : n)));
      setUnread((count) =>
        typeof data?.unreadCount === "number" ? data.unreadCount : Math.max(0, count - 1)
      );
      return true;
    } catch (err) {
      failure(NOTIFICATION_ERRORS.markRead, err);
      return false;
    }
  }

  async function openItem(event: ReactMouseEvent, item: Notification) {
    if (!item.link) {
      await markRead(item);
      return;
    }
    if (isModifiedClick(event)) {
      // The browser opens the link elsewhere; this page stays, so just record the read.
      markRead(item);
      return;
    }
    event.preventDefault();
    if (item.isRead) {
      navigate(item.link);
      return;
    }
    try {
      await apiJson("PATCH", `/api/notifications/${item.id}/read`);
    } catch (err) {
      // Still go where the user asked; the next page says the read was not recorded.
      const description = errorMessage(err, "");
      toastAfterNavigation({
        title: NOTIFICATION_ERRORS.markRead,
        description: description || undefined,
        variant: "destructive",
      });
    }
    navigate(item.link);
  }

  async function markAllRead() {
    try {
      await apiJson("PATCH", "/api/notifications/mark-all-read");
      writes.current++;
      setItems((current) => current.map((n) => ({ ...n, isRead: true })));
      setUnread(0);
    } catch (err) {
      failure(NOTIFICATION_ERRORS.markAllRead, err);
    }
  }

  const label = unread > 0 ? `Notifications, ${unread} unread` : "Notifications";

  return (
    <div className="notifications" ref={rootRef} data-hydrated={isHydrated || undefined}>
      <button
        ref={buttonRef}
        type="button"
        className="btn btn--ghost btn--sm notifications__button"
        aria-label={label}
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={toggle}
      >
        <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
          <path
            d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.73 21a2 2 0 0 1-3.46 0"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        {unread > 0 ? <span className="notifications__count">{badgeText(unread)}</span> : null}
      </button>
      <div
        id={panelId}
        className="notifications__panel"
        role="region"
        aria-labelledby={headingId}
        hidden={!isOpen}
      >
        <div className="notifications__header">
          <h2 id={headingId} className="notifications__title">Notifications</h2>
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            onClick={markAllRead}
            disabled={unread === 0}
          >
            Mark all as read
          </button>
        </div>
        {items.length === 0
          ? (
            <p className="notifications__empty">
              {isLoading && !hasLoaded ? "Loading…" : "You have no notifications yet."}
            </p>
          )
          : (
            <ul className="notifications__list">
              {items.map((item) => {
                const content = (
                  <>
                    <span className="notifications__item-title">{item.title}</span>
                    <span className="notifications__item-body">{item.body}</span>
                    <time
                      className="notifications__item-time"
                      dateTime={item.createdAt}
                      title={formatLocalDateTime(item.createdAt)}
                    >
                      {formatWhen(item.createdAt)}
                    </time>
                  </>
                );
                const className = `notifications__item${
                  item.isRead ? "" : " notifications__item--unread"
                }`;
                return (
                  <li key={item.id}>
                    {item.link
                      ? (
                        <a
                          className={className}
                          href={item.link}
                          onClick={(event) => openItem(event, item)}
                        >
                          {item.isRead ? null : <span className="visually-hidden">Unread:</span>}
                          {content}
                        </a>
                      )
                      : (
                        <button
                          type="button"
                          className={className}
                          onClick={(event) => openItem(event, item)}
                        >
                          {item.isRead ? null : <span className="visually-hidden">Unread:</span>}
                          {content}
                        </button>
                      )}
                  </li>
                );
              })}
            </ul>
          )}
        {hasMore
          ? (
            <button
              type="button"
              className="btn btn--ghost btn--sm btn--block"
              onClick={() => load(page + 1)}
              disabled={isLoading}
            >
              {isLoading ? "Loading…" : "Show older"}
            </button>
          )
          : null}
      </div>
    </div>
  );
}
