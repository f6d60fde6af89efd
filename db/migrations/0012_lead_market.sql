-- The lead market: surveyors buy (shared) or claim (exclusive) leads, pay from a balance kept
-- by an append-only ledger, ask for returns; admins assign a surveyor at an agreed price and
-- the assignment runs its own lifecycle. Stripe Checkout tops the balance up.

-- A surveyor who joined from an invitation waits in 'pending' until an admin has checked the
-- licence (verified_at); only active, verified surveyors can buy or claim.
alter table surveyors drop constraint surveyors_status_check;
alter table surveyors add constraint surveyors_status_check
  check (status in ('prospect', 'invited', 'pending', 'active', 'paused'));
alter table surveyors add column verified_at timestamptz;
alter table surveyors add column verified_by uuid references users (id) on delete set null;
-- The one lead a new surveyor may claim without the claim fee.
alter table surveyors add column welcome_claim_used_at timestamptz;
-- Derived from surveyor_ledger (the sum of its amounts), kept here in the same transaction as
-- each ledger row so the row lock serialises spending and the check refuses an overdraft.
alter table surveyors add column balance_cents bigint not null default 0
  check (balance_cents >= 0);
-- Surveyors who were active before this migration had their licence checked by whoever made
-- them active.
update surveyors set verified_at = updated_at where status = 'active';

-- How many places of a lead are sold, and who claimed it. A lead closes when it sells out, is
-- claimed, expires, or its request is cancelled or removed.
alter table leads add column buyers_count integer not null default 0;
alter table leads add constraint leads_buyers_count_check
  check (buyers_count between 0 and max_buyers);
alter table leads add column claimed_by uuid references surveyors (id) on delete set null;
alter table leads add column closed_reason text
  check (closed_reason in ('sold_out', 'claimed', 'expired', 'cancelled', 'removed'));

-- A surveyor's purchase (buy) or claim of a lead: what unlocks the client's details for them.
create table lead_purchases (
  id uuid primary key default gen_random_uuid(),
  lead_id uuid not null references leads (id) on delete cascade,
  surveyor_id uuid not null references surveyors (id) on delete cascade,
  kind text not null check (kind in ('buy', 'claim')),
  -- What was charged: the lead price (buy), or the claim fee (0 for the welcome claim).
  charged_cents integer not null check (charged_cents >= 0),
  -- The buyer's own pipeline for this client.
  pipeline_status text not null default 'new'
    check (pipeline_status in ('new', 'contacted', 'quoted', 'won', 'lost')),
  pipeline_note text check (length(pipeline_note) <= 2000),
  refunded_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (lead_id, surveyor_id)
);
create index lead_purchases_surveyor_idx on lead_purchases (surveyor_id, created_at desc, id);

