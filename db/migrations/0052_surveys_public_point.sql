-- The lead market's public point of a property (db/lead_market.ts `publicPoint`: the exact
-- point rounded to 0.01°, about 1 km), stored with the survey. /leads measured the distance
-- from it to the surveyor's office for every candidate in the office's box, rounding lat and
-- lng through numeric and converting them to a point each time, twice a row (the filter, then
-- the shown distance): most of the list's time in Postgres. Stored, the distance is one
-- cube_distance. It is derived from lat and lng alone, so it can never disagree with them,
-- and it locates the property no more finely than the approximate point the lead already shows.
alter table surveys add column public_point cube
  generated always as (
    geo_point(round(lat::numeric, 2)::float8, round(lng::numeric, 2)::float8)
  ) stored;
