/**
 * The islands' fetch wrapper (islands/_api.ts) on its own: how it sends requests and reads
 * answers of any shape, including ones our API never gives. Scripted answers (stubFetch) are
 * the point here; island tests call the real app (useAppFetch).
 */
import { assert, assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { stubFetch } from "./_fetch.ts";
import {
  apiRequest,
  cachedQuery,
  DEFAULT_QUERY,
  errorMessage,
  getQuery,
  invalidateQueries,
  SURVEYORS_QUERY,
  SURVEYS_QUERY,
  USER_QUERY,
} from "../../islands/_api.ts";

test("[api client] a JSON content type is sent only with a body; cookies always", async () => {
  const api = stubFetch({
    "POST /api/logout": Response.json({}),
    "POST /api/login": Response.json({}),
  });
  await apiRequest("POST", "/api/logout");
  await apiRequest("POST", "/api/login", { identifier: "a", password: "b" });
  assertEquals(api.calls[0].headers.get("content-type"), null);
  assertEquals(api.calls[0].body, undefined);
  assertEquals(api.calls[1].headers.get("content-type"), "application/json");
  assertEquals(api.calls[1].body, { identifier: "a", password: "b" });
  assert(api.calls.every((c) => c.credentials === "same-origin"));
  api.restore();
});

test("[api client] a non-ok answer throws '{status}: {body}' or the status text", async () => {
  const api = stubFetch({
    "GET /a": new Response('{"message":"Nope"}', { status: 403 }),
    "GET /b": new Response("", { status: 502, statusText: "Bad Gateway" }),
  });
  let error = await apiRequest("GET", "/a").catch((e) => e);
  assertEquals(error.message, '403: {"message":"Nope"}');
  assertEquals(errorMessage(error, "fallback"), "Nope");
  error = await apiRequest("GET", "/b").catch((e) => e);
  assertEquals(error.message, "502: Bad Gateway");
  assertEquals(errorMessage(error, "fallback"), "fallback");
  assertEquals(errorMessage(new TypeError("Failed to fetch"), "fallback"), "fallback");
  api.restore();
});

test("[api client] queries give null on 401 and on a body that is not JSON", async () => {
  const api = stubFetch({
    "GET /api/user": new Response('{"message":"Authentication required"}', { status: 401 }),
    "GET /text": new Response("not json"),
    "GET /json": Response.json({ ok: 1 }),
    "GET /boom": new Response("down", { status: 500 }),
  });
  assertEquals(await getQuery("/api/user"), null);
  assertEquals(await getQuery("/text"), null);
  assertEquals(await getQuery("/json"), { ok: 1 });
  assertEquals((await getQuery("/boom").catch((e: Error) => e) as Error).message, "500: down");
  api.restore();
});

test("[api client] freshness constants match the spec", () => {
  assertEquals(DEFAULT_QUERY.staleTime, 30_000);
  assertEquals(USER_QUERY, { staleTime: 120_000, gcTime: 300_000 });
  assertEquals(SURVEYS_QUERY, { staleTime: 30_000, gcTime: 300_000 });
  assertEquals(SURVEYORS_QUERY, { staleTime: 300_000, gcTime: 600_000 });
});

test("[api client] a fresh answer is served from the cache; failures are not cached or retried", async () => {
  invalidateQueries();
  let n = 0;
  const api = stubFetch({
    "GET /api/user": () => Response.json({ n: ++n }),
    "GET /flaky": new Response("down", { status: 503 }),
  });
  assertEquals(await cachedQuery("/api/user", USER_QUERY), { n: 1 });
  assertEquals(await cachedQuery("/api/user", USER_QUERY), { n: 1 });
  // Two callers at once share one request.
  invalidateQueries("/api/user");
  const [a, b] = await Promise.all([cachedQuery("/api/user"), cachedQuery("/api/user")]);
  assertEquals([a, b], [{ n: 2 }, { n: 2 }]);
  // Stale when the freshness window is zero.
  assertEquals(await cachedQuery("/api/user", { staleTime: 0, gcTime: 1000 }), { n: 3 });
  await cachedQuery("/flaky").catch(() => {});
  assertEquals(api.calls.filter((c) => c.path === "/flaky").length, 1, "no automatic retry");
  await cachedQuery("/flaky").catch(() => {});
  assertEquals(api.calls.filter((c) => c.path === "/flaky").length, 2, "errors are not cached");
  invalidateQueries();
  api.restore();
});
