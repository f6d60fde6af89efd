import { STATUS_INFO, type SurveyStatus } from "../../lib/survey_status.ts";

/** The status as a coloured badge with its label. */
export function StatusBadge({ status }: { status: SurveyStatus }) {
  const info = STATUS_INFO[status];
  return <span className={`badge badge--${info.badge}`}>{info.label}</span>;
}
