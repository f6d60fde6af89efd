/**
 * Messages on the job (issue 22): who is in which thread, the messages, read marks and the
 * email throttle. A thread is a survey and a firm (surveyors.id):
 *
 * - the firm is in it while it has a purchase of the survey's lead that is not refunded, or
 *   works the job (an accepted, scheduled or completed assignment);
 * - the client who owns the survey is in every thread of it;
 * - the survey's technician is in the working firm's thread when they belong to that firm;
 * - admins read every thread (also one whose firm has since left) and write as support.
 *
 * Anyone else gets undefined, which routes answer with a 404.
 */
import type { Db } from "./client.ts";
import { isSurveyId } from "./surveys.ts";
import { callerSurveyorIdColumn, workingSurveyorId } from "./survey_access.ts";
import { roleLiteral } from "./sql_literals.ts";
import type { SessionUser } from "../lib/roles.ts";
import type { SurveyType } from "../lib/survey_types.ts";
import type { SurveyStatus } from "../lib/survey_status.ts";
import {
  MESSAGE_EMAIL_WINDOW_MINUTES,
  MESSAGE_PAGE_SIZE,
  type MessageRole,
  type ThreadMessage,
  type ThreadSummary,
} from "../lib/message_text.ts";

/** The survey as the messages need it. */
export interface MessageSurvey {
  id: string;
  status: SurveyStatus;
  clientId: string;
  clientName: string;
  surveyType: SurveyType;
  address: string;
  /** The survey's lead, when it has one (the buyers' page of it is keyed by it). */
  leadId: string | null;
  workingSurveyorId: string | null;
  assignedTechnicianId: string | null;
  technicianName: string | null;
  /** The firm of the survey's technician; null for Meridian staff or no technician. */
  technicianFirmId: string | null;
}

/** A thread of the survey, with who the firm is. */
export interface MessageThread extends ThreadSummary {
  /** The firm's own account, or null when the record has none. */
  firmUserId: string | null;
  /** The firm works the job (not only a buyer). */
  isWorking: boolean;
}

/** What a caller may do on a survey's messages. */
export interface MessageAccess {
  survey: MessageSurvey;
  as: MessageRole;
  /** The threads the caller may open, the working firm's first. */
  threads: MessageThread[];
  /**
   * With `firstPage`: the newest messages of the thread a page opens first (the preferred
   * one, else the first with unread messages, else the first), read in the same statement.
   */
  firstPage?: { surveyorId: string; page: MessagePage };
}

/** What the survey page's statement asks `messageAccessReads` for: see `getMessageAccess`. */
export interface MessageAccessOptions {
  user: Pick<SessionUser, "id" | "role">;
  /** Read the threads after the statement (under a row lock) instead of in it. */
  lock?: boolean;
  /**
   * Also read the newest `limit` messages of the thread a page opens first, `preferred`
   * (a lower-case firm id) when it is one of the caller's threads (not with `lock`).
   */
  firstPage?: { preferred: string | null; limit: number };
}

/** The columns `messageAccessReads` adds, as postgres.js reads them. */
export interface MessageAccessColumns {
  leadId: string | null;
  workingSurveyorId: string | null;
  assignedTechnicianId: string | null;
  technicianName: string | null;
  technicianFirmId: string | null;
  callerSurveyorId: string | null;
  threads?: ThreadJson[] | null;
  firstSurveyorId?: string | null;
  firstMessages?: MessageJson[] | null;
}

/**
 * What `getMessageAccess` reads beyond the survey's own columns, as parts of a statement over
 * the survey row aliased `s`: `columns` (each with a leading comma) and `join` (after the from
 * list). A page that reads the survey anyway reads these with it (db/surveys.ts
 * getSurveyPageData) and passes the row to `messageAccessOf`.
 */
