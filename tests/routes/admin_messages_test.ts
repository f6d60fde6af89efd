import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";
import { expectJson } from "../_fixtures.ts";
import { insertContactMessage } from "../../db/contact_messages.ts";

const NON_ADMINS = ["client", "surveyor", "technician"] as const;
const MISSING = "00000000-0000-4000-8000-000000000000";
const LIST = "/api/admin/contact-messages";

/** Inserts a message `minutes` ago, named `name`; returns its id. */
async function message(t: TestApp, name: string, minutes: number): Promise<string> {
  const [row] = await t.sql<{ id: string }[]>`
    insert into contact_messages (name, email, phone, topic, message, created_at)
    values (${name}, ${`${name.toLowerCase()}@example.com`}, '512-555-0100', 'quote',
      ${`Hello from ${name}, please call me about a boundary survey.`},
      now() - ${minutes} * interval '1 minute')
    returning id`;
  return row.id;
}

async function readState(t: TestApp) {
  return await t.sql<{ id: string; readAt: Date | null }[]>`
    select id, read_at from contact_messages order by id`;
}

test("[admin messages] only admins may list or mark messages; others 403, signed out 401", async () => {
  const t = await createTestApp();
  const id = await message(t, "Dana", 5);
  const before = await readState(t);
  for (const role of NON_ADMINS) {
    const cookie = await signInAs(t, role);
    assertEquals(await expectJson(await t.request("GET", LIST, { cookie }), 403), {
      message: "You do not have permission to do this",
    });
    const patch = await t.request("PATCH", `${LIST}/${id}/read`, { cookie });
    assertEquals((await expectJson(patch, 403)).message, "You do not have permission to do this");
    // A bad query or an unknown id says nothing more to the wrong role.
    assertEquals((await t.request("GET", `${LIST}?limit=0`, { cookie })).status, 403);
    assertEquals((await t.request("PATCH", `${LIST}/${MISSING}/read`, { cookie })).status, 403);
  }
  assertEquals(await expectJson(await t.request("GET", LIST), 401), {
    message: "Authentication required",
  });
  assertEquals(
    (await expectJson(await t.request("PATCH", `${LIST}/${id}/read`), 401)).message,
    "Authentication required",
  );
  assertEquals(await readState(t), before, "nothing was marked read");

  const admin = await signInAs(t, "admin");
  const res = await t.request("GET", LIST, { cookie: admin });
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  const body = await expectJson(res, 200);
  assertEquals(body.messages.length, 1);
  assertEquals(body.messages[0].id, id);
  assertEquals(body.messages[0].name, "Dana");
  assertEquals(body.messages[0].email, "dana@example.com");
  assertEquals(body.messages[0].phone, "512-555-0100");
  assertEquals(body.messages[0].topic, "quote");
  assertEquals(body.messages[0].readAt, null);
  assertEquals("ip" in body.messages[0], false, "the sender's IP is not shown");
  assertEquals(body.nextCursor, null);
  t.close();
});

test("[admin messages] pages run newest first with a 'before' cursor and end with null", async () => {
  const t = await createTestApp();
  const names = ["Ava", "Ben", "Cy", "Di", "Eve"]; // Ava newest … Eve oldest
  for (const [i, name] of names.entries()) await message(t, name, (i + 1) * 10);
  const admin = await signInAs(t, "admin");

  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: string = cursor ? `?limit=2&before=${encodeURIComponent(cursor)}` : "?limit=2";
    const body = await expectJson(
      await t.request("GET", `${LIST}${query}`, { cookie: admin }),
      200,
    );
    seen.push(...body.messages.map((m: { name: string }) => m.name));
    cursor = body.nextCursor;
    pages++;
  } while (cursor && pages < 10);
  assertEquals(seen, names);
  assertEquals(pages, 3, "2 + 2 + 1, and the last page says there is no more");
  t.close();
});

test("[admin messages] messages less than a millisecond apart are neither skipped nor repeated", async () => {
  const t = await createTestApp();
  // Microseconds apart inside one millisecond: a cursor that kept only milliseconds would skip.
  // (postgres.js sends timestamps as JS Dates, so the microseconds are added in SQL.)
  const micros = [123_900, 123_600, 123_300, 123_000];
  for (const [i, us] of micros.entries()) {
    await t.sql`
      insert into contact_messages (name, email, topic, message, created_at)
      values (${`M${i}`}, 'm@example.com', 'other', 'Hello there, team',
        '2026-03-01 12:00:00+00'::timestamptz + ${us} * interval '1 microsecond')`;
  }
  const admin = await signInAs(t, "admin");
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 6; i++) {
    const query: string = cursor ? `?limit=1&before=${encodeURIComponent(cursor)}` : "?limit=1";
    const body = await expectJson(
      await t.request("GET", `${LIST}${query}`, { cookie: admin }),
      200,
    );
    seen.push(...body.messages.map((m: { name: string }) => m.name));
    cursor = body.nextCursor;
    if (!cursor) break;
  }
  assertEquals(seen, ["M0", "M1", "M2", "M3"]);
  t.close();
});

