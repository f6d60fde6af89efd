import Stripe from "stripe";
import {
  type CheckoutRequest,
  type CheckoutSession,
  PaymentProviderError,
  type PaymentsProvider,
  type StripeLikeEvent,
  WebhookSignatureError,
} from "./provider.ts";

/** What the Stripe provider needs. */
export interface StripeOptions {
  /** STRIPE_SECRET_KEY (sk_live_…, sk_test_… or a restricted rk_… key). */
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET (whsec_…): the signing secret of the webhook endpoint. */
  webhookSecret: string;
  /**
   * STRIPE_API_BASE: another API origin (tests point it at a local fake Stripe server);
   * unset, the Stripe library's own (https://api.stripe.com).
   */
  apiBase?: string;
}

/** What a top-up is called on the payment page and the receipt. */
export const TOP_UP_PRODUCT_NAME = "Meridian balance top-up";

// SubtleCrypto: the synchronous Node crypto the library defaults to does not exist in Deno.
const cryptoProvider = Stripe.createSubtleCryptoProvider();

/**
 * Stripe Checkout through the official `stripe` package: one-off "payment" sessions in US
 * dollars for a top-up, the surveyor's id as `client_reference_id` and in the metadata, and
 * webhooks verified with `constructEventAsync` against the endpoint's signing secret (the
 * library's default five-minute tolerance refuses stale or replayed signatures).
 */
export function createStripePaymentsProvider(options: StripeOptions): PaymentsProvider {
  const base = options.apiBase ? new URL(options.apiBase) : undefined;
  const stripe = new Stripe(options.secretKey, {
    // The library retries network failures and 409/429/5xx with the same idempotency key.
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base
      ? {
        host: base.hostname,
        port: Number(base.port || (base.protocol === "https:" ? 443 : 80)),
        protocol: base.protocol === "https:" ? "https" as const : "http" as const,
      }
      : {}),
  });
  return {
    name: "stripe",
    isEnabled: true,
    async createCheckoutSession(input: CheckoutRequest): Promise<CheckoutSession> {
      const metadata = {
        surveyorId: input.surveyorId,
        amountCents: String(input.amountCents),
      };
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create({
          mode: "payment",
          line_items: [{
            quantity: 1,
            price_data: {
              currency: "usd",
              unit_amount: input.amountCents,
              product_data: { name: TOP_UP_PRODUCT_NAME },
            },
          }],
          client_reference_id: input.surveyorId,
          ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
          metadata,
          payment_intent_data: { metadata },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        });
      } catch (err) {
        const detail = err instanceof Stripe.errors.StripeError
          ? `${err.type}${err.statusCode ? ` ${err.statusCode}` : ""}: ${err.message}`
          : String(err);
        throw new PaymentProviderError(`Stripe could not create a Checkout session (${detail})`, {
          cause: err,
        });
      }
      if (!session.url) {
        throw new PaymentProviderError(
          `Stripe returned Checkout session ${session.id} without a URL`,
        );
      }
      return { id: session.id, url: session.url };
    },
    async parseWebhook(rawBody: string, signature: string | null): Promise<StripeLikeEvent> {
      if (!signature) throw new WebhookSignatureError("Missing Stripe-Signature header");
      try {
        const event = await stripe.webhooks.constructEventAsync(
          rawBody,
          signature,
          options.webhookSecret,
          undefined,
          cryptoProvider,
        );
        return event as unknown as StripeLikeEvent;
      } catch (err) {
        throw new WebhookSignatureError("Webhook signature verification failed", { cause: err });
      }
    },
  };
}
