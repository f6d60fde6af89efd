import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { renderPage } from "../../components/render.tsx";
import { Island } from "../../components/Island.tsx";
import QuoteForm from "../../islands/QuoteForm.tsx";
import CancelSurveyButton from "../../islands/CancelSurveyButton.tsx";
import { SurveyTimeline } from "../../components/survey/SurveyTimeline.tsx";
import type { SurveyEvent } from "../../lib/survey_schema.ts";
import { findIslandProps } from "../_pages.ts";

test("[islands] an island renders as its own root with JSON props and its chunk", async () => {
  const t = await createTestApp();
  const c = { var: { deps: t.deps } };
  const html = renderPage(
    c,
    { title: "Test" },
    <main>
      <Island component={QuoteForm} props={{ id: "hero" }} hydrate="visible" />
      <Island component={QuoteForm} props={{ id: "bottom" }} />
    </main>,
  );
  const markers = [...html.matchAll(/<div data-island="QuoteForm"[^>]*>/g)].map((m) => m[0]);
  assertEquals(markers.length, 2);
  // The props follow each marker as JSON data, its double quotes as they are.
  assertEquals(
    [...html.matchAll(/<\/div><script type="application\/json">([^<]*)<\/script>/g)].map((m) =>
      m[1]
    ),
    ['{"id":"hero"}', '{"id":"bottom"}'],
  );
  assertStringIncludes(markers[0], 'data-hydrate="visible"');
  assertStringIncludes(markers[1], 'data-hydrate="idle"');
  assertStringIncludes(markers[0], `data-src="${t.deps.assets.islands.QuoteForm.src}"`);
  // Each root gets its own identifierPrefix so useId values never collide.
  const ids = markers.map((m) => /data-id="([^"]+)"/.exec(m)![1]);
  assertEquals(new Set(ids).size, 2);
  // The markers lay out nothing of their own (the stylesheet makes them display: contents).
  const css = await Deno.readTextFile(new URL("../../static/css/base.css", import.meta.url));
  assertMatch(css, /\[data-island\] \{\s*display: contents;\s*\}/);
  // The boot script and the island chunk load as modules; no inline scripts.
  assertStringIncludes(html, `<script type="module" src="${t.deps.assets.boot.src}"></script>`);
  assertStringIncludes(
    html,
    `<link rel="modulepreload" href="${t.deps.assets.islands.QuoteForm.src}">`,
  );
  // The props scripts are data (type="application/json"): the browser runs none of them.
  assertEquals(
    [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>/g)].map((m) => m[0]),
    ['<script type="application/json">', '<script type="application/json">'],
  );
  t.close();
});

test("[islands] an island that waits for interaction is not preloaded, and alone brings no React", async () => {
  const t = await createTestApp();
  const c = { var: { deps: t.deps } };
  const { boot, islands } = t.deps.assets;
  const lazy = renderPage(
    c,
    { title: "Test" },
    <Island component={QuoteForm} props={{ id: "hero" }} hydrate="interaction" />,
  );
  assertStringIncludes(lazy, 'data-hydrate="interaction"');
  assertStringIncludes(lazy, `data-src="${islands.QuoteForm.src}"`);
  assertStringIncludes(lazy, `<script type="module" src="${boot.src}"></script>`);
  assert(!lazy.includes("modulepreload"), "nothing is fetched before the first touch");
  // React is what the boot script imports on demand; an eager island preloads it.
  assert(boot.preload.length > 0, "the runtime is in the manifest");
  const eager = renderPage(
    c,
    { title: "Test" },
    <main>
      <Island component={QuoteForm} props={{ id: "hero" }} hydrate="interaction" />
      <Island component={QuoteForm} props={{ id: "bottom" }} hydrate="load" />
    </main>,
  );
  for (const file of [...boot.preload, islands.QuoteForm.src]) {
    assertStringIncludes(eager, `<link rel="modulepreload" href="${file}">`);
  }
  t.close();
});

