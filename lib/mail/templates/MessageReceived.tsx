/**
 * The MessageReceived email's data and editable words, without JSX: its component
 * (../components/MessageReceived.tsx) and jsx-email are loaded on the first email rendered
 * (lib/mail/render.tsx), so the admin pages and the copy editor never load them.
 */
import type { TemplateCopyDef } from "../copy.ts";
import {
  bodyBlock,
  buttonBlock,
  greetingBlock,
  headingBlock,
  previewBlock,
  reasonBlock,
} from "./_copy.tsx";

/** Data of the email telling someone a message is waiting in a survey's conversation. */
export interface MessageReceivedProps {
  name: string;
  /** Who wrote: the client's name, the firm's name, or "Meridian support". */
  senderName: string;
  surveyTypeName: string;
  /** The property's address. */
  address: string;
  /** The message as written (plain text; shown as text, never as HTML). */
  messageText: string;
  /** The page with the conversation. */
  threadUrl: string;
}

/** The editable blocks of the new-message email. */
export type MessageReceivedBlock =
  | "preview"
  | "heading"
  | "greeting"
  | "body"
  | "button"
  | "footnote"
  | "reason";

/** The new-message email's words. The message itself stays in the code, quoted as text. */
export const messageReceivedCopy: TemplateCopyDef<MessageReceivedProps, MessageReceivedBlock> = {
  variables: {
    name: "The recipient's name",
    senderName: 'Who wrote the message (a name, a company, or "Meridian support")',
    surveyTypeName: 'The survey type ("Boundary Survey")',
    address: "The property's address",
  },
  values: ({ name, senderName, surveyTypeName, address }) => ({
    name,
    senderName,
    surveyTypeName,
    address,
  }),
  subject: "New message from {senderName} about {address}",
  blocks: {
    preview: previewBlock("{senderName} wrote about the {surveyTypeName} at {address}."),
    heading: headingBlock("You have a new message"),
    greeting: greetingBlock(),
    body: bodyBlock(
      "Message",
      "{senderName} wrote to you about the {surveyTypeName} at {address}:",
    ),
    button: buttonBlock("Read and reply"),
    footnote: bodyBlock(
      "Small print under the button",
      "Reply on Meridian, not to this email. While the conversation stays unread we email you about it at most every 15 minutes.",
    ),
    reason: reasonBlock(
      "You received this email because you take part in a survey's conversation on Meridian.",
    ),
  },
};
