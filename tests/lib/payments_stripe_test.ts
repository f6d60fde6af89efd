import { assert, assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import {
  checkoutEvent,
  FAKE_STRIPE_KEY,
  FAKE_WEBHOOK_SECRET,
  fakeStripeProvider,
  signPayload,
  startFakeStripe,
} from "../_stripe_fake.ts";
import {
  PaymentProviderError,
  PaymentsNotConfiguredError,
  WebhookSignatureError,
} from "../../lib/payments/provider.ts";
import { TOP_UP_PRODUCT_NAME } from "../../lib/payments/stripe.ts";
import { createOfflinePaymentsProvider } from "../../lib/payments/offline.ts";
import { createPaymentsProvider } from "../../lib/payments/select.ts";
import { ConfigError, loadConfig } from "../../lib/config.ts";

const REQUEST = {
  surveyorId: "3f1c2a9e-0000-4000-8000-000000000001",
  amountCents: 25_000,
  customerEmail: "office@barton.example",
  successUrl: "http://localhost/surveyor/billing?topup=success&session_id={CHECKOUT_SESSION_ID}",
  cancelUrl: "http://localhost/surveyor/billing?topup=cancelled",
};

Deno.test("[stripe] a top-up asks Stripe for a one-off USD Checkout session for that surveyor and amount", async () => {
  const fake = startFakeStripe();
  try {
    const session = await fakeStripeProvider(fake).createCheckoutSession(REQUEST);
    assert(session.id.startsWith("cs_test_"), session.id);
    assertEquals(session.url, `https://checkout.stripe.com/c/pay/${session.id}`);
    assertEquals(fake.requests.length, 1);
    const [req] = fake.requests;
    assertEquals(req.method, "POST");
    assertEquals(req.path, "/v1/checkout/sessions");
    assertEquals(req.authorization, `Bearer ${FAKE_STRIPE_KEY}`);
    // The library sends an idempotency key, so its own retries never create a second session.
    assert(req.idempotencyKey, "no Idempotency-Key header");
    assertEquals(req.form.mode, "payment");
    assertEquals(req.form["line_items[0][quantity]"], "1");
    assertEquals(req.form["line_items[0][price_data][currency]"], "usd");
    assertEquals(req.form["line_items[0][price_data][unit_amount]"], "25000");
    assertEquals(req.form["line_items[0][price_data][product_data][name]"], TOP_UP_PRODUCT_NAME);
    assertEquals(req.form.client_reference_id, REQUEST.surveyorId);
    assertEquals(req.form["metadata[surveyorId]"], REQUEST.surveyorId);
    assertEquals(req.form["metadata[amountCents]"], "25000");
    assertEquals(req.form.customer_email, REQUEST.customerEmail);
    // Stripe fills in the placeholder itself: it must arrive with its braces.
    assertEquals(req.form.success_url, REQUEST.successUrl);
    assertEquals(req.form.cancel_url, REQUEST.cancelUrl);
  } finally {
    await fake.close();
  }
});

Deno.test("[stripe] without an email the payer types one on Stripe's page", async () => {
  const fake = startFakeStripe();
  try {
    await fakeStripeProvider(fake).createCheckoutSession({ ...REQUEST, customerEmail: null });
    assertEquals(fake.requests[0].form.customer_email, undefined);
  } finally {
    await fake.close();
  }
});

Deno.test("[stripe] Stripe refusing or failing is a PaymentProviderError naming what Stripe said", async () => {
  const fake = startFakeStripe();
  try {
    fake.failNext(500);
    const err = await rejectsWith(
      () => fakeStripeProvider(fake).createCheckoutSession(REQUEST),
      PaymentProviderError,
    );
    assertStringIncludes(err.message, "Something went wrong on Stripe's end");
    const refused = await rejectsWith(
      () =>
        fakeStripeProvider(fake).createCheckoutSession({
          ...REQUEST,
          amountCents: 10,
        }),
      PaymentProviderError,
    );
    assertStringIncludes(refused.message, "unit_amount");
  } finally {
    await fake.close();
  }
});

Deno.test("[stripe] an unreachable Stripe is a PaymentProviderError, not a hang", async () => {
  const fake = startFakeStripe();
  const url = fake.url;
  await fake.close();
  await rejectsWith(
    () => fakeStripeProvider({ ...fake, url }).createCheckoutSession(REQUEST),
    PaymentProviderError,
  );
});

Deno.test("[stripe] a webhook signed with the endpoint's secret parses to its event", async () => {
  const provider = fakeStripeProvider(startFakeStripeless());
  const body = checkoutEvent({
    eventId: "evt_test_1",
    type: "checkout.session.completed",
    sessionId: "cs_test_1",
    amountCents: 5000,
  });
  const event = await provider.parseWebhook(body, await signPayload(body));
  assertEquals(event.id, "evt_test_1");
  assertEquals(event.type, "checkout.session.completed");
  assertEquals(event.data.object.id, "cs_test_1");
  assertEquals(event.data.object.amount_total, 5000);
});

Deno.test("[stripe] a missing, wrong, stale or tampered signature is refused", async () => {
  const provider = fakeStripeProvider(startFakeStripeless());
  const body = checkoutEvent({
    type: "checkout.session.completed",
    sessionId: "cs_test_1",
    amountCents: 5000,
  });
  await rejectsWith(() => provider.parseWebhook(body, null), WebhookSignatureError);
  await rejectsWith(() => provider.parseWebhook(body, ""), WebhookSignatureError);
  await rejectsWith(() => provider.parseWebhook(body, "t=1,v1=abc"), WebhookSignatureError);
  const otherSecret = await signPayload(body, { secret: "whsec_someoneelse" });
  await rejectsWith(() => provider.parseWebhook(body, otherSecret), WebhookSignatureError);
  // Ten minutes old: past the library's five-minute tolerance, so a captured request cannot
  // be replayed later.
  const stale = await signPayload(body, { timestamp: Math.floor(Date.now() / 1000) - 600 });
  await rejectsWith(() => provider.parseWebhook(body, stale), WebhookSignatureError);
  const signature = await signPayload(body);
  const tampered = body.replace('"amount_total":5000', '"amount_total":500000');
  assert(tampered !== body);
  await rejectsWith(() => provider.parseWebhook(tampered, signature), WebhookSignatureError);
  // The untouched body with its own signature still passes.
  assertEquals((await provider.parseWebhook(body, signature)).type, "checkout.session.completed");
});

Deno.test("[payments] the offline provider takes no payment and accepts no webhook", async () => {
  const offline = createOfflinePaymentsProvider();
  assertEquals(offline.isEnabled, false);
  await rejectsWith(() => offline.createCheckoutSession(REQUEST), PaymentsNotConfiguredError);
  const body = checkoutEvent({
    type: "checkout.session.completed",
    sessionId: "cs_test_1",
    amountCents: 5000,
  });
  await rejectsWith(
    async () => offline.parseWebhook(body, await signPayload(body)),
    WebhookSignatureError,
  );
});

Deno.test("[payments] Stripe only with both the secret key and the webhook secret; one alone is a config error", () => {
  assertEquals(createPaymentsProvider(loadConfig({})).name, "offline");
  const both = loadConfig({
    STRIPE_SECRET_KEY: FAKE_STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
  });
  const stripe = createPaymentsProvider(both);
  assertEquals(stripe.name, "stripe");
  assertEquals(stripe.isEnabled, true);
  for (
    const env of [
      { STRIPE_SECRET_KEY: FAKE_STRIPE_KEY },
      { STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET },
    ]
  ) {
    try {
      loadConfig(env);
      throw new Error(`${Object.keys(env)} alone was accepted`);
    } catch (err) {
      assert(err instanceof ConfigError, String(err));
      assertStringIncludes(err.message, "set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET together");
    }
  }
  for (
    const [name, value] of [["STRIPE_SECRET_KEY", "pk_test_abc"], ["STRIPE_WEBHOOK_SECRET", "abc"]]
  ) {
    try {
      loadConfig({
        STRIPE_SECRET_KEY: FAKE_STRIPE_KEY,
        STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
        [name]: value,
      });
      throw new Error(`${name}=${value} was accepted`);
    } catch (err) {
      assert(err instanceof ConfigError, String(err));
      assertStringIncludes(err.message, name);
    }
  }
});

/** A fake that is never called: webhook parsing needs no API. */
function startFakeStripeless() {
  return { url: "http://127.0.0.1:9", requests: [], failNext() {}, close: () => Promise.resolve() };
}

/** `fn` rejects with an instance of `type`; returns the error. */
async function rejectsWith<E extends Error>(
  fn: () => Promise<unknown>,
  type: new (...args: never[]) => E,
): Promise<E> {
  const err = await assertRejects(fn);
  assert(err instanceof type, `expected ${type.name}, got ${err}`);
  return err;
}
