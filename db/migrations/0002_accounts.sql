-- Accounts: users, password-reset tokens and the audit log.

create table users (
  id uuid primary key default gen_random_uuid(),
  username text not null,
  email text not null,
  full_name text not null,
  role text not null check (role in ('admin', 'client', 'surveyor', 'technician')),
  company_name text,
  phone text,
  -- argon2id PHC string; never leaves db/users.ts except to lib/passwords.ts.
  password_hash text not null,
  created_at timestamptz not null default now(),
  last_login timestamptz,
  disabled_at timestamptz
);
-- Case-insensitive uniqueness without citext (not available in PGlite).
create unique index users_email_lower_key on users (lower(email));
create unique index users_username_lower_key on users (lower(username));
-- The admin users list: newest first, optionally filtered by role.
create index users_created_at_idx on users (created_at desc, id);
create index users_role_created_at_idx on users (role, created_at desc, id);

-- Only the SHA-256 of a reset token is stored; the token itself lives in the emailed link.
create table password_reset_tokens (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index password_reset_tokens_user_id_idx on password_reset_tokens (user_id);

-- Security events. No foreign keys: the record must outlive whatever it mentions.
create table audit_log (
  id bigint generated always as identity primary key,
  event text not null,
  actor_id uuid,
  target_id uuid,
  ip text,
  user_agent text,
  details jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
create index audit_log_created_at_idx on audit_log (created_at desc);
create index audit_log_target_id_idx on audit_log (target_id, created_at desc);
create index audit_log_actor_id_idx on audit_log (actor_id, created_at desc);

-- Append-only: the app may insert, never rewrite history.
create function audit_log_append_only() returns trigger
language plpgsql as $$
begin
  raise exception 'audit_log is append-only';
end;
$$;
create trigger audit_log_append_only
  before update or delete on audit_log
  for each row execute function audit_log_append_only();
