-- Firms join by themselves (issue 22): a surveyor who signs up on /for-surveyors and whose firm
-- is already on another record (same normalised company name and state, or the same licence
-- number) gets an account but no second firm; the request waits here, on the existing record,
-- for an admin to review it.
create table surveyor_claim_requests (
  id uuid primary key default gen_random_uuid(),
  surveyor_id uuid not null references surveyors (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  -- Why it went to review: the licence number is on this record, or the name and state match.
  reason text not null check (reason in ('licence_number', 'company_state', 'taken')),
  -- What the person typed (company, licence, office, coverage), for the admin to compare.
  details jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'approved', 'denied')),
  created_at timestamptz not null default now()
);
create unique index surveyor_claim_requests_user_key on surveyor_claim_requests (user_id)
  where status = 'pending';
create index surveyor_claim_requests_surveyor_idx
  on surveyor_claim_requests (surveyor_id, created_at);
-- Duplicate checks: a licence number compared without case or spaces.
create index surveyors_license_number_idx
  on surveyors (upper(regexp_replace(license_number, '[^A-Za-z0-9]', '', 'g')))
  where license_number is not null;
