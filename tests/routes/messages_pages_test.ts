/**
 * Messages on the job (issue 22), on the pages: the client's and the admin's /survey/{id}
 * (one tab per firm), the buyer's purchased lead page, the working firm's job page and its
 * technician's field page each render one MessageThread island with the thread's messages;
 * a refunded buyer's page has none; message text is never HTML.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { findIslandProps, islandProps, loadPage } from "../_pages.ts";
import { addBuyer, addPurchase, addSurveyWithLead } from "../_refund_fixtures.ts";
import { acceptJob, addTechnician } from "../_technician_fixtures.ts";
import type { MessageThreadProps } from "../../islands/MessageThread.tsx";

async function market(t: TestApp) {
  const admin = await createSignedInUser(t, { role: "admin" });
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  const { survey, lead } = await addSurveyWithLead(t, client.cookie);
  const able = await addBuyer(t, "Able Survey");
  const baker = await addBuyer(t, "Baker Survey");
  const cora = await addBuyer(t, "Cora Survey");
  await addPurchase(t, lead, able);
  await addPurchase(t, lead, baker);
  const refunded = await addPurchase(t, lead, cora);
  await t.sql`update lead_purchases set refunded_at = now() where id = ${refunded}`;
  await acceptJob(t, survey.id, baker.surveyorId);
  const riley = await addTechnician(t, baker.surveyorId, "Riley Chen");
  await t.sql`update surveys set assigned_technician_id = ${riley.user.id} where id = ${survey.id}`;
  return { admin, client, survey, lead, able, baker, cora, riley };
}

async function send(t: TestApp, cookie: string, surveyId: string, body: Record<string, unknown>) {
  const res = await t.request("POST", `/api/surveys/${surveyId}/messages`, { cookie, body });
  assertEquals(res.status, 201);
  await res.body?.cancel();
}

function countIslands(html: string, name: string): number {
  return html.split(`data-island="${name}"`).length - 1;
}

test("[messages pages] the client's /survey/{id} shows one island with a tab per firm, the unread one first; a <script> body is text and links are safe links", async () => {
  const t = await createTestApp();
  try {
    const m = await market(t);
    await send(t, m.able.cookie, m.survey.id, {
      body: "<script>alert('x')</script> see https://example.com/plat.pdf.",
    });
    const { res, html } = await loadPage(t, `/survey/${m.survey.id}`, m.client.cookie);
    assertEquals(res.status, 200);
    assertEquals(countIslands(html, "MessageThread"), 1, "one island for every thread");
    const props = islandProps<MessageThreadProps>(html, "MessageThread");
    assertEquals(props.viewerRole, "client");
    assertEquals(props.initial.surveyorId, m.able.surveyorId, "the thread with unread messages");
    assertEquals(
      props.initial.threads.map((x) => [x.companyName, x.unreadCount]),
      [["Baker Survey", 0], ["Able Survey", 1]],
    );
    assertStringIncludes(html, 'role="tab"');
    assertStringIncludes(html, 'id="messages"');
    assert(!html.includes("<script>alert"), "the message is never markup");
    assertStringIncludes(html, "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;");
    assertStringIncludes(
      html,
      '<a href="https://example.com/plat.pdf" rel="noopener noreferrer nofollow ugc">https://example.com/plat.pdf</a>.',
    );

    // Rendering the page reads nothing: the island marks the thread read when it opens it.
    const [row] = await t.sql<{ count: number }[]>`
      select count(*)::int as count from notifications
      where user_id = ${m.client.user.id} and kind = 'message_received' and not is_read`;
    assertEquals(row.count, 1);

    // ?thread= picks another of the client's threads; someone else's id is ignored.
    const baker = await loadPage(
      t,
      `/survey/${m.survey.id}?thread=${m.baker.surveyorId}`,
      m.client.cookie,
    );
    assertEquals(
      islandProps<MessageThreadProps>(baker.html, "MessageThread").initial.surveyorId,
      m.baker.surveyorId,
    );
    const odd = await loadPage(
      t,
      `/survey/${m.survey.id}?thread=${m.cora.surveyorId}`,
      m.client.cookie,
    );
    assertEquals(
      islandProps<MessageThreadProps>(odd.html, "MessageThread").initial.surveyorId,
      m.able.surveyorId,
    );

    // The admin's page of the same survey: every thread, replying as support.
    const admin = await loadPage(t, `/survey/${m.survey.id}`, m.admin.cookie);
    const adminProps = islandProps<MessageThreadProps>(admin.html, "MessageThread");
    assertEquals(adminProps.viewerRole, "admin");
    assertStringIncludes(admin.html, "Reply as Meridian support");
  } finally {
    t.close();
  }
});

test("[messages pages] a request nobody bought says messages come later; the buyer's lead page, the job page and the technician's field page show their thread; a refunded buyer's does not", async () => {
  const t = await createTestApp();
  try {
    const m = await market(t);
    const fresh = await addSurveyWithLead(t, m.client.cookie);
    const empty = await loadPage(t, `/survey/${fresh.survey.id}`, m.client.cookie);
    assertEquals(countIslands(empty.html, "MessageThread"), 0);
    assertStringIncludes(empty.html, "Once a surveyor buys your request");

    await send(t, m.client.cookie, m.survey.id, { surveyorId: m.able.surveyorId, body: "Hi Able" });
    const lead = await loadPage(t, `/surveyor/purchased-leads/${m.lead.id}`, m.able.cookie);
    assertEquals(lead.res.status, 200);
    const leadProps = islandProps<MessageThreadProps>(lead.html, "MessageThread");
    assertEquals(leadProps.viewerRole, "surveyor");
    assertEquals(leadProps.initial.messages.map((x) => x.body), ["Hi Able"]);
    assertStringIncludes(lead.html, "Message to Dana Client");

    const job = await loadPage(t, `/surveyor/jobs/${m.survey.id}`, m.baker.cookie);
    assertEquals(job.res.status, 200);
    assertEquals(
      islandProps<MessageThreadProps>(job.html, "MessageThread").initial.surveyorId,
      m.baker.surveyorId,
    );

    // The technician reads the working firm's conversation with the client, its newest
    // messages with the page.
    await send(t, m.client.cookie, m.survey.id, {
      surveyorId: m.baker.surveyorId,
      body: "The gate code is 4321",
    });
    const field = await loadPage(t, `/technician-survey-detail/${m.survey.id}`, m.riley.cookie);
    assertEquals(field.res.status, 200);
    const fieldProps = islandProps<MessageThreadProps>(field.html, "MessageThread");
    assertEquals(fieldProps.viewerRole, "technician");
    assertEquals(fieldProps.initial.surveyorId, m.baker.surveyorId);
    assertEquals(fieldProps.initial.messages.map((x) => x.body), ["The gate code is 4321"]);

    const refunded = await loadPage(t, `/surveyor/purchased-leads/${m.lead.id}`, m.cora.cookie);
    assertEquals(refunded.res.status, 200);
    assertEquals(findIslandProps(refunded.html, "MessageThread"), undefined);
  } finally {
    t.close();
  }
});
