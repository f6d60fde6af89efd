import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { LATENCY_BUCKETS_SECONDS } from "../../lib/metrics.ts";

const TOKEN = "metrics-token-for-tests-0123456789";

function scrape(t: TestApp, authorization?: string) {
  return t.request("GET", "/metrics", {
    headers: authorization === undefined ? {} : { authorization },
  });
}

/** The value of the one sample line starting with `series ` (labels included), or undefined. */
function sample(body: string, series: string): number | undefined {
  const line = body.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test("[metrics] without METRICS_TOKEN /metrics does not exist", async () => {
  const t = await createTestApp();
  for (const authorization of [undefined, "Bearer anything-at-all-0123456789"]) {
    const res = await scrape(t, authorization);
    assertEquals(res.status, 404);
    assert(!(await res.text()).includes("meridian_"), "metrics leaked");
  }
  t.close();
});

test("[metrics] a scrape without the right bearer token is refused with 401", async () => {
  const t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  const admin = await createSignedInUser(t, { role: "admin" });
  const attempts: [string | undefined, string | undefined][] = [
    [undefined, undefined],
    ["Bearer wrong-token-wrong-token-wrong-token", undefined],
    [`Bearer ${TOKEN}x`, undefined],
    [`Bearer ${TOKEN.slice(0, -1)}`, undefined],
    [`Basic ${btoa(`metrics:${TOKEN}`)}`, undefined],
    [TOKEN, undefined],
    // A signed-in admin is no scraper: the token is the only way in.
    [undefined, admin.cookie],
  ];
  for (const [authorization, cookie] of attempts) {
    const res = await t.request("GET", "/metrics", {
      cookie,
      headers: authorization === undefined ? {} : { authorization },
    });
    assertEquals(res.status, 401, `${authorization} ${cookie ? "with a session" : ""}`);
    assertEquals(res.headers.get("www-authenticate"), 'Bearer realm="metrics"');
    assertEquals(await res.json(), { message: "A valid metrics token is required" });
  }
  t.close();
});

test("[metrics] requests are counted by route pattern and status, with a latency histogram", async () => {
  const t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  await t.request("GET", "/healthz");
  await t.request("GET", "/healthz");
  // Two unknown survey ids: one series for the pattern, never one per id.
  await t.request("GET", `/api/surveys/${crypto.randomUUID()}`);
  await t.request("GET", `/api/surveys/${crypto.randomUUID()}`);
  // Probes of paths nobody routes share one series too.
  await t.request("GET", "/wp-login.php");
  await t.request("GET", "/.env");
  // The landing page twice: the second answer comes from the page cache, before the router.
  await t.request("GET", "/", { headers: { accept: "text/html" } });
  await t.request("GET", "/", { headers: { accept: "text/html" } });

  const res = await scrape(t, `Bearer ${TOKEN}`);
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  assertEquals(res.headers.get("cache-control"), "no-store");
  const body = await res.text();
  const total = (labels: string) => sample(body, `meridian_http_requests_total{${labels}}`);
  assertEquals(total('method="GET",route="/healthz",status="200"'), 2);
  assertEquals(total('method="GET",route="/api/surveys/:id",status="401"'), 2);
  assertEquals(total('method="GET",route="(unmatched)",status="404"'), 2);
  assertEquals(total('method="GET",route="/",status="200"'), 2);
  assert(!body.includes("wp-login"), "a raw path became a label");
  assertStringIncludes(body, "# TYPE meridian_http_requests_total counter");
  assertStringIncludes(body, "# TYPE meridian_http_request_duration_seconds histogram");

  const bucket = (le: string) =>
    sample(
      body,
      `meridian_http_request_duration_seconds_bucket{method="GET",route="/healthz",le="${le}"}`,
    );
  const counts = [...LATENCY_BUCKETS_SECONDS.map((le) => bucket(String(le))), bucket("+Inf")];
  assert(counts.every((n) => n !== undefined), `missing buckets in ${body}`);
  for (let i = 1; i < counts.length; i++) assert(counts[i]! >= counts[i - 1]!, "not cumulative");
  assertEquals(bucket("+Inf"), 2);
  const base = '{method="GET",route="/healthz"}';
  assertEquals(sample(body, `meridian_http_request_duration_seconds_count${base}`), 2);
  const sum = sample(body, `meridian_http_request_duration_seconds_sum${base}`)!;
  assert(sum > 0 && sum < 10, `sum ${sum}`);
  assertMatch(body, /^process_resident_memory_bytes \d+$/m);
  assertMatch(body, /^process_start_time_seconds \d+$/m);
  t.close();
});

test("[metrics] the outbox and job queue depths come from the database", async () => {
  const t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  const email = (status: string) =>
    t.sql`
      insert into email_outbox (to_address, subject, html, text, template, status)
      values ('a@example.com', 'Hi', '<p>Hi</p>', 'Hi', 'Test', ${status})`;
  for (const status of ["queued", "queued", "queued", "sending", "failed", "sent", "sent"]) {
    await email(status);
  }
  const job = (state: string) =>
    t.sql`
      insert into jobs (kind, run_at, locked_until, done_at, failed_at) values (
        'dispatch_survey',
        now() + ${state === "scheduled" ? "1 hour" : "0 seconds"}::interval,
        ${state === "running" ? t.sql`now() + interval '1 minute'` : null},
        ${state === "done" ? t.sql`now()` : null},
        ${state === "failed" ? t.sql`now()` : null})`;
  for (const state of ["due", "due", "running", "scheduled", "failed", "done", "done"]) {
    await job(state);
  }
  const body = await (await scrape(t, `Bearer ${TOKEN}`)).text();
  assertEquals(sample(body, 'meridian_email_outbox_messages{status="queued"}'), 3);
  assertEquals(sample(body, 'meridian_email_outbox_messages{status="sending"}'), 1);
  assertEquals(sample(body, 'meridian_email_outbox_messages{status="failed"}'), 1);
  assertEquals(sample(body, 'meridian_email_outbox_messages{status="sent"}'), undefined);
  assertEquals(sample(body, 'meridian_jobs{state="due"}'), 2);
  assertEquals(sample(body, 'meridian_jobs{state="running"}'), 1);
  assertEquals(sample(body, 'meridian_jobs{state="scheduled"}'), 1);
  assertEquals(sample(body, 'meridian_jobs{state="failed"}'), 1);
  assertStringIncludes(body, "# TYPE meridian_jobs gauge");
  t.close();
});

test("[metrics] an empty database reports every queue at zero", async () => {
  const t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  const body = await (await scrape(t, `Bearer ${TOKEN}`)).text();
  for (const status of ["queued", "sending", "failed"]) {
    assertEquals(sample(body, `meridian_email_outbox_messages{status="${status}"}`), 0);
  }
  for (const state of ["due", "running", "scheduled", "failed"]) {
    assertEquals(sample(body, `meridian_jobs{state="${state}"}`), 0);
  }
  t.close();
});
