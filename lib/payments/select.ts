import type { Config } from "../config.ts";
import type { PaymentsProvider } from "./provider.ts";
import type { StripeOptions } from "./stripe.ts";
import { createOfflinePaymentsProvider } from "./offline.ts";

/**
 * Stripe when both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set (the configuration
 * refuses one without the other: a payment taken without a verified webhook would never be
 * credited), otherwise the offline provider, which takes no payments.
 */
export function createPaymentsProvider(config: Config): PaymentsProvider {
  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
    return lazyStripe({
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      apiBase: config.STRIPE_API_BASE,
    });
  }
  return createOfflinePaymentsProvider();
}

/**
 * The Stripe provider, its module (and the Stripe SDK) imported on first use: a server without
 * Stripe keys, the default, never loads it.
 */
function lazyStripe(options: StripeOptions): PaymentsProvider {
  let provider: Promise<PaymentsProvider> | undefined;
  const load = () =>
    provider ??= import("./stripe.ts").then((m) => m.createStripePaymentsProvider(options));
  return {
    name: "stripe",
    isEnabled: true,
    createCheckoutSession: async (input) => (await load()).createCheckoutSession(input),
    parseWebhook: async (rawBody, signature) => (await load()).parseWebhook(rawBody, signature),
  };
}
