-- One state model for a firm's licence (issue 19), enforced here so no path can break it:
--
--   prospect, invited  not verified (verified_at null): not in the market yet.
--   pending            'Licence check': joined, waiting for an admin; never verified.
--   active             the licence is verified: verified_at is set, with how (verified_via)
--                      and, for an admin, by whom (verified_by). Only active firms get leads
--                      and may buy or claim them.
--   paused             either: paused before or after its check. Making it active again
--                      records a verification if it never had one.
--
-- verified_via says who recorded the verification:
--   'admin'      an admin: Verify licence, or adding, editing or setting a firm active
--                (verified_by is that admin; null only once their account is deleted);
--   'seed'       a command made the firm active (the demo seed, scripts), no person checked;
--   'migration'  this repair, or 0012's backfill (firms active before checks were recorded).
--
-- Before this, 'active' with no verified_at was reachable from every path that made a firm
-- active except Verify (admin add or edit, the demo seed): the lead market called it "licence
-- check in progress" while Verify refused it as "already verified" and the directory counted it
-- as Active. Such firms stay active and are recorded as verified now by this migration: an
-- admin who chose Active, and the demo, meant the firm to work; moving them back to the
-- licence check would stop every one of them until an admin re-verified it.
alter table surveyors add column verified_via text
  check (verified_via in ('admin', 'seed', 'migration'));

update surveyors set verified_at = now(), verified_by = null, verified_via = 'migration'
where status = 'active' and verified_at is null;

-- A firm moved back to prospect, invited or the licence check keeps no earlier verification:
-- its status is what the admin chose last.
update surveyors set verified_at = null, verified_by = null
where status in ('prospect', 'invited', 'pending') and verified_at is not null;

update surveyors
set verified_via = case when verified_by is not null then 'admin' else 'migration' end
where verified_at is not null and verified_via is null;

alter table surveyors add constraint surveyors_verification_check check (
  (status <> 'active' or verified_at is not null)
  and (status not in ('prospect', 'invited', 'pending') or verified_at is null)
  and ((verified_at is null) = (verified_via is null))
  and (verified_by is null or verified_at is not null)
);
