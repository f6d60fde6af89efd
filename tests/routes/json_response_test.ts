import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createUser, sessionCookieFrom, signInAs } from "../_auth.ts";
import { submitSurvey } from "../_fixtures.ts";
import { assertFrontDoorHeaders as assertFrontDoorHeadersOnce } from "../_front_door_headers.ts";

// JSON answers are finished by `c.json` with every header the front door gives any answer
// (routes/_json_response.ts); one whose request set a header on the context (a sign-in's
// cookie) is built by Hono and given them after. Either way each header is there once.

/** The front door's headers (tests/_front_door_headers.ts), on a JSON answer. */
function assertFrontDoorHeaders(res: Response, label: string): Record<string, string> {
  const headers = assertFrontDoorHeadersOnce(res, label);
  assertEquals(headers["content-type"], "application/json", label);
  return headers;
}

test("[json response] small and large answers, gzipped or not, carry each header once", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, { role: "client", fullName: "Zoë Ångström" });
  for (let i = 0; i < 3; i++) await submitSurvey(t, cookie);
  for (const encoding of ["gzip", "deflate", "identity"] as const) {
    const asked = { "accept-encoding": encoding };
    // Under 1 KB: never compressed, still varying on what was asked.
    const small = await t.request("GET", "/api/user", { cookie, headers: asked });
    assertEquals(small.status, 200, encoding);
    const user = assertFrontDoorHeaders(small, `/api/user, ${encoding}`);
    assertEquals(user["vary"], "Accept-Encoding", encoding);
    assertEquals(user["content-encoding"], undefined, encoding);
    assertEquals((await small.json()).fullName, "Zoë Ångström", "every character intact");
    // Three requests: some KB, compressed as asked.
    const large = await t.request("GET", "/api/surveys", { cookie, headers: asked });
    assertEquals(large.status, 200, encoding);
    const list = assertFrontDoorHeaders(large, `/api/surveys, ${encoding}`);
    assertEquals(list["vary"], "Accept-Encoding", encoding);
    const body = encoding === "identity"
      ? await large.text()
      : await new Response(large.body!.pipeThrough(new DecompressionStream(encoding))).text();
    assertEquals(list["content-encoding"], encoding === "identity" ? undefined : encoding);
    assert(body.length > 1024, `${encoding}: ${body.length} characters`);
    assertEquals(JSON.parse(body).surveys.length, 3, encoding);
  }
  t.close();
});

test("[json response] an error, a sign-in's answer and a HEAD carry the same headers", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, { role: "client" });
  // A 400 from a validator's hook: finished with its status.
  const bad = await t.request("GET", "/api/surveys?pageSize=nope", { cookie });
  assertEquals(bad.status, 400);
  assertFrontDoorHeaders(bad, "400");
  assert((await bad.json()).message, "a message");
  // A sign-in sets its cookie on the context: built by Hono, the headers added after.
  const user = await createUser(t.sql, { role: "client" });
  const login = await t.request("POST", "/api/login", {
    body: { identifier: user.email, password: user.password },
  });
  assertEquals(login.status, 200);
  assert(sessionCookieFrom(t, login), "the session cookie");
  assertFrontDoorHeaders(login, "login");
  await login.body?.cancel();
  // HEAD: the GET's headers, no body.
  const head = await t.request("HEAD", "/api/user", { cookie });
  assertEquals(head.status, 200);
  assertFrontDoorHeaders(head, "HEAD");
  assertEquals(await head.text(), "");
  t.close();
});
