/**
 * Admission control under overload (issue 20): with the in-flight limit at N, N+M concurrent
 * slow requests give N served and M fast 503s with `Retry-After` (JSON for the API, a small
 * HTML page for pages), probes and static files still answer while it is saturated, and the
 * server recovers by itself once the slow requests finish. "Fast" is shown by order, not by
 * a clock: the refusals arrive while every admitted request is still held.
 */
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import type { GeoProvider } from "../../lib/geo/provider.ts";
import { admissionStats, OVERLOAD_MESSAGE } from "../../routes/_admission.ts";

/** A maps provider whose suggestions wait until the test lets them go. */
function heldGeo() {
  const release = Promise.withResolvers<void>();
  let held = 0;
  const geo: GeoProvider = {
    name: "held",
    async suggest() {
      held++;
      await release.promise;
      return [{ description: "100 Main St, Austin, TX", placeId: "held-1" }];
    },
    geocode: () => Promise.resolve(undefined),
  };
  return {
    geo,
    /** How many suggestion calls are waiting. */
    held: () => held,
    /** Lets every waiting call answer (later ones answer at once). */
    releaseAll() {
      release.resolve();
      held = 0;
    },
  };
}

const METRICS_TOKEN = "admission-test-metrics-token-0123";
const SLOW_PATH = "/api/address-suggestions?input=100%20Main";

async function until(what: string, condition: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  assert(condition(), `timed out waiting for: ${what}`);
}

/** Starts `count` slow requests; each promise resolves with its response. */
function slowRequests(t: TestApp, count: number) {
  const answered: Response[] = [];
  const all = Array.from({ length: count }, () =>
    t.request("GET", SLOW_PATH).then((res) => {
      answered.push(res);
      return res;
    }));
  return { all, answered };
}

async function assertOverloadJson(res: Response): Promise<void> {
  assertEquals(res.status, 503);
  assertMatch(res.headers.get("content-type") ?? "", /^application\/json/);
  assert(Number(res.headers.get("retry-after")) > 0, "Retry-After");
  assertEquals(res.headers.get("cache-control"), "no-store");
  assertEquals(await res.json(), { message: OVERLOAD_MESSAGE });
}

test("[admission] at the in-flight limit N, N+M slow requests: N served, M refused at once with Retry-After; it recovers by itself", async () => {
  const slow = heldGeo();
  const t = await createTestApp({
    env: { MAX_IN_FLIGHT_REQUESTS: "3", MAX_QUEUED_REQUESTS: "0", METRICS_TOKEN },
    deps: { geo: slow.geo },
  });
  try {
    const client = await createSignedInUser(t, { role: "client" });
    const { all, answered } = slowRequests(t, 5);
    // Three are being worked on; the other two are answered while those three are held.
    await until("3 held and 2 answered", () => slow.held() === 3 && answered.length === 2);
    for (const res of answered) await assertOverloadJson(res);
    assertEquals(admissionStats(t.deps)?.inFlight, 3);
    // An operator sees it in /metrics, which answers while saturated.
    const scrape = await t.request("GET", "/metrics", {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    assertEquals(scrape.status, 200);
    const text = await scrape.text();
    assertMatch(text, /^meridian_requests_in_flight 3$/m);
    assertMatch(text, /^meridian_requests_shed_total 2$/m);

    // Saturated: probes and static files still answer; a page gets the small HTML 503.
    const ready = await t.request("GET", "/readyz");
    assertEquals(ready.status, 200);
    assertEquals((await ready.json()).status, "ok");
    assertEquals((await t.request("GET", "/healthz")).status, 200);
    const css = await t.request("GET", "/static/favicon.svg");
    assertEquals(css.status, 200);
    await css.body?.cancel();
    const page = await t.request("GET", "/lead/00000000-0000-4000-8000-000000000000", {
      headers: { accept: "text/html" },
    });
    assertEquals(page.status, 503);
    assertMatch(page.headers.get("content-type") ?? "", /^text\/html/);
    assert(Number(page.headers.get("retry-after")) > 0);
    const html = await page.text();
    assert(html.includes(OVERLOAD_MESSAGE));
    assert(!html.includes("<script"), "the busy page loads nothing");
    // A signed-in API call is refused too, before its session is read.
    await assertOverloadJson(await t.request("GET", "/api/user", { cookie: client.cookie }));

    slow.releaseAll();
    const served = await Promise.all(all);
    assertEquals(served.map((r) => r.status).sort(), [200, 200, 200, 503, 503]);
    for (const res of served.filter((r) => r.status === 200)) {
      assertEquals((await res.json()).predictions.length, 1);
    }

    // Nothing restarted: the slots came back and new requests are served.
    assertEquals(admissionStats(t.deps)?.inFlight, 0);
    const again = await Promise.all([1, 2, 3].map(() => t.request("GET", SLOW_PATH)));
    assertEquals(again.map((r) => r.status), [200, 200, 200]);
    const me = await t.request("GET", "/api/user", { cookie: client.cookie });
    assertEquals(me.status, 200);
  } finally {
    slow.releaseAll();
    t.close();
  }
});

test("[admission] a request may wait briefly for a slot: it is served when one frees in time, refused when its wait runs out", async () => {
  const slow = heldGeo();
  const t = await createTestApp({
    env: {
      MAX_IN_FLIGHT_REQUESTS: "2",
      MAX_QUEUED_REQUESTS: "1",
      REQUEST_QUEUE_TIMEOUT_MS: "60000",
    },
    deps: { geo: slow.geo },
  });
  try {
    // Two run, one waits, the fourth finds the queue full and is refused at once.
    const { all, answered } = slowRequests(t, 4);
    await until(
      "2 held, 1 queued, 1 refused",
      () => slow.held() === 2 && answered.length === 1 && admissionStats(t.deps)?.queued === 1,
    );
    await assertOverloadJson(answered[0]);
    // The waiting one takes the first free slot and is served.
    slow.releaseAll();
    const statuses = (await Promise.all(all)).map((r) => r.status);
    assertEquals(statuses.sort(), [200, 200, 200, 503]);
  } finally {
    slow.releaseAll();
    t.close();
  }

  const slow2 = heldGeo();
  const t2 = await createTestApp({
    env: { MAX_IN_FLIGHT_REQUESTS: "1", MAX_QUEUED_REQUESTS: "5", REQUEST_QUEUE_TIMEOUT_MS: "20" },
    deps: { geo: slow2.geo },
  });
  try {
    const { all, answered } = slowRequests(t2, 2);
    // The second waits 20 ms for a slot that stays taken: refused, while the first is held.
    await until(
      "1 held, 1 refused after its wait",
      () => slow2.held() === 1 && answered.length === 1,
    );
    await assertOverloadJson(answered[0]);
    slow2.releaseAll();
    assertEquals((await Promise.all(all)).map((r) => r.status).sort(), [200, 503]);
    assertEquals(admissionStats(t2.deps), { inFlight: 0, queued: 0, admitted: 1, refused: 1 });
  } finally {
    slow2.releaseAll();
    t2.close();
  }
});
