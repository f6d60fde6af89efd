/**
 * The editable email copy through the real app (routes/email_template_api.ts and the editor
 * page): who may call it, saving versions, refused texts, reset, the preview, "Send me a test",
 * and the real emails using the newest saved words.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, createUser, signInAs } from "../_auth.ts";
import { assertHtml, getPage, islandProps, pageText } from "../_pages.ts";
import { backgroundWork } from "../../lib/background.ts";
import { TEMPLATE_IDS, TEMPLATES } from "../../lib/mail/render.tsx";
import { copyErrors, defaultTexts } from "../../lib/mail/template_copy.ts";
import { templateShape, TEST_SUBJECT_PREFIX } from "../../routes/email_template_api.ts";
import type { EmailTemplateEditorProps } from "../../islands/_email_template.ts";
import type { CopyTexts } from "../../lib/mail/copy.ts";
import { makeOlder } from "../_row_order.ts";

const ID = "password_reset";
const BASE = `/api/admin/email-templates/${ID}`;
const shape = templateShape(ID);
const defaults = defaultTexts(shape);
/** A variable of the template (the first it declares) and its sample value. */
const variable = shape.variables[0].name;
const sampleValue = TEMPLATES[ID].copy.values(TEMPLATES[ID].sample)[variable];
/** The first multi-paragraph block (else the first block), where most tests write. */
const block = shape.blocks.find((b) => b.isMultiline) ?? shape.blocks[0];
const lineBlock = shape.blocks.find((b) => !b.isMultiline);

function draft(change: { subject?: string; blocks?: Record<string, string> } = {}): CopyTexts {
  return {
    subject: change.subject ?? defaults.subject,
    blocks: { ...defaults.blocks, ...change.blocks },
  };
}

async function json(res: Response, status: number) {
  const text = await res.text();
  assertEquals(res.status, status, text);
  assertMatch(res.headers.get("content-type") ?? "", /^application\/json/);
  return JSON.parse(text);
}

async function versionCount(t: TestApp): Promise<number> {
  const [{ count }] = await t.sql<{ count: number }[]>`
    select count(*)::int as count from email_template_versions`;
  return count;
}

async function outboxCount(t: TestApp): Promise<number> {
  const [{ count }] = await t.sql<{ count: number }[]>`
    select count(*)::int as count from email_outbox`;
  return count;
}

test("[email copy] only admins may read or change email words; unknown templates are 404", async () => {
  const t = await createTestApp();
  try {
    const paths = ["versions", "reset", "preview", "test"].map((p) => `${BASE}/${p}`);
    for (const path of paths) {
      assertEquals((await t.request("POST", path, { body: draft() })).status, 401, path);
      for (const role of ["client", "surveyor", "technician"] as const) {
        const cookie = await signInAs(t, role);
        const res = await t.request("POST", path, { body: draft(), cookie });
        assertEquals(res.status, 403, `${role} ${path}`);
      }
    }
    const admin = await signInAs(t, "admin");
    for (const id of ["no_such_email", "PASSWORD_RESET", "x".repeat(200)]) {
      const res = await t.request("POST", `/api/admin/email-templates/${id}/preview`, {
        body: draft(),
        cookie: admin,
      });
      assertEquals((await json(res, 404)).message, "Email template not found");
      assertEquals((await getPage(t, `/admin/email-templates/${id}`, admin)).status, 404);
    }
    const client = await signInAs(t, "client");
    assertEquals((await getPage(t, `/admin/email-templates/${ID}`, client)).status, 403);
    assertEquals(await versionCount(t), 0);
  } finally {
    t.close();
  }
});

