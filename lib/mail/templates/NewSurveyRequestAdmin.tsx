/**
 * The NewSurveyRequestAdmin email's data and editable words, without JSX: its component
 * (../components/NewSurveyRequestAdmin.tsx) and jsx-email are loaded on the first email rendered
 * (lib/mail/render.tsx), so the admin pages and the copy editor never load them.
 */
import type { TemplateCopyDef } from "../copy.ts";
import { bodyBlock, buttonBlock, headingBlock, previewBlock, reasonBlock } from "./_copy.tsx";

/** Data of the admin notice about a new survey request. */
export interface NewSurveyRequestAdminProps {
  surveyId: string;
  clientName: string;
  address: string;
  surveyTypeName: string;
  adminUrl: string;
  /**
   * Whether automatic dispatch (AUTO_DISPATCH) was on when the request came in: then the app
   * matches and notifies surveyors by itself, else an admin does it. Absent: off.
   */
  isAutoDispatch?: boolean;
}

/** The editable blocks of the admin notice. */
export type NewSurveyRequestAdminBlock =
  | "preview"
  | "heading"
  | "summary"
  | "reference"
  | "nextStepAuto"
  | "nextStepManual"
  | "button"
  | "reason";

/**
 * The admin notice's words. What happens next has one block per dispatch mode; the email shows
 * the one that was in force when the request came in.
 */
export const newSurveyRequestAdminCopy: TemplateCopyDef<
  NewSurveyRequestAdminProps,
  NewSurveyRequestAdminBlock
> = {
  variables: {
    clientName: "The name of the client who made the request",
    surveyTypeName: 'The survey type ("Boundary Survey")',
    address: "The property's address",
    surveyId: "The request's reference number",
  },
  values: ({ clientName, surveyTypeName, address, surveyId }) => ({
    clientName,
    surveyTypeName,
    address,
    surveyId,
  }),
  subject: "New survey request: {surveyTypeName} at {address}",
  blocks: {
    preview: previewBlock("{clientName} requested a {surveyTypeName} at {address}."),
    heading: headingBlock("New survey request"),
    summary: bodyBlock(
      "What was requested (the survey type shows in bold)",
      "{clientName} requested a {surveyTypeName} for {address}.",
    ),
    reference: bodyBlock("Reference line", "Request reference: {surveyId}"),
    nextStepAuto: bodyBlock(
      "What happens next, when automatic dispatch is on",
      "Nearby in-network surveyors are being matched and notified automatically. If nobody covers the property, you will get a separate notice. The request's page shows the matches and who was notified.",
    ),
    nextStepManual: bodyBlock(
      "What happens next, when automatic dispatch is off",
      "Automatic dispatch is off: find nearby surveyors and notify them from the request's page in the admin dashboard.",
    ),
    button: buttonBlock("Open in the admin dashboard"),
    reason: reasonBlock("You received this email because you are a Meridian administrator."),
  },
};

/** The default words saying what happens next: by the app itself, or by the admin. */
export function nextStepText(isAutoDispatch: boolean): string {
  const { blocks } = newSurveyRequestAdminCopy;
  return (isAutoDispatch ? blocks.nextStepAuto : blocks.nextStepManual).text;
}
