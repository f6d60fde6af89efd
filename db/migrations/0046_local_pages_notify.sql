-- Local pages (issue 24): every bump of their change counters also sends a notification on
-- channel 'local_pages', delivered when the bumping transaction commits (one per transaction:
-- Postgres folds identical notifications). The embedded database's app learns of a change
-- from it instead of reading the counters on every request (routes/local_pages.tsx,
-- db/embedded.ts); on Postgres the counters are still read per request.
create or replace function local_pages_bump(scopes text[]) returns void
  language sql volatile
  as $$
    insert into local_page_versions as v (scope, version, changed_at)
    select distinct s, 1, now() from unnest(scopes) as s
    where s is not null and (s = '*' or s ~ '^[A-Z]{2}$')
    order by 1
    on conflict (scope) do update set version = v.version + 1, changed_at = now();
    select pg_notify('local_pages', '');
  $$;