export function messageAccessReads(
  db: Db,
  { user, lock = false, firstPage }: MessageAccessOptions,
) {
  const isAdmin = user.role === "admin";
  // The page's first thread and its newest messages in the same statement: one round trip
  // fewer on every page with messages (bench/messages_page.ts). The thread is chosen as
  // lib/messages.ts loadMessagesCard chooses it, among the threads the caller may open;
  // the caller uses the messages only when its own choice is the same thread. The threads are
  // listed once, in a lateral join that gives both their JSON and the first one: listed twice
  // (a column for the JSON, a lateral join for the first), Postgres set up and ran the same
  // dozen plan nodes twice, and setting a plan up is most of what this one-row statement costs
  // it (perf: ExecutorStart 42% of the request page's backend time).
  const first = lock ? undefined : firstPage;
  const threads = () => threadsQuery(db, { viewerId: user.id, withHistory: isAdmin });
  // The threads' JSON, the working firm's first, in the column or in the lateral join alike.
  const threadsJson = db`json_agg(th order by th.is_working desc, th.company_name, th.surveyor_id)`;
  const firstColumns = first
    ? db`, thr.threads, thr.first_surveyor_id, (
        select json_agg(fm order by fm.seq) from (
          select m.seq, m.seq::text as cursor, m.id, m.body,
            to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
              as created_at, m.author_id, m.author_role, m.author_name
          from survey_messages m
          where m.survey_id = s.id and m.surveyor_id = thr.first_surveyor_id
          order by m.seq desc limit ${first.limit + 1}
        ) fm) as first_messages`
    : db``;
  const join = first
    ? db`left join lateral (
        select ${threadsJson} as threads,
          (array_agg(th.surveyor_id order by
            coalesce(th.surveyor_id = ${first.preferred}::uuid, false) desc,
            th.unread_count > 0 desc, th.is_working desc, th.company_name, th.surveyor_id)
            filter (where case ${roleLiteral(db, user.role)}
              when 'surveyor' then th.surveyor_id =
                (select v.id from surveyors v where v.user_id = ${user.id})
              when 'technician' then th.is_working
                and th.surveyor_id = ${workingSurveyorId(db)}
              else true end))[1] as first_surveyor_id
        from (${threads()}) th
      ) thr on true`
    : db``;
  // The threads come in the same statement (one round trip fewer on every page and poll),
  // except under `lock`, where they are read after the survey row is locked.
  const columns = db`,
      (select l.id from leads l where l.survey_id = s.id) as lead_id,
      ${workingSurveyorId(db)} as working_surveyor_id,
      s.assigned_technician_id,
      (select tu.full_name from users tu where tu.id = s.assigned_technician_id)
        as technician_name,
      (select t.surveyor_id from technicians t where t.user_id = s.assigned_technician_id)
        as technician_firm_id,
      ${callerSurveyorIdColumn(db, user)} as caller_surveyor_id
      ${
    lock || first ? db`` : db`, (select ${threadsJson} from (${threads()}) th) as threads`
  } ${firstColumns}`;
  return { columns, join };
}

/**
 * The survey `surveyId` with the threads `user` may open on it, or undefined when the survey
 * does not exist, the id is malformed, or the user is in none of its threads (a client who
 * owns it is always answered, with no threads before any firm bought the lead). With `lock`,
 * the survey row is locked until the transaction ends, so messages of one survey are
 * recorded (and their notifications and emails decided) one at a time: pass the caller's `tx`.
 */
export async function getMessageAccess(
  db: Db,
  { surveyId, ...options }: { surveyId: string } & MessageAccessOptions,
): Promise<MessageAccess | undefined> {
  if (!isSurveyId(surveyId)) return undefined;
  const { user, lock = false } = options;
  const reads = messageAccessReads(db, options);
  const [row] = await db<
    (Omit<MessageSurvey, keyof MessageAccessColumns> & MessageAccessColumns)[]
  >`
    select s.id, s.status, s.client_id, cu.full_name as client_name, s.survey_type,
      coalesce(s.formatted_address, s.address) as address
      ${reads.columns}
    from surveys s
    join users cu on cu.id = s.client_id
    ${reads.join}
    where s.id = ${surveyId}
    ${lock ? db`for update of s` : db``}`;
  // Under lock the threads are one more read: none for a caller turned away anyway.
  if (!row || isTurnedAway(row, row, user)) return undefined;
  const threads = lock
    ? await listThreads(db, { surveyId, viewerId: user.id, withHistory: user.role === "admin" })
    : undefined;
  return messageAccessOf(row, row, { ...options, threads });
}

// Whether `user` is in none of the survey's threads by their role alone: a client who does not
// own it, a surveyor without a firm record, a technician not on the working firm's job.
function isTurnedAway(
  survey: Pick<MessageSurvey, "clientId">,
  read: MessageAccessColumns,
  user: Pick<SessionUser, "id" | "role">,
): boolean {
  switch (user.role) {
    case "client":
      return survey.clientId !== user.id;
    case "surveyor":
      return !read.callerSurveyorId;
    case "technician":
      return read.assignedTechnicianId !== user.id || !read.technicianFirmId ||
        read.technicianFirmId !== read.workingSurveyorId;
    default:
      return false;
  }
}

