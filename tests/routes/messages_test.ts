/**
 * Messages on the job (issue 22): `GET`/`POST /api/surveys/{id}/messages`. Who is in which
 * thread (the client, each buyer while not refunded, the working firm and its technician on
 * the job, admins as "Meridian support"), validation, the bell notification with its unread
 * count, read marks, the email throttle and the polling cursor.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { countRows, expectJson } from "../_fixtures.ts";
import { addBuyer, addPurchase, addSurveyWithLead } from "../_refund_fixtures.ts";
import { acceptJob, addTechnician } from "../_technician_fixtures.ts";
import { emailsOf } from "../_assignment_fixtures.ts";
import { hitRateLimit } from "../../db/kv.ts";
import { ACTION_LIMITS } from "../../routes/_limits.ts";
import { MESSAGE_TEXTS } from "../../lib/message_text.ts";
import { makeOlder } from "../_row_order.ts";

/**
 * A client's request with its lead, bought by Able and Baker; Baker works the job with its
 * technician Riley on it. Cora bought it and was refunded; Dell never bought it; Tess is a
 * technician of another firm; Olga another client.
 */
async function market(t: TestApp) {
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  const other = await createSignedInUser(t, { role: "client", fullName: "Olga Other" });
  const { survey, lead } = await addSurveyWithLead(t, client.cookie);
  const able = await addBuyer(t, "Able Survey");
  const baker = await addBuyer(t, "Baker Survey");
  const cora = await addBuyer(t, "Cora Survey");
  const dell = await addBuyer(t, "Dell Survey");
  await addPurchase(t, lead, able);
  await addPurchase(t, lead, baker);
  const coraPurchase = await addPurchase(t, lead, cora);
  await t.sql`update lead_purchases set refunded_at = now() where id = ${coraPurchase}`;
  await acceptJob(t, survey.id, baker.surveyorId);
  const riley = await addTechnician(t, baker.surveyorId, "Riley Chen");
  await t.sql`update surveys set assigned_technician_id = ${riley.user.id} where id = ${survey.id}`;
  const tess = await addTechnician(t, dell.surveyorId, "Tess Other");
  return { admin, client, other, survey, lead, able, baker, cora, dell, riley, tess };
}

function path(surveyId: string, query = ""): string {
  return `/api/surveys/${surveyId}/messages${query}`;
}

function post(t: TestApp, cookie: string, surveyId: string, body: unknown) {
  return t.request("POST", path(surveyId), { cookie, body });
}

function get(t: TestApp, cookie: string, surveyId: string, query = "") {
  return t.request("GET", path(surveyId, query), { cookie });
}

