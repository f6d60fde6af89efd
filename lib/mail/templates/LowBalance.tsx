/**
 * The LowBalance email's data and editable words, without JSX: its component
 * (../components/LowBalance.tsx) and jsx-email are loaded on the first email rendered
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

/** Data of the low-balance notice. */
export interface LowBalanceProps {
  /** Whom it greets: the account holder's name. */
  name: string;
  companyName: string;
  /** The balance after the debit that took it low, formatted ("$32.50"). */
  balance: string;
  /** The threshold it fell below, formatted ("$50"). */
  threshold: string;
  /** The billing page (/surveyor/billing on the public URL). */
  billingUrl: string;
}

/** The editable blocks of the low-balance notice. */
export type LowBalanceBlock =
  | "preview"
  | "heading"
  | "greeting"
  | "body"
  | "button"
  | "footnote"
  | "reason";

/** The low-balance notice's words. */
export const lowBalanceCopy: TemplateCopyDef<LowBalanceProps, LowBalanceBlock> = {
  variables: {
    name: "The account holder's name",
    companyName: "The surveying company's name",
    balance: 'The balance left ("$32.50")',
    threshold: 'The low-balance mark it fell below ("$50")',
  },
  values: ({ name, companyName, balance, threshold }) => ({
    name,
    companyName,
    balance,
    threshold,
  }),
  subject: "Your Meridian balance is low ({balance})",
  blocks: {
    preview: previewBlock("{companyName}'s Meridian balance is {balance}."),
    heading: headingBlock("Your balance is running low"),
    greeting: greetingBlock(),
    body: bodyBlock(
      "Message (the balance shows in bold)",
      "{companyName}'s Meridian balance is now {balance}, below {threshold} — less than a typical lead costs. Leads you cannot pay for stay open to other surveyors.\n\nYour billing page says how to add credit and lists every charge and credit.",
    ),
    button: buttonBlock("Open billing"),
    footnote: bodyBlock(
      "Small print under the button",
      "We send this notice at most once a day, and only when your balance drops below {threshold}.",
    ),
    reason: reasonBlock(
      "You received this email because your Meridian surveyor balance fell below the low-balance mark.",
    ),
  },
};
