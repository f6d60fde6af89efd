import { STATUS_INFO, type SurveyStatus } from "../../lib/survey_status.ts";

/**
 * The status as a coloured badge with its label; `label` replaces it where the status alone
 * would claim too much (an assignment the surveyor has not accepted yet).
 */
export function StatusBadge({ status, label }: { status: SurveyStatus; label?: string }) {
  const info = STATUS_INFO[status];
  return <span className={`badge badge--${info.badge}`}>{label ?? info.label}</span>;
}
