-- Licence states and the licence number are verified facts (issue 20): a surveyor whose licence
-- Meridian has verified can ask for more states, or give a new number, from their own profile,
-- but nothing they type counts before an admin has checked it.
--
-- surveyors.license_states keeps its meaning for every reader (matching, dispatch, the lead
-- market, what clients are shown): the states that count. For a firm whose licence is verified
-- (verified_at set) they are the verified states; for one that is not, they are the states to
-- check at its licence check, which verifies them all with the firm. surveyors.license_number
-- likewise stays the number Meridian checked.
--
-- surveyor_licence_states records, per firm and state, whether it is verified:
--   verified  it counts (it is in license_states); verified_via says how:
--               'admin'      an admin approved the surveyor's request (decided_by: who);
--               'record'     it was on the record when the firm's licence was verified, or an
--                            admin or a command put it there later: the firm's own verification
--                            (surveyors.verified_*) and the audit log say who;
--               'migration'  it was a state of a verified firm before this table existed.
--   pending   the surveyor of a verified firm added it; it waits for an admin and does not
--             count. Never in license_states.
--   rejected  an admin refused it; it does not count, and stays so the surveyor can see it
--             until they ask again or remove it.
-- Verified rows follow license_states through the trigger below, whichever path writes it
-- (admin edits, the demo seed, the join flow, Verify licence, tests inserting rows directly), so
-- the record and the states that count never disagree.
create table surveyor_licence_states (
  surveyor_id uuid not null references surveyors (id) on delete cascade,
  state text not null check (state ~ '^[A-Z]{2}$'),
  status text not null check (status in ('pending', 'verified', 'rejected')),
  -- The licence number the state was asked for or verified under.
  licence_number text check (length(licence_number) <= 60),
  requested_at timestamptz not null default now(),
  -- The surveyor's account that asked (null for states verified with the record).
  requested_by uuid references users (id) on delete set null,
  decided_at timestamptz,
  decided_by uuid references users (id) on delete set null,
  verified_via text check (verified_via in ('admin', 'record', 'migration')),
  primary key (surveyor_id, state),
  check ((status = 'pending') = (decided_at is null)),
  check ((status = 'verified') = (verified_via is not null))
);

-- The admins' licence check queue: every pending request, oldest first.
create index surveyor_licence_states_pending_idx on surveyor_licence_states (requested_at)
  where status = 'pending';

-- A new licence number given by the surveyor of a verified firm: the firm keeps working under
-- the number Meridian checked (license_number, the one clients are shown) until an admin has
-- checked the new one. See lib/surveyor_licence.ts for the rule.
alter table surveyors add column pending_license_number text
  check (length(pending_license_number) <= 60);
alter table surveyors add column pending_license_number_at timestamptz;
alter table surveyors add constraint surveyors_pending_license_number_pair_check
  check ((pending_license_number is null) = (pending_license_number_at is null));

create index surveyors_pending_license_number_idx on surveyors (pending_license_number_at)
  where pending_license_number is not null;

-- States of firms already verified count as verified.
insert into surveyor_licence_states
  (surveyor_id, state, status, licence_number, requested_at, decided_at, verified_via)
select s.id, st, 'verified', s.license_number, s.verified_at, now(), 'migration'
from surveyors s cross join lateral unnest(s.license_states) as st
where s.verified_at is not null and st ~ '^[A-Z]{2}$'
on conflict (surveyor_id, state) do nothing;

-- Keeps the verified rows equal to license_states of a verified firm: a state that counts has a
-- verified row (a pending or rejected one for it becomes verified: an admin or a command put it
-- on the record), a verified row whose state no longer counts goes. A firm that is not verified
-- has no verified rows: its states are checked with it.
create function surveyor_licence_states_sync() returns trigger
language plpgsql as $$
begin
  if new.verified_at is null then
    delete from surveyor_licence_states where surveyor_id = new.id and status = 'verified';
    return null;
  end if;
  delete from surveyor_licence_states
  where surveyor_id = new.id and status = 'verified' and not (state = any(new.license_states));
  insert into surveyor_licence_states
    (surveyor_id, state, status, licence_number, requested_at, decided_at, verified_via)
  select new.id, st, 'verified', new.license_number, now(), now(), 'record'
  from unnest(new.license_states) as st
  on conflict (surveyor_id, state) do update
    set status = 'verified', licence_number = excluded.licence_number,
      decided_at = now(), decided_by = null, verified_via = 'record'
    where surveyor_licence_states.status <> 'verified';
  return null;
end
$$;

create trigger surveyor_licence_states_sync
  after insert or update of license_states, verified_at on surveyors
  for each row execute function surveyor_licence_states_sync();
