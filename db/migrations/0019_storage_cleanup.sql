-- Storage objects waiting to be deleted, so no file's bytes outlive its survey_files row.
--
-- An upload registers its key here (not_before = an hour on) before the first byte is stored
-- and removes it in the transaction that inserts the survey_files row: an upload that dies
-- half way (a crash, a lost connection) leaves a row the sweep (lib/storage/cleanup.ts)
-- deletes once the hour is up. A deleted survey_files row (by the API, or by the cascade of a
-- deleted survey) queues its object here for the sweep at once; the bytes of the Postgres
-- provider go in the same statement, by the trigger below.
create table storage_cleanup (
  storage_key text primary key,
  storage text not null check (storage in ('postgres', 's3')),
  not_before timestamptz not null default now()
);
create index storage_cleanup_due_idx on storage_cleanup (storage, not_before);

create function survey_files_release_storage() returns trigger
language plpgsql as $$
begin
  if old.storage = 'postgres' then
    delete from file_chunks where storage_key = old.storage_key;
  else
    insert into storage_cleanup (storage_key, storage, not_before)
    values (old.storage_key, old.storage, now())
    on conflict (storage_key) do update set not_before = excluded.not_before;
  end if;
  return old;
end;
$$;

create trigger survey_files_release_storage after delete on survey_files
  for each row execute function survey_files_release_storage();