/**
 * `getMessageAccess`'s answer from a statement that selected `messageAccessReads(options)`
 * over the survey `survey` (`threads`: read after it, under `lock`).
 */
export function messageAccessOf(
  survey: Pick<
    MessageSurvey,
    "id" | "status" | "clientId" | "clientName" | "surveyType" | "address"
  >,
  read: MessageAccessColumns,
  { user, lock = false, firstPage, threads: lockedThreads }: MessageAccessOptions & {
    threads?: MessageThread[];
  },
): MessageAccess | undefined {
  const { callerSurveyorId, threads: threadsJson, firstSurveyorId, firstMessages } = read;
  const access: MessageSurvey = {
    id: survey.id,
    status: survey.status,
    clientId: survey.clientId,
    clientName: survey.clientName,
    surveyType: survey.surveyType,
    address: survey.address,
    leadId: read.leadId,
    workingSurveyorId: read.workingSurveyorId,
    assignedTechnicianId: read.assignedTechnicianId,
    technicianName: read.technicianName,
    technicianFirmId: read.technicianFirmId,
  };
  if (isTurnedAway(access, read, user)) return undefined;
  const threads = lockedThreads ?? (threadsJson ?? []).map(fromThreadJson);
  switch (user.role) {
    case "admin":
    case "client":
      return withFirstPage({ survey: access, as: user.role, threads });
    case "surveyor": {
      const own = threads.filter((t) => t.surveyorId === callerSurveyorId);
      return own.length
        ? withFirstPage({ survey: access, as: "surveyor", threads: own })
        : undefined;
    }
    case "technician": {
      const own = threads.filter((t) => t.surveyorId === access.workingSurveyorId && t.isWorking);
      return own.length
        ? withFirstPage({ survey: access, as: "technician", threads: own })
        : undefined;
    }
  }

  function withFirstPage(result: MessageAccess): MessageAccess {
    if (!firstPage || lock || !firstSurveyorId) return result;
    const rows = firstMessages ?? [];
    const hasEarlier = rows.length > firstPage.limit;
    const shown = hasEarlier ? rows.slice(rows.length - firstPage.limit) : rows;
    return {
      ...result,
      firstPage: {
        surveyorId: firstSurveyorId,
        page: {
          messages: shown.map((r) => fromMessageJson(r, user.id)),
          cursor: shown.length ? shown[shown.length - 1].cursor : null,
          earliestCursor: shown.length ? shown[0].cursor : null,
          hasEarlier,
        },
      },
    };
  }
}

// A message as json_agg spells it (created_at already as toISOString writes it).
export interface MessageJson {
  cursor: string;
  id: string;
  body: string;
  created_at: string;
  author_id: string | null;
  author_role: MessageRole;
  author_name: string;
}

function fromMessageJson(row: MessageJson, viewerId: string): ThreadMessage {
  return {
    id: row.id,
    body: row.body,
    createdAt: row.created_at,
    author: { role: row.author_role, name: row.author_name },
    isMine: row.author_id === viewerId,
  };
}

// The survey's threads `viewerId` may see, with their unread counts: a subquery over the
// survey row aliased `s` (getMessageAccess folds it into its statement; listThreads runs it).
function threadsQuery(
  db: Db,
  { viewerId, withHistory }: { viewerId: string; withHistory: boolean },
) {
  return db`
    select v.id as surveyor_id, v.company_name, v.user_id as firm_user_id, th.is_working,
      (select count(*)::int from survey_messages m
        where m.survey_id = s.id and m.surveyor_id = v.id
          and m.author_id is distinct from ${viewerId}::uuid
          and m.seq > coalesce((select r.last_read_seq from survey_message_reads r
            where r.survey_id = s.id and r.surveyor_id = v.id
              and r.user_id = ${viewerId}), 0)) as unread_count
    from (
      select f.surveyor_id, bool_or(f.is_working) as is_working from (
        select p.surveyor_id, false as is_working
        from lead_purchases p join leads l on l.id = p.lead_id
        where l.survey_id = s.id and p.refunded_at is null
        union all
        select a.surveyor_id, true from survey_assignments a
        where a.survey_id = s.id and a.status in ('accepted', 'scheduled', 'completed')
        union all
        select distinct m.surveyor_id, false from survey_messages m
        where ${withHistory ? db`true` : db`false`} and m.survey_id = s.id
      ) f group by f.surveyor_id
    ) th join surveyors v on v.id = th.surveyor_id`;
}

