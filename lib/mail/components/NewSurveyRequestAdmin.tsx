import { Heading } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import type {
  NewSurveyRequestAdminBlock,
  NewSurveyRequestAdminProps,
} from "../templates/NewSurveyRequestAdmin.tsx";

/** Sent to admins when a client submits a survey request, so it can be matched quickly. */
export function NewSurveyRequestAdmin(
  { surveyTypeName, adminUrl, isAutoDispatch = false, copy }:
    & NewSurveyRequestAdminProps
    & { copy: FilledCopy<NewSurveyRequestAdminBlock> },
) {
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.summary} style={textStyle} bold={surveyTypeName} />
      <Paragraphs text={blocks.reference} style={mutedStyle} />
      <Paragraphs
        text={isAutoDispatch ? blocks.nextStepAuto : blocks.nextStepManual}
        style={textStyle}
      />
      <ActionButton href={adminUrl}>{blocks.button}</ActionButton>
    </EmailLayout>
  );
}
