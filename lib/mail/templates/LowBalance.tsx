import { Heading, Text } from "jsx-email";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";

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

/** Subject line of the low-balance notice. */
export function lowBalanceSubject({ balance }: LowBalanceProps): string {
  return `Your Meridian balance is low (${balance})`;
}

/**
 * Sent (at most once a day) when a lead purchase or claim fee takes a surveyor's balance below
 * the low-balance threshold: what is left, and how to add credit before the next lead.
 */
export function LowBalance(
  { name, companyName, balance, threshold, billingUrl }: LowBalanceProps,
) {
  return (
    <EmailLayout
      preview={`${companyName}'s Meridian balance is ${balance}.`}
      reason="You received this email because your Meridian surveyor balance fell below the low-balance mark."
    >
      <Heading as="h1" style={headingStyle}>Your balance is running low</Heading>
      <Text style={textStyle}>Hi {name},</Text>
      <Text style={textStyle}>
        {companyName}'s Meridian balance is now <strong>{balance}</strong>, below {threshold}{" "}
        — less than a typical lead costs. Leads you cannot pay for stay open to other surveyors.
      </Text>
      <Text style={textStyle}>
        Your billing page says how to add credit and lists every charge and credit.
      </Text>
      <ActionButton href={billingUrl}>Open billing</ActionButton>
      <Text style={mutedStyle}>
        We send this notice at most once a day, and only when your balance drops below {threshold}.
      </Text>
    </EmailLayout>
  );
}
