/**
 * Card payments behind a small interface: Stripe Checkout when it is configured
 * (lib/payments/stripe.ts), otherwise an offline provider that takes no payments at all
 * (lib/payments/offline.ts). lib/payments/select.ts picks one from the configuration.
 */

/**
 * Where Stripe posts webhook events. CSRF-exempt (routes/_middleware.ts): it is authenticated
 * by its signature over the raw body, not by an origin.
 */
export const STRIPE_WEBHOOK_PATH = "/api/stripe/webhook";

/** The parts of a Stripe webhook event Meridian reads (a Stripe.Event satisfies it). */
export interface StripeLikeEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}

/** What a top-up asks the provider for. */
export interface CheckoutRequest {
  surveyorId: string;
  /** Whole US cents. */
  amountCents: number;
  /** Pre-fills the payment page and gets the receipt; null lets the payer type it. */
  customerEmail: string | null;
  /** Where the payment page sends the payer after paying (absolute URL). */
  successUrl: string;
  /** Where it sends them when they go back without paying (absolute URL). */
  cancelUrl: string;
}

/** A hosted payment page: its id (stored before the payer is sent there) and its URL. */
export interface CheckoutSession {
  id: string;
  url: string;
}

/** Thrown by `createCheckoutSession` when card payments are not set up. */
export class PaymentsNotConfiguredError extends Error {
  constructor() {
    super("Card payments are not configured");
    this.name = "PaymentsNotConfiguredError";
  }
}

/** Thrown by `createCheckoutSession` when the payment provider refuses or cannot be reached. */
export class PaymentProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PaymentProviderError";
  }
}

/** Thrown by `parseWebhook` for a body whose signature does not verify (or is missing). */
export class WebhookSignatureError extends Error {
  constructor(message = "Webhook signature verification failed", options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WebhookSignatureError";
  }
}

/** A way to take card payments for balance top-ups. */
export interface PaymentsProvider {
  /** "stripe" or "offline". */
  name: string;
  /** Whether top-ups by card are possible at all. */
  isEnabled: boolean;
  /**
   * Creates a hosted payment page for a top-up. Throws `PaymentsNotConfiguredError` when
   * disabled and `PaymentProviderError` when the provider fails.
   */
  createCheckoutSession(input: CheckoutRequest): Promise<CheckoutSession>;
  /**
   * The event in a webhook's raw body after verifying its signature header. Throws
   * `WebhookSignatureError` when the signature is missing, wrong or stale, or when webhooks
   * are not configured.
   */
  parseWebhook(rawBody: string, signature: string | null): Promise<StripeLikeEvent>;
}
