-- Messages on the job (issue 22): one thread per survey and surveying firm, between the client
-- and each firm that bought the lead (while the purchase is not refunded) or works the job; the
-- firm's technician on the job writes in the working firm's thread, admins read every thread
-- and write as "Meridian support". Who is in a thread is decided in db/messages.ts.
create table survey_messages (
  -- The thread's order and the polling cursor: strictly increasing, unlike created_at.
  seq bigint generated always as identity primary key,
  id uuid not null unique default gen_random_uuid(),
  survey_id uuid not null references surveys (id) on delete cascade,
  -- The firm whose thread this is (not necessarily the author).
  surveyor_id uuid not null references surveyors (id) on delete cascade,
  author_id uuid references users (id) on delete set null,
  author_role text not null check (author_role in ('client', 'surveyor', 'technician', 'admin')),
  -- The name shown above the message, as it was when written ("Meridian support" for admins).
  author_name text not null check (length(author_name) between 1 and 200),
  body text not null check (length(body) between 1 and 4000),
  created_at timestamptz not null default now()
);
create index survey_messages_thread_idx on survey_messages (survey_id, surveyor_id, seq);

-- Per reader and thread: how far they have read (a message seq) and when they were last
-- emailed about it (at most one email per thread per 15 minutes).
create table survey_message_reads (
  survey_id uuid not null references surveys (id) on delete cascade,
  surveyor_id uuid not null references surveyors (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  last_read_seq bigint not null default 0,
  last_emailed_at timestamptz,
  primary key (survey_id, surveyor_id, user_id)
);
create index survey_message_reads_user_idx on survey_message_reads (user_id);

-- The bell keeps one unread 'message_received' notification per reader and thread, updated
-- as messages arrive and marked read when the thread is opened.
alter table notifications add column thread_survey_id uuid references surveys (id)
  on delete cascade;
alter table notifications add column thread_surveyor_id uuid references surveyors (id)
  on delete cascade;
create index notifications_unread_thread_idx
  on notifications (user_id, thread_survey_id, thread_surveyor_id)
  where not is_read and thread_survey_id is not null;

alter table notifications drop constraint notifications_kind_check;
alter table notifications add constraint notifications_kind_check check (kind in (
  'survey_requested', 'survey_status_changed', 'lead_offered', 'dispatch_unmatched',
  'lead_bought', 'lead_claimed', 'surveyor_assigned', 'assignment_status_changed',
  'refund_decided', 'low_balance', 'surveyor_joined', 'technician_assigned',
  'technician_unassigned', 'survey_delivered', 'surveyor_reviewed',
  'refund_requested', 'lead_won',
  'proposal_received', 'proposal_accepted', 'proposal_declined',
  'message_received'
));
