-- The lead claim fee multiple of each pricing configuration, as a column of its own. The lead
-- market reads it for every lead it lists (db/lead_market.ts `leadColumns`: a claim is charged
-- at the multiple of the configuration the lead was priced with); read from `config`, every
-- row decompressed the whole configuration (it is stored compressed), which was the largest
-- single cost of /leads in Postgres (pglz_decompress, 5% of the backends' CPU under perf).
-- Derived from `config` alone, so it can never disagree with it; null when the configuration
-- has no lead section (the caller then uses the default).
alter table pricing_configs add column lead_claim_fee_multiple float8
  generated always as ((config -> 'lead' ->> 'claimFeeMultiple')::float8) stored;
