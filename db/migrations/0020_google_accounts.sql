-- Google accounts linked to users (Sign in with Google, routes/oauth.ts).
--
-- One Google account per user and one user per Google account: the Google subject (`sub`, the
-- account's stable id, unlike its email) is unique, and the user id is the key. Deleting the
-- user removes the link.
--
-- `placeholder_password_hash` is set when the account was created by Google sign-in: users
-- need a password hash, so such an account gets the hash of a random password nobody knows.
-- The user "has a password" once users.password_hash differs from it (a reset or a change
-- replaces it), and only then may they remove the link (they would be locked out otherwise).
create table google_accounts (
  user_id uuid primary key references users (id) on delete cascade,
  subject text not null unique check (length(subject) between 1 and 255),
  email text not null,
  placeholder_password_hash text,
  linked_at timestamptz not null default now(),
  last_used_at timestamptz not null default now()
);