test("[islands] props are JSON data that no text can end or turn into markup, and the page stays one-byte", async () => {
  const t = await createTestApp();
  const evil = `x' data-x='1"></script><script>alert(1)</script><!-- &amp; <b> — ★`;
  const html = renderPage(
    { var: { deps: t.deps } },
    { title: "Test" },
    <Island component={QuoteForm} props={{ id: evil }} />,
  );
  const script = /<script type="application\/json">([^]*?)<\/script>/
    .exec(html)![1];
  assert(!script.includes("<"), script);
  assertStringIncludes(script, "\\u003c/script>\\u003cscript>alert(1)");
  assertStringIncludes(script, "\\u2014 \\u2605");
  assert(!html.includes("<script>alert"), "no script element");
  assert(!/[\u0100-\uffff]/.test(html), "no character above U+00FF");
  assertEquals(JSON.parse(script), { id: evil });
  assertEquals(findIslandProps(html, "QuoteForm"), { id: evil });
  t.close();
});

test("[islands] a page without islands loads no JavaScript", async () => {
  const t = await createTestApp();
  const html = renderPage({ var: { deps: t.deps } }, { title: "Plain" }, <p>Hello</p>);
  assert(!html.includes("<script"), html);
  assert(!html.includes("modulepreload"));
  t.close();
});

test("[islands] the manifest has every island file with hashed names", async () => {
  const t = await createTestApp();
  const files: string[] = [];
  for await (const entry of Deno.readDir(new URL("../../islands/", import.meta.url))) {
    if (entry.isFile && /^[A-Z]\w*\.tsx$/.test(entry.name)) files.push(entry.name.slice(0, -4));
  }
  for (const name of files) {
    const island = t.deps.assets.islands[name];
    assert(island, `${name} missing from the manifest`);
    assertMatch(island.src, new RegExp(`^/static/build/${name}-[A-Z0-9]+\\.js$`));
  }
  t.close();
});

test("[analytics] nothing is loaded when analytics is not configured", async () => {
  const t = await createTestApp();
  const res = await t.request("GET", "/");
  const html = await res.text();
  assert(!html.includes("data-site-id"));
  t.close();
});

test("[analytics] a configured analytics script is deferred and allowed by the CSP", async () => {
  const t = await createTestApp({
    env: {
      ANALYTICS_SCRIPT_URL: "https://stats.example.com/js/script.js",
      ANALYTICS_SITE_ID: "meridian.example",
    },
  });
  const res = await t.request("GET", "/about");
  const html = await res.text();
  assertStringIncludes(
    html,
    '<script defer src="https://stats.example.com/js/script.js" data-domain="meridian.example"',
  );
  assertStringIncludes(
    res.headers.get("content-security-policy") ?? "",
    "script-src 'self' https://stats.example.com",
  );
  t.close();
});

test("[security] HSTS is sent in production behind an https proxy only", async () => {
  const t = await createTestApp({ env: { NODE_ENV: "production", TRUST_PROXY: "1" } });
  const https = await t.request("GET", "/healthz", { headers: { "x-forwarded-proto": "https" } });
  assertMatch(https.headers.get("strict-transport-security") ?? "", /max-age=\d+/);
  const plain = await t.request("GET", "/healthz");
  assertEquals(plain.headers.get("strict-transport-security"), null);
  t.close();
  const dev = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const devRes = await dev.request("GET", "/healthz", {
    headers: { "x-forwarded-proto": "https" },
  });
  assertEquals(devRes.headers.get("strict-transport-security"), null);
  dev.close();
});

test("[islands] a pure island rendered again with the same props and id gives the same HTML; other props their own", async () => {
  const t = await createTestApp();
  const c = { var: { deps: t.deps } };
  const render = (defaultAddress: string) =>
    renderPage(
      c,
      { title: "Test" },
      <main>
        <Island
          component={QuoteForm}
          props={{ id: "local", defaultAddress }}
          hydrate="interaction"
          isPure
        />
      </main>,
    );
  const plain = renderPage(
    c,
    { title: "Test" },
    <main>
      <Island
        component={QuoteForm}
        props={{ id: "local", defaultAddress: "Austin, TX" }}
        hydrate="interaction"
      />
    </main>,
  );
  const austin = render("Austin, TX");
  assertEquals(render("Austin, TX"), austin);
  assertEquals(austin, plain);
  const dallas = render("Dallas, TX");
  assertStringIncludes(dallas, 'value="Dallas, TX"');
  assert(!dallas.includes('value="Austin, TX"'));
  t.close();
});

