-- Issue 22's leftovers: a client is told (bell and email) when the firm they reviewed replies.
alter table notifications drop constraint notifications_kind_check;
alter table notifications add constraint notifications_kind_check check (kind in (
  'survey_requested', 'survey_status_changed', 'lead_offered', 'dispatch_unmatched',
  'lead_bought', 'lead_claimed', 'surveyor_assigned', 'assignment_status_changed',
  'refund_decided', 'low_balance', 'surveyor_joined', 'technician_assigned',
  'technician_unassigned', 'survey_delivered', 'surveyor_reviewed',
  'refund_requested', 'lead_won',
  'proposal_received', 'proposal_accepted', 'proposal_declined',
  'message_received',
  'review_replied'
));