test("[messages] access: the client, each buyer, the working firm's technician and admins are in their threads; a refunded buyer, another surveyor, another firm's technician and another client get a 404; signed out a 401", async () => {
  const t = await createTestApp();
  try {
    const m = await market(t);
    const id = m.survey.id;
    const able = `?surveyorId=${m.able.surveyorId}`;
    const baker = `?surveyorId=${m.baker.surveyorId}`;

    // The client writes to Able; Able answers without naming its thread.
    await expectJson(
      await post(t, m.client.cookie, id, { surveyorId: m.able.surveyorId, body: "Hi Able" }),
      201,
    );
    const answered = await expectJson(
      await post(t, m.able.cookie, id, { body: "Hello Dana" }),
      201,
    );
    assertEquals(answered.message, MESSAGE_TEXTS.sent);
    assertEquals(answered.sent.author, { role: "surveyor", name: "Able Survey" });

    const ableThread = await expectJson(await get(t, m.able.cookie, id), 200);
    assertEquals(ableThread.messages.map((x: { body: string }) => x.body), [
      "Hi Able",
      "Hello Dana",
    ]);
    assertEquals(ableThread.messages.map((x: { isMine: boolean }) => x.isMine), [false, true]);
    assertEquals(ableThread.threads.map((x: { companyName: string }) => x.companyName), [
      "Able Survey",
    ], "a buyer sees only its own thread");
    assertEquals(
      ableThread.participants.map((p: { role: string; name: string }) => `${p.role}:${p.name}`),
      ["client:Dana Client", "surveyor:Able Survey", "admin:Meridian support"],
    );

    // The client has two threads (the working firm first) and sees both.
    const clientView = await expectJson(await get(t, m.client.cookie, id, able), 200);
    assertEquals(clientView.threads.map((x: { companyName: string }) => x.companyName), [
      "Baker Survey",
      "Able Survey",
    ]);
    assertEquals(clientView.messages.length, 2);

    // Baker's thread: its technician reads and writes there, never in Able's.
    await expectJson(await post(t, m.riley.cookie, id, { body: "On site Tuesday" }), 201);
    const bakerView = await expectJson(await get(t, m.baker.cookie, id), 200);
    assertEquals(bakerView.messages.map((x: { author: { name: string } }) => x.author.name), [
      "Riley Chen (Baker Survey)",
    ]);
    assertEquals(
      bakerView.participants.map((p: { role: string }) => p.role),
      ["client", "surveyor", "technician", "admin"],
    );
    assertEquals((await get(t, m.riley.cookie, id, able)).status, 404);

    // Admins read every thread and write as Meridian support.
    const adminView = await expectJson(await get(t, m.admin.cookie, id, baker), 200);
    assertEquals(adminView.messages.length, 1);
    const support = await expectJson(
      await post(t, m.admin.cookie, id, { surveyorId: m.able.surveyorId, body: "We can help" }),
      201,
    );
    assertEquals(support.sent.author, { role: "admin", name: "Meridian support" });

    // Everyone else: the thread does not exist for them.
    const before = await countRows(t, "survey_messages");
    for (
      const [who, cookie, query] of [
        ["refunded buyer", m.cora.cookie, ""],
        ["surveyor who never bought", m.dell.cookie, ""],
        ["another firm's technician", m.tess.cookie, ""],
        ["another client", m.other.cookie, able],
        ["a buyer naming another firm's thread", m.able.cookie, baker],
      ] as const
    ) {
      const read = await get(t, cookie, id, query);
      assertEquals(read.status, 404, `${who} reads`);
      assertEquals((await read.json()).message, MESSAGE_TEXTS.notFound, who);
      const write = await post(t, cookie, id, {
        body: "let me in",
        ...(query ? { surveyorId: query.split("=")[1] } : {}),
      });
      assertEquals(write.status, 404, `${who} writes`);
      await write.body?.cancel();
    }
    assertEquals((await get(t, m.able.cookie, crypto.randomUUID())).status, 404);
    assertEquals((await get(t, m.able.cookie, "not-a-survey")).status, 404);
    assertEquals(await countRows(t, "survey_messages"), before, "nothing stored");

    const anonymous = await t.request("GET", path(id));
    assertEquals(anonymous.status, 401);
    await anonymous.body?.cancel();
    const anonymousPost = await t.request("POST", path(id), { body: { body: "hi" } });
    assertEquals(anonymousPost.status, 401);
    await anonymousPost.body?.cancel();
  } finally {
    t.close();
  }
});

test("[messages] a client or admin with several threads must name the firm (400); with one it is implied", async () => {
  const t = await createTestApp();
  try {
    const m = await market(t);
    for (const cookie of [m.client.cookie, m.admin.cookie]) {
      const read = await expectJson(await get(t, cookie, m.survey.id), 400);
      assertEquals(read.message, MESSAGE_TEXTS.chooseFirm);
      const write = await expectJson(await post(t, cookie, m.survey.id, { body: "Hello" }), 400);
      assertEquals(write.message, MESSAGE_TEXTS.chooseFirm);
    }
    // A request only one firm bought: its thread is the client's only one.
    const { survey, lead } = await addSurveyWithLead(t, m.client.cookie);
    const none = await expectJson(await get(t, m.client.cookie, survey.id), 404);
    assertEquals(none.message, MESSAGE_TEXTS.noThreads);
    await addPurchase(t, lead, m.dell);
    await expectJson(await post(t, m.client.cookie, survey.id, { body: "Just you" }), 201);
    const dellView = await expectJson(await get(t, m.dell.cookie, survey.id), 200);
    assertEquals(dellView.messages[0].body, "Just you");
    assertEquals(dellView.messages[0].author, { role: "client", name: "Dana Client" });
  } finally {
    t.close();
  }
});

