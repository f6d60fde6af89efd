-- The coverage map of /surveyors (db/surveyors.ts listSurveyorLocations) draws the first 100
-- records of the directory's order with their office point. The 0010 indexes carry every
-- column the map needs but lat and lng, so each of the hundred was also read from the heap
-- (three buffers apiece, ~300 per view). With the point in them the map is one index-only
-- walk, like the table's page.
drop index surveyors_directory_idx;
create index surveyors_directory_idx on surveyors (lower(company_name), id)
  include (company_name, state, status, in_network, survey_types, lat, lng);
drop index surveyors_directory_state_idx;
create index surveyors_directory_state_idx on surveyors (state, lower(company_name), id)
  include (company_name, status, in_network, survey_types, lat, lng);
