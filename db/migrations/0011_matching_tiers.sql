-- Matching in two tiers (lib/matching.ts candidateQuery). One GiST index searched with a box of
-- the largest allowed radius (300 miles) read every surveyor within 300 miles of the property,
-- though almost every firm serves 100 miles or less: at 50,000 surveyors that was thousands of
-- rows for a few dozen matches. Each tier now has its own partial index and is searched with
-- the box of its own largest radius: firms with a radius of at most 100 miles in a 100-mile
-- box (a ninth of the area), the rare wider ones in the 300-mile box. The tier bound (100) is
-- written as the same literal in the query, so the planner can prove each index applies.
create index surveyors_location_near_idx on surveyors using gist (geo_point(lat, lng))
  where lat is not null and service_radius_miles <= 100;
create index surveyors_location_far_idx on surveyors using gist (geo_point(lat, lng))
  where lat is not null and service_radius_miles > 100;
-- Every located surveyor is in exactly one of the two; the single index only cost writes.
drop index surveyors_location_idx;
