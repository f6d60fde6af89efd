import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { renderEmail, TEMPLATE_IDS, TEMPLATES } from "../../lib/mail/render.tsx";
import { formatPrice } from "../../lib/mail/templates/_format.ts";

test("[mail] every template renders branded, accessible HTML and a plain-text part", async () => {
  for (const id of TEMPLATE_IDS) {
    // deno-lint-ignore no-explicit-any
    const email = await renderEmail(id, TEMPLATES[id].sample as any);
    assertMatch(email.html, /^<!DOCTYPE html/i, id);
    assertStringIncludes(email.html, '<html lang="en"', id);
    assertStringIncludes(email.html, "Meridian", id);
    assertMatch(email.html, /<h1[^>]*>/, `${id} has a heading`);
    assert(!/<script/i.test(email.html), `${id} has no script`);
    assertStringIncludes(email.text, "Meridian", id);
    assert(!/<[a-z]/i.test(email.text), `${id} text part has no HTML`);
    assert(email.subject.length > 5 && !/[\r\n]/.test(email.subject), id);
    assertEquals(email.template, id);
  }
});

test("[mail] the reset email carries the link in both parts and says it expires", async () => {
  const url = "https://meridian.example/reset-password?token=abc_DEF-123";
  const email = await renderEmail("password_reset", { name: "Pat Lee", resetUrl: url });
  assertEquals(email.subject, "Reset your Meridian password");
  assertStringIncludes(email.html, `href="${url}"`);
  assertStringIncludes(email.text, url);
  assertStringIncludes(email.text, "Hi Pat Lee,");
  assertStringIncludes(email.text, "expires in 1 hour");
});

test("[mail] the password-changed notice has no link to click", async () => {
  const email = await renderEmail("password_changed", { name: "Pat" });
  assertEquals(email.subject, "Your Meridian password was changed");
  assert(!/href=/.test(email.html));
  assertStringIncludes(email.text, "If you did not make this change");
});

test("[mail] the survey confirmation shows address, type, price and what happens next", async () => {
  const props = { ...TEMPLATES.survey_request_confirmation.sample };
  const email = await renderEmail("survey_request_confirmation", {
    ...props,
    address: "12 Elm St, Austin, TX 78701",
    surveyTypeName: "ALTA Survey",
    quotedPriceCents: 128500,
  });
  assertEquals(email.subject, "We received your ALTA Survey request");
  assertStringIncludes(email.text, "12 Elm St, Austin, TX 78701");
  assertStringIncludes(email.text, "ALTA Survey");
  assertMatch(email.text, /\$1,285(?![.\d])/);
  assertStringIncludes(email.text, "What happens next".toUpperCase());
  assertStringIncludes(email.text, props.surveyUrl);
  const custom = await renderEmail("survey_request_confirmation", {
    ...props,
    quotedPriceCents: null,
  });
  assertStringIncludes(custom.text, "Custom quote");
});

test("[mail] user-entered text is escaped in HTML and cannot break the subject", async () => {
  const email = await renderEmail("new_survey_request_admin", {
    ...TEMPLATES.new_survey_request_admin.sample,
    clientName: '<img src=x onerror="alert(1)">',
    address: "1 Main St\r\nBcc: victim@example.com",
  });
  assert(!email.html.includes("<img src=x"), "markup in a name is escaped");
  assertStringIncludes(email.html, "&lt;img src=x");
  assert(!/[\r\n]/.test(email.subject));
  assertStringIncludes(email.subject, "1 Main St Bcc: victim@example.com");
});

test("[mail] a link that is not http(s) is refused rather than mailed", async () => {
  let error: Error | undefined;
  try {
    await renderEmail("password_reset", { name: "x", resetUrl: "javascript:alert(1)" });
  } catch (err) {
    error = err as Error;
  }
  assertMatch(error?.message ?? "", /javascript:/);
});

test("[mail] prices read as on the site: whole dollars, cents only when a quote has them", () => {
  assertEquals(formatPrice(38500), "$385");
  assertEquals(formatPrice(123_400), "$1,234");
  assertEquals(formatPrice(44_275), "$442.75");
  assertEquals(formatPrice(5), "$0.05");
});

test("[mail] the lead emails show the job, the lead price with its formula and the lead link", async () => {
  for (const id of ["new_survey_lead", "lead_invitation"] as const) {
    const props = TEMPLATES[id].sample;
    const email = await renderEmail(id, props);
    const text = email.text.replace(/\s+/g, " ");
    for (const fact of [props.surveyTypeName, props.location, props.size!, props.leadPrice]) {
      assertStringIncludes(text, fact, id);
    }
    assertStringIncludes(text, props.formula, id);
    assertStringIncludes(email.html, `href="${props.leadUrl}"`, id);
  }
  assertEquals(
    (await renderEmail("new_survey_lead", TEMPLATES.new_survey_lead.sample)).subject,
    "New survey lead near you: ALTA/NSPS Survey in Austin, TX",
  );
  const noDate = await renderEmail("new_survey_lead", {
    ...TEMPLATES.new_survey_lead.sample,
    neededBy: null,
    size: null,
    maxBuyers: 1,
  });
  assertStringIncludes(noDate.text, "No date given");
  assert(!noDate.text.includes("Size"));
  assertStringIncludes(noDate.text.replace(/\s+/g, " "), "Up to 1 surveyor can buy");
});
