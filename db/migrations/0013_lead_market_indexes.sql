-- The lead market's reads (db/lead_market.ts).

-- Available leads for a surveyor: the requests still being offered whose property lies in an
-- geo_box of the surveyor's service radius, found through this GiST index instead of walking
-- every open lead. Partial: only requests that can still be bought or claimed, so the index
-- stays the size of the live market however many requests have been assigned or completed.
-- The listing repeats this predicate word for word so the planner can use the index.
create index surveys_open_location_idx on surveys using gist (geo_point(lat, lng))
  where lat is not null and status in ('requested', 'surveyors_notified');


-- Each property found above is joined to its lead, if open, from this index alone (an
-- index-only probe per property instead of a heap read of the lead).
create index leads_open_survey_idx on leads (survey_id) include (id, created_at, expires_at)
  where status = 'open';
