/**
 * Editable email copy (issue 13), the templates' side: the default words render every email
 * exactly as before the words became data, an admin's words show up in both parts, values are
 * escaped, and every template's variables are declared and filled.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { test } from "../_helpers.ts";
import {
  renderEmail,
  TEMPLATE_IDS,
  templateCopyDef,
  type TemplateId,
  TEMPLATES,
} from "../../lib/mail/render.tsx";
import { unknownVariables } from "../../lib/mail/copy.ts";
import { copyShapeOf, defaultTexts } from "../../lib/mail/template_copy.ts";
import { nextStepText } from "../../lib/mail/templates/NewSurveyRequestAdmin.tsx";
import { refundDecisionSentence } from "../../lib/mail/templates/RefundDecision.tsx";

/**
 * Every template's sample, plus one variant per conditional branch (auto-dispatch off, a denied
 * return, no join link, no visit date…), rendered by the code as it was before issue 13 (each
 * template's words written in its JSX, subjects from functions). Taken once, before converting.
 */
interface Snapshot {
  id: TemplateId;
  variant: string;
  props: unknown;
  subject: string;
  html: string;
  text: string;
}

const SNAPSHOTS: Snapshot[] = JSON.parse(
  await Deno.readTextFile(new URL("./fixtures/mail_rendered_before_copy.json", import.meta.url)),
);

/** Renders with `props` loosely typed: the snapshot's props are JSON. */
function renderAny(id: TemplateId, props: unknown, texts?: Parameters<typeof renderEmail>[2]) {
  // deno-lint-ignore no-explicit-any
  return renderEmail(id, props as any, texts);
}

test("[mail copy] the default words render every email byte for byte as before", async () => {
  assertEquals(new Set(SNAPSHOTS.map((s) => s.id)).size, TEMPLATE_IDS.length);
  for (const snapshot of SNAPSHOTS) {
    const where = `${snapshot.id} (${snapshot.variant})`;
    const email = await renderAny(snapshot.id, snapshot.props);
    assertEquals(email.subject, snapshot.subject, `${where} subject`);
    assertEquals(email.text, snapshot.text, `${where} text`);
    assertEquals(email.html, snapshot.html, `${where} html`);
    // Stored copy equal to the defaults is the same email as no stored copy.
    const stored = await renderAny(
      snapshot.id,
      snapshot.props,
      defaultTexts(copyShapeOf(templateCopyDef(snapshot.id))),
    );
    assertEquals(stored, email, where);
  }
});

test("[mail copy] an admin's subject and block words show in the subject, HTML and text", async () => {
  for (const id of TEMPLATE_IDS) {
    const def = templateCopyDef(id);
    const sample = TEMPLATES[id].sample;
    const [variable] = Object.keys(def.variables);
    const texts = defaultTexts(copyShapeOf(def));
    texts.subject = `Edited subject for {${variable}}`;
    for (const key of Object.keys(texts.blocks)) texts.blocks[key] = `Edited ${key} words`;
    const email = await renderAny(id, sample, texts);
    assertEquals(email.subject, `Edited subject for ${def.values(sample)[variable]}`, id);
    const text = email.text.replace(/\s+/g, " ");
    // refund_decision's sample is a return: its heading and button are the "returned" ones.
    const heading = "heading" in texts.blocks ? "heading" : "returnedHeading";
    // The password-changed notice has no button (see PasswordChanged).
    const button = ["button", "returnedButton"].find((key) => key in texts.blocks);
    for (const key of [heading, button ?? heading, "reason"]) {
      assertStringIncludes(email.html, `Edited ${key} words`, `${id} ${key} in html`);
    }
    // The plain-text part writes the h1 in capitals.
    assertStringIncludes(text, `Edited ${heading} words`.toUpperCase(), `${id} heading in text`);
    if (button) assertStringIncludes(text, `Edited ${button} words`, `${id} button in text`);
    assertStringIncludes(text, "Edited reason words", `${id} reason in text`);
    // None of the default words is left.
    for (const [key, block] of Object.entries(def.blocks)) {
      const words = block.text.split(/\{[A-Za-z]\w*\}|\n/).sort((a, b) => b.length - a.length)[0];
      if (words.trim().length < 12) continue;
      assert(!email.html.includes(words.trim()), `${id}.${key} default words gone: ${words}`);
    }
  }
});

