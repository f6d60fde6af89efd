-- Buys and claims are idempotent by a key the client sends (Idempotency-Key): the key is kept
-- on the purchase it made, so a retry after a lost answer finds that purchase instead of
-- buying again (or answering "You already bought this lead."). One key per surveyor makes at
-- most one purchase; the unique index decides between two racing requests.
alter table lead_purchases add column client_request_id uuid;
create unique index lead_purchases_client_request_key
  on lead_purchases (surveyor_id, client_request_id) where client_request_id is not null;
