/**
 * Messages on the job (issue 22), the parts the browser shares with the server: the limits,
 * the words, the JSON shapes of `/api/surveys/{id}/messages`, and turning a message's text into
 * text and link pieces. Browser-safe (no Deno APIs): the MessageThread island imports it.
 */

/** Longest message, in characters after trimming. */
export const MESSAGE_MAX = 4000;

/** The name admins write under. */
export const SUPPORT_NAME = "Meridian support";

/** At most one email per reader and thread in this window while messages stay unread. */
export const MESSAGE_EMAIL_WINDOW_MINUTES = 15;

/** Messages a thread's first page holds; older ones load with `before`. */
export const MESSAGE_PAGE_SIZE = 100;

/**
 * Messages a page shows of the thread it opens: the newest ones, with "Show earlier messages"
 * above them for the rest (as Thumbtack and Bark open a conversation). A 50-message thread
 * rendered whole, and shipped again as the island's props, was 36 KB of a 57 KB page and
 * about a third of its render (bench/messages_page.ts).
 */
export const MESSAGE_PAGE_FIRST = 20;

/** Polling while the thread is open: first delay, the longest, and after failures. */
export const MESSAGE_POLL = { minMs: 4_000, maxMs: 30_000, errorMaxMs: 120_000 } as const;

/** Every sentence the messages API answers with. */
export const MESSAGE_TEXTS = {
  notFound: "Conversation not found",
  chooseFirm:
    "This survey has conversations with more than one firm: say which with surveyorId (the firm's id)",
  noThreads: "There is no conversation on this survey yet",
  sent: "Message sent",
} as const;

/** Who wrote a message, or takes part in a thread. */
export type MessageRole = "client" | "surveyor" | "technician" | "admin";

/** One message as the API returns it. */
export interface ThreadMessage {
  id: string;
  body: string;
  /** ISO timestamp. */
  createdAt: string;
  author: { role: MessageRole; name: string };
  /** Written by the caller. */
  isMine: boolean;
}

/** Someone who reads and writes in a thread. */
export interface ThreadParticipant {
  role: MessageRole;
  name: string;
}

/** A thread the caller may open: the firm it is with and what the caller has not read. */
export interface ThreadSummary {
  surveyorId: string;
  companyName: string;
  unreadCount: number;
}

/** `GET /api/surveys/{id}/messages` response. */
export interface ThreadResponse {
  surveyorId: string;
  messages: ThreadMessage[];
  participants: ThreadParticipant[];
  /** Every thread of the survey the caller may open, with its unread count. */
  threads: ThreadSummary[];
  /** Pass back as `after` to get only newer messages; null while the thread is empty. */
  cursor: string | null;
  /** Older messages exist: ask with `before` (the cursor of the oldest shown). */
  hasEarlier: boolean;
  /** The cursor of the oldest message returned, for `before`. */
  earliestCursor: string | null;
}

/** A piece of a message: plain text, or an http(s) link. */
export type MessagePart = { text: string } | { href: string; text: string };

// http(s) URLs only, with a host: no other scheme (javascript:, data:) can ever become a link.
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"/\\][^\s<>"]*/gi;
const HOST_START = /^https?:\/\/[^\s<>"/\\.,;:!?'")\]]/i;
// Sentence punctuation right after a link is not part of it.
const TRAILING = /[.,;:!?'")\]]+$/;

/**
 * `body` cut into text and link pieces, in order. Only http(s) URLs become links; everything
 * else (HTML included) stays text, which React escapes when it renders.
 */
export function messageParts(body: string): MessagePart[] {
  // Most messages have no link: one piece, no regular expression.
  if (!/https?:\/\//i.test(body)) return [{ text: body }];
  const parts: MessagePart[] = [];
  let last = 0;
  for (const match of body.matchAll(URL_PATTERN)) {
    const trailing = TRAILING.exec(match[0])?.[0] ?? "";
    const href = match[0].slice(0, match[0].length - trailing.length);
    const start = match.index!;
    if (!HOST_START.test(href)) continue;
    if (start > last) parts.push({ text: body.slice(last, start) });
    parts.push({ href, text: href });
    last = start + href.length;
  }
  if (last < body.length) parts.push({ text: body.slice(last) });
  return parts;
}
