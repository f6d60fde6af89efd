/**
 * Messages on the job (issue 22), what happens when someone writes: the message is stored,
 * the thread's other readers get one bell notification per thread (kept up to date with the
 * unread count) and an email (at most one per thread every 15 minutes), all in the caller's
 * transaction, so nobody is told about a message that was not stored.
 */
import type { Db } from "../db/client.ts";
import {
  countUnreadInThread,
  getLatestSeq,
  getMessageAccess,
  insertMessage,
  listRecipientAccounts,
  listThreadMessages,
  markThreadRead,
  type MessageAccess,
  type MessagePage,
  type MessageRecipient,
  type MessageThread,
  takeMessageEmailSlot,
  upsertMessageNotification,
} from "../db/messages.ts";
import { clientSurveyPath, queueMessageReceivedEmail } from "./mail/emails.ts";
import { surveyorJobPath } from "./assignments.ts";
import { purchasedLeadPath } from "./refunds.ts";
import { SURVEY_TYPE_INFO } from "./survey_types.ts";
import {
  MESSAGE_PAGE_FIRST,
  type MessageRole,
  SUPPORT_NAME,
  type ThreadMessage,
  type ThreadParticipant,
  type ThreadResponse,
} from "./message_text.ts";
import type { SessionUser } from "./roles.ts";

/** Where the thread opens for a reader of role `role`: the page that shows it. */
export function threadPath(
  access: Pick<MessageAccess, "survey">,
  thread: Pick<MessageThread, "surveyorId" | "isWorking">,
  role: MessageRole,
): string {
  const { survey } = access;
  switch (role) {
    case "client":
    case "admin":
      return `/survey/${encodeURIComponent(survey.id)}?thread=${
        encodeURIComponent(thread.surveyorId)
      }#messages`;
    case "surveyor":
      return thread.isWorking || !survey.leadId
        ? `${surveyorJobPath(survey.id)}#messages`
        : `${purchasedLeadPath(survey.leadId)}#messages`;
    case "technician":
      return `/technician-survey-detail/${encodeURIComponent(survey.id)}#messages`;
  }
}

/** The thread's readers and writers, as the thread's page lists them. */
export function threadParticipants(
  access: Pick<MessageAccess, "survey">,
  thread: Pick<MessageThread, "surveyorId" | "companyName" | "isWorking">,
): ThreadParticipant[] {
  const { survey } = access;
  const people: ThreadParticipant[] = [
    { role: "client", name: survey.clientName },
    { role: "surveyor", name: thread.companyName },
  ];
  if (hasTechnician(access, thread) && survey.technicianName) {
    people.push({ role: "technician", name: survey.technicianName });
  }
  people.push({ role: "admin", name: SUPPORT_NAME });
  return people;
}

function hasTechnician(
  { survey }: Pick<MessageAccess, "survey">,
  thread: Pick<MessageThread, "surveyorId" | "isWorking">,
): boolean {
  return Boolean(
    survey.assignedTechnicianId && thread.isWorking &&
      survey.technicianFirmId === thread.surveyorId &&
      survey.workingSurveyorId === thread.surveyorId,
  );
}

/** The name a message of `user` (writing as `as`) goes under. */
function authorName(
  access: MessageAccess,
  thread: MessageThread,
  user: Pick<SessionUser, "fullName">,
): string {
  switch (access.as) {
    case "admin":
      return SUPPORT_NAME;
    case "client":
      return user.fullName;
    case "surveyor":
      return thread.companyName;
    case "technician":
      return `${user.fullName} (${thread.companyName})`.slice(0, 200);
  }
}

/** The thread's readers besides `authorId` (admins are not told; they read every thread). */
function recipientsOf(
  access: MessageAccess,
  thread: MessageThread,
  authorId: string,
): { userId: string; role: MessageRecipient["role"] }[] {
  const all: { userId: string; role: MessageRecipient["role"] }[] = [
    { userId: access.survey.clientId, role: "client" },
  ];
  if (thread.firmUserId) all.push({ userId: thread.firmUserId, role: "surveyor" });
  if (hasTechnician(access, thread)) {
    all.push({ userId: access.survey.assignedTechnicianId!, role: "technician" });
  }
  return all.filter((r) => r.userId !== authorId);
}

/** What `postMessage` needs. */
export interface PostMessageInput {
  access: MessageAccess;
  thread: MessageThread;
  user: Pick<SessionUser, "id" | "fullName">;
  body: string;
  /** The site's public origin (config PUBLIC_URL), for the email's link. */
  publicUrl: string;
}

/** What `postMessage` did. */
export interface PostedMessage {
  message: ThreadMessage;
  cursor: string;
  /** Outbox ids of the emails it queued. */
  emailIds: string[];
}

function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Stores the message of `user` in `thread` and tells the other readers: their bell
 * notification about the thread says how many messages wait and quotes the newest; an email
 * goes to each unless they were emailed about this thread in the last 15 minutes. Run it in a
 * transaction holding the survey lock (`getMessageAccess` with `lock`).
 */
