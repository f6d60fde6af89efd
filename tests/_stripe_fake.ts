/**
 * A local fake of the Stripe API for tests (Deno.serve on port 0): it answers Checkout
 * session creation the way Stripe does (form-encoded request, Bearer secret key, a session
 * object with an id, URL and amount), records every request, and can be told to fail. Plus
 * webhook signing with the real `stripe` package, so the app verifies exactly what Stripe
 * would send.
 */
import Stripe from "stripe";
import { createStripePaymentsProvider } from "../lib/payments/stripe.ts";
import type { PaymentsProvider } from "../lib/payments/provider.ts";

/** The secret key the fake accepts. */
export const FAKE_STRIPE_KEY = "sk_test_meridianfake";
/** The webhook signing secret the tests sign with. */
export const FAKE_WEBHOOK_SECRET = "whsec_meridianfaketestsecret";

/** One request the fake received. */
export interface FakeStripeRequest {
  method: string;
  path: string;
  authorization: string | null;
  idempotencyKey: string | null;
  /** The form body, flattened ("line_items[0][price_data][unit_amount]" → "5000"). */
  form: Record<string, string>;
}

/** A running fake Stripe API. */
export interface FakeStripe {
  /** Its origin, for STRIPE_API_BASE. */
  url: string;
  requests: FakeStripeRequest[];
  /** The next `n` session creations answer this status with a Stripe error body. */
  failNext(status: number, n?: number): void;
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1, a free port. */
export function startFakeStripe(): FakeStripe {
  const requests: FakeStripeRequest[] = [];
  let failures: { status: number; left: number } | null = null;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const url = new URL(req.url);
      const text = req.method === "POST" ? await req.text() : "";
      const form = Object.fromEntries(new URLSearchParams(text));
      requests.push({
        method: req.method,
        path: url.pathname,
        authorization: req.headers.get("authorization"),
        idempotencyKey: req.headers.get("idempotency-key"),
        form,
      });
      if (req.headers.get("authorization") !== `Bearer ${FAKE_STRIPE_KEY}`) {
        return stripeError(401, "invalid_request_error", "Invalid API Key provided");
      }
      if (req.method !== "POST" || url.pathname !== "/v1/checkout/sessions") {
        return stripeError(404, "invalid_request_error", `Unrecognized request URL`);
      }
      if (failures && failures.left > 0) {
        failures.left--;
        return stripeError(failures.status, "api_error", "Something went wrong on Stripe's end");
      }
      const amount = Number(form["line_items[0][price_data][unit_amount]"]);
      if (!Number.isInteger(amount) || amount < 50) {
        return stripeError(400, "invalid_request_error", "Invalid integer: unit_amount");
      }
      const id = `cs_test_${crypto.randomUUID().replaceAll("-", "")}`;
      const metadata: Record<string, string> = {};
      for (const [key, value] of Object.entries(form)) {
        const match = /^metadata\[(\w+)\]$/.exec(key);
        if (match) metadata[match[1]] = value;
      }
      return Response.json({
        id,
        object: "checkout.session",
        amount_subtotal: amount,
        amount_total: amount,
        cancel_url: form.cancel_url,
        client_reference_id: form.client_reference_id ?? null,
        created: Math.floor(Date.now() / 1000),
        currency: form["line_items[0][price_data][currency]"],
        customer_email: form.customer_email ?? null,
        expires_at: Math.floor(Date.now() / 1000) + 24 * 3600,
        livemode: false,
        metadata,
        mode: form.mode,
        payment_status: "unpaid",
        status: "open",
        success_url: form.success_url,
        url: `https://checkout.stripe.com/c/pay/${id}`,
      });
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    failNext(status, n = 1) {
      failures = { status, left: n };
    },
    async close() {
      await server.shutdown();
    },
  };
}

function stripeError(status: number, type: string, message: string): Response {
  return Response.json({ error: { type, message } }, {
    status,
    // Tells the library not to retry, so a test's failure is answered at once.
    headers: { "stripe-should-retry": "false" },
  });
}

/** The Stripe provider pointed at `fake`, with the test keys. */
export function fakeStripeProvider(fake: FakeStripe): PaymentsProvider {
  return createStripePaymentsProvider({
    secretKey: FAKE_STRIPE_KEY,
    webhookSecret: FAKE_WEBHOOK_SECRET,
    apiBase: fake.url,
  });
}

const signer = new Stripe(FAKE_STRIPE_KEY);
const cryptoProvider = Stripe.createSubtleCryptoProvider();

/** A `Stripe-Signature` header for `payload`, as Stripe computes it (HMAC-SHA256, v1). */
export function signPayload(
  payload: string,
  { secret = FAKE_WEBHOOK_SECRET, timestamp }: { secret?: string; timestamp?: number } = {},
): Promise<string> {
  return signer.webhooks.generateTestHeaderStringAsync({
    payload,
    secret,
    timestamp,
    cryptoProvider,
  });
}

/** A Checkout session event as Stripe sends it (the fields Meridian reads, and a few more). */
export function checkoutEvent(
  {
    eventId = `evt_${crypto.randomUUID().replaceAll("-", "")}`,
    type,
    sessionId,
    amountCents,
    paymentStatus = "paid",
    currency = "usd",
    surveyorId = null,
  }: {
    eventId?: string;
    type: string;
    sessionId: string;
    amountCents: number;
    paymentStatus?: string;
    currency?: string;
    surveyorId?: string | null;
  },
): string {
  return JSON.stringify({
    id: eventId,
    object: "event",
    api_version: "2025-01-01",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    type,
    data: {
      object: {
        id: sessionId,
        object: "checkout.session",
        amount_total: amountCents,
        currency,
        client_reference_id: surveyorId,
        mode: "payment",
        payment_status: paymentStatus,
        status: type === "checkout.session.expired" ? "expired" : "complete",
      },
    },
  });
}
