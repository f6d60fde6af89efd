/**
 * Email a newcomer can follow (issue 19): with no mail server configured (SMTP_URL unset, the
 * default) nothing says an email was sent, waiting emails read "Not sent — no mail server",
 * and an admin opens any message in the outbox to reach its links; with a mail server the
 * same actions say "queued" and the sender delivers.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp, testConfig } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";
import { expectJson } from "../_fixtures.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";
import { assertHtml, getPage, islandProps, pageText } from "../_pages.ts";
import { decodeQuotedPrintable, startSmtp } from "../_smtp_fake.ts";
import { createSmtpTransport, deliverDueEmails } from "../../lib/mail/sender.ts";
import { getOutboxEmail, insertOutboxEmail } from "../../lib/mail/outbox.ts";
import { listAuditEvents } from "../../db/audit.ts";
import type { EmailOutboxProps } from "../../islands/EmailOutbox.tsx";

const NOT_SENT = "Not sent — no mail server";

/** An admin invites a Meridian staff technician; returns the answer's body. */
async function inviteStaffTechnician(t: TestApp, admin: string, email: string) {
  const res = await t.request("POST", "/api/technicians", {
    cookie: admin,
    body: { fullName: "Jamie Field", email, surveyorId: null },
  });
  return await expectJson(res, 201);
}

/** The set-password link of the newest invitation to `to`, read from the outbox row. */
async function invitationLinkOf(t: TestApp, to: string): Promise<string> {
  const [row] = await t.sql<{ text: string }[]>`
    select text from email_outbox where to_address = ${to} order by created_at desc limit 1`;
  const link = row?.text.match(/https?:\/\/\S*reset-password\?token=[\w-]+/)?.[0];
  assert(link, "the invitation has a set-password link");
  return link;
}

test("[email delivery] with no mail server, inviting a technician says it was not emailed and links the admin to it", async () => {
  const t = await createTestApp();
  try {
    const admin = await signInAs(t, "admin");
    const body = await inviteStaffTechnician(t, admin, "jamie@crew.test");
    assert(!/\bsent\b|emailed to/i.test(body.message.replace("not sent", "")), body.message);
    assertStringIncludes(body.message, "The invitation to jamie@crew.test is queued.");
    assertStringIncludes(body.message, "No mail server is configured, so it was not sent");
    assertEquals(body.email.delivery, "none");
    const [row] = await t.sql<{ id: string }[]>`
      select id from email_outbox where to_address = 'jamie@crew.test'`;
    assertEquals(body.email.href, `/admin/email-outbox/${row.id}`);
    assertEquals(body.technician.email, "jamie@crew.test");
    assertEquals("invitationEmailId" in body.technician, false, "the email id is not on the row");
  } finally {
    t.close();
  }
});

test("[email delivery] a surveyor inviting to their crew gets a true sentence and no admin link", async () => {
  const t = await createTestApp();
  try {
    const ortiz = await addSurveyor(t, "Ortiz Surveying");
    const res = await t.request("POST", "/api/technicians", {
      cookie: ortiz.cookie,
      body: { fullName: "Jamie Field", email: "jamie@crew.test" },
    });
    const body = await expectJson(res, 201);
    assertEquals(
      body.message,
      "The invitation to jamie@crew.test is queued. No mail server is configured on this Meridian, so it was not emailed; an administrator can pass the link on.",
    );
    assertEquals(body.email, { delivery: "none", text: body.message, href: null });
  } finally {
    t.close();
  }
});

test("[email delivery] an admin opens the invitation in the outbox and finds its link (page and API), audited", async () => {
  const t = await createTestApp();
  try {
    const admin = await signInAs(t, "admin");
    const { email } = await inviteStaffTechnician(t, admin, "jamie@crew.test");
    const link = await invitationLinkOf(t, "jamie@crew.test");

    const list = await pageText(await getPage(t, "/admin/email-outbox", admin));
    assertStringIncludes(list, "No mail server is configured");
    const { rows, delivery } = islandProps<EmailOutboxProps>(list, "EmailOutbox");
    assertEquals(delivery, "none");
    assertEquals(rows[0].toAddress, "jamie@crew.test");
    assertStringIncludes(list, `href="${email.href}"`, "the subject opens the message");
    assertStringIncludes(list, NOT_SENT);
    assert(!/class="badge [^"]*">Queued</.test(list), "no forever-Queued badge");

    const page = await getPage(t, email.href, admin);
    assertEquals(page.status, 200);
    assertHtml(page);
    assertEquals(page.headers.get("cache-control"), "private, no-store");
    const html = await pageText(page);
    const [{ subject }] = await t.sql<{ subject: string }[]>`
      select subject from email_outbox where to_address = 'jamie@crew.test'`;
    assertStringIncludes(html, `<h1>${subject.replaceAll("'", "&#x27;")}</h1>`);
    assertStringIncludes(html, "jamie@crew.test");
    assertStringIncludes(html, NOT_SENT);
    assertStringIncludes(html, "0 attempts");
    const escaped = link.replaceAll("&", "&amp;");
    assertStringIncludes(html, `<a href="${escaped}" rel="noreferrer">${escaped}</a>`);
    assertMatch(html, /<iframe[^>]*sandbox=""[^>]*srcDoc="[^"]*Choose your password/i);
    assertStringIncludes(html, "Choose your password");

    const res = await t.request("GET", `/api/admin/email-outbox/${email.href.split("/").pop()}`, {
      cookie: admin,
    });
    const api = await expectJson(res, 200);
    assertEquals(res.headers.get("cache-control"), "private, no-store");
    assertEquals(api.email.toAddress, "jamie@crew.test");
    assertEquals(api.email.status, "queued");
    assertEquals(api.email.attempts, 0);
    assertEquals(api.email.delivery, "none");
    assert(api.email.links.some((l: { href: string }) => l.href === link), "the link is listed");
    assertStringIncludes(api.email.html, "<html");
    assertStringIncludes(api.email.text, link);

    const views = await listAuditEvents(t.sql, { event: "email_viewed" });
    assertEquals(views.length, 2, "the page view and the API view");
    assertEquals(views[0].details.emailId, api.email.id);
    assertEquals(views[0].details.template, "technician_invitation");
  } finally {
    t.close();
  }
});