interface EchoProps {
  id: string;
  list?: string[];
}

let echoRenders = 0;

/** A stand-in island (built as QuoteForm's chunk) that shows its props. */
function Echo({ id, list }: EchoProps) {
  echoRenders++;
  return <p>{`${id}: ${list ? list.join(", ") : "kept from the server"}`}</p>;
}

test("[islands] server-only props render on the server and never reach the props script", async () => {
  const t = await createTestApp();
  const c = { var: { deps: t.deps } };
  const html = renderPage(
    c,
    { title: "Test" },
    <main>
      <Island<EchoProps>
        component={Echo}
        name="QuoteForm"
        props={{ id: "a" }}
        serverProps={{ list: ["row one", "row two"] }}
      />
    </main>,
  );
  assertStringIncludes(html, "<p>a: row one, row two</p>");
  assertEquals(findIslandProps(html, "QuoteForm"), { id: "a" });
  // Sent once, as HTML.
  assertEquals(html.split("row one").length, 2);
  // A pure island's remembered HTML is keyed by its JSON props and its server-only props: never
  // reused across different server-only props, reused for the same.
  const rendersBefore = echoRenders;
  const pages = ["row three", "row four", "row three"].map((row) =>
    renderPage(
      c,
      { title: "Test" },
      <Island<EchoProps>
        component={Echo}
        name="QuoteForm"
        props={{ id: "b" }}
        serverProps={{ list: [row] }}
        isPure
      />,
    )
  );
  assertStringIncludes(pages[0], "<p>b: row three</p>");
  assertStringIncludes(pages[1], "<p>b: row four</p>");
  assertEquals(pages[2], pages[0]);
  assertEquals(echoRenders - rendersBefore, 2);
  assertEquals(pages.map((page) => findIslandProps(page, "QuoteForm")), [
    { id: "b" },
    { id: "b" },
    { id: "b" },
  ]);
  t.close();
});

test("[islands] remembered per-row islands (a timeline's times, a card's cancel button) still show each row's own data, as a fresh render would", async () => {
  const t = await createTestApp();
  const c = { var: { deps: t.deps } };
  const event = (id: string, createdAt: string): SurveyEvent => ({
    id,
    fromStatus: null,
    toStatus: "requested",
    note: null,
    isNoteVisibleToClient: false,
    actorName: null,
    createdAt,
  });
  const timeline = (times: string[]) =>
    renderPage(
      c,
      { title: "Test" },
      <SurveyTimeline events={times.map((at, i) => event(`e${i}`, at))} />,
    );
  const first = timeline(["2026-11-21T15:04:00.000Z", "2026-11-22T09:30:00.000Z"]);
  assertEquals(timeline(["2026-11-21T15:04:00.000Z", "2026-11-22T09:30:00.000Z"]), first);
  assertStringIncludes(
    first,
    '<time dateTime="2026-11-21T15:04:00.000Z">Nov 21, 2026, 3:04 PM UTC',
  );
  assertStringIncludes(
    first,
    '<time dateTime="2026-11-22T09:30:00.000Z">Nov 22, 2026, 9:30 AM UTC',
  );
  // The same places on the page with other times: each shows its own, nothing remembered leaks.
  const other = timeline(["2026-12-01T00:00:00.000Z", "2026-11-21T15:04:00.000Z"]);
  assertStringIncludes(
    other,
    '<time dateTime="2026-12-01T00:00:00.000Z">Dec 1, 2026, 12:00 AM UTC',
  );
  assertStringIncludes(
    other,
    '<time dateTime="2026-11-21T15:04:00.000Z">Nov 21, 2026, 3:04 PM UTC',
  );
  assert(!other.includes("Nov 22, 2026"));
  const cancel = (surveyId: string, isPure: boolean) =>
    renderPage(
      c,
      { title: "Test" },
      <Island
        component={CancelSurveyButton}
        props={{ surveyId, description: `Boundary Survey ${surveyId}` }}
        hydrate="visible"
        isPure={isPure}
      />,
    );
  for (const id of ["s-one", "s-two", "s-one"]) assertEquals(cancel(id, true), cancel(id, false));
  assertStringIncludes(cancel("s-two", true), "Boundary Survey s-two");
  t.close();
});
