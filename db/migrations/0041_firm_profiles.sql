-- Public firm profiles (issue 22): a review gets a short public text the client chooses to
-- write (beside the private comment the firm and Meridian read), and the firm may answer it
-- once, shown under the review on /firms/{slug}.
alter table surveyor_reviews add column public_text text
  check (length(public_text) between 1 and 1000);
alter table surveyor_reviews add column reply text check (length(reply) between 1 and 1000);
alter table surveyor_reviews add column replied_at timestamptz;
alter table surveyor_reviews add column replied_by uuid references users (id) on delete set null;
alter table surveyor_reviews add constraint surveyor_reviews_reply_pair_check
  check ((reply is null) = (replied_at is null));

-- The profile's "jobs completed on Meridian": completed assignments per firm.
create index survey_assignments_completed_idx on survey_assignments (surveyor_id)
  where status = 'completed';
