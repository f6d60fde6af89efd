-- Outgoing email. Rows are written in the same transaction as the change that causes them and
-- stay until delivered (status 'sent') or given up on after repeated failures ('failed').
create table email_outbox (
  id uuid primary key default gen_random_uuid(),
  to_address text not null,
  subject text not null,
  html text not null,
  text text not null,
  template text not null,
  status text not null default 'queued'
    check (status in ('queued', 'sending', 'sent', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  -- For 'queued' rows: when to try next. For 'sending' rows: when the claim lapses, so a
  -- sender that died mid-send never strands a row.
  next_attempt_at timestamptz not null default now(),
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
-- The sender's "what is due" scan touches only undelivered rows.
create index email_outbox_due_idx on email_outbox (next_attempt_at)
  where status in ('queued', 'sending');
create index email_outbox_to_address_idx on email_outbox (lower(to_address), created_at desc);