test("[email delivery] a message is 404 for every other role, 401/sign-in signed out, 404 for unknown ids", async () => {
  const t = await createTestApp();
  try {
    const id = await insertOutboxEmail(t.sql, {
      to: "pat@example.com",
      subject: "Reset your Meridian password",
      html: '<a href="http://localhost/reset-password?token=secret-token">Reset</a>',
      text: "http://localhost/reset-password?token=secret-token",
      template: "password_reset",
    });
    for (const role of ["client", "surveyor", "technician"] as const) {
      const cookie = await signInAs(t, role);
      const api = await t.request("GET", `/api/admin/email-outbox/${id}`, { cookie });
      assertEquals((await expectJson(api, 404)).message, "Email not found", role);
      const page = await getPage(t, `/admin/email-outbox/${id}`, cookie);
      assertEquals(page.status, 404, role);
      assert(!(await page.text()).includes("secret-token"), role);
    }
    const anonymous = await t.request("GET", `/api/admin/email-outbox/${id}`);
    assertEquals(anonymous.status, 401);
    const signedOut = await getPage(t, `/admin/email-outbox/${id}`);
    assertEquals(signedOut.status, 302);
    const admin = await signInAs(t, "admin");
    for (const bad of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const api = await t.request("GET", `/api/admin/email-outbox/${bad}`, { cookie: admin });
      assertEquals((await expectJson(api, 404)).message, "Email not found", bad);
      assertEquals((await getPage(t, `/admin/email-outbox/${bad}`, admin)).status, 404, bad);
    }
    assertEquals(
      (await listAuditEvents(t.sql, { event: "email_viewed" })).length,
      0,
      "nothing was viewed",
    );
  } finally {
    t.close();
  }
});

test("[email delivery] in production an admin still opens a message and its links", async () => {
  const t = await createTestApp({ env: { NODE_ENV: "production" } });
  try {
    const admin = await signInAs(t, "admin");
    const { email } = await inviteStaffTechnician(t, admin, "prod@crew.test");
    const link = await invitationLinkOf(t, "prod@crew.test");
    const page = await getPage(t, email.href, admin);
    assertEquals(page.status, 200);
    assertStringIncludes(await pageText(page), link.replaceAll("&", "&amp;"));
  } finally {
    t.close();
  }
});

test("[email delivery] with a mail server the invitation says queued, the sender delivers it and the outbox says Sent", async () => {
  const smtp = await startSmtp();
  const t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const transport = createSmtpTransport(smtp.url);
  try {
    const admin = await signInAs(t, "admin");
    const body = await inviteStaffTechnician(t, admin, "jamie@crew.test");
    assertEquals(
      body.message,
      "The invitation to jamie@crew.test is queued; the mail server sends it within a few seconds.",
    );
    assertEquals(body.email.delivery, "smtp");
    assertMatch(body.email.href, /^\/admin\/email-outbox\/[0-9a-f-]{36}$/);
    const waiting = await pageText(await getPage(t, "/admin/email-outbox", admin));
    assertMatch(waiting, /class="badge badge--info">Queued</);
    assert(!waiting.includes("No mail server is configured"));

    const result = await deliverDueEmails({
      sql: t.sql,
      config: testConfig({ SMTP_URL: smtp.url }),
      transport,
    });
    assertEquals(result.sent, 1);
    await smtp.waitFor(1);
    assertEquals(smtp.received[0].to, ["jamie@crew.test"]);
    const link = await invitationLinkOf(t, "jamie@crew.test");
    assertStringIncludes(decodeQuotedPrintable(smtp.received[0].raw), link);
    const id = body.email.href.split("/").pop();
    assertEquals((await getOutboxEmail(t.sql, { id }))?.status, "sent");
    const page = await pageText(await getPage(t, body.email.href, admin));
    assertMatch(page, /class="badge badge--success">Sent</);
    assert(!page.includes(NOT_SENT));
  } finally {
    transport.close?.();
    await smtp.close();
    t.close();
  }
});

test("[email delivery] the empty lead and job lists name an email as a messenger only when a mail server sends it", async () => {
  for (const smtpUrl of [undefined, "smtp://127.0.0.1:2525"]) {
    const t = await createTestApp(smtpUrl ? { env: { SMTP_URL: smtpUrl } } : {});
    try {
      const firm = await addSurveyor(t, "Quiet Surveying");
      const technician = await signInAs(t, "technician");
      const pages = [
        { path: "/leads", cookie: firm.cookie, bell: "the bell" },
        {
          path: "/surveyor-dashboard",
          cookie: firm.cookie,
          bell: "the bell at the top of the page",
        },
        {
          path: "/technician-dashboard",
          cookie: technician,
          bell: "The bell at the top of the page",
        },
      ];
      for (const { path, cookie, bell } of pages) {
        const res = await getPage(t, path, cookie);
        assertEquals(res.status, 200, path);
        const html = await pageText(res);
        if (smtpUrl) {
          assertStringIncludes(html, `${bell} and an email tell you`, path);
        } else {
          assertStringIncludes(html, `${bell} tells you`, path);
          assertEquals(html.includes("an email tell"), false, `${path}: no email is promised`);
        }
      }
    } finally {
      t.close();
    }
  }
});
