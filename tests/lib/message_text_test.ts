/**
 * Message text (issue 22): only http(s) URLs become links, sentence punctuation stays outside
 * them, and nothing else in a message (HTML, other schemes) is ever anything but text, in the
 * island and in the email.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { messageParts } from "../../lib/message_text.ts";
import { renderEmail, TEMPLATES } from "../../lib/mail/render.tsx";

test("[message text] http(s) URLs become links, punctuation after them does not", () => {
  assertEquals(messageParts("No link here."), [{ text: "No link here." }]);
  assertEquals(messageParts("See https://example.com/plat.pdf."), [
    { text: "See " },
    { href: "https://example.com/plat.pdf", text: "https://example.com/plat.pdf" },
    { text: "." },
  ]);
  assertEquals(messageParts("(HTTP://Example.com/a?b=1&c=2), then"), [
    { text: "(" },
    { href: "HTTP://Example.com/a?b=1&c=2", text: "HTTP://Example.com/a?b=1&c=2" },
    { text: "), then" },
  ]);
  assertEquals(messageParts("two: http://a.test\nhttps://b.test!").filter((p) => "href" in p), [
    { href: "http://a.test", text: "http://a.test" },
    { href: "https://b.test", text: "https://b.test" },
  ]);
});

test("[message text] other schemes, markup and hostless URLs stay text", () => {
  for (
    const body of [
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      '<a href="https://evil.test">x</a>'.replace("https://", "https:/ /"),
      "https://.",
      "https:///etc/passwd",
      "<script>alert('x')</script>",
    ]
  ) {
    const parts = messageParts(body);
    assert(parts.every((p) => !("href" in p)), body);
    assertEquals(parts.map((p) => p.text).join(""), body, "nothing lost");
  }
  // A link inside markup stops at the quote: the rest is text.
  const parts = messageParts('<a href="https://evil.test/x" onclick="y">');
  assertEquals(parts.filter((p) => "href" in p), [
    { href: "https://evil.test/x", text: "https://evil.test/x" },
  ]);
});

test("[message text] the email shows a <script> message as text", async () => {
  const email = await renderEmail("message_received", {
    ...TEMPLATES.message_received.sample,
    messageText: "<script>alert('x')</script>\nsecond line",
  });
  assert(!email.html.includes("<script>"), "no markup from the message");
  assertStringIncludes(email.html, "&lt;script>alert('x')&lt;/script>");
  assertStringIncludes(email.text, "<script>alert('x')</script>");
});

test("[message text] the server's message times read exactly as LocalTime's UTC text", async () => {
  const { formatUtcMessageTime } = await import("../../islands/MessageThread.tsx");
  const { formatUtcDateTime } = await import("../../islands/LocalTime.tsx");
  for (let hour = 0; hour < 24; hour++) {
    const iso = `2026-0${1 + hour % 9}-${10 + hour}T${String(hour).padStart(2, "0")}:0${
      hour % 10
    }:00Z`;
    assertEquals(formatUtcMessageTime(iso), formatUtcDateTime(iso), iso);
  }
  assertEquals(formatUtcMessageTime("not a time"), "—");
});
