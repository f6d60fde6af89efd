import { version as reactVersion } from "react";
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { renderToString, serverRendererVersion } from "../../components/react_server.ts";
import { oneByteHtml, oneByteJson } from "../../components/one_byte_html.ts";
import { renderPage } from "../../components/render.tsx";
import { Island } from "../../components/Island.tsx";
import QuoteForm from "../../islands/QuoteForm.tsx";
import { findIslandProps } from "../_pages.ts";
import { Window } from "happy-dom";

/** Characters a page must never hold as they are (above U+00FF: a two-byte page). */
const WIDE = /[\u0100-\uffff]/;

/** What a browser makes of `html`: the text and the attributes it reads. */
function parse(html: string) {
  const window = new Window();
  window.document.body.innerHTML = html;
  return window.document.body;
}

test("[react server] the vendored renderer is the app's React version", () => {
  assertEquals(serverRendererVersion, reactVersion);
});

test("[react server] characters above U+00FF become references in text and attributes; the browser reads the same text", () => {
  const text = "Rating — 4.5 ★ (−$39, “quoted”, 😀) · café × 2 & <b>";
  const html = renderToString(
    <p title={`Price — ${text}`} aria-label="Change status…">{text}</p>,
  );
  assert(!WIDE.test(html), html);
  assertStringIncludes(
    html,
    "Rating &#8212; 4.5 &#9733; (&#8722;$39, &#8220;quoted&#8221;, &#128512;)",
  );
  // Latin-1 characters stay as they are (one byte each already); markup is still escaped.
  assertStringIncludes(html, "· café × 2 &amp; &lt;b&gt;");
  const p = parse(html).querySelector("p")!;
  assertEquals(p.textContent, text);
  assertEquals(p.getAttribute("title"), `Price — ${text}`);
  assertEquals(p.getAttribute("aria-label"), "Change status…");
});

test("[react server] a whole page with such characters in its text, island props and title holds none of them as they are", async () => {
  const t = await createTestApp();
  const address = "Calle Señor — “Ñandú” ★ 😀";
  const html = renderPage(
    { var: { deps: t.deps } },
    { title: "Survey — ★ details" },
    <main>
      <p>{address}</p>
      <Island component={QuoteForm} props={{ id: "hero", defaultAddress: address }} />
    </main>,
  );
  assert(!WIDE.test(html), [...html].filter((ch) => WIDE.test(ch)).join(""));
  // The props the island hydrates with, and what the browser shows, are the characters.
  assertEquals(findIslandProps(html, "QuoteForm"), { id: "hero", defaultAddress: address });
  const window = new Window();
  window.document.write(html);
  assertEquals(window.document.title, "Survey — ★ details | Meridian");
  assertEquals(window.document.querySelector("main p")!.textContent, address);
  t.close();
});

test("[react server] oneByteHtml writes references only for characters above U+00FF", () => {
  assertEquals(oneByteHtml("plain & <ascii> · é"), "plain & <ascii> · é");
  assertEquals(oneByteHtml("a—b…c"), "a&#8212;b&#8230;c");
  // A pair of surrogates is one code point; a lone one is kept as its own (invalid) number.
  assertEquals(oneByteHtml("😀x\ud83d"), "&#128512;x&#55357;");
  const long = "é".repeat(5_000) + "—" + "x".repeat(5_000);
  assertEquals(oneByteHtml(long), "é".repeat(5_000) + "&#8212;" + "x".repeat(5_000));
});

test("[react server] JSON with characters above U+00FF, a surrogate pair among them, is one-byte and parses back the same", () => {
  const value = { note: "Ünder 5 — ★★ 😀 café", list: ["−$39", "Change status…"] };
  const json = oneByteJson(JSON.stringify(value));
  assert(!/[\u0100-\uffff]/.test(json), json);
  assertStringIncludes(json, "\\u2014");
  assertStringIncludes(json, "\\ud83d\\ude00");
  assertStringIncludes(json, "Ünder"); // U+00DC is one byte already
  assertEquals(JSON.parse(json), value);
});
