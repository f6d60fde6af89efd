-- Admins hear about a surveyor's return request ('refund_requested') and a lead marked won
-- ('lead_won') in the bell (issue 21). The list is 0016's plus the two new kinds.
alter table notifications drop constraint notifications_kind_check;
alter table notifications add constraint notifications_kind_check check (kind in (
  'survey_requested', 'survey_status_changed', 'lead_offered', 'dispatch_unmatched',
  'lead_bought', 'lead_claimed', 'surveyor_assigned', 'assignment_status_changed',
  'refund_decided', 'low_balance', 'surveyor_joined', 'technician_assigned',
  'technician_unassigned', 'survey_delivered', 'surveyor_reviewed',
  'refund_requested', 'lead_won'
));
