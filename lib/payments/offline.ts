import {
  PaymentsNotConfiguredError,
  type PaymentsProvider,
  WebhookSignatureError,
} from "./provider.ts";

/**
 * The provider when Stripe is not configured: it never takes or pretends to take a payment.
 * Checkout throws `PaymentsNotConfiguredError` and every webhook is refused; credit comes from
 * admin adjustments instead.
 */
export function createOfflinePaymentsProvider(): PaymentsProvider {
  return {
    name: "offline",
    isEnabled: false,
    createCheckoutSession() {
      return Promise.reject(new PaymentsNotConfiguredError());
    },
    parseWebhook() {
      return Promise.reject(
        new WebhookSignatureError("Stripe webhooks are not configured on this server"),
      );
    },
  };
}
