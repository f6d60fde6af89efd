import { assertEquals } from "../_assert.ts";
import { createTestApp, ORIGIN, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { countRows, surveyRequest } from "../_fixtures.ts";

const contactMessage = {
  name: "Karen Mitchell",
  email: "karen@example.com",
  topic: "quote",
  message: "Do you cover rural parcels in Buncombe County, NC?",
};

/** POST /api/contact with exactly `headers` (no Origin unless given), to `url`. */
function postContact(t: TestApp, headers: Record<string, string>, url = `${ORIGIN}/api/contact`) {
  return t.app.request(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(contactMessage),
  });
}

async function assertRefused(res: Response, what: string) {
  const body = await res.text();
  assertEquals(res.status, 403, `${what}: ${body}`);
  assertEquals(JSON.parse(body).message, "Cross-site request refused", what);
}

test("[csrf] Sec-Fetch-Site: same-origin without Origin is let through", async () => {
  const t = await createTestApp();
  const res = await postContact(t, { "sec-fetch-site": "same-origin" });
  assertEquals(res.status, 201, await res.text());
  assertEquals(await countRows(t, "contact_messages"), 1);
  t.close();
});

test("[csrf] every other Sec-Fetch-Site is refused, with or without our Origin", async () => {
  const t = await createTestApp();
  for (const site of ["same-site", "cross-site", "none", "SAME-ORIGIN", "same-origin, x"]) {
    await assertRefused(await postContact(t, { "sec-fetch-site": site }), site);
    await assertRefused(
      await postContact(t, { "sec-fetch-site": site, origin: ORIGIN }),
      `${site} with Origin`,
    );
  }
  assertEquals(await countRows(t, "contact_messages"), 0);
  t.close();
});

test("[csrf] a request with neither Origin nor Sec-Fetch-Site is refused", async () => {
  const t = await createTestApp();
  await assertRefused(await postContact(t, {}), "no headers");
  assertEquals(await countRows(t, "contact_messages"), 0);
  t.close();
});

test("[csrf] an Origin other than PUBLIC_URL's is refused", async () => {
  const t = await createTestApp();
  for (
    const origin of [
      "https://evil.example",
      "null",
      "https://localhost",
      "http://localhost:8000",
      "http://evil.localhost",
      "http://localhost.evil.example",
      "",
    ]
  ) {
    await assertRefused(await postContact(t, { origin }), origin);
    await assertRefused(
      await postContact(t, { origin, "sec-fetch-site": "same-origin" }),
      `${origin} with same-origin`,
    );
  }
  assertEquals(await countRows(t, "contact_messages"), 0);
  t.close();
});

test("[csrf] an Origin matching the Host header but not PUBLIC_URL is refused", async () => {
  const t = await createTestApp();
  for (const origin of ["http://meridian.internal:8000", "http://127.0.0.1:8000"]) {
    await assertRefused(
      await postContact(t, { origin }, `${origin}/api/contact`),
      `${origin} to itself`,
    );
  }
  await assertRefused(
    await postContact(t, { origin: "https://evil.example", "x-forwarded-host": "evil.example" }),
    "forwarded host",
  );
  assertEquals(await countRows(t, "contact_messages"), 0);
  t.close();
});

test("[csrf] PUBLIC_URL's origin is accepted whatever Host the request came in on", async () => {
  const t = await createTestApp({ env: { PUBLIC_URL: "https://meridian.example/app" } });
  const res = await postContact(
    t,
    { origin: "https://meridian.example" },
    "http://10.0.0.5:8000/api/contact",
  );
  assertEquals(res.status, 201, await res.text());
  t.close();
});

