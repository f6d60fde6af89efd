-- Returns (issue 11): the indexes the return requests are read by.

-- The admin queue by status: pending oldest first, decided newest first; each page an index walk.
create index lead_refund_requests_status_idx
  on lead_refund_requests (status, created_at, id);
-- A purchase's requests (the buyer's form shows the latest; the cascade from a purchase).
create index lead_refund_requests_purchase_idx
  on lead_refund_requests (lead_purchase_id, created_at desc);

-- Deleting a request cascades to its lead's purchases, and a ledger entry's link to a purchase
-- (or to a deleted user) is ON DELETE SET NULL: that update clears a link and nothing else.
-- The append-only trigger refused it, so no request that had a buyer could be deleted. Now it
-- lets exactly that through; any other change to an entry is still refused.
create or replace function surveyor_ledger_append_only() returns trigger
language plpgsql as $$
begin
  if (new.id, new.surveyor_id, new.kind, new.amount_cents, new.balance_after_cents,
      new.reference, new.note, new.created_at)
    is not distinct from
    (old.id, old.surveyor_id, old.kind, old.amount_cents, old.balance_after_cents,
      old.reference, old.note, old.created_at)
    and (new.lead_purchase_id is null or new.lead_purchase_id = old.lead_purchase_id)
    and (new.actor_id is null or new.actor_id = old.actor_id)
  then
    return new;
  end if;
  raise exception 'the ledger is append-only';
end;
$$;