test("[email copy] each save is a new version with who and when, and the editor page shows it", async () => {
  const t = await createTestApp();
  try {
    const { user: admin, cookie } = await createSignedInUser(t, {
      role: "admin",
      fullName: "Ada Admin",
    });
    const first = await json(
      await t.request("POST", `${BASE}/versions`, {
        body: { ...draft({ subject: `Choose a new password, {${variable}}` }), baseVersion: 0 },
        cookie,
      }),
      201,
    );
    assertEquals(first.message, "Email template saved");
    assertEquals(first.state.current.version, 1);
    assertEquals(first.state.current.createdByName, "Ada Admin");
    assertEquals(first.state.current.subject, `Choose a new password, {${variable}}`);
    assertEquals(first.state.previous, null);

    const text = `First paragraph for {${variable}}.\n\nSecond paragraph.`;
    const second = await json(
      await t.request("POST", `${BASE}/versions`, {
        // Surrounding spaces are trimmed; CRLF is stored as LF.
        body: {
          ...draft({
            subject: `Choose a new password, {${variable}}`,
            blocks: { [block.key]: `  ${text.replaceAll("\n", "\r\n")}  ` },
          }),
          baseVersion: 1,
        },
        cookie,
      }),
      201,
    );
    assertEquals(second.state.current.version, 2);
    assertEquals(second.state.current.blocks[block.key], text);
    assertEquals(second.state.previous.version, 1);
    assertEquals(second.state.versions.map((v: { version: number }) => v.version), [2, 1]);
    const [row] = await t.sql<{ createdBy: string; createdAt: Date }[]>`
      select created_by, created_at from email_template_versions where version = 2`;
    assertEquals(row.createdBy, admin.id);
    assert(Date.now() - row.createdAt.getTime() < 60_000);

    // The editor page hands the island the saved state, variables with samples and a preview.
    const res = await getPage(t, `/admin/email-templates/${ID}`, cookie);
    assertEquals(res.status, 200);
    assertHtml(res);
    const html = await pageText(res);
    assertStringIncludes(html, `<h1>${TEMPLATES[ID].name} email</h1>`);
    const props = islandProps<EmailTemplateEditorProps>(html, "EmailTemplateEditor");
    assertEquals(props.state.current?.version, 2);
    assertEquals(props.adminEmail, admin.email);
    assertEquals(props.variables.find((v) => v.name === variable)?.sample, sampleValue);
    assertStringIncludes(props.preview.subject, `Choose a new password, ${sampleValue}`);
    assertStringIncludes(props.preview.text, "First paragraph for");
    // Its frame reads the saved words' HTML, with the sample data, from the preview address.
    assertEquals(props.previewSrc, `/admin/email-templates/${ID}/preview`);
    const framed = await pageText(await getPage(t, props.previewSrc, cookie));
    assertStringIncludes(framed, `First paragraph for ${sampleValue}.`);
    assert(!/srcdoc=/i.test(html), "the email's HTML is not inlined in the page");
    // The list links each email to its editor and says which words it uses.
    const list = await pageText(await getPage(t, "/admin/email-templates", cookie));
    assertStringIncludes(list, `href="/admin/email-templates/${ID}"`);
    assertStringIncludes(list, "Version 2, saved by Ada Admin");
    assertStringIncludes(list, `Choose a new password, ${sampleValue}`);
  } finally {
    t.close();
  }
});

test("[email copy] unknown variables are refused with the field and the names, nothing stored", async () => {
  const t = await createTestApp();
  try {
    const cookie = await signInAs(t, "admin");
    const save = (body: unknown) => t.request("POST", `${BASE}/versions`, { body, cookie });
    let body = await json(await save(draft({ subject: "Hi {firstName} {nope}" })), 400);
    assertEquals(
      body.errors.subject,
      "Subject uses unknown variables: {firstName}, {nope}. Use only the variables listed beside the editor.",
    );
    assertEquals(body.message, body.errors.subject);
    body = await json(
      await save(draft({ blocks: { [block.key]: `Dear {${variable}}, {clientName}` } })),
      400,
    );
    assertEquals(
      body.errors[`blocks.${block.key}`],
      `"${block.label}" uses an unknown variable: {clientName}. Use only the variables listed beside the editor.`,
    );
    // "Send me a test" refuses the same texts; the preview shows them as written.
    const bad = draft({ blocks: { [block.key]: "Dear {clientName}" } });
    await json(await t.request("POST", `${BASE}/test`, { body: bad, cookie }), 400);
    const preview = await json(
      await t.request("POST", `${BASE}/preview`, { body: bad, cookie }),
      200,
    );
    assertStringIncludes(preview.text, "Dear {clientName}");
    assertEquals(await versionCount(t), 0);
    assertEquals(await outboxCount(t), 0);
  } finally {
    t.close();
  }
});

