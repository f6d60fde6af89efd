-- The admin's free-text search of requests (`q` on /admin-dashboard and GET /api/surveys,
-- db/surveys.ts `listConditions`): an address, a formatted address, or the client's name or
-- email, containing the text. `ilike '%…%'` had no index, so every search read all the requests
-- and every user: at 100,000 requests 177 ms a search on the embedded database
-- (bench/surveys_list.ts). pg_trgm's GIN indexes answer `ilike` with a pattern of three
-- characters or more (0008 creates the extension, on Postgres and in PGlite); the search reads
-- the clients it names through `= any(array(…))`, which an index on `client_id` can answer, so
-- the four conditions combine as one bitmap of index scans.
create index surveys_address_trgm_idx on surveys using gin (address gin_trgm_ops);
create index surveys_formatted_address_trgm_idx on surveys
  using gin (formatted_address gin_trgm_ops);
create index users_full_name_trgm_idx on users using gin (full_name gin_trgm_ops);
create index users_email_trgm_idx on users using gin (email gin_trgm_ops);
