-- Storage clean-up retries (issue 20: "upload chunks leak when their delete fails during an
-- outage"): a storage_cleanup row now stays until its object's delete really succeeded; each
-- failed attempt is counted and pushes the next one back (lib/storage/cleanup.ts: 1, 2, 4 …
-- minutes, at most 6 hours), with the error kept for admins reading the table.
alter table storage_cleanup add column attempts integer not null default 0;
alter table storage_cleanup add column last_error text;
