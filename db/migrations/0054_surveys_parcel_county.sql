-- The parcel's county, as a column of its own. The lead market shows it on every lead it lists
-- (db/lead_market.ts `leadColumns`), before purchase, where the parcel itself is never shown.
-- Read from `parcel`, every listed lead fetched and decompressed the whole parcel, which holds
-- the provider's GeoJSON outline (kilobytes, stored out of line), to read one short name, as
-- the pricing configuration's claim fee multiple was read before 0053. Derived from `parcel`
-- alone, so the two never disagree; null when the parcel has no county given as text.
alter table surveys add column parcel_county text
  generated always as (
    case when jsonb_typeof(parcel -> 'county') = 'string' then parcel ->> 'county' end
  ) stored;
