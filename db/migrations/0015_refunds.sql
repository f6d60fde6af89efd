-- Returns (issue 11): the indexes the return requests are read by.

-- The admin queue by status: pending oldest first, decided newest first; each page an index walk.
create index lead_refund_requests_status_idx
  on lead_refund_requests (status, created_at, id);
-- A purchase's requests (the buyer's form shows the latest; the cascade from a purchase).
create index lead_refund_requests_purchase_idx
  on lead_refund_requests (lead_purchase_id, created_at desc);
