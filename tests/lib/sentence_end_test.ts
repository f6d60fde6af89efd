/**
 * A sentence that ends in a name never doubles its period (issue 21: "Austin Survey Co..").
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { endSentence } from "../../lib/text.ts";
import { fillText } from "../../lib/mail/copy.ts";
import { renderEmail } from "../../lib/mail/render.tsx";

test("[text] endSentence adds a period only when the text does not already end one", () => {
  assertEquals(endSentence("Ortiz Land Surveying"), "Ortiz Land Surveying.");
  assertEquals(endSentence("Austin Survey Co."), "Austin Survey Co.");
  assertEquals(endSentence("Who, Inc.?"), "Who, Inc.?");
  assertEquals(endSentence("Yes!"), "Yes!");
  assertEquals(endSentence("(Pty) Ltd.)"), "(Pty) Ltd.)");
  assertEquals(endSentence(""), ".");
});

test("[mail copy] a variable ending in a period before the sentence's period reads once", async () => {
  assertEquals(
    fillText("An account for {companyName}. Choose a password.", {
      companyName: "Austin Survey Co.",
    }),
    "An account for Austin Survey Co. Choose a password.",
  );
  assertEquals(fillText("For {name}.", { name: "Ortiz" }), "For Ortiz.");
  assertEquals(fillText("Keep {unknown}.", {}), "Keep {unknown}.");
  const email = await renderEmail("surveyor_invitation", {
    name: "Sam Ortiz",
    companyName: "Austin Survey Co.",
    setPasswordUrl: "https://meridian.example/reset-password?token=t",
    validDays: 7,
  });
  assert(!email.text.includes("Co.."), email.text);
  assert(!email.html.includes("Co.."));
  assertStringIncludes(email.text, "Austin Survey Co. Choose a password");
});