// A thread as json_agg spells it.
export interface ThreadJson {
  surveyor_id: string;
  company_name: string;
  firm_user_id: string | null;
  is_working: boolean;
  unread_count: number;
}

function fromThreadJson(row: ThreadJson): MessageThread {
  return {
    surveyorId: row.surveyor_id,
    companyName: row.company_name,
    firmUserId: row.firm_user_id,
    isWorking: row.is_working,
    unreadCount: row.unread_count,
  };
}

async function listThreads(
  db: Db,
  { surveyId, viewerId, withHistory }: { surveyId: string; viewerId: string; withHistory: boolean },
): Promise<MessageThread[]> {
  return [
    ...await db<MessageThread[]>`
    select t.* from surveys s, lateral (${threadsQuery(db, { viewerId, withHistory })}) t
    where s.id = ${surveyId}
    order by t.is_working desc, t.company_name, t.surveyor_id`,
  ];
}

interface MessageRow {
  seq: string;
  id: string;
  body: string;
  createdAt: Date;
  authorId: string | null;
  authorRole: MessageRole;
  authorName: string;
}

function toMessage(row: MessageRow, viewerId: string): ThreadMessage {
  return {
    id: row.id,
    body: row.body,
    createdAt: row.createdAt.toISOString(),
    author: { role: row.authorRole, name: row.authorName },
    isMine: row.authorId === viewerId,
  };
}

/** One page of a thread, oldest first, with the cursors to page on. */
export interface MessagePage {
  messages: ThreadMessage[];
  /** The newest message's seq, or `after` when nothing newer came; null for an empty thread. */
  cursor: string | null;
  earliestCursor: string | null;
  hasEarlier: boolean;
}

/**
 * A thread's messages, oldest first: with `after` (a seq) the ones after it, up to a page;
 * with `before` the page before it; else the newest page.
 */
export async function listThreadMessages(
  db: Db,
  { surveyId, surveyorId, viewerId, after, before, limit = MESSAGE_PAGE_SIZE }: {
    surveyId: string;
    surveyorId: string;
    viewerId: string;
    after?: string;
    before?: string;
    limit?: number;
  },
): Promise<MessagePage> {
  const columns = db`seq, id, body, created_at, author_id, author_role, author_name`;
  const thread = db`survey_id = ${surveyId} and surveyor_id = ${surveyorId}`;
  let rows: MessageRow[];
  let hasEarlier = false;
  if (after !== undefined) {
    rows = await db<MessageRow[]>`
      select ${columns} from survey_messages
      where ${thread} and seq > ${after}::bigint order by seq limit ${limit}`;
  } else {
    const newest = await db<MessageRow[]>`
      select ${columns} from survey_messages
      where ${thread} ${before !== undefined ? db`and seq < ${before}::bigint` : db``}
      order by seq desc limit ${limit + 1}`;
    hasEarlier = newest.length > limit;
    rows = newest.slice(0, limit).reverse();
  }
  return {
    messages: rows.map((r) => toMessage(r, viewerId)),
    cursor: rows.length ? rows[rows.length - 1].seq : after ?? null,
    earliestCursor: rows.length ? rows[0].seq : null,
    hasEarlier,
  };
}

/** A message to record. */
export interface NewMessage {
  surveyId: string;
  surveyorId: string;
  authorId: string;
  authorRole: MessageRole;
  authorName: string;
  body: string;
}

/** Records a message; the author has read their thread up to it. Returns it and its seq. */
export async function insertMessage(
  db: Db,
  input: NewMessage,
): Promise<{ message: ThreadMessage; seq: string }> {
  const [row] = await db<MessageRow[]>`
    insert into survey_messages (survey_id, surveyor_id, author_id, author_role, author_name, body)
    values (${input.surveyId}, ${input.surveyorId}, ${input.authorId}, ${input.authorRole},
      ${input.authorName}, ${input.body})
    returning seq, id, body, created_at, author_id, author_role, author_name`;
  await markThreadRead(db, {
    surveyId: input.surveyId,
    surveyorId: input.surveyorId,
    userId: input.authorId,
    seq: row.seq,
  });
  return { message: toMessage(row, input.authorId), seq: row.seq };
}

/**
 * Marks the thread read by `userId` up to message `seq` (never backwards), and their unread
 * bell notification about it read.
 */
