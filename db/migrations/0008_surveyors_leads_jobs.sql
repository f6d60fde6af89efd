-- The supply side: surveyor records (a firm or a licensed surveyor, with or without an
-- account), their contacts and contact history, the lead each survey is offered as, who it
-- was offered to, and the durable jobs table that runs dispatch after a request is answered.

-- Distance on a sphere with a GiST index (cube), and trigram search of names (pg_trgm). Both
-- ship with Postgres 15 (contrib) and PGlite (loaded by db/embedded.ts), and both are trusted
-- extensions: a database owner that is not a superuser may create them.
create extension if not exists cube;
create extension if not exists pg_trgm;

-- Points on the earth as 3-D cubes, and great-circle distances between them: what the
-- earthdistance extension's ll_to_earth, earth_distance and earth_box compute (same radius,
-- same formulas), written here because earthdistance is not a trusted extension and only a
-- superuser may create it. The bodies are SQL-standard (`return`), so the cube functions they
-- call are bound when they are created, not looked up in each caller's search_path; they are
-- immutable (usable in indexes and generated columns) and simple enough to be inlined.
-- (This migration once created earthdistance instead; 0025_geo_functions.sql moves a database
-- made then onto these functions.)

-- The point at latitude `lat`, longitude `lng` (degrees) on a sphere of the earth's radius in
-- metres (6,378,168 m, earthdistance's earth()).
create function geo_point(lat float8, lng float8) returns cube
  language sql immutable strict parallel safe
  return cube(cube(cube(6378168::float8 * cos(radians(lat)) * cos(radians(lng))),
    6378168::float8 * cos(radians(lat)) * sin(radians(lng))),
    6378168::float8 * sin(radians(lat)));

-- The great-circle distance in metres between two geo_points, from their straight-line
-- distance (the chord); null when either is null.
create function geo_distance_m(a cube, b cube) returns float8
  language sql immutable parallel safe
  return 2 * 6378168::float8 * asin(case
    when cube_distance(a, b) > 2 * 6378168::float8 then 1::float8
    else cube_distance(a, b) / (2 * 6378168::float8) end);

-- The cube around geo_point `center` that holds every point within `radius_m` metres of it on
-- the sphere (the chord of that arc in each direction), for a GiST search with `@>`; null
-- when either is null.
create function geo_box(center cube, radius_m float8) returns cube
  language sql immutable parallel safe
  return cube_enlarge(center, case
    when radius_m < 0 then 0::float8
    when radius_m > pi() * 6378168::float8 then 2 * 6378168::float8
    else 2 * 6378168::float8 * sin(radius_m / (2 * 6378168::float8)) end, 3);

create table surveyors (
  id uuid primary key default gen_random_uuid(),
  company_name text not null check (length(company_name) between 1 and 200),
  principal_name text check (length(principal_name) <= 120),
  license_number text check (length(license_number) <= 60),
  -- Two-letter codes of the states the principal is licensed in.
  license_states text[] not null default '{}',
  email text check (length(email) <= 254),
  phone text check (length(phone) <= 40),
  website text check (length(website) <= 300),
  address text check (length(address) <= 300),
  city text check (length(city) <= 120),
  state text check (state ~ '^[A-Z]{2}$'),
  zip text check (length(zip) <= 10),
  lat double precision check (lat between -90 and 90),
  lng double precision check (lng between -180 and 180),
  -- Matching searches a box of the largest allowed radius (lib/matching.ts MAX_RADIUS_MILES)
  -- around the property, then keeps those whose own radius reaches it.
  service_radius_miles integer not null default 50 check (service_radius_miles between 1 and 300),
  survey_types text[] not null default '{}',
  in_network boolean not null default false,
  status text not null default 'prospect'
    check (status in ('prospect', 'invited', 'active', 'paused')),
  source text not null default 'manual' check (source in ('manual', 'place', 'signup')),
  place_id text check (length(place_id) <= 300),
  rating double precision check (rating between 0 and 5),
  review_count integer check (review_count >= 0),
  -- The surveyor's account (role surveyor), when they have one; one record per account.
  user_id uuid references users (id) on delete set null,
  -- Ordered list addressed by index (the spec's API): [{name, title, email, phone, isPrimary}].
  -- Edited by single statements on the row (append, replace, remove at an index), so
  -- concurrent edits serialise on the row lock and never lose an entry.
  contacts jsonb not null default '[]'::jsonb check (jsonb_typeof(contacts) = 'array'),
  notes text check (length(notes) <= 4000),
  -- Rows made by `deno task seed --demo`.
  is_demo boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((lat is null) = (lng is null))
);
create unique index surveyors_place_id_key on surveyors (place_id) where place_id is not null;
create unique index surveyors_user_id_key on surveyors (user_id) where user_id is not null;
-- Matching: surveyors near a point, without a table scan.
create index surveyors_location_idx on surveyors using gist (geo_point(lat, lng))
  where lat is not null;
-- The directory: alphabetical pages, and search by name or city.
create index surveyors_company_name_idx on surveyors (lower(company_name), id);
create index surveyors_search_idx on surveyors
  using gin ((lower(company_name || ' ' || coalesce(city, ''))) gin_trgm_ops);
create index surveyors_state_idx on surveyors (state, lower(company_name), id);

-- Dated entries of every contact with a surveyor. Append-only: no update, no delete (the
-- trigger below), newest first on the detail page.
create table surveyor_contact_history (
  id uuid primary key default gen_random_uuid(),
  surveyor_id uuid not null references surveyors (id) on delete cascade,
  channel text not null check (channel in ('call', 'email', 'text', 'meeting', 'note')),
  summary text not null check (length(summary) between 1 and 2000),
  outcome text check (length(outcome) <= 500),
  next_follow_up date,
  author_id uuid references users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index surveyor_contact_history_surveyor_idx
  on surveyor_contact_history (surveyor_id, created_at desc, id desc);
create index surveyor_contact_history_follow_up_idx
  on surveyor_contact_history (next_follow_up) where next_follow_up is not null;

create function surveyor_contact_history_append_only() returns trigger
language plpgsql as $$
begin
  raise exception 'contact history is append-only';
end;
$$;
create trigger surveyor_contact_history_no_update before update on surveyor_contact_history
  for each row execute function surveyor_contact_history_append_only();

-- Who was matched for a survey (ids, names, distance, score, in-network, source) and when:
-- the find-surveyors cache.
alter table surveys add column nearby_surveyors jsonb;
alter table surveys add column nearby_surveyors_found_at timestamptz;
alter table surveys add constraint surveys_assigned_surveyor_fkey
  foreign key (assigned_surveyor_id) references surveyors (id) on delete set null;

-- One lead per survey: the job offered to surveyors at a price.
create table leads (
  id uuid primary key default gen_random_uuid(),
  survey_id uuid not null unique references surveys (id) on delete cascade,
  price_cents integer not null check (price_cents >= 0),
  -- The formula's inputs and the configuration version (lib/lead_pricing.ts), so the price
  -- can always be explained the way it was computed.
  pricing jsonb not null,
  max_buyers integer not null default 3 check (max_buyers between 1 and 10),
  status text not null default 'open' check (status in ('open', 'closed')),
  expires_at timestamptz not null,
  closed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index leads_open_idx on leads (expires_at) where status = 'open';

-- Everyone a lead was offered to, once each: in-network surveyors get an in-app notification
-- and an email ('notified'); prospects with an address get an email invitation ('invited').
create table lead_recipients (
  lead_id uuid not null references leads (id) on delete cascade,
  surveyor_id uuid not null references surveyors (id) on delete cascade,
  kind text not null check (kind in ('notified', 'invited')),
  -- What became of the offer; the lead market (buy, claim, decline) moves it on.
  outcome text not null default 'sent'
    check (outcome in ('sent', 'viewed', 'purchased', 'claimed', 'declined', 'expired')),
  distance_miles double precision,
  notified_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (lead_id, surveyor_id)
);
create index lead_recipients_surveyor_idx on lead_recipients (surveyor_id, notified_at desc);

-- Durable background jobs (db/jobs.ts): polled with FOR UPDATE SKIP LOCKED, so any number of
-- workers in any number of instances take each due job once; retried with backoff.
create table jobs (
  id bigint generated always as identity primary key,
  kind text not null check (length(kind) between 1 and 60),
  payload jsonb not null default '{}'::jsonb,
  -- At most one pending job per key (e.g. 'dispatch:<survey id>').
  dedupe_key text,
  run_at timestamptz not null default now(),
  attempts integer not null default 0,
  max_attempts integer not null default 8 check (max_attempts >= 1),
  locked_until timestamptz,
  last_error text,
  done_at timestamptz,
  failed_at timestamptz,
  created_at timestamptz not null default now()
);
create index jobs_due_idx on jobs (run_at, id) where done_at is null and failed_at is null;
create unique index jobs_pending_dedupe_key on jobs (dedupe_key)
  where dedupe_key is not null and done_at is null and failed_at is null;

-- New notification kinds: a lead offered to a surveyor, and a request nobody covers (admins).
alter table notifications drop constraint notifications_kind_check;
alter table notifications add constraint notifications_kind_check check (kind in (
  'survey_requested', 'survey_status_changed', 'lead_offered', 'dispatch_unmatched'
));

-- Demo accounts made by `deno task seed --demo`.
alter table users add column is_demo boolean not null default false;
