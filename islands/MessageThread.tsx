import {
  type FormEvent,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { ApiError, apiJson, errorMessage, getQuery } from "./_api.ts";
import { toast } from "./_toast.ts";
import { formatLocalDateTime } from "./LocalTime.tsx";
import {
  MESSAGE_MAX,
  MESSAGE_POLL,
  messageParts,
  type MessageRole,
  type ThreadMessage,
  type ThreadResponse,
  type ThreadSummary,
} from "../lib/message_text.ts";
import { NO_SCRIPT_FORM } from "./_fields.tsx";

/** Props of a survey's conversations: the thread shown first, as the server loaded it. */
export interface MessageThreadProps {
  surveyId: string;
  viewerRole: MessageRole;
  initial: ThreadResponse;
}

/** What the island holds of one thread. */
interface ThreadState {
  messages: ThreadMessage[];
  participants: ThreadResponse["participants"];
  cursor: string | null;
  hasEarlier: boolean;
  earliestCursor: string | null;
  /** The caller is no longer in it (a refunded purchase): shown, not polled. */
  isGone?: boolean;
}

const LINK_REL = "noopener noreferrer nofollow ugc";
/** Past this many characters the composer shows how many are left. */
const COUNT_FROM = MESSAGE_MAX - 500;

function toState(r: ThreadResponse): ThreadState {
  return {
    messages: r.messages,
    participants: r.participants,
    cursor: r.cursor,
    hasEarlier: r.hasEarlier,
    earliestCursor: r.earliestCursor,
  };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * "Nov 28, 2026, 6:05 AM UTC": what the server renders (the viewer's zone is known only in the
 * browser, which then shows local time). Built by hand: Intl with a time zone name costs more
 * than the rest of a message's markup, and a thread renders dozens.
 */
export function formatUtcMessageTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  const h = d.getUTCHours();
  const minutes = String(d.getUTCMinutes()).padStart(2, "0");
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}, ${
    h % 12 || 12
  }:${minutes} ${h < 12 ? "AM" : "PM"} UTC`;
}

/** `before` followed by the messages of `after` it does not have yet. */
function mergeMessages(before: ThreadMessage[], after: ThreadMessage[]): ThreadMessage[] {
  if (after.length === 0) return before;
  const seen = new Set(before.map((m) => m.id));
  const fresh = after.filter((m) => !seen.has(m.id));
  return fresh.length ? [...before, ...fresh] : before;
}

function threadUrl(surveyId: string, surveyorId: string, query: Record<string, string> = {}) {
  const params = new URLSearchParams({ surveyorId, ...query });
  return `/api/surveys/${encodeURIComponent(surveyId)}/messages?${params}`;
}

/** A message's text with its http(s) links as links; everything else stays text. */
export function MessageBody({ body }: { body: string }) {
  return (
    <p className="msg__body">
      {messageParts(body).map((part, i) =>
        "href" in part ? <a key={i} href={part.href} rel={LINK_REL}>{part.text}</a> : part.text
      )}
    </p>
  );
}

function emptyText(role: MessageRole, firm: string, client: string): string {
  switch (role) {
    case "client":
      return `No messages yet. Ask ${firm} about access to the property, timing or the documents they need.`;
    case "admin":
      return `No messages between ${client} and ${firm} yet.`;
    default:
      return `No messages yet. Introduce yourself to ${client}, confirm the details and agree the next step.`;
  }
}

/**
 * A survey's conversations (issue 22): one tab per firm when the viewer has several (the
 * client, admins), the messages of the open one with their links, and a composer. While the
 * page is open and visible it asks for newer messages, every 4 seconds after activity and
 * backing off to 30 s when quiet (2 minutes after failures); a hidden tab does not ask, and
 * asks at once when shown again. Opening a thread marks it read.
 */
export default function MessageThread({ surveyId, viewerRole, initial }: MessageThreadProps) {
  const [active, setActive] = useState(initial.surveyorId);
  const [threads, setThreads] = useState<ThreadSummary[]>(initial.threads);
  const [byThread, setByThread] = useState<Record<string, ThreadState>>({
    [initial.surveyorId]: toState(initial),
  });
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [isSending, setSending] = useState(false);
  const [isLocal, setLocal] = useState(false);
  const [isLoadingEarlier, setLoadingEarlier] = useState(false);
  const stateRef = useRef(byThread);
  stateRef.current = byThread;
  const kickRef = useRef<() => void>(() => {});
  const logRef = useRef<HTMLDivElement>(null);
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});
  const baseId = useId();
  const current = byThread[active];
  const activeThread = threads.find((t) => t.surveyorId === active);
  const firmName = activeThread?.companyName ?? "the surveyor";
  const clientName = current?.participants.find((p) => p.role === "client")?.name ??
    "the client";
  const draft = drafts[active] ?? "";

  useEffect(() => setLocal(true), []);

  const apply = useCallback(
    (surveyorId: string, res: ThreadResponse, mode: "replace" | "append") => {
      setThreads(res.threads);
      setByThread((prev) => {
        const before = prev[surveyorId];
        if (mode === "replace" || !before) return { ...prev, [surveyorId]: toState(res) };
        return {
          ...prev,
          [surveyorId]: {
            ...before,
            messages: mergeMessages(before.messages, res.messages),
            participants: res.participants,
            cursor: res.cursor ?? before.cursor,
          },
        };
      });
    },
    [],
  );

  // Polling the open thread, with backoff; a new thread loads whole at once.
  useEffect(() => {
    let delay: number = MESSAGE_POLL.minMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let isStopped = false;
    let isBusy = false;
    const schedule = () => {
      clearTimeout(timer);
      if (!isStopped && !document.hidden) timer = setTimeout(tick, delay);
    };
    async function tick() {
      if (isStopped || isBusy || document.hidden) return;
      const known = stateRef.current[active];
      if (known?.isGone) return;
      isBusy = true;
      try {
        const query: Record<string, string> = known?.cursor ? { after: known.cursor } : {};
        const res = await getQuery<ThreadResponse>(threadUrl(surveyId, active, query));
        if (res && !isStopped) {
          apply(active, res, known ? "append" : "replace");
          delay = res.messages.length
            ? MESSAGE_POLL.minMs
            : Math.min(Math.round(delay * 1.5), MESSAGE_POLL.maxMs);
        }
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) {
          setByThread((prev) => ({ ...prev, [active]: { ...prev[active], isGone: true } }));
          isStopped = true;
        }
        delay = Math.min(delay * 2, MESSAGE_POLL.errorMaxMs);
      } finally {
        isBusy = false;
      }
      schedule();
    }
    const onVisibility = () => {
      if (document.hidden) return clearTimeout(timer);
      delay = MESSAGE_POLL.minMs;
      tick();
    };
    kickRef.current = () => {
      delay = MESSAGE_POLL.minMs;
      schedule();
    };
    document.addEventListener("visibilitychange", onVisibility);
    tick();
    return () => {
      isStopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [surveyId, active, apply]);

  // Keep the newest message in view when it arrives, unless the reader scrolled up; a thread
  // just opened starts at its newest message.
  const count = current?.messages.length ?? 0;
  const seen = useRef({ count, active: "" });
  useEffect(() => {
    const log = logRef.current;
    if (!log) return;
    const isNearEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 120;
    const isOpened = seen.current.active !== active;
    if (isOpened || count > seen.current.count && isNearEnd) log.scrollTop = log.scrollHeight;
    seen.current = { count, active };
  }, [count, active]);

  async function send(event?: FormEvent) {
    event?.preventDefault();
    const body = draft.trim();
    if (!body || isSending) return;
    setSending(true);
    try {
      const res = await apiJson<{ sent: ThreadMessage; cursor: string }>(
        "POST",
        `/api/surveys/${encodeURIComponent(surveyId)}/messages`,
        { surveyorId: active, body },
      );
      if (res) {
        setByThread((prev) => {
          const before = prev[active];
          return {
            ...prev,
            [active]: { ...before, messages: mergeMessages(before.messages, [res.sent]) },
          };
        });
      }
      setDrafts((prev) => ({ ...prev, [active]: "" }));
      kickRef.current();
    } catch (err) {
      toast({
        title: "Message not sent",
        description: errorMessage(err, "Please try again."),
        variant: "destructive",
      });
    } finally {
      setSending(false);
    }
  }

  async function loadEarlier() {
    if (!current?.earliestCursor) return;
    setLoadingEarlier(true);
    try {
      const res = await getQuery<ThreadResponse>(
        threadUrl(surveyId, active, { before: current.earliestCursor }),
      );
      if (res) {
        setByThread((prev) => {
          const before = prev[active];
          const seen = new Set(before.messages.map((m) => m.id));
          return {
            ...prev,
            [active]: {
              ...before,
              messages: [...res.messages.filter((m) => !seen.has(m.id)), ...before.messages],
              hasEarlier: res.hasEarlier,
              earliestCursor: res.earliestCursor ?? before.earliestCursor,
            },
          };
        });
      }
    } catch (err) {
      toast({
        title: "Could not load earlier messages",
        description: errorMessage(err, "Please try again."),
        variant: "destructive",
      });
    } finally {
      setLoadingEarlier(false);
    }
  }

  function onComposerKey(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      send();
    }
  }

  function onTabKey(event: KeyboardEvent<HTMLButtonElement>) {
    const ids = threads.map((t) => t.surveyorId);
    const at = ids.indexOf(active);
    const next = {
      ArrowRight: (at + 1) % ids.length,
      ArrowLeft: (at - 1 + ids.length) % ids.length,
      Home: 0,
      End: ids.length - 1,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    setActive(ids[next]);
    tabRefs.current[ids[next]]?.focus();
  }

  const panelId = `${baseId}panel`;
  const tabId = (surveyorId: string) => `${baseId}tab-${surveyorId}`;
  const composerId = `${baseId}composer`;
  const hintId = `${baseId}hint`;
  const hasTabs = threads.length > 1;
  const to = viewerRole === "client"
    ? firmName
    : viewerRole === "admin"
    ? `${clientName} and ${firmName}`
    : clientName;

  return (
    <div className="msg-thread" data-hydrated={isLocal || undefined}>
      {hasTabs
        ? (
          <div className="msg-tabs" role="tablist" aria-label="Conversations by firm">
            {threads.map((t) => {
              const isActive = t.surveyorId === active;
              return (
                <button
                  key={t.surveyorId}
                  ref={(el) => {
                    tabRefs.current[t.surveyorId] = el;
                  }}
                  type="button"
                  role="tab"
                  id={tabId(t.surveyorId)}
                  className="msg-tab"
                  aria-selected={isActive}
                  aria-controls={panelId}
                  tabIndex={isActive ? 0 : -1}
                  onClick={() => setActive(t.surveyorId)}
                  onKeyDown={onTabKey}
                >
                  {t.companyName}
                  {t.unreadCount > 0 && !isActive
                    ? (
                      <span className="msg-tab__badge">
                        {t.unreadCount}
                        <span className="visually-hidden">
                          {t.unreadCount === 1 ? " unread message" : " unread messages"}
                        </span>
                      </span>
                    )
                    : null}
                </button>
              );
            })}
          </div>
        )
        : null}
      <div
        className="msg-panel"
        id={panelId}
        role={hasTabs ? "tabpanel" : undefined}
        aria-labelledby={hasTabs ? tabId(active) : undefined}
      >
        {current
          ? (
            <>
              <p className="muted msg-participants">
                {`In this conversation: ${current.participants.map((p) => p.name).join(", ")}`}
              </p>
              {current.hasEarlier
                ? (
                  <button
                    type="button"
                    className="btn btn--secondary btn--sm msg-earlier"
                    onClick={loadEarlier}
                    disabled={isLoadingEarlier}
                  >
                    {isLoadingEarlier ? "Loading…" : "Show earlier messages"}
                  </button>
                )
                : null}
              <div
                ref={logRef}
                className="msg-log"
                role="log"
                aria-label={`Messages with ${viewerRole === "client" ? firmName : to}`}
                tabIndex={0}
              >
                {current.messages.length === 0
                  ? <p className="muted msg-empty">{emptyText(viewerRole, firmName, clientName)}</p>
                  : (
                    <ol className="msg-list">
                      {current.messages.map((m) => (
                        <li
                          key={m.id}
                          className={`msg${m.isMine ? " msg--mine" : ""}${
                            m.author.role === "admin" ? " msg--support" : ""
                          }`}
                        >
                          <p className="msg__meta">
                            <span className="msg__author">{m.isMine ? "You" : m.author.name}</span>
                            {" · "}
                            <time dateTime={m.createdAt}>
                              {isLocal
                                ? formatLocalDateTime(m.createdAt)
                                : formatUtcMessageTime(m.createdAt)}
                            </time>
                          </p>
                          <MessageBody body={m.body} />
                        </li>
                      ))}
                    </ol>
                  )}
              </div>
              {current.isGone
                ? (
                  <p className="alert alert--warning" role="status">
                    This conversation is no longer available to you.
                  </p>
                )
                : (
                  <form {...NO_SCRIPT_FORM} className="msg-composer" onSubmit={send}>
                    <label htmlFor={composerId}>
                      {viewerRole === "admin"
                        ? `Reply as Meridian support to ${to}`
                        : `Message to ${to}`}
                    </label>
                    <textarea
                      id={composerId}
                      name="body"
                      rows={3}
                      maxLength={MESSAGE_MAX}
                      value={draft}
                      aria-describedby={hintId}
                      onChange={(e) => setDrafts((prev) => ({ ...prev, [active]: e.target.value }))}
                      onKeyDown={onComposerKey}
                    />
                    <div className="msg-composer__row">
                      <p id={hintId} className="muted msg-composer__hint">
                        {draft.length > COUNT_FROM
                          ? `${MESSAGE_MAX - draft.length} characters left.`
                          : "Links are shown as links. Ctrl+Enter sends."}
                      </p>
                      <button
                        type="submit"
                        className="btn btn--primary"
                        disabled={isSending || draft.trim() === ""}
                      >
                        {isSending ? "Sending…" : "Send"}
                      </button>
                    </div>
                  </form>
                )}
            </>
          )
          : <p className="muted" role="status">Loading messages…</p>}
      </div>
    </div>
  );
}