test("[admin messages] marking a message read persists and the unread filter leaves it out", async () => {
  const t = await createTestApp();
  const older = await message(t, "Older", 20);
  const newer = await message(t, "Newer", 10);
  const admin = await signInAs(t, "admin");

  const res = await t.request("PATCH", `${LIST}/${newer}/read`, { cookie: admin });
  assertEquals(await expectJson(res, 200), { message: "Message marked as read" });
  const [{ readAt }] = await t.sql<{ readAt: Date }[]>`
    select read_at from contact_messages where id = ${newer}`;
  assert(readAt instanceof Date, "read_at is stored");

  // Marking again keeps the first read time.
  await expectJson(await t.request("PATCH", `${LIST}/${newer}/read`, { cookie: admin }), 200);
  const [again] = await t.sql<{ readAt: Date }[]>`
    select read_at from contact_messages where id = ${newer}`;
  assertEquals(again.readAt.getTime(), readAt.getTime());

  const all = await expectJson(await t.request("GET", LIST, { cookie: admin }), 200);
  assertEquals(all.messages.map((m: { name: string }) => m.name), ["Newer", "Older"]);
  assertEquals(all.messages[0].readAt, readAt.toISOString());
  assertEquals(all.messages[1].readAt, null);

  const unread = await expectJson(
    await t.request("GET", `${LIST}?unread=true`, { cookie: admin }),
    200,
  );
  assertEquals(unread.messages.map((m: { id: string }) => m.id), [older]);
  t.close();
});

test("[admin messages] unknown or malformed ids are 404 and change nothing", async () => {
  const t = await createTestApp();
  await message(t, "Dana", 5);
  const admin = await signInAs(t, "admin");
  const before = await readState(t);
  for (const id of [MISSING, "not-a-uuid", "1", "x".repeat(10_000)]) {
    const res = await t.request("PATCH", `${LIST}/${id}/read`, { cookie: admin });
    assertEquals(await expectJson(res, 404), { message: "Message not found" }, id.slice(0, 20));
  }
  assertEquals(await readState(t), before);
  t.close();
});

test("[admin messages] a bad query is a 400 with the field at fault", async () => {
  const t = await createTestApp();
  const id = await message(t, "Dana", 5);
  const admin = await signInAs(t, "admin");
  const cases: [string, string][] = [
    ["limit=0", "limit"],
    ["limit=51", "limit"],
    ["limit=2.5", "limit"],
    ["limit=ten", "limit"],
    ["unread=yes", "unread"],
    ["before=yesterday", "before"],
    [`before=${encodeURIComponent(`2026-13-45T99:00:00.000Z_${id}`)}`, "before"],
    [`before=${encodeURIComponent("2026-01-01T00:00:00.000Z_not-a-uuid")}`, "before"],
    [`before=${"x".repeat(10_000)}`, "before"],
  ];
  for (const [query, field] of cases) {
    const body = await expectJson(
      await t.request("GET", `${LIST}?${query}`, { cookie: admin }),
      400,
    );
    assertEquals(typeof body.message, "string", query.slice(0, 40));
    assert(body.message.length > 0, query.slice(0, 40));
    assert(field in body.errors, `${query.slice(0, 40)}: ${JSON.stringify(body.errors)}`);
  }
  t.close();
});

test("[admin messages] a message sent through the contact form shows up for admins", async () => {
  const t = await createTestApp();
  const stored = await insertContactMessage(t.sql, {
    name: "Form Sender",
    email: "form@example.com",
    phone: null,
    topic: "billing",
    message: "How much is an ALTA survey for 3 acres?",
    ip: "203.0.113.9",
  });
  const admin = await signInAs(t, "admin");
  const body = await expectJson(await t.request("GET", LIST, { cookie: admin }), 200);
  assertEquals(body.messages, [{
    id: stored.id,
    name: "Form Sender",
    email: "form@example.com",
    phone: null,
    topic: "billing",
    message: "How much is an ALTA survey for 3 acres?",
    createdAt: stored.createdAt.toISOString(),
    readAt: null,
  }]);
  t.close();
});

test("[admin messages] a browser's bodiless PATCH (no Content-Length, empty stream) marks read", async () => {
  const t = await createTestApp();
  const id = await message(t, "Dana", 5);
  const admin = await signInAs(t, "admin");
  // Chromium sends PATCH without a body and without Content-Length; Deno.serve still hands the
  // app an (empty) body stream. Built here by hand, as app.request() would otherwise send null.
  const res = await t.app.request(`http://localhost${LIST}/${id}/read`, {
    method: "PATCH",
    headers: { origin: "http://localhost", cookie: admin },
    body: new ReadableStream({ start: (controller) => controller.close() }),
  });
  assertEquals(await expectJson(res, 200), { message: "Message marked as read" });
  const [row] = await t.sql<{ readAt: Date | null }[]>`
    select read_at from contact_messages where id = ${id}`;
  assert(row.readAt, "read_at is stored");
  t.close();
});
