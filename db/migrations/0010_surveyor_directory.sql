-- The surveyor directory (GET /api/surveyors, db/surveyors.ts listSurveyors) at 50,000+ rows.

-- Pages are walked by offset over (lower(company_name), id). The 0008 indexes hold only the
-- expression, so Postgres cannot answer from them alone (an expression index is index-only
-- only when the columns it is computed from are in it too) and read the heap for every row
-- it skipped, or sorted the whole table instead. These carry every column the directory
-- filters on, so any page of any filter but the search is an index-only walk.
drop index surveyors_company_name_idx;
create index surveyors_directory_idx on surveyors (lower(company_name), id)
  include (company_name, state, status, in_network, survey_types);
drop index surveyors_state_idx;
create index surveyors_directory_state_idx on surveyors (state, lower(company_name), id)
  include (company_name, status, in_network, survey_types);

-- Exact counts per (state, survey type, status, in-network), kept by statement triggers, so
-- the directory's counts are a sum over a few hundred rows instead of a count over every
-- surveyor. Each surveyor is counted once under survey_type '' (any type) and once under each
-- type it offers; state '' stands for none. (A TRUNCATE of surveyors must truncate this table
-- too; the test reset truncates every table.)
create table surveyor_counts (
  state text not null,
  survey_type text not null,
  status text not null,
  in_network boolean not null,
  n bigint not null check (n >= 0),
  primary key (survey_type, state, status, in_network)
);

-- The (state, type, status, in-network) keys of a set of surveyor rows, one per row and type.
create function surveyor_count_keys(rows_state text, rows_types text[])
returns table (state text, survey_type text)
language sql immutable as $$
  select coalesce(rows_state, ''), t
  from (select '' as t union select unnest(rows_types)) types
$$;

create function surveyor_counts_add() returns trigger
language plpgsql as $$
begin
  insert into surveyor_counts (state, survey_type, status, in_network, n)
  select k.state, k.survey_type, r.status, r.in_network, count(*)
  from new_rows r cross join lateral surveyor_count_keys(r.state, r.survey_types) k
  group by k.state, k.survey_type, r.status, r.in_network
  order by k.survey_type, k.state, r.status, r.in_network
  on conflict (survey_type, state, status, in_network)
    do update set n = surveyor_counts.n + excluded.n;
  return null;
end;
$$;

create function surveyor_counts_remove() returns trigger
language plpgsql as $$
begin
  update surveyor_counts c set n = c.n - d.n
  from (
    select k.state, k.survey_type, o.status, o.in_network, count(*) as n
    from old_rows o cross join lateral surveyor_count_keys(o.state, o.survey_types) k
    group by k.state, k.survey_type, o.status, o.in_network
  ) d
  where c.survey_type = d.survey_type and c.state = d.state and c.status = d.status
    and c.in_network = d.in_network;
  return null;
end;
$$;

-- Only rows whose counted columns changed move (contact edits and the like touch nothing).
create function surveyor_counts_move() returns trigger
language plpgsql as $$
begin
  update surveyor_counts c set n = c.n - d.n
  from (
    select k.state, k.survey_type, o.status, o.in_network, count(*) as n
    from old_rows o join new_rows r on r.id = o.id
    cross join lateral surveyor_count_keys(o.state, o.survey_types) k
    where (o.state, o.survey_types, o.status, o.in_network)
      is distinct from (r.state, r.survey_types, r.status, r.in_network)
    group by k.state, k.survey_type, o.status, o.in_network
  ) d
  where c.survey_type = d.survey_type and c.state = d.state and c.status = d.status
    and c.in_network = d.in_network;
  insert into surveyor_counts (state, survey_type, status, in_network, n)
  select k.state, k.survey_type, r.status, r.in_network, count(*)
  from old_rows o join new_rows r on r.id = o.id
  cross join lateral surveyor_count_keys(r.state, r.survey_types) k
  where (o.state, o.survey_types, o.status, o.in_network)
    is distinct from (r.state, r.survey_types, r.status, r.in_network)
  group by k.state, k.survey_type, r.status, r.in_network
  order by k.survey_type, k.state, r.status, r.in_network
  on conflict (survey_type, state, status, in_network)
    do update set n = surveyor_counts.n + excluded.n;
  return null;
end;
$$;

create trigger surveyor_counts_insert after insert on surveyors
  referencing new table as new_rows
  for each statement execute function surveyor_counts_add();
create trigger surveyor_counts_delete after delete on surveyors
  referencing old table as old_rows
  for each statement execute function surveyor_counts_remove();
create trigger surveyor_counts_update after update on surveyors
  referencing old table as old_rows new table as new_rows
  for each statement execute function surveyor_counts_move();

-- Surveyors already stored (0008 may have been applied with data, e.g. a demo network).
insert into surveyor_counts (state, survey_type, status, in_network, n)
select k.state, k.survey_type, s.status, s.in_network, count(*)
from surveyors s cross join lateral surveyor_count_keys(s.state, s.survey_types) k
group by k.state, k.survey_type, s.status, s.in_network;
