/** Props of the header's notifications dropdown. */
export interface NotificationsBellProps {
  /** Unread count known when the page rendered. */
  initialUnread?: number;
}

/** Notifications dropdown (stub until the notifications work lands). */
export default function NotificationsBell(_props: NotificationsBellProps) {
  return (
    <button type="button" className="btn btn--ghost btn--sm" aria-label="Notifications">
      <span aria-hidden="true">🔔</span>
    </button>
  );
}
