-- Fieldwork to delivery: technicians of a surveyor firm (or Meridian's own staff) assigned to
-- surveys, checklists made per survey type and instantiated per survey, files (checklist
-- photos and final deliverables) in pluggable storage, and the client's review of the surveyor.

-- A technician account (users.role = 'technician') belongs to one firm, or to Meridian's own
-- staff when surveyor_id is null.
create table technicians (
  user_id uuid primary key references users (id) on delete cascade,
  surveyor_id uuid references surveyors (id) on delete cascade,
  invited_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index technicians_surveyor_idx on technicians (surveyor_id);

-- Who does the fieldwork of a survey. Reassigning ends the current row (is_current = false,
-- ended_at) and inserts a new one, so the history stays; one current row per survey.
create table technician_assignments (
  id uuid primary key default gen_random_uuid(),
  survey_id uuid not null references surveys (id) on delete cascade,
  technician_id uuid not null references users (id) on delete cascade,
  notes text check (length(notes) <= 2000),
  assigned_by uuid references users (id) on delete set null,
  is_current boolean not null default true,
  created_at timestamptz not null default now(),
  ended_at timestamptz
);
create unique index technician_assignments_current_key on technician_assignments (survey_id)
  where is_current;
create index technician_assignments_technician_idx
  on technician_assignments (technician_id, created_at desc) where is_current;
create index technician_assignments_survey_idx
  on technician_assignments (survey_id, created_at desc);

-- The current technician, kept beside the survey for cheap ownership checks.
alter table surveys add column assigned_technician_id uuid references users (id)
  on delete set null;
create index surveys_assigned_technician_idx on surveys (assigned_technician_id)
  where assigned_technician_id is not null;
-- "Start fieldwork": when, and where if the browser allowed it.
alter table surveys add column fieldwork_started_at timestamptz;
alter table surveys add column fieldwork_start_lat double precision
  check (fieldwork_start_lat between -90 and 90);
alter table surveys add column fieldwork_start_lng double precision
  check (fieldwork_start_lng between -180 and 180);

-- Checklist templates per survey type, versioned: an edit inserts version n + 1. `items` is a
-- JSON array of {key, label, kind: check|number|text|photo, unit?, help?, isRequired}.
create table checklist_templates (
  id uuid primary key default gen_random_uuid(),
  survey_type text not null check (survey_type in (
    'boundary', 'elevation_certificate', 'topographic', 'alta', 'construction', 'subdivision'
  )),
  version integer not null check (version >= 1),
  items jsonb not null,
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  unique (survey_type, version)
);

-- A survey's checklist: a copy of the template version current when a technician was first
-- assigned, so later template edits never change a job in progress.
create table survey_checklists (
  survey_id uuid primary key references surveys (id) on delete cascade,
  template_id uuid references checklist_templates (id) on delete set null,
  template_version integer not null,
  created_at timestamptz not null default now()
);

create table survey_checklist_items (
  id uuid primary key default gen_random_uuid(),
  survey_id uuid not null references survey_checklists (survey_id) on delete cascade,
  position integer not null,
  key text not null check (length(key) between 1 and 80),
  label text not null check (length(label) between 1 and 200),
  kind text not null check (kind in ('check', 'number', 'text', 'photo')),
  unit text check (length(unit) <= 20),
  help text check (length(help) <= 500),
  is_required boolean not null,
  -- check: boolean; number: number; text: string; photo: array of survey_files ids; null =
  -- not answered.
  value jsonb,
  answered_by uuid references users (id) on delete set null,
  -- The device's time of the edit that holds the value: the last-writer-wins clock.
  answered_at timestamptz,
  unique (survey_id, key)
);
create index survey_checklist_items_survey_idx on survey_checklist_items (survey_id, position);

-- Every edit ever received, append-only. op_id comes from the device, so an edit replayed after
-- a lost connection is stored once; is_applied is false for an edit a later one had already
-- beaten (the loser's value stays here).
create table survey_checklist_answers (
  id uuid primary key default gen_random_uuid(),
  item_id uuid not null references survey_checklist_items (id) on delete cascade,
  op_id uuid not null unique,
  value jsonb,
  answered_by uuid references users (id) on delete set null,
  answered_at timestamptz not null,
  received_at timestamptz not null default now(),
  is_applied boolean not null
);
create index survey_checklist_answers_item_idx
  on survey_checklist_answers (item_id, answered_at desc);

-- Files of a survey: checklist photos and final deliverables. The bytes live in the storage
-- provider (lib/storage/) under storage_key; metadata here. op_id makes a device's retried
-- upload idempotent.
create table survey_files (
  id uuid primary key default gen_random_uuid(),
  survey_id uuid not null references surveys (id) on delete cascade,
  kind text not null check (kind in ('photo', 'deliverable')),
  checklist_item_id uuid references survey_checklist_items (id) on delete set null,
  file_name text not null check (length(file_name) between 1 and 255),
  content_type text not null check (length(content_type) <= 100),
  size_bytes bigint not null check (size_bytes between 0 and 26214400),
  sha256 text not null check (length(sha256) = 64),
  storage text not null check (storage in ('postgres', 's3')),
  storage_key text not null unique,
  uploaded_by uuid references users (id) on delete set null,
  op_id uuid unique,
  created_at timestamptz not null default now()
);
create index survey_files_survey_idx on survey_files (survey_id, kind, created_at);

-- The default storage provider: bytes in the database, in chunks, so neither an upload nor a
-- download holds a whole file in memory.
create table file_chunks (
  storage_key text not null,
  chunk_index integer not null check (chunk_index >= 0),
  data bytea not null,
  primary key (storage_key, chunk_index)
);

-- The client's rating of the surveyor who delivered their survey: once per survey.
create table surveyor_reviews (
  id uuid primary key default gen_random_uuid(),
  survey_id uuid not null unique references surveys (id) on delete cascade,
  surveyor_id uuid not null references surveyors (id) on delete cascade,
  client_id uuid not null references users (id) on delete cascade,
  rating integer not null check (rating between 1 and 5),
  comment text check (length(comment) <= 2000),
  created_at timestamptz not null default now()
);
create index surveyor_reviews_surveyor_idx on surveyor_reviews (surveyor_id, created_at desc);
-- Reviews collected by Meridian, kept apart from the places provider's rating/review_count so
-- the two can be blended (lib/matching.ts) and a refresh from the provider never erases them.
alter table surveyors add column meridian_rating_sum integer not null default 0
  check (meridian_rating_sum >= 0);
alter table surveyors add column meridian_review_count integer not null default 0
  check (meridian_review_count >= 0);

alter table notifications drop constraint notifications_kind_check;
alter table notifications add constraint notifications_kind_check check (kind in (
  'survey_requested', 'survey_status_changed', 'lead_offered', 'dispatch_unmatched',
  'lead_bought', 'lead_claimed', 'surveyor_assigned', 'assignment_status_changed',
  'refund_decided', 'low_balance', 'surveyor_joined', 'technician_assigned',
  'technician_unassigned', 'survey_delivered', 'surveyor_reviewed'
));
