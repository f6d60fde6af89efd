/**
 * What admins are told in the bell (issue 21, "Emails and alerts that are missing"): a
 * surveyor's return request and a lead marked "Won".
 */
import { assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { expectJson } from "../_fixtures.ts";
import { addBuyer, addPurchase, addSurveyWithLead } from "../_refund_fixtures.ts";
import { pageText } from "../_pages.ts";
import { makeOlder } from "../_row_order.ts";

async function adminNotes(t: TestApp, adminId: string, kind: string) {
  return await t.sql<{ title: string; body: string; link: string | null }[]>`
    select title, body, link from notifications where user_id = ${adminId} and kind = ${kind}
    order by created_at`;
}

test("[admin alerts] a surveyor's return request tells every admin, linking the queue", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const buyer = await addBuyer(t, "Barton Creek Surveying");
    const { lead } = await addSurveyWithLead(t, await signInAs(t, "client"));
    await addPurchase(t, lead, buyer);
    await expectJson(
      await t.request("POST", `/api/purchased-leads/${lead.id}/refund-request`, {
        cookie: buyer.cookie,
        body: { reason: "invalid_contact", note: "The phone number is not in service" },
      }),
      201,
    );
    const [note, ...more] = await adminNotes(t, admin.user.id, "refund_requested");
    assertEquals(more.length, 0);
    assertEquals(note.title, "Return requested");
    assertMatch(
      note.body,
      /^Barton Creek Surveying asked to return the Boundary Survey lead in .+ \(\$38\.50\): Invalid contact details\.$/,
    );
    assertEquals(note.link, "/admin?tab=returns");
    // The queue's tab counts it.
    const page = await (await t.request("GET", "/admin?tab=returns", {
      cookie: admin.cookie,
      headers: { accept: "text/html" },
    })).text();
    assertMatch(page, /admin-tabs__count[^>]*><span aria-hidden="true">1<\/span>/);
  } finally {
    t.close();
  }
});

test("[admin alerts] marking a lead 'Won' tells the admins once", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const buyer = await addBuyer(t, "Barton Creek Surveying");
    const { survey, lead } = await addSurveyWithLead(t, await signInAs(t, "client"));
    await addPurchase(t, lead, buyer);
    const patch = (body: Record<string, unknown>) =>
      t.request("PATCH", `/api/purchased-leads/${lead.id}`, { cookie: buyer.cookie, body });
    await expectJson(await patch({ pipelineStatus: "contacted" }), 200);
    assertEquals((await adminNotes(t, admin.user.id, "lead_won")).length, 0);
    await expectJson(await patch({ pipelineStatus: "won" }), 200);
    await expectJson(await patch({ pipelineStatus: "won", pipelineNote: "Booked" }), 200);
    const notes = await adminNotes(t, admin.user.id, "lead_won");
    assertEquals(notes.length, 1, "once, not on every save");
    assertEquals(notes[0].title, "Lead won");
    assertMatch(
      notes[0].body,
      /^Barton Creek Surveying marked the Boundary Survey lead in .+ as won\.$/,
    );
    assertEquals(notes[0].link, `/survey/${survey.id}`);
  } finally {
    t.close();
  }
});

test("[return queue] each request shows the lead, when it was bought, the buyer's pipeline and earlier returns", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const buyer = await addBuyer(t, "Barton Creek Surveying");
    const client = await signInAs(t, "client");
    const first = await addSurveyWithLead(t, client);
    const second = await addSurveyWithLead(t, client);
    await addPurchase(t, first.lead, buyer, { daysAgo: 3 });
    await addPurchase(t, second.lead, buyer, { daysAgo: 1 });
    await t.sql`update lead_purchases set pipeline_status = 'contacted',
      pipeline_note = 'Voicemail full twice' where lead_id = ${second.lead.id}`;
    for (const lead of [first.lead, second.lead]) {
      // Each return a minute after the one before (two in a row can share a timestamp).
      await makeOlder(t.sql, "lead_refund_requests");
      await expectJson(
        await t.request("POST", `/api/purchased-leads/${lead.id}/refund-request`, {
          cookie: buyer.cookie,
          body: { reason: "invalid_contact", note: "Number not in service" },
        }),
        201,
      );
    }
    const page = await expectJson(
      await t.request("GET", "/api/admin/refund-requests?status=pending", {
        cookie: admin.cookie,
      }),
      200,
    );
    const byLead = new Map(
      page.requests.map((
        r: { leadId: string },
      ) => [r.leadId, r]),
    ) as Map<string, Record<string, unknown>>;
    const a = byLead.get(first.lead.id)!;
    const b = byLead.get(second.lead.id)!;
    assertEquals([a.earlierReturns, b.earlierReturns], [0, 1]);
    assertEquals([b.pipelineLabel, b.pipelineNote], ["Contacted", "Voicemail full twice"]);
    const html = await pageText(
      await t.request("GET", "/admin?tab=returns", {
        cookie: admin.cookie,
        headers: { accept: "text/html" },
      }),
    );
    assertMatch(html, new RegExp(`href="/survey/${second.survey.id}"`));
    assertMatch(html, /Bought [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    assertMatch(html, /Their pipeline: Contacted — “Voicemail full twice”/);
    assertMatch(html, /1 earlier return request</);
    assertMatch(html, /First return request/);
  } finally {
    t.close();
  }
});