-- "Not interested": the lead stops showing for this surveyor; costs nothing.
create table lead_dismissals (
  lead_id uuid not null references leads (id) on delete cascade,
  surveyor_id uuid not null references surveyors (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (surveyor_id, lead_id)
);

-- Every movement of a surveyor's balance, append-only (the trigger below). amount_cents is
-- signed: credits (top-up, refund, positive adjustment) > 0, debits < 0.
create table surveyor_ledger (
  id bigint generated always as identity primary key,
  surveyor_id uuid not null references surveyors (id) on delete cascade,
  kind text not null
    check (kind in ('top_up', 'lead_purchase', 'claim_fee', 'refund', 'adjustment')),
  amount_cents bigint not null check (amount_cents <> 0),
  balance_after_cents bigint not null check (balance_after_cents >= 0),
  lead_purchase_id uuid references lead_purchases (id) on delete set null,
  -- External reference: a Stripe Checkout session or event id, a refund request id…
  reference text check (length(reference) <= 200),
  note text check (length(note) <= 1000),
  actor_id uuid references users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index surveyor_ledger_surveyor_idx on surveyor_ledger (surveyor_id, id desc);
-- At most one refund per purchase, whichever path (automatic or a request) gets there first.
create unique index surveyor_ledger_one_refund_per_purchase on surveyor_ledger (lead_purchase_id)
  where kind = 'refund';
-- A Stripe payment credits once, however often its events arrive.
create unique index surveyor_ledger_reference_top_up on surveyor_ledger (reference)
  where kind = 'top_up';

create function surveyor_ledger_append_only() returns trigger
language plpgsql as $$
begin
  raise exception 'the ledger is append-only';
end;
$$;
create trigger surveyor_ledger_no_update before update on surveyor_ledger
  for each row execute function surveyor_ledger_append_only();

-- Stripe webhook events already handled (replays change nothing).
create table stripe_events (
  id text primary key check (length(id) <= 255),
  type text not null,
  received_at timestamptz not null default now()
);

-- Checkout sessions Meridian created, so a webhook credits only what we asked for, to whom.
create table stripe_checkout_sessions (
  id text primary key check (length(id) <= 255),
  surveyor_id uuid not null references surveyors (id) on delete cascade,
  amount_cents integer not null check (amount_cents > 0),
  status text not null default 'open' check (status in ('open', 'paid', 'expired')),
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  completed_at timestamptz
);
create index stripe_checkout_sessions_surveyor_idx
  on stripe_checkout_sessions (surveyor_id, created_at desc);

-- A surveyor assigned to a survey at an agreed price, and the assignment's lifecycle:
-- offered → accepted | declined; accepted → scheduled → completed; any open → cancelled.
create table survey_assignments (
  id uuid primary key default gen_random_uuid(),
  survey_id uuid not null references surveys (id) on delete cascade,
  surveyor_id uuid not null references surveyors (id) on delete cascade,
  agreed_price_cents integer not null check (agreed_price_cents >= 0),
  status text not null default 'offered'
    check (status in ('offered', 'accepted', 'declined', 'scheduled', 'completed', 'cancelled')),
  source text not null check (source in ('claim', 'admin')),
  scheduled_date date,
  ended_reason text check (length(ended_reason) <= 500),
  assigned_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- One open assignment per survey.
create unique index survey_assignments_open_key on survey_assignments (survey_id)
  where status in ('offered', 'accepted', 'scheduled');
create index survey_assignments_surveyor_idx
  on survey_assignments (surveyor_id, created_at desc);

-- Returns a buyer asks for (invalid contact details, duplicate, out of scope), decided by an
-- admin; automatic returns (client cancelled, request removed) need no request.
create table lead_refund_requests (
  id uuid primary key default gen_random_uuid(),
  lead_purchase_id uuid not null references lead_purchases (id) on delete cascade,
  reason text not null check (reason in ('invalid_contact', 'duplicate', 'out_of_scope')),
  note text not null check (length(note) between 1 and 2000),
  status text not null default 'pending' check (status in ('pending', 'approved', 'denied')),
  decided_by uuid references users (id) on delete set null,
  decided_at timestamptz,
  decision_note text check (length(decision_note) <= 2000),
  created_at timestamptz not null default now()
);
create unique index lead_refund_requests_open_key on lead_refund_requests (lead_purchase_id)
  where status = 'pending';
create index lead_refund_requests_pending_idx on lead_refund_requests (created_at)
  where status = 'pending';

-- Invitation links to /surveyor/claim: only the SHA-256 of the token is stored; the link ties
-- the join page to a prospect record (and the lead it was sent for).
create table surveyor_claim_tokens (
  token_hash text primary key,
  surveyor_id uuid not null references surveyors (id) on delete cascade,
  lead_id uuid references leads (id) on delete set null,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index surveyor_claim_tokens_surveyor_idx on surveyor_claim_tokens (surveyor_id);

alter table notifications drop constraint notifications_kind_check;
alter table notifications add constraint notifications_kind_check check (kind in (
  'survey_requested', 'survey_status_changed', 'lead_offered', 'dispatch_unmatched',
  'lead_bought', 'lead_claimed', 'surveyor_assigned', 'assignment_status_changed',
  'refund_decided', 'low_balance', 'surveyor_joined'
));