test("[messages] bad input is a 400 with a clear message and stores nothing", async () => {
  const t = await createTestApp();
  try {
    const m = await market(t);
    const cases: [unknown, string][] = [
      [{ body: "" }, "Write a message"],
      [{ body: "   \n\t " }, "Write a message"],
      [{}, "Write a message"],
      [{ body: 42 }, "Message must be text"],
      [{ body: "x".repeat(4001) }, "Message must be at most 4,000 characters"],
      [{ body: "bad \u0000 byte" }, "Message contains characters that are not allowed"],
      [{ body: "hi", surveyorId: "firm" }, "surveyorId must be a firm's id"],
      [{ body: "hi", extra: true }, ""],
    ];
    for (const [body, text] of cases) {
      const res = await expectJson(await post(t, m.able.cookie, m.survey.id, body), 400);
      if (text) assertStringIncludes(JSON.stringify(res), text, JSON.stringify(body));
    }
    const notJson = await t.request("POST", path(m.survey.id), {
      cookie: m.able.cookie,
      body: "{",
    });
    assertEquals(notJson.status, 400);
    await notJson.body?.cancel();
    const badCursor = await expectJson(
      await get(t, m.able.cookie, m.survey.id, "?after=abc"),
      400,
    );
    assertStringIncludes(JSON.stringify(badCursor), "after must be a message cursor");
    assertEquals(await countRows(t, "survey_messages"), 0);

    // Trimmed; exactly 4,000 characters fit; HTML stays text.
    const long = "y".repeat(4000);
    await expectJson(await post(t, m.able.cookie, m.survey.id, { body: `  ${long}  ` }), 201);
    const html = await expectJson(
      await post(t, m.able.cookie, m.survey.id, { body: "<script>alert(1)</script>" }),
      201,
    );
    assertEquals(html.sent.body, "<script>alert(1)</script>");
    const view = await expectJson(await get(t, m.able.cookie, m.survey.id), 200);
    assertEquals(view.messages[0].body, long);
  } finally {
    t.close();
  }
});