test("[email copy] missing, extra, multi-line and too long texts are 400s with field errors", async () => {
  const t = await createTestApp();
  try {
    const cookie = await signInAs(t, "admin");
    const save = (body: unknown) => t.request("POST", `${BASE}/versions`, { body, cookie });
    const { [block.key]: _, ...withoutBlock } = defaults.blocks;
    const cases: [unknown, string, RegExp][] = [
      [{ ...defaults, blocks: withoutBlock }, `blocks.${block.key}`, /is missing$/],
      [draft({ blocks: { extra: "x" } }), "blocks.extra", /no block "extra"/],
      [draft({ subject: "" }), "subject", /^Subject is required$/],
      [draft({ subject: "a\nb" }), "subject", /not allowed|one line/],
      [draft({ subject: "s".repeat(201) }), "subject", /at most 200 characters/],
      [draft({ blocks: { [block.key]: "   " } }), `blocks.${block.key}`, /is required$/],
      [draft({ blocks: { [block.key]: "w ".repeat(2000) } }), `blocks.${block.key}`, /at most/],
      [{ subject: "Hi" }, "blocks", /./],
      [{ ...draft(), baseVersion: -1 }, "baseVersion", /./],
    ];
    if (lineBlock) {
      cases.push([
        draft({ blocks: { [lineBlock.key]: "two\nlines" } }),
        `blocks.${lineBlock.key}`,
        /must be one line/,
      ]);
    }
    for (const [input, field, pattern] of cases) {
      const body = await json(await save(input), 400);
      assert(body.errors?.[field], `${field}: ${JSON.stringify(body)}`);
      assertMatch(body.errors[field], pattern);
    }
    assertEquals(await versionCount(t), 0);
  } finally {
    t.close();
  }
});

test("[email copy] an unchanged save and a save over someone else's newer version are 409s", async () => {
  const t = await createTestApp();
  try {
    const cookie = await signInAs(t, "admin");
    const other = await signInAs(t, { role: "admin", fullName: "Bo Other" });
    const save = (body: unknown, c = cookie) =>
      t.request("POST", `${BASE}/versions`, { body, cookie: c });
    assertEquals(
      (await json(await save(draft()), 409)).message,
      "No changes: these are the default words",
    );
    await json(await save({ ...draft({ subject: "One" }), baseVersion: 0 }, other), 201);
    const stale = await json(await save({ ...draft({ subject: "Two" }), baseVersion: 0 }), 409);
    assertMatch(stale.message, /^Version 1 was saved by Bo Other while you were editing/);
    assertEquals(
      (await json(await save(draft({ subject: "One" })), 409)).message,
      "No changes: these are the words of version 1",
    );
    assertEquals(await versionCount(t), 1);
  } finally {
    t.close();
  }
});

test("[email copy] concurrent saves through the API all land, numbered 1 to n", async () => {
  const t = await createTestApp();
  try {
    const cookie = await signInAs(t, "admin");
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.request("POST", `${BASE}/versions`, {
          body: draft({ subject: `Subject number ${i}` }),
          cookie,
        })),
    );
    assertEquals(answers.map((r) => r.status), [201, 201, 201, 201, 201, 201]);
    const rows = await t.sql<{ version: number }[]>`
      select version from email_template_versions order by version`;
    assertEquals(rows.map((r) => r.version), [1, 2, 3, 4, 5, 6]);
  } finally {
    t.close();
  }
});

test("[email copy] real emails use the newest saved words, and the defaults again after a reset", async () => {
  const t = await createTestApp();
  try {
    const cookie = await signInAs(t, "admin");
    const user = await createUser(t.sql, { role: "client", fullName: "Rae Client" });
    const values = TEMPLATES[ID].copy.values({ ...TEMPLATES[ID].sample, name: user.fullName });
    const forgot = async () => {
      // Earlier emails a minute older, so the newest is this one for certain.
      await makeOlder(t.sql, "email_outbox", { where: t.sql`to_address = ${user.email}` });
      await json(
        await t.request("POST", "/api/forgot-password", { body: { email: user.email } }),
        200,
      );
      await backgroundWork(t.deps).settled();
      const rows = await t.sql<{ subject: string; text: string; html: string }[]>`
        select subject, text, html from email_outbox
        where to_address = ${user.email} order by created_at desc limit 1`;
      return rows[0];
    };
    const before = await forgot();
    assertEquals(before.subject, defaults.subject.replace(`{${variable}}`, values[variable]));

    await json(
      await t.request("POST", `${BASE}/versions`, {
        body: draft({
          subject: `New link for {${variable}}`,
          blocks: { [block.key]: `Words <b>from</b> the admin for {${variable}}.` },
        }),
        cookie,
      }),
      201,
    );
    const after = await forgot();
    assertEquals(after.subject, `New link for ${values[variable]}`);
    assertStringIncludes(after.text, `Words <b>from</b> the admin for ${values[variable]}.`);
    // Admins write text, never markup: it is escaped in the HTML.
    assertStringIncludes(after.html, "Words &lt;b>from&lt;/b> the admin");
    assert(!after.html.includes("<b>from</b>"));
    assertStringIncludes(after.html, "/reset-password?token=", "the link stays in the code");

    const reset = await json(
      await t.request("POST", `${BASE}/reset`, { body: { baseVersion: 1 }, cookie }),
      201,
    );
    assertEquals(reset.message, "Email reset to default");
    assertEquals(reset.state.current.version, 2);
    assertEquals(reset.state.current.isReset, true);
    assertEquals(reset.state.current.subject, defaults.subject);
    assertEquals((await forgot()).subject, before.subject);
    // Already the default: nothing to reset.
    const again = await json(await t.request("POST", `${BASE}/reset`, { body: {}, cookie }), 409);
    assertEquals(again.message, "This email already uses the default words");
    assertEquals(await versionCount(t), 2);
  } finally {
    t.close();
  }
});

