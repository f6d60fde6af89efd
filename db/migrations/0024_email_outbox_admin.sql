-- The admin's outbox list (/admin/email-outbox): newest first, optionally one status or one
-- template, paged by (created_at, id). And the "sent in the last 30 days" count per template.
create index email_outbox_created_idx on email_outbox (created_at desc, id desc);
create index email_outbox_status_created_idx on email_outbox (status, created_at desc, id desc);
create index email_outbox_template_created_idx
  on email_outbox (template, created_at desc, id desc);
create index email_outbox_sent_at_idx on email_outbox (sent_at) where status = 'sent';
