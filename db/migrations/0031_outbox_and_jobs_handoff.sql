-- Exactly-once hand-off of outgoing email (issue 20). Each claim gets a fresh attempt_id, so a
-- failure reported by an attempt that has since been superseded changes nothing; message_id is
-- fixed at the first claim and reused by every retry, so a retry after an unknown outcome (the
-- sender died between handing the message over and recording it) carries the same Message-ID
-- header and a receiving server or mail client can recognise it as the same message.
alter table email_outbox add column message_id text;
alter table email_outbox add column attempt_id uuid;

-- Which worker holds a claim ("host:port" of the instance, lib/jobs.ts workerName): a worker
-- that restarts after a crash takes its own leased rows back at once instead of waiting out
-- the lease its dead predecessor left.
alter table email_outbox add column claimed_by text;
alter table jobs add column claimed_by text;