test("[email copy] the preview renders the unsaved draft with sample data and stores nothing", async () => {
  const t = await createTestApp();
  try {
    const cookie = await signInAs(t, "admin");
    const body = draft({
      subject: `Preview for {${variable}}`,
      blocks: { [block.key]: `Paragraph one <i>x</i>.\n\nParagraph two for {${variable}}.` },
    });
    const res = await t.request("POST", `${BASE}/preview`, { body, cookie });
    const preview = await json(res, 200);
    assertEquals(res.headers.get("cache-control"), "no-store");
    assertEquals(Object.keys(preview).sort(), ["html", "subject", "text"]);
    assertEquals(preview.subject, `Preview for ${sampleValue}`);
    assertStringIncludes(preview.text, `Paragraph two for ${sampleValue}.`);
    // The serialiser escapes "<" (enough: no tag can start) and leaves ">".
    assertStringIncludes(preview.html, "Paragraph one &lt;i>x&lt;/i>.");
    assert(!preview.html.includes("<i>x</i>"));
    assertEquals(await versionCount(t), 0);
    assertEquals(await outboxCount(t), 0);
  } finally {
    t.close();
  }
});

test("[email copy] 'Send me a test' queues the draft to the admin's own address", async () => {
  const t = await createTestApp();
  try {
    const { user: admin, cookie } = await createSignedInUser(t, { role: "admin" });
    const body = draft({ subject: `Test words for {${variable}}` });
    const answer = await json(await t.request("POST", `${BASE}/test`, { body, cookie }), 202);
    const [{ id }] = await t.sql<{ id: string }[]>`select id from email_outbox`;
    assertEquals(answer, {
      message: "Test email queued",
      to: admin.email,
      // With no mail server (the default) the answer says it will not leave, and where it is.
      email: {
        delivery: "none",
        text:
          `The test email to ${admin.email} is queued. No mail server is configured, so it was not sent; open it in Emails to read it and copy its links.`,
        href: `/admin/email-outbox/${id}`,
      },
    });
    const rows = await t.sql<
      { toAddress: string; subject: string; status: string; template: string; text: string }[]
    >`select to_address, subject, status, template, text from email_outbox`;
    assertEquals(rows.length, 1);
    assertEquals(rows[0].toAddress, admin.email);
    assertEquals(rows[0].subject, `${TEST_SUBJECT_PREFIX}Test words for ${sampleValue}`);
    assertEquals([rows[0].status, rows[0].template], ["queued", ID]);
    assertEquals(await versionCount(t), 0, "a test saves nothing");
  } finally {
    t.close();
  }
});

test("[email copy] every email has an editor page whose defaults preview and pass the checks", async () => {
  const t = await createTestApp();
  try {
    const cookie = await signInAs(t, "admin");
    for (const id of TEMPLATE_IDS) {
      const res = await getPage(t, `/admin/email-templates/${id}`, cookie);
      assertEquals(res.status, 200, id);
      const props = islandProps<EmailTemplateEditorProps>(
        await pageText(res),
        "EmailTemplateEditor",
      );
      assertEquals(props.templateId, id);
      assert(props.shape.blocks.length > 0, `${id} has blocks`);
      assertEquals(copyErrors(props.shape, defaultTexts(props.shape)), {}, id);
      // A sample may be empty (the refund sample has no admin note), never missing.
      for (const v of props.variables) assertEquals(typeof v.sample, "string", `${id} {${v.name}}`);
      // The saved words' HTML is not in the page: the frame reads it from its own address.
      assertEquals(props.preview.html, undefined, id);
      const framed = await getPage(t, props.previewSrc, cookie);
      assertEquals(framed.status, 200, id);
      assertStringIncludes(await framed.text(), "<html", id);
      const preview = await json(
        await t.request("POST", `/api/admin/email-templates/${id}/preview`, {
          body: defaultTexts(props.shape),
          cookie,
        }),
        200,
      );
      assertEquals(preview.subject, props.preview.subject, id);
    }
  } finally {
    t.close();
  }
});