test("[csrf] POST, PATCH, PUT and DELETE from a foreign origin are refused and change nothing", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const client = await createSignedInUser(t, { role: "client" });
  const survey = await t.request("POST", "/api/surveys", {
    cookie: client.cookie,
    body: surveyRequest(),
  });
  assertEquals(survey.status, 201);
  const surveyId = (await survey.json()).survey.id;
  const attempts: [string, string, string, unknown][] = [
    ["POST", "/api/surveys", client.cookie, surveyRequest()],
    ["PATCH", "/api/user", client.cookie, { fullName: "Mallory", companyName: null, phone: null }],
    ["PUT", "/api/admin/pricing-config", admin, {}],
    ["DELETE", `/api/surveys/${surveyId}`, admin, undefined],
    ["POST", "/api/logout", client.cookie, undefined],
  ];
  const foreignHeaders: Record<string, string>[] = [
    { origin: "https://evil.example" },
    { "sec-fetch-site": "cross-site" },
  ];
  for (const foreign of foreignHeaders) {
    for (const [method, path, cookie, body] of attempts) {
      const res = await t.app.request(`${ORIGIN}${path}`, {
        method,
        headers: {
          cookie,
          ...foreign,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      await assertRefused(res, `${method} ${path} ${JSON.stringify(foreign)}`);
    }
  }
  assertEquals(await countRows(t, "surveys"), 1);
  const me = await t.request("GET", "/api/user", { cookie: client.cookie });
  assertEquals(me.status, 200, "the session survived the forged logout");
  assertEquals((await me.json()).fullName, client.user.fullName);
  const still = await t.request("GET", `/api/surveys/${surveyId}`, { cookie: admin });
  assertEquals(still.status, 200, "the survey survived the forged DELETE");
  await still.body?.cancel();
  t.close();
});

test("[csrf] the same requests from PUBLIC_URL's origin go through", async () => {
  const t = await createTestApp();
  const client = await createSignedInUser(t, { role: "client" });
  const res = await t.request("PATCH", "/api/user", {
    cookie: client.cookie,
    body: { fullName: "Dana Renamed", companyName: null, phone: null },
  });
  assertEquals(res.status, 200, await res.text());
  const logout = await t.request("POST", "/api/logout", { cookie: client.cookie });
  assertEquals(logout.status, 200, await logout.text());
  t.close();
});

/** POSTs a contact message from `origin` to an app built with `env`; returns the status. */
async function statusFrom(env: Record<string, string>, origins: string[]) {
  const t = await createTestApp({ env });
  const statuses: Record<string, number> = {};
  for (const origin of origins) {
    const res = await postContact(t, { origin, "sec-fetch-site": "same-origin" });
    statuses[origin] = res.status;
    await res.body?.cancel();
  }
  const stored = await countRows(t, "contact_messages");
  t.close();
  return { statuses, stored };
}

test("[csrf] without PUBLIC_URL every loopback spelling of the listening port is accepted", async () => {
  const accepted = ["http://127.0.0.1:8123", "http://localhost:8123", "http://[::1]:8123"];
  const { statuses, stored } = await statusFrom({ PUBLIC_URL: "", PORT: "8123" }, accepted);
  assertEquals(statuses, Object.fromEntries(accepted.map((o) => [o, 201])));
  assertEquals(stored, accepted.length);
});

test("[csrf] without PUBLIC_URL another port, scheme or host is still refused", async () => {
  const refused = [
    "http://localhost:8124",
    "http://127.0.0.1:8000",
    "http://localhost",
    "https://localhost:8123",
    "http://evil.example:8123",
    "http://localhost.evil.example:8123",
    "http://evil.localhost:8123",
    "http://192.168.1.5:8123",
    "null",
  ];
  const { statuses, stored } = await statusFrom({ PUBLIC_URL: "", PORT: "8123" }, refused);
  assertEquals(statuses, Object.fromEntries(refused.map((o) => [o, 403])));
  assertEquals(stored, 0);
});

test("[csrf] with PUBLIC_URL set, its other loopback spellings are refused", async () => {
  const { statuses, stored } = await statusFrom(
    { PUBLIC_URL: "http://127.0.0.1:8123", PORT: "8123" },
    ["http://127.0.0.1:8123", "http://localhost:8123", "http://[::1]:8123"],
  );
  assertEquals(statuses, {
    "http://127.0.0.1:8123": 201,
    "http://localhost:8123": 403,
    "http://[::1]:8123": 403,
  });
  assertEquals(stored, 1);
});

test("[csrf] without PUBLIC_URL on a LAN address, only that address is accepted", async () => {
  // The server does not listen on loopback: a page there is some other program's.
  const { statuses, stored } = await statusFrom(
    { PUBLIC_URL: "", HOST: "192.168.1.5", PORT: "8123" },
    ["http://192.168.1.5:8123", "http://localhost:8123", "http://127.0.0.1:8123"],
  );
  assertEquals(statuses, {
    "http://192.168.1.5:8123": 201,
    "http://localhost:8123": 403,
    "http://127.0.0.1:8123": 403,
  });
  assertEquals(stored, 1);
});

test("[csrf] without PUBLIC_URL on every interface, the loopback spellings are accepted", async () => {
  const { statuses } = await statusFrom(
    { PUBLIC_URL: "", HOST: "0.0.0.0", PORT: "8123" },
    ["http://localhost:8123", "http://127.0.0.1:8123", "http://0.0.0.0:8123"],
  );
  assertEquals(statuses, {
    "http://localhost:8123": 201,
    "http://127.0.0.1:8123": 201,
    "http://0.0.0.0:8123": 403,
  });
});