test("[messages] the reader's bell shows one notification per thread with the unread count; opening the thread marks it read", async () => {
  const t = await createTestApp();
  try {
    const m = await market(t);
    const id = m.survey.id;
    await expectJson(await post(t, m.able.cookie, id, { body: "First" }), 201);
    await expectJson(await post(t, m.able.cookie, id, { body: "Second, with more" }), 201);
    await expectJson(await post(t, m.baker.cookie, id, { body: "From Baker" }), 201);

    const bell = await expectJson(
      await t.request("GET", "/api/notifications", { cookie: m.client.cookie }),
      200,
    );
    const notes = bell.notifications.filter((n: { kind: string }) => n.kind === "message_received");
    assertEquals(notes.map((n: { title: string }) => n.title).sort(), [
      "2 new messages from Able Survey",
      "New message from Baker Survey",
    ]);
    const ableNote = notes.find((n: { title: string }) => n.title.includes("Able"));
    assertStringIncludes(ableNote.body, "Second, with more");
    assertEquals(ableNote.link, `/survey/${id}?thread=${m.able.surveyorId}#messages`);
    assertEquals(bell.unreadCount, 2);

    // Opening Baker's thread reads it; Able's still counts 2.
    const baker = await expectJson(
      await get(t, m.client.cookie, id, `?surveyorId=${m.baker.surveyorId}`),
      200,
    );
    assertEquals(
      baker.threads.map((
        x: { companyName: string; unreadCount: number },
      ) => [x.companyName, x.unreadCount]),
      [["Baker Survey", 0], ["Able Survey", 2]],
    );
    const after = await expectJson(
      await t.request("GET", "/api/notifications", { cookie: m.client.cookie }),
      200,
    );
    assertEquals(after.unreadCount, 1);

    // The client's answer reaches both the firm and its technician on the job, who had not
    // read Baker's own message either.
    await expectJson(
      await post(t, m.client.cookie, id, {
        surveyorId: m.baker.surveyorId,
        body: "Gate code 1234",
      }),
      201,
    );
    for (
      const [user, title] of [
        [m.baker.userId, "New message from Dana Client"],
        [m.riley.user.id, "2 new messages from Dana Client"],
      ]
    ) {
      const rows = await t.sql<{ title: string }[]>`
        select title from notifications where user_id = ${user} and kind = 'message_received'`;
      assertEquals(rows.map((r) => r.title), [title]);
    }
    const [rileyNote] = await t.sql<{ link: string }[]>`
      select link from notifications where user_id = ${m.riley.user.id}`;
    assertEquals(rileyNote.link, `/technician-survey-detail/${id}#messages`);
    const [bakerNote] = await t.sql<{ link: string }[]>`
      select link from notifications where user_id = ${m.baker.userId}`;
    assertEquals(bakerNote.link, `/surveyor/jobs/${id}#messages`);
    const [ableLink] = await t.sql<{ link: string }[]>`
      select link from notifications where user_id = ${m.able.userId}`;
    assertEquals(ableLink, undefined, "Able is not in Baker's thread");

    // Able's own count: the client's Able message (none yet), then one.
    await expectJson(
      await post(t, m.client.cookie, id, { surveyorId: m.able.surveyorId, body: "Thanks Able" }),
      201,
    );
    const ableView = await expectJson(await get(t, m.able.cookie, id), 200);
    assertEquals(ableView.threads[0].unreadCount, 0, "opened, so read");
    const [ableRead] = await t.sql<{ isRead: boolean; link: string }[]>`
      select is_read, link from notifications where user_id = ${m.able.userId}`;
    assertEquals(ableRead, {
      isRead: true,
      link: `/surveyor/purchased-leads/${m.lead.id}#messages`,
    });

    // Polling: only what came after the cursor, and nothing new is an empty list.
    const poll = await expectJson(
      await get(t, m.able.cookie, id, `?after=${ableView.cursor}`),
      200,
    );
    assertEquals(poll.messages, []);
    assertEquals(poll.cursor, ableView.cursor);
    await expectJson(
      await post(t, m.client.cookie, id, { surveyorId: m.able.surveyorId, body: "One more" }),
      201,
    );
    const next = await expectJson(
      await get(t, m.able.cookie, id, `?after=${ableView.cursor}`),
      200,
    );
    assertEquals(next.messages.map((x: { body: string }) => x.body), ["One more"]);
    assert(BigInt(next.cursor) > BigInt(ableView.cursor));
  } finally {
    t.close();
  }
});

