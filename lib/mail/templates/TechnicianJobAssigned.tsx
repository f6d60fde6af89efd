/**
 * The TechnicianJobAssigned email's data and editable words, without JSX: its component
 * (../components/TechnicianJobAssigned.tsx) and jsx-email are loaded on the first email rendered
 * (lib/mail/render.tsx), so the admin pages and the copy editor never load them.
 */
import type { TemplateCopyDef } from "../copy.ts";
import { bodyBlock, buttonBlock, greetingBlock, headingBlock, reasonBlock } from "./_copy.tsx";

/** Data of the email telling a technician they were assigned a job. */
export interface TechnicianJobAssignedProps {
  name: string;
  /** The firm doing the job, or "Meridian" for staff. */
  companyName: string;
  surveyTypeName: string;
  /** The property's full address. */
  address: string;
  /** "Tuesday, March 3, 2026", or null while the visit is not booked. */
  visitDate: string | null;
  /** The surveyor's notes for the crew, or null. */
  notes: string | null;
  /** The technician's page of the job. */
  jobUrl: string;
}

/** The editable blocks of the technician's job email. */
export type TechnicianJobAssignedBlock =
  | "preview"
  | "previewUnscheduled"
  | "heading"
  | "greeting"
  | "body"
  | "button"
  | "footnote"
  | "reason";

/**
 * The technician's job email's words. The inbox preview has one block for a booked visit and
 * one for a visit not booked yet. The job's facts box (with the crew notes) stays in the code.
 */
export const technicianJobAssignedCopy: TemplateCopyDef<
  TechnicianJobAssignedProps,
  TechnicianJobAssignedBlock
> = {
  variables: {
    name: "The technician's name",
    companyName: 'The surveying company doing the job ("Meridian" for Meridian\'s own staff)',
    surveyTypeName: 'The survey type ("Boundary Survey")',
    address: "The property's address",
    visitDate: 'The day of the visit ("Tuesday, March 3, 2026"), or "not scheduled yet"',
  },
  values: ({ name, companyName, surveyTypeName, address, visitDate }) => ({
    name,
    companyName,
    surveyTypeName,
    address,
    visitDate: visitDate ?? "not scheduled yet",
  }),
  subject: "New job: {surveyTypeName} at {address}",
  blocks: {
    preview: {
      label: "Inbox preview when the visit is booked",
      text: "{surveyTypeName} at {address} on {visitDate}.",
    },
    previewUnscheduled: {
      label: "Inbox preview while the visit is not booked",
      text: "{surveyTypeName} at {address}.",
    },
    heading: headingBlock("You were assigned a job"),
    greeting: greetingBlock(),
    body: bodyBlock(
      "Message",
      "{companyName} assigned you the fieldwork of a {surveyTypeName}.",
    ),
    button: buttonBlock("Open the job"),
    footnote: bodyBlock(
      "Small print under the button",
      "The job's page has the access notes, the client's phone and the checklist to complete on site. Sign in with this email address.",
    ),
    reason: reasonBlock(
      "You received this email because you are on {companyName}'s field crew on Meridian.",
    ),
  },
};
