-- Matching by coverage (lib/matching.ts candidateQuery). The two radius tiers of 0011 searched
-- the area around the property and then threw away every firm whose own radius did not reach
-- it: where fewer than the pool qualified (most of rural America) the walk read its whole
-- 100-mile box, some 3,700 rows at 50,000 surveyors, for a hundred matches, and recomputed
-- ll_to_earth for each. Now each firm's coverage is stored as the geo_box of its own service
-- radius around its office, and the search asks the opposite question — whose coverage holds
-- this point — through one GiST index: it reads the firms that can reach the property (plus
-- the corners of their boxes) and nothing else, whatever their radius, so the tiers go.
-- Both stored columns are derived from lat, lng and service_radius_miles (null without a
-- location) and can never disagree with them.
alter table surveyors add column location cube
  generated always as (geo_point(lat, lng)) stored;
alter table surveyors add column coverage cube
  generated always as (geo_box(geo_point(lat, lng), service_radius_miles * 1609.344::float8))
  stored;
-- Paused records are never candidates, so they are left out of the index. The office point is
-- the second column so the search can walk the boxes that hold the property nearest office
-- first (ORDER BY location <-> point) and stop at the pool: in a metro thousands of firms
-- reach the property and only the nearest few hundred are scored.
create index surveyors_coverage_idx on surveyors using gist (coverage, location)
  where coverage is not null and status in ('active', 'prospect', 'invited');
drop index surveyors_location_near_idx;
drop index surveyors_location_far_idx;