test("[mail copy] a variable in an admin's words is filled in, and escaped in HTML", async () => {
  const email = await renderEmail(
    "password_reset",
    { ...TEMPLATES.password_reset.sample, name: "<b>Pat</b> & Co" },
    {
      subject: "Reset it, {name}",
      blocks: { body: "First, {name}.\n\nSecond paragraph {unknown}." },
    },
  );
  // jsx-email's serialiser escapes "<" and "&" (enough: no tag can open), not ">".
  assertStringIncludes(email.html, "&lt;b>Pat&lt;/b> &amp; Co");
  assert(!/<b>|<\/b>/.test(email.html), "no markup from a value");
  assertEquals(email.subject, "Reset it, <b>Pat</b> & Co");
  // Blank lines make paragraphs; an undeclared variable stays as written.
  assertStringIncludes(email.html, ">First, &lt;b>Pat&lt;/b> &amp; Co.</p>");
  assertStringIncludes(email.html, ">Second paragraph {unknown}.</p>");
  // A block the stored copy lacks keeps its default words.
  assertStringIncludes(email.text, "Reset password");
  assertStringIncludes(email.text, "expires in 1 hour");
});

test("[mail copy] the value an email stresses stays bold wherever the words put it", async () => {
  const email = await renderEmail("low_balance", TEMPLATES.low_balance.sample, {
    subject: "Low",
    blocks: { body: "Top up soon.\n\nYou have {balance} left, {companyName}." },
  });
  assertStringIncludes(email.html, ">Top up soon.</p>");
  assertStringIncludes(
    email.html,
    ">You have <strong>$32.50</strong> left, Ortiz Land Surveying.</p>",
  );
  assertStringIncludes(email.text, "You have $32.50 left");
});

test("[mail copy] an admin's subject cannot span lines or run on", async () => {
  const email = await renderEmail("password_reset", TEMPLATES.password_reset.sample, {
    subject: "Line one\r\nBcc: victim@example.com " + "x".repeat(300),
    blocks: {},
  });
  assert(!/[\r\n]/.test(email.subject));
  assert(email.subject.startsWith("Line one Bcc: victim@example.com x"));
  assertEquals(email.subject.length, 200);
});

test("[mail copy] conditional words come from their own blocks", async () => {
  const admin = TEMPLATES.new_survey_request_admin.sample;
  const texts = {
    subject: "New request",
    blocks: { nextStepAuto: "Robots on it.", nextStepManual: "Your turn." },
  };
  const on = await renderEmail(
    "new_survey_request_admin",
    { ...admin, isAutoDispatch: true },
    texts,
  );
  const off = await renderEmail(
    "new_survey_request_admin",
    { ...admin, isAutoDispatch: false },
    texts,
  );
  assertStringIncludes(on.text, "Robots on it.");
  assert(!on.text.includes("Your turn."));
  assertStringIncludes(off.text, "Your turn.");
  assert(!off.text.includes("Robots on it."));
  assertEquals(
    nextStepText(true),
    TEMPLATES.new_survey_request_admin.copy.blocks.nextStepAuto.text,
  );

  const refund = TEMPLATES.refund_decision.sample;
  const denied = await renderEmail(
    "refund_decision",
    { ...refund, decision: "denied", isRequested: true, note: "Seen." },
    {
      subject: "Money back",
      blocks: { deniedSubject: "No refund for {location}", note: "PS {note}" },
    },
  );
  assertEquals(denied.subject, "No refund for Austin, TX");
  assertStringIncludes(denied.text, "PS Seen.");
  const returned = await renderEmail("refund_decision", refund, {
    subject: "Money back",
    blocks: { deniedSubject: "No refund" },
  });
  assertEquals(returned.subject, "Money back");
  assert(!returned.text.includes("Note from"), "no note block without a note");
  // The in-app notification keeps the default sentence whatever the email says.
  assertEquals(
    refundDecisionSentence(refund),
    "Your $38.50 for the Boundary Survey lead in Austin, TX was returned: the client cancelled the request.",
  );
});

test("[mail copy] every variable the default words use is declared, and the sample fills each", () => {
  for (const id of TEMPLATE_IDS) {
    const def = templateCopyDef(id);
    assert(Object.keys(def.blocks).length >= 3, id);
    for (const text of [def.subject, ...Object.values(def.blocks).map((b) => b.text)]) {
      assertEquals(unknownVariables(text, Object.keys(def.variables)), [], `${id}: ${text}`);
    }
    const values = def.values(TEMPLATES[id].sample);
    assertEquals(Object.keys(values).sort(), Object.keys(def.variables).sort(), id);
    for (const [name, value] of Object.entries(values)) {
      assertEquals(typeof value, "string", `${id}.${name}`);
      assert(value !== "" || ["note", "joinValidFor"].includes(name), `${id}.${name} is empty`);
    }
    for (const [name, description] of Object.entries(def.variables)) {
      assert(description.length > 8, `${id}.${name} has a description`);
    }
    for (const [key, block] of Object.entries(def.blocks)) {
      assert(block.label.length > 3 && block.text.trim() !== "", `${id}.${key}`);
    }
  }
});