export async function markThreadRead(
  db: Db,
  { surveyId, surveyorId, userId, seq }: {
    surveyId: string;
    surveyorId: string;
    userId: string;
    seq: string;
  },
): Promise<void> {
  await db`
    insert into survey_message_reads (survey_id, surveyor_id, user_id, last_read_seq)
    values (${surveyId}, ${surveyorId}, ${userId}, ${seq}::bigint)
    on conflict (survey_id, surveyor_id, user_id) do update
      set last_read_seq = greatest(survey_message_reads.last_read_seq, excluded.last_read_seq)`;
  await db`
    update notifications set is_read = true, read_at = coalesce(read_at, now())
    where user_id = ${userId} and not is_read
      and thread_survey_id = ${surveyId} and thread_surveyor_id = ${surveyorId}`;
}

/** The newest message's seq of a thread, or null when it is empty. */
export async function getLatestSeq(
  db: Db,
  { surveyId, surveyorId }: { surveyId: string; surveyorId: string },
): Promise<string | null> {
  const [row] = await db<{ seq: string | null }[]>`
    select max(seq)::text as seq from survey_messages
    where survey_id = ${surveyId} and surveyor_id = ${surveyorId}`;
  return row.seq;
}

/** How many of a thread's messages `userId` did not write and has not read. */
export async function countUnreadInThread(
  db: Db,
  { surveyId, surveyorId, userId }: { surveyId: string; surveyorId: string; userId: string },
): Promise<number> {
  const [{ count }] = await db<{ count: number }[]>`
    select count(*)::int as count from survey_messages m
    where m.survey_id = ${surveyId} and m.surveyor_id = ${surveyorId}
      and m.author_id is distinct from ${userId}::uuid
      and m.seq > coalesce((select r.last_read_seq from survey_message_reads r
        where r.survey_id = ${surveyId} and r.surveyor_id = ${surveyorId}
          and r.user_id = ${userId}), 0)`;
  return count;
}

/**
 * Whether `userId` may be emailed now about the thread, recording it if so: true when they
 * were never emailed about it, or not within the last 15 minutes. One statement, so two
 * messages at once never both email.
 */
export async function takeMessageEmailSlot(
  db: Db,
  { surveyId, surveyorId, userId }: { surveyId: string; surveyorId: string; userId: string },
): Promise<boolean> {
  const rows = await db`
    insert into survey_message_reads (survey_id, surveyor_id, user_id, last_emailed_at)
    values (${surveyId}, ${surveyorId}, ${userId}, now())
    on conflict (survey_id, surveyor_id, user_id) do update set last_emailed_at = now()
      where survey_message_reads.last_emailed_at is null
        or survey_message_reads.last_emailed_at
          <= now() - make_interval(mins => ${MESSAGE_EMAIL_WINDOW_MINUTES}::int)
    returning user_id`;
  return rows.length === 1;
}

/**
 * Tells `userId` about unread messages in a thread: updates their unread notification about
 * it (count, newest words, time) or inserts one.
 */
export async function upsertMessageNotification(
  db: Db,
  input: {
    userId: string;
    surveyId: string;
    surveyorId: string;
    title: string;
    body: string;
    link: string;
  },
): Promise<void> {
  const updated = await db`
    update notifications set title = ${input.title}, body = ${input.body}, link = ${input.link},
      created_at = now()
    where user_id = ${input.userId} and not is_read and kind = 'message_received'
      and thread_survey_id = ${input.surveyId} and thread_surveyor_id = ${input.surveyorId}
    returning id`;
  if (updated.length > 0) return;
  await db`
    insert into notifications
      (user_id, kind, title, body, link, thread_survey_id, thread_surveyor_id)
    values (${input.userId}, 'message_received', ${input.title}, ${input.body}, ${input.link},
      ${input.surveyId}, ${input.surveyorId})`;
}

/** A reader of a thread to tell about a new message. */
export interface MessageRecipient {
  userId: string;
  email: string;
  fullName: string;
  role: "client" | "surveyor" | "technician";
}

/** The accounts behind `userIds` that are not disabled. */
export async function listRecipientAccounts(
  db: Db,
  { userIds }: { userIds: string[] },
): Promise<Omit<MessageRecipient, "role">[]> {
  if (userIds.length === 0) return [];
  return [
    ...await db<Omit<MessageRecipient, "role">[]>`
    select id as user_id, email, full_name from users
    where id = any(${db.array(userIds)}::uuid[]) and disabled_at is null`,
  ];
}
