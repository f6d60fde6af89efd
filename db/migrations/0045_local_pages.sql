-- Local pages (issue 24): /land-surveyors/{state}, /land-surveyors/{state}/{town} and
-- /services/{type}/{state}/{town} are built on first request and cached. What a page shows
-- changes when a public firm (active, verified) licensed in its state changes, when a survey
-- in its state is completed, or when a new pricing version is saved. Triggers count those
-- changes per state (scope = the state code) and for every page (scope '*', pricing), so a
-- cached page is served only while the counters it was built under are unchanged, on every
-- instance: no code path that changes these rows can forget to invalidate.
create table local_page_versions (
  scope text primary key check (scope = '*' or scope ~ '^[A-Z]{2}$'),
  version bigint not null default 1,
  -- When the last change in this scope committed: the pages' sitemap lastmod.
  changed_at timestamptz not null default now()
);

-- Bumps each scope in `scopes` once. Sorted, so two transactions bumping the same states
-- take the row locks in the same order and cannot deadlock.
create function local_pages_bump(scopes text[]) returns void
  language sql volatile
  as $$
    insert into local_page_versions as v (scope, version, changed_at)
    select distinct s, 1, now() from unnest(scopes) as s
    where s is not null and (s = '*' or s ~ '^[A-Z]{2}$')
    order by 1
    on conflict (scope) do update set version = v.version + 1, changed_at = now()
  $$;

-- A firm counts while active and verified; the pages show its name, office, radius, licence
-- states and survey types. A change to any of those, of a firm that counts before or after,
-- bumps every licence state it has before and after.
create function surveyors_local_pages() returns trigger
  language plpgsql
  as $$
  begin
    if tg_op = 'INSERT' then
      if new.status = 'active' and new.verified_at is not null then
        perform local_pages_bump(new.license_states);
      end if;
      return null;
    end if;
    if tg_op = 'DELETE' then
      if old.status = 'active' and old.verified_at is not null then
        perform local_pages_bump(old.license_states);
      end if;
      return null;
    end if;
    if ((old.status = 'active' and old.verified_at is not null)
        or (new.status = 'active' and new.verified_at is not null))
      and (old.status, old.verified_at is null, old.license_states, old.lat, old.lng,
          old.service_radius_miles, old.company_name, old.survey_types, old.city, old.state)
        is distinct from (new.status, new.verified_at is null, new.license_states, new.lat,
          new.lng, new.service_radius_miles, new.company_name, new.survey_types, new.city,
          new.state)
    then
      perform local_pages_bump(old.license_states || new.license_states);
    end if;
    return null;
  end
  $$;

create trigger surveyors_local_pages after insert or update or delete on surveyors
  for each row execute function surveyors_local_pages();

-- A survey entering or leaving 'completed' changes the recent surveys of its state's pages.
create function surveys_local_pages() returns trigger
  language plpgsql
  as $$
  begin
    if tg_op = 'INSERT' then
      if new.status = 'completed' then perform local_pages_bump(array[new.state]); end if;
    elsif tg_op = 'DELETE' then
      if old.status = 'completed' then perform local_pages_bump(array[old.state]); end if;
    elsif (old.status = 'completed') <> (new.status = 'completed')
      or (new.status = 'completed' and (old.completed_date, old.state, old.acreage,
        old.quoted_price_cents, old.lat, old.lng) is distinct from (new.completed_date,
        new.state, new.acreage, new.quoted_price_cents, new.lat, new.lng))
    then
      perform local_pages_bump(array[old.state, new.state]);
    end if;
    return null;
  end
  $$;

create trigger surveys_local_pages after insert or update or delete on surveys
  for each row execute function surveys_local_pages();

-- A new pricing version changes every price on every page.
create function pricing_configs_local_pages() returns trigger
  language plpgsql
  as $$
  begin
    perform local_pages_bump(array['*']);
    return null;
  end
  $$;

create trigger pricing_configs_local_pages after insert or update or delete on pricing_configs
  for each row execute function pricing_configs_local_pages();

-- The town pages' recent surveys: the completed ones of a state, newest first.
create index surveys_completed_state_idx on surveys (state, completed_date desc)
  where status = 'completed';