export async function postMessage(tx: Db, input: PostMessageInput): Promise<PostedMessage> {
  const { access, thread, user, body, publicUrl } = input;
  const { survey } = access;
  const sender = authorName(access, thread, user);
  const { message, seq } = await insertMessage(tx, {
    surveyId: survey.id,
    surveyorId: thread.surveyorId,
    authorId: user.id,
    authorRole: access.as,
    authorName: sender,
    body,
  });
  const wanted = recipientsOf(access, thread, user.id);
  const accounts = await listRecipientAccounts(tx, { userIds: wanted.map((r) => r.userId) });
  const typeName = SURVEY_TYPE_INFO[survey.surveyType].name;
  const emailIds: string[] = [];
  for (const account of accounts) {
    const role = wanted.find((r) => r.userId === account.userId)!.role;
    const ids = { surveyId: survey.id, surveyorId: thread.surveyorId, userId: account.userId };
    const unread = await countUnreadInThread(tx, ids);
    const link = threadPath(access, thread, role);
    await upsertMessageNotification(tx, {
      ...ids,
      title: unread > 1 ? `${unread} new messages from ${sender}` : `New message from ${sender}`,
      body: `${typeName} at ${survey.address}: “${excerpt(body, 200)}”`,
      link,
    });
    if (await takeMessageEmailSlot(tx, ids)) {
      const threadUrl = new URL(
        role === "client" ? `${clientSurveyPath(survey.id)}#messages` : link,
        publicUrl,
      ).href;
      emailIds.push(
        await queueMessageReceivedEmail(tx, {
          to: account.email,
          name: account.fullName,
          senderName: sender,
          surveyTypeName: typeName,
          address: survey.address,
          messageText: body,
          threadUrl,
        }),
      );
    }
  }
  return { message, cursor: seq, emailIds };
}

/**
 * One thread as `GET /api/surveys/{id}/messages` answers it; opening it marks it read for the
 * caller (and their bell notification about it). The pages render the same answer (without
 * marking it read), which the MessageThread island then keeps up to date.
 */
export async function loadThread(
  db: Db,
  { access, thread, user, after, before, limit, markRead = true, firstPage }: {
    access: MessageAccess;
    thread: MessageThread;
    user: Pick<SessionUser, "id">;
    after?: string;
    before?: string;
    /** Messages per page (default `MESSAGE_PAGE_SIZE`). */
    limit?: number;
    markRead?: boolean;
    /** The newest page of the thread, when the caller has read it already. */
    firstPage?: MessagePage;
  },
): Promise<ThreadResponse> {
  const page = firstPage && after === undefined && before === undefined
    ? firstPage
    : await listThreadMessages(db, {
      surveyId: access.survey.id,
      surveyorId: thread.surveyorId,
      viewerId: user.id,
      after,
      before,
      limit,
    });
  let threads = access.threads;
  if (markRead && thread.unreadCount > 0) {
    const seq = await getLatestSeq(db, {
      surveyId: access.survey.id,
      surveyorId: thread.surveyorId,
    });
    if (seq) {
      await markThreadRead(db, {
        surveyId: access.survey.id,
        surveyorId: thread.surveyorId,
        userId: user.id,
        seq,
      });
    }
    threads = threads.map((t) => t === thread ? { ...t, unreadCount: 0 } : t);
  }
  return {
    surveyorId: thread.surveyorId,
    messages: page.messages,
    participants: threadParticipants(access, thread),
    threads: threads.map(({ surveyorId, companyName, unreadCount }) => ({
      surveyorId,
      companyName,
      unreadCount,
    })),
    cursor: page.cursor,
    hasEarlier: page.hasEarlier,
    earliestCursor: page.earliestCursor,
  };
}

/** What a page needs to show a survey's conversations (components/MessagesCard.tsx). */
export interface MessagesCardData {
  surveyId: string;
  viewerRole: MessageRole;
  /** The thread shown first, or null while the survey has none. */
  initial: ThreadResponse | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The firm id a page's `?thread=` names (lower case), or null for anything but a uuid. */
export function preferredThreadId(preferred: string | null | undefined): string | null {
  return preferred && UUID.test(preferred) ? preferred.toLowerCase() : null;
}

/**
 * The conversations `user` has on survey `surveyId`, for a page: undefined when they are in
 * none (a refunded buyer, another firm), else the thread to show first: `preferred` (a firm's
 * id from the page's `?thread=`, ignored unless it is one of theirs), else the first with
 * unread messages, else the first, with its newest `MESSAGE_PAGE_FIRST` messages (the island
 * loads earlier ones on request). Reading the page does not mark anything read; the island
 * does once it runs in the browser. A page that read the access with its survey (db/messages.ts
 * `messageAccessReads`, `firstPage` for the same `preferredThreadId(preferred)` and
 * `MESSAGE_PAGE_FIRST`) passes it as `read`, and it is not read again.
 */
export async function loadMessagesCard(
  db: Db,
  { surveyId, user, preferred, read }: {
    surveyId: string;
    user: Pick<SessionUser, "id" | "role">;
    preferred?: string | null;
    read?: { access: MessageAccess | undefined };
  },
): Promise<MessagesCardData | undefined> {
  const preferredId = preferredThreadId(preferred);
  const access = read ? read.access : await getMessageAccess(db, {
    surveyId,
    user,
    firstPage: { preferred: preferredId, limit: MESSAGE_PAGE_FIRST },
  });
  if (!access) return undefined;
  const { threads } = access;
  const wanted = preferredId ? threads.find((t) => t.surveyorId === preferredId) : undefined;
  const thread = wanted ?? threads.find((t) => t.unreadCount > 0) ?? threads[0];
  // A closed request nobody talked about has nothing to show, not even the hint.
  if (!thread && ["cancelled", "completed"].includes(access.survey.status)) return undefined;
  return {
    surveyId: access.survey.id,
    viewerRole: access.as,
    initial: thread
      ? await loadThread(db, {
        access,
        thread,
        user,
        limit: MESSAGE_PAGE_FIRST,
        markRead: false,
        // Read with the access when the statement chose the same thread (it always should).
        firstPage: access.firstPage?.surveyorId === thread.surveyorId
          ? access.firstPage.page
          : undefined,
      })
      : null,
  };
}
