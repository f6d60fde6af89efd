-- Status-change notes are written for the team unless the admin marks one for the client:
-- every note written before this column existed stays internal.
alter table survey_events
  add column is_note_visible_to_client boolean not null default false;

-- Forgot-password requests waiting for their token and email. /api/forgot-password stores
-- the request here (one insert, whether or not the email has an account) and answers; the
-- lookup, token and email happen after the answer (lib/password_reset.ts), so the answer
-- takes as long either way. A row stays until that work commits, so a crash in between
-- loses nothing: the next pass picks it up.
create table password_reset_requests (
  id uuid primary key default gen_random_uuid(),
  email text not null check (length(email) <= 254),
  ip text,
  user_agent text,
  created_at timestamptz not null default now()
);
create index password_reset_requests_created_at_idx on password_reset_requests (created_at);
