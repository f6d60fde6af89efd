-- A set-password link is either a forgot-password reset or an invitation (a technician's or a
-- surveyor's first password). They share the table and the /reset-password page, but an
-- invitation reads "Choose your password", signs the person in and sends no "password
-- changed" email, so each token records which it is.
alter table password_reset_tokens
  add column purpose text not null default 'reset'
    constraint password_reset_tokens_purpose_check check (purpose in ('reset', 'invitation'));

-- Live links sent before this column: a reset link lasts exactly an hour, an invitation a week.
update password_reset_tokens set purpose = 'invitation'
where expires_at > created_at + interval '2 hours';
