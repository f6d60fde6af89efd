import { assert, assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { EMAIL_CATALOG } from "../../lib/mail/catalog.ts";
import { TEMPLATE_IDS } from "../../lib/mail/render.tsx";

test("[mail catalog] every registered template says what sends it and to whom, and nothing else is listed", () => {
  for (const id of TEMPLATE_IDS) {
    const entry = EMAIL_CATALOG[id];
    assert(entry, `lib/mail/catalog.ts has no entry for the template '${id}'`);
    assert(entry.trigger.trim().length > 10, `'${id}' needs a trigger`);
    assert(entry.recipient.trim().length > 5, `'${id}' needs a recipient`);
  }
  assertEquals(Object.keys(EMAIL_CATALOG).sort(), [...TEMPLATE_IDS].sort());
});
