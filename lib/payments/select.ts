import type { Config } from "../config.ts";
import type { PaymentsProvider } from "./provider.ts";
import { createStripePaymentsProvider } from "./stripe.ts";
import { createOfflinePaymentsProvider } from "./offline.ts";

/**
 * Stripe when both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set (the configuration
 * refuses one without the other: a payment taken without a verified webhook would never be
 * credited), otherwise the offline provider, which takes no payments.
 */
export function createPaymentsProvider(config: Config): PaymentsProvider {
  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
    return createStripePaymentsProvider({
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      apiBase: config.STRIPE_API_BASE,
    });
  }
  return createOfflinePaymentsProvider();
}
