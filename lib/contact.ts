/**
 * Contact form rules shared by the ContactForm island (instant feedback) and POST /api/contact
 * (the authority), so both say the same thing about the same input.
 */

/** Topics a visitor can pick, stored by `value`. */
export const CONTACT_TOPICS = [
  { value: "quote", label: "A quote or survey request" },
  { value: "scheduling", label: "Scheduling or turnaround" },
  { value: "billing", label: "Pricing and payment" },
  { value: "surveyor", label: "Joining as a surveyor" },
  { value: "account", label: "My account" },
  { value: "privacy", label: "Privacy or a data request" },
  { value: "other", label: "Something else" },
] as const;

/** A stored topic value. */
export type ContactTopic = typeof CONTACT_TOPICS[number]["value"];

/** The topic values, for validation. */
export const CONTACT_TOPIC_VALUES = CONTACT_TOPICS.map((t) => t.value) as [
  ContactTopic,
  ...ContactTopic[],
];

/** Length limits per field. */
export const CONTACT_LIMITS = {
  name: 120,
  email: 254,
  phone: 40,
  messageMin: 10,
  messageMax: 5000,
} as const;

/** Messages shown for invalid fields, by the island and the API alike. */
export const CONTACT_MESSAGES = {
  name: "Please enter your name",
  nameLong: `Name must be at most ${CONTACT_LIMITS.name} characters`,
  email: "Please enter a valid email address",
  phone: `Phone must be at most ${CONTACT_LIMITS.phone} characters`,
  topic: "Please choose a topic",
  messageShort: `Message must be at least ${CONTACT_LIMITS.messageMin} characters`,
  messageLong: `Message must be at most ${CONTACT_LIMITS.messageMax} characters`,
  sent: "Thanks — we'll reply within one business day.",
  rateLimited: "You've sent several messages in the last hour. Please try again later.",
} as const;

/** Values of the contact form as typed. */
export interface ContactInput {
  name: string;
  email: string;
  phone: string;
  topic: string;
  message: string;
}

// Deliberately simple: one @, no spaces, a dot in the domain. The server's zod check is the
// authority; this only catches typos before a round trip.
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Field → message for every invalid field of `input` (empty when valid). */
export function validateContact(input: ContactInput): Partial<Record<keyof ContactInput, string>> {
  const errors: Partial<Record<keyof ContactInput, string>> = {};
  const name = input.name.trim();
  if (!name) errors.name = CONTACT_MESSAGES.name;
  else if (name.length > CONTACT_LIMITS.name) errors.name = CONTACT_MESSAGES.nameLong;
  const email = input.email.trim();
  if (!EMAIL_RE.test(email) || email.length > CONTACT_LIMITS.email) {
    errors.email = CONTACT_MESSAGES.email;
  }
  if (input.phone.trim().length > CONTACT_LIMITS.phone) errors.phone = CONTACT_MESSAGES.phone;
  if (!CONTACT_TOPIC_VALUES.includes(input.topic as ContactTopic)) {
    errors.topic = CONTACT_MESSAGES.topic;
  }
  const message = input.message.trim();
  if (message.length < CONTACT_LIMITS.messageMin) errors.message = CONTACT_MESSAGES.messageShort;
  else if (message.length > CONTACT_LIMITS.messageMax) {
    errors.message = CONTACT_MESSAGES.messageLong;
  }
  return errors;
}
