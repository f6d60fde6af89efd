-- Proposals (issue 22): a surveyor who bought a survey's lead sends the client a price, the
-- earliest visit day, a turnaround and a message; the client accepts one (the survey is then
-- assigned to that firm at that price) or declines it. The buyer may edit a pending proposal or
-- withdraw it.
create table survey_proposals (
  id uuid primary key default gen_random_uuid(),
  survey_id uuid not null references surveys (id) on delete cascade,
  lead_purchase_id uuid not null references lead_purchases (id) on delete cascade,
  surveyor_id uuid not null references surveyors (id) on delete cascade,
  -- Whole dollars, in cents.
  price_cents integer not null
    check (price_cents > 0 and price_cents <= 25000000 and price_cents % 100 = 0),
  earliest_visit_date date not null,
  -- Business days from the visit to the delivered survey.
  turnaround_days integer not null check (turnaround_days between 1 and 90),
  message text not null check (length(message) between 1 and 4000),
  status text not null default 'pending'
    check (status in ('pending', 'accepted', 'declined', 'withdrawn')),
  decline_reason text check (length(decline_reason) <= 500),
  decided_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- One pending proposal per buyer per survey, and one accepted proposal per survey: the
-- database refuses a second even if two requests race past the checks.
create unique index survey_proposals_pending_key on survey_proposals (survey_id, surveyor_id)
  where status = 'pending';
create unique index survey_proposals_accepted_key on survey_proposals (survey_id)
  where status = 'accepted';
create index survey_proposals_survey_idx on survey_proposals (survey_id, created_at, id);
create index survey_proposals_purchase_idx
  on survey_proposals (lead_purchase_id, created_at desc);

-- An accepted proposal becomes the survey's assignment, accepted at once like a claim.
alter table survey_assignments drop constraint survey_assignments_source_check;
alter table survey_assignments add constraint survey_assignments_source_check
  check (source in ('claim', 'admin', 'proposal'));

alter table notifications drop constraint notifications_kind_check;
alter table notifications add constraint notifications_kind_check check (kind in (
  'survey_requested', 'survey_status_changed', 'lead_offered', 'dispatch_unmatched',
  'lead_bought', 'lead_claimed', 'surveyor_assigned', 'assignment_status_changed',
  'refund_decided', 'low_balance', 'surveyor_joined', 'technician_assigned',
  'technician_unassigned', 'survey_delivered', 'surveyor_reviewed',
  'refund_requested', 'lead_won',
  'proposal_received', 'proposal_accepted', 'proposal_declined'
));