test("[messages] each reader gets at most one email per thread every 15 minutes, with the message text and a link", async () => {
  const t = await createTestApp();
  try {
    const m = await market(t);
    const id = m.survey.id;
    for (const body of ["Can you send the deed?", "Also the plat", "And the HOA letter"]) {
      await expectJson(await post(t, m.able.cookie, id, { body }), 201);
    }
    let emails = await emailsOf(t, "message_received");
    assertEquals(emails.length, 1, "three messages, one email");
    assertEquals(emails[0].toAddress, m.client.user.email);
    assertStringIncludes(
      emails[0].subject,
      "New message from Able Survey about 1200 Barton Springs Rd",
    );
    assertStringIncludes(emails[0].text, "Can you send the deed?");
    assertStringIncludes(emails[0].text, `/client/surveys/${id}#messages`);

    // Another thread is emailed on its own (to the client, and to Baker's technician on the job).
    // Each time, the emails so far are made a minute older, so the new ones come after them
    // (emails queued in a row can share a timestamp, and ties go by id).
    const earlier = () => makeOlder(t.sql, "email_outbox");
    await earlier();
    await expectJson(await post(t, m.baker.cookie, id, { body: "Baker here" }), 201);
    emails = await emailsOf(t, "message_received");
    assertEquals(
      emails.slice(1).map((e) => e.toAddress).sort(),
      [
        m.client.user.email,
        m.riley.user.email,
      ].sort(),
    );

    // The client answers Able: Able is emailed (its first), with a link to its lead page.
    await earlier();
    await expectJson(
      await post(t, m.client.cookie, id, { surveyorId: m.able.surveyorId, body: "Sent!" }),
      201,
    );
    emails = await emailsOf(t, "message_received");
    assertEquals(emails.length, 4);
    assertEquals(emails[3].toAddress, m.able.email);
    assertStringIncludes(emails[3].text, `/surveyor/purchased-leads/${m.lead.id}#messages`);

    // Fifteen minutes later, an unread thread emails again.
    await t.sql`update survey_message_reads set last_emailed_at = now() - interval '16 minutes'
      where user_id = ${m.client.user.id}`;
    await earlier();
    await expectJson(await post(t, m.able.cookie, id, { body: "Reminder: the deed" }), 201);
    emails = await emailsOf(t, "message_received");
    assertEquals(emails.length, 5);
    assertEquals(emails[4].toAddress, m.client.user.email);
    assertStringIncludes(emails[4].text, "Reminder: the deed");
  } finally {
    t.close();
  }
});

test("[messages] posting over the per-account limit is a 429 and stores nothing", async () => {
  const t = await createTestApp();
  try {
    const m = await market(t);
    const limit = ACTION_LIMITS.messages;
    for (let i = 0; i < limit.limit; i++) {
      assert(
        (await hitRateLimit(t.kv, { bucket: "messages", subject: m.able.userId, ...limit }))
          .allowed,
      );
    }
    const res = await expectJson(await post(t, m.able.cookie, m.survey.id, { body: "Hi" }), 429);
    assertStringIncludes(res.message, "Too many messages");
    assertEquals(await countRows(t, "survey_messages"), 0);
    // Others still write.
    await expectJson(await post(t, m.baker.cookie, m.survey.id, { body: "Hi" }), 201);
  } finally {
    t.close();
  }
});

test("[messages] a purchase refunded after a conversation closes it for the firm and the client; admins still read it", async () => {
  const t = await createTestApp();
  try {
    const m = await market(t);
    const id = m.survey.id;
    await expectJson(await post(t, m.able.cookie, id, { body: "Before the refund" }), 201);
    await t
      .sql`update lead_purchases set refunded_at = now() where surveyor_id = ${m.able.surveyorId}`;

    assertEquals((await get(t, m.able.cookie, id)).status, 404);
    const write = await post(t, m.able.cookie, id, { body: "After the refund" });
    assertEquals(write.status, 404);
    await write.body?.cancel();
    const client = await expectJson(await get(t, m.client.cookie, id), 200);
    assertEquals(client.threads.map((x: { companyName: string }) => x.companyName), [
      "Baker Survey",
    ], "one thread left, so it is implied");
    const gone = await get(t, m.client.cookie, id, `?surveyorId=${m.able.surveyorId}`);
    assertEquals(gone.status, 404);
    await gone.body?.cancel();

    const admin = await expectJson(
      await get(t, m.admin.cookie, id, `?surveyorId=${m.able.surveyorId}`),
      200,
    );
    assertEquals(admin.messages.map((x: { body: string }) => x.body), ["Before the refund"]);
    assertEquals(await countRows(t, "survey_messages"), 1);
  } finally {
    t.close();
  }
});
