/**
 * Every island form that sends what was typed through `fetch` posts, without JavaScript, to
 * /needs-javascript (NO_SCRIPT_FORM or CheckedForm), never a GET to the page's own address that
 * would put the typed text (a message, a review reply, a refund reason) in the address bar, the
 * history and the server's logs. Search and filter forms, whose GET is the point, are listed.
 */
import { renderToString } from "react-dom/server";
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { test } from "../_helpers.ts";
import ReviewReply from "../../islands/ReviewReply.tsx";

/** Forms whose native GET is what they are for, and why. */
const GET_FORMS: Record<string, string> = {
  "AdminSurveys.tsx": "filters (no named fields: a reload of the list)",
  "AvailableLeads.tsx": "filters, role=search",
  "SurveyorDirectory.tsx": "search and filters, role=search",
  "QuoteForm.tsx": "GET /create-survey with the address and type, which works without JavaScript",
};

test("[no script] every island form that sends typed text posts to /needs-javascript without JavaScript", async () => {
  const plain: string[] = [];
  for await (const entry of Deno.readDir(new URL("../../islands/", import.meta.url))) {
    if (!entry.name.endsWith(".tsx") || entry.name in GET_FORMS) continue;
    const source = await Deno.readTextFile(new URL(`../../islands/${entry.name}`, import.meta.url));
    for (const m of source.matchAll(/<form\s([^>]*)>/g)) {
      if (!/\{\.\.\.NO_SCRIPT_FORM\}/.test(m[1])) plain.push(`${entry.name}: ${m[0].slice(0, 60)}`);
    }
  }
  assertEquals(plain, [], "island forms without NO_SCRIPT_FORM (or CheckedForm)");
});

test("[no script] a review reply form renders as a POST to /needs-javascript", () => {
  const html = renderToString(<ReviewReply reviewId="r1" companyName="Able Survey" />);
  assertStringIncludes(html, 'method="post"');
  assertStringIncludes(html, 'action="/needs-javascript"');
  assert(!/<form(?![^>]*method="post")/.test(html));
});
