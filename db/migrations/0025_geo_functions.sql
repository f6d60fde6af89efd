-- Off earthdistance (issue 19: a database owner that is not a superuser could not start the
-- app, because earthdistance is not a trusted extension). Migrations 0008–0014 now define and
-- use geo_point, geo_distance_m and geo_box (0008 gives the why); a database migrated before
-- that change has the earthdistance extension, its `earth` type in surveyors.location, and
-- indexes and generated columns over ll_to_earth and earth_box. This moves such a database to
-- exactly what a fresh one has. On a fresh database it rebuilds the same objects over empty
-- tables: the same statements serve both, so neither path is left untested.

-- What depends on earthdistance's functions: the open-request index (0013), and the stored
-- office point and coverage box with their index (0014; dropping the columns drops it).
drop index if exists surveys_open_location_idx;
alter table surveyors drop column if exists coverage;
alter table surveyors drop column if exists location;

-- The functions, as 0008 defines them (a database migrated before has none of them).
create or replace function geo_point(lat float8, lng float8) returns cube
  language sql immutable strict parallel safe
  return cube(cube(cube(6378168::float8 * cos(radians(lat)) * cos(radians(lng))),
    6378168::float8 * cos(radians(lat)) * sin(radians(lng))),
    6378168::float8 * sin(radians(lat)));

create or replace function geo_distance_m(a cube, b cube) returns float8
  language sql immutable parallel safe
  return 2 * 6378168::float8 * asin(case
    when cube_distance(a, b) > 2 * 6378168::float8 then 1::float8
    else cube_distance(a, b) / (2 * 6378168::float8) end);

create or replace function geo_box(center cube, radius_m float8) returns cube
  language sql immutable parallel safe
  return cube_enlarge(center, case
    when radius_m < 0 then 0::float8
    when radius_m > pi() * 6378168::float8 then 2 * 6378168::float8
    else 2 * 6378168::float8 * sin(radius_m / (2 * 6378168::float8)) end, 3);

-- The columns and indexes of 0013 and 0014, over the functions above.
alter table surveyors add column location cube
  generated always as (geo_point(lat, lng)) stored;
alter table surveyors add column coverage cube
  generated always as (geo_box(geo_point(lat, lng), service_radius_miles * 1609.344::float8))
  stored;
create index surveyors_coverage_idx on surveyors using gist (coverage, location)
  where coverage is not null and status in ('active', 'prospect', 'invited');
create index surveys_open_location_idx on surveys using gist (geo_point(lat, lng))
  where lat is not null and status in ('requested', 'surveyors_notified');

-- Nothing uses earthdistance any more. Drop it where this role may (it made it, or is a
-- superuser; always so on the embedded database); one a superuser made for another role is
-- left in place, unused, since only its owner can drop it.
do $$
begin
  if exists (
    select 1 from pg_extension
    where extname = 'earthdistance' and pg_has_role(extowner, 'usage')
  ) then
    drop extension earthdistance;
  end if;
end
$$;
