import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { listContactMessages } from "../../db/contact_messages.ts";
import { makeOlder } from "../_row_order.ts";

const valid = {
  name: "Karen Mitchell",
  email: "karen@example.com",
  phone: "(828) 555-0142",
  topic: "quote",
  message: "Do you cover rural parcels in Buncombe County, NC?",
};

async function count(t: TestApp): Promise<number> {
  const [row] = await t.sql<{ n: number }[]>`select count(*)::int as n from contact_messages`;
  return row.n;
}

test("[contact] a valid message is stored and thanked with 201", async () => {
  const t = await createTestApp();
  const res = await t.request("POST", "/api/contact", { body: valid });
  assertEquals(res.status, 201);
  assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
  assertEquals(await res.json(), { message: "Thanks — we'll reply within one business day." });
  const [row] = await listContactMessages(t.sql);
  assertEquals(
    { name: row.name, email: row.email, phone: row.phone, topic: row.topic, message: row.message },
    valid,
  );
  assertEquals(row.readAt, null);
  assert(row.createdAt instanceof Date);
  t.close();
});

test("[contact] phone is optional and surrounding spaces are trimmed", async () => {
  const t = await createTestApp();
  const res = await t.request("POST", "/api/contact", {
    body: { ...valid, phone: undefined, name: "  Luis Pérez  ", email: " luis@example.com " },
  });
  assertEquals(res.status, 201);
  const [row] = await listContactMessages(t.sql);
  assertEquals([row.name, row.email, row.phone], ["Luis Pérez", "luis@example.com", null]);
  const empty = await t.request("POST", "/api/contact", { body: { ...valid, phone: "" } });
  assertEquals(empty.status, 201);
  assertEquals((await listContactMessages(t.sql))[0].phone, null);
  t.close();
});

const badInputs: [string, unknown, string][] = [
  ["an empty body", {}, "name"],
  ["a missing name", { ...valid, name: undefined }, "name"],
  ["a blank name", { ...valid, name: "   " }, "name"],
  ["a name over 120 characters", { ...valid, name: "n".repeat(121) }, "name"],
  ["a number as name", { ...valid, name: 42 }, "name"],
  ["a missing email", { ...valid, email: undefined }, "email"],
  ["a bad email", { ...valid, email: "karen@" }, "email"],
  ["an email over 254 characters", { ...valid, email: `${"a".repeat(250)}@example.com` }, "email"],
  ["a phone over 40 characters", { ...valid, phone: "5".repeat(41) }, "phone"],
  ["a phone that is an object", { ...valid, phone: { n: 1 } }, "phone"],
  ["an unknown topic", { ...valid, topic: "lawsuit" }, "topic"],
  ["a missing topic", { ...valid, topic: undefined }, "topic"],
  ["a message under 10 characters", { ...valid, message: "Hi there" }, "message"],
  ["a 10 KB message", { ...valid, message: "x".repeat(10 * 1024) }, "message"],
  ["a message that is an array", { ...valid, message: ["hello", "world"] }, "message"],
  ["a JSON array body", [valid], "_"],
];

test("[contact] bad input gets 400 with a message and nothing is stored", async () => {
  for (const [label, body, field] of badInputs) {
    // A fresh app per case: every attempt counts against the hourly rate limit.
    const t = await createTestApp();
    const res = await t.request("POST", "/api/contact", { body });
    assertEquals(res.status, 400, label);
    assertMatch(res.headers.get("content-type") ?? "", /application\/json/, label);
    const json = await res.json();
    assertEquals(typeof json.message, "string", label);
    assert(json.message.length > 0, label);
    if (field !== "_") assert(json.errors?.[field], `${label}: no error for ${field}`);
    assertEquals(await count(t), 0, label);
    t.close();
  }
});

test("[contact] field errors say what to fix", async () => {
  const t = await createTestApp();
  const res = await t.request("POST", "/api/contact", {
    body: { name: "", email: "nope", topic: "x", message: "short" },
  });
  assertEquals(res.status, 400);
  const json = await res.json();
  assertEquals(json.errors.name, "Please enter your name");
  assertEquals(json.errors.email, "Please enter a valid email address");
  assertEquals(json.errors.topic, "Please choose a topic");
  assertEquals(json.errors.message, "Message must be at least 10 characters");
  assertEquals(json.message, "Please enter your name");
  t.close();
});

test("[contact] malformed JSON gets 400 and nothing is stored", async () => {
  const t = await createTestApp();
  const res = await t.request("POST", "/api/contact", { body: '{"name": "Karen",' });
  assertEquals(res.status, 400);
  assertEquals(typeof (await res.json()).message, "string");
  assertEquals(await count(t), 0);
  t.close();
});

test("[contact] the sixth message from one IP within an hour gets 429", async () => {
  const t = await createTestApp();
  for (let i = 1; i <= 5; i++) {
    const res = await t.request("POST", "/api/contact", { body: valid });
    assertEquals(res.status, 201, `message ${i}`);
    await res.body?.cancel();
  }
  const res = await t.request("POST", "/api/contact", { body: valid });
  assertEquals(res.status, 429);
  assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
  const retryAfter = Number(res.headers.get("retry-after"));
  assert(retryAfter > 0 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
  assertEquals(
    (await res.json()).message,
    "You've sent several messages in the last hour. Please try again later.",
  );
  assertEquals(await count(t), 5);
  t.close();
});

test("[contact] the limit is per IP: another address can still write", async () => {
  const t = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const from = (ip: string) =>
    t.request("POST", "/api/contact", { body: valid, headers: { "x-forwarded-for": ip } });
  for (let i = 0; i < 5; i++) await (await from("203.0.113.7")).body?.cancel();
  assertEquals((await from("203.0.113.7")).status, 429);
  // The first address's messages a minute older: rows in a row can share a timestamp.
  await makeOlder(t.sql, "contact_messages");
  const other = await from("198.51.100.20");
  assertEquals(other.status, 201);
  const rows = await listContactMessages(t.sql);
  assertEquals(rows.length, 6);
  assertEquals(rows[0].ip, "198.51.100.20");
  t.close();
});

test("[contact] admins can page through messages newest first", async () => {
  const t = await createTestApp();
  const ages: [string, number][] = [["Oldest", 30], ["Middle", 20], ["Newest", 10]];
  for (const [name, minutes] of ages) {
    await t.sql`insert into contact_messages (name, email, topic, message, created_at)
      values (${name}, 'a@example.com', 'other', 'Hello there, team',
        now() - ${minutes} * interval '1 minute')`;
  }
  const page1 = await listContactMessages(t.sql, { limit: 2 });
  assertEquals(page1.map((m) => m.name), ["Newest", "Middle"]);
  const last = page1[page1.length - 1];
  const page2 = await listContactMessages(t.sql, {
    limit: 2,
    before: { createdAt: last.createdAt, id: last.id },
  });
  assertEquals(page2.map((m) => m.name), ["Oldest"]);
  t.close();
});
