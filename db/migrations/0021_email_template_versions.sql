-- Editable email copy (issue 13, /admin/email-templates/{id}): every save of a template's
-- subject and copy blocks is a new row, numbered 1, 2, 3… per template, with who saved it and
-- when. The newest row is what the app sends; a template with no row sends the defaults written
-- in its code (lib/mail/templates). "Reset to default" appends a row with is_reset = true that
-- holds the defaults of the day (for the history and its diff); while it is the newest row the
-- app sends the code's defaults, so later changes to those defaults still reach the emails.
--
-- Two admins saving at once never get the same number: saves of one template are serialised
-- by an advisory lock (db/email_templates.ts), and the unique key refuses a duplicate anyway.
create table email_template_versions (
  id uuid primary key default gen_random_uuid(),
  template text not null check (template ~ '^[a-z][a-z0-9_]{0,99}$'),
  version integer not null check (version >= 1),
  subject text not null check (length(subject) between 1 and 200),
  -- Block key → raw text with {variables}, as the admin wrote it.
  blocks jsonb not null check (jsonb_typeof(blocks) = 'object'),
  is_reset boolean not null default false,
  -- Null once the admin's account is deleted: the version stays, "by a deleted user".
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  -- Also the index of "newest version of a template" (order by version desc limit 1).
  unique (template, version)
);
