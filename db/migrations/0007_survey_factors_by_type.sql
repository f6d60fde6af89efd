-- A survey stores only the details its type is priced by (lib/survey_options.ts
-- SURVEY_TYPE_FACTORS): an elevation certificate has no lot size, terrain or vegetation.
-- Structures and corners to set keep their default of 0 ("none") for the types that do not ask.
alter table surveys alter column acreage drop not null;
alter table surveys alter column terrain drop not null;
alter table surveys alter column vegetation drop not null;
