import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, ORIGIN, test } from "../_helpers.ts";
import { createSignedInUser, createUser, sessionFor, signIn, signInAs } from "../_auth.ts";
import { DASHBOARDS, ROLES, submitSurvey } from "../_fixtures.ts";
import {
  assertForbiddenPage,
  assertHtml,
  assertRedirect,
  assertRedirectsToAuth,
  getPage,
  islandProps,
  loadPage,
  pageText,
} from "../_pages.ts";
import { CLIENT_PAGE_SIZE } from "../../routes/survey_pages.tsx";
import { redirectAfterLogin } from "../../lib/return_to.ts";
import { SURVEY_OPTIONS } from "../../islands/_create_survey/options.ts";
import {
  ALTA_ITEM_IDS,
  PROPERTY_TYPES,
  RUSH_LEVELS,
  STATE_CODES,
  TERRAINS,
  VEGETATIONS,
} from "../../lib/survey_details.ts";
import { PURPOSE_INFO, SURVEY_PURPOSES } from "../../lib/survey_schema.ts";

// ------------------------------------------------------------------------- landing redirect

test("[survey pages] / sends each signed-in role to its dashboard", async () => {
  const t = await createTestApp();
  for (const role of ROLES) {
    assertRedirect(await getPage(t, "/", await signInAs(t, role)), DASHBOARDS[role], role);
  }
  t.close();
});

test("[survey pages] a signed-in client with surveyFlow=true sees the landing page", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "client");
  const { res, html } = await loadPage(t, "/?surveyFlow=true", cookie);
  assertEquals(res.status, 200);
  assertHtml(res);
  assertStringIncludes(html, "Get Free Quote Now");
  // Any other value still redirects.
  assertRedirect(await getPage(t, "/?surveyFlow=yes", cookie), "/client-dashboard");
  t.close();
});

test("[survey pages] signed-out visitors get the landing page, not a redirect", async () => {
  const t = await createTestApp();
  const { res, html } = await loadPage(t, "/");
  assertEquals(res.status, 200);
  assertHtml(res);
  assertStringIncludes(html, "Get Free Quote Now");
  t.close();
});

// ---------------------------------------------------------------------------- /create-survey

test("[survey pages] /create-survey is public and prefills the address from ?address=", async () => {
  const t = await createTestApp();
  const { res, html } = await loadPage(t, "/create-survey?address=123%20Main%20St%2C%20Austin");
  assertEquals(res.status, 200);
  assertHtml(res);
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  assertStringIncludes(html, "Get your free survey quote");
  assertStringIncludes(html, 'data-hydrate="load"');
  const props = islandProps(html, "CreateSurvey");
  assertEquals(props.initialAddress, "123 Main St, Austin");
  assertEquals(props.user, null);
  // The server-rendered first step already shows the address and the step list.
  assertStringIncludes(html, 'value="123 Main St, Austin"');
  assertStringIncludes(html, 'aria-current="step"');
  assertStringIncludes(html, "Free quote. No payment now.");
  // The toast viewport is on the page for signed-out visitors too.
  assertStringIncludes(html, 'data-island="Toaster"');
  t.close();
});

test("[survey pages] /create-survey passes the signed-in user and uses the app layout", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, {
    role: "client",
    fullName: "Casey Client",
    phone: "512-555-0199",
  });
  const { res, html } = await loadPage(t, "/create-survey", cookie);
  assertEquals(res.status, 200);
  const props = islandProps(html, "CreateSurvey");
  assertEquals(props.user, {
    id: user.id,
    fullName: "Casey Client",
    email: user.email,
    role: "client",
    phone: "512-555-0199",
  });
  assertEquals(props.initialAddress, "");
  assertStringIncludes(html, 'class="app-shell"');
  t.close();
});

test("[survey pages] /create-survey ignores an oversized or repeated address instead of failing", async () => {
  const t = await createTestApp();
  const long = await loadPage(t, `/create-survey?address=${"x".repeat(10_000)}`);
  assertEquals(long.res.status, 200);
  assertEquals(islandProps(long.html, "CreateSurvey").initialAddress, "");
  const twice = await loadPage(t, "/create-survey?address=a&address=b");
  assertEquals(twice.res.status, 200);
  t.close();
});

test("[survey pages] /create-survey loads only its own islands' JavaScript, within budget", async () => {
  const t = await createTestApp();
  const { html } = await loadPage(t, "/create-survey");
  const files = [
    ...new Set([...html.matchAll(/(?:src|href)="(\/static\/build\/[^"]+\.js)"/g)]
      .map((m) => m[1])),
  ];
  const { early, boot, islands, sizes } = t.deps.assets;
  const allowed = new Set([
    early,
    boot.src,
    ...boot.preload,
    ...["CreateSurvey", "Toaster"].flatMap((n) => [islands[n].src, ...islands[n].preload]),
  ]);
  assertEquals(files.filter((f) => !allowed.has(f)), [], "no other island's code");
  assert(files.includes(islands.CreateSurvey.src));
  // React is the boot script and what it preloads; the flow's own code must stay small.
  const ownGzip = files.filter((f) => f !== early && f !== boot.src && !boot.preload.includes(f))
    .reduce((n, f) => n + sizes[f].gzip, 0);
  assert(ownGzip < 24_000, `create-survey JS beyond React is ${ownGzip} bytes gzip`);
  t.close();
});

test("[survey pages] the flow's option lists match the survey details schema", () => {
  assertEquals(SURVEY_OPTIONS.propertyTypes.map((c) => c.id), [...PROPERTY_TYPES]);
  assertEquals(SURVEY_OPTIONS.terrains.map((c) => c.id), [...TERRAINS]);
  assertEquals(SURVEY_OPTIONS.vegetations.map((c) => c.id), [...VEGETATIONS]);
  assertEquals(SURVEY_OPTIONS.rushLevels.map((c) => c.id), [...RUSH_LEVELS]);
  assertEquals(SURVEY_OPTIONS.states.map((c) => c.id).sort(), [...STATE_CODES].sort());
  assertEquals(SURVEY_OPTIONS.altaItems.map((c) => c.id), [...ALTA_ITEM_IDS]);
  assertEquals(SURVEY_OPTIONS.purposes.map((c) => c.id), [...SURVEY_PURPOSES]);
  for (const p of SURVEY_OPTIONS.purposes) {
    assertEquals(p.suggests, PURPOSE_INFO[p.id as keyof typeof PURPOSE_INFO].recommended ?? null);
  }
});

// -------------------------------------------------------------------------- /client-dashboard

test("[survey pages] /client-dashboard sends signed-out visitors to sign in", async () => {
  const t = await createTestApp();
  const path = "/client-dashboard?page=2";
  await assertRedirectsToAuth(await getPage(t, path), path);
  t.close();
});

test("[survey pages] /client-dashboard is for clients: other roles get Access Denied", async () => {
  const t = await createTestApp();
  for (const role of ["admin", "surveyor", "technician"] as const) {
    await assertForbiddenPage(await getPage(t, "/client-dashboard", await signInAs(t, role)), role);
  }
  t.close();
});

test("[survey pages] a client with no requests gets an empty state that leads to a quote", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "client");
  const { res, html } = await loadPage(t, "/client-dashboard", cookie);
  assertEquals(res.status, 200);
  assertHtml(res);
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  assertStringIncludes(html, "No survey requests yet");
  assertMatch(html, /<a class="btn btn--primary" href="\/create-survey">Get a free quote<\/a>/);
  // Nothing interactive on an empty dashboard but the layout's own islands.
  assert(!html.includes('data-island="CancelSurveyButton"'));
  t.close();
});

test("[survey pages] the client dashboard shows each request with tracker, price and actions", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const survey = await submitSurvey(t, client, { acreage: 2, vegetation: "heavy" });
  const { res, html } = await loadPage(t, "/client-dashboard", client);
  assertEquals(res.status, 200);
  assertStringIncludes(html, `data-survey-id="${survey.id}"`);
  assertStringIncludes(html, "Boundary Survey");
  assertStringIncludes(html, "1200 Barton Springs Rd, Austin, TX 78704, USA");
  // Quoted price and the collapsible breakdown with the engine's lines and total.
  const total = `$${(survey.quotedPriceCents! / 100).toLocaleString("en-US")}`;
  assertMatch(html, new RegExp(`data-testid="quoted-price">\\${total.replace(/[.,]/g, "\\$&")}`));
  assertStringIncludes(html, "<summary>Price breakdown</summary>");
  for (const line of survey.quote.lineItems) assertStringIncludes(html, line.label);
  assertStringIncludes(html, survey.quote.turnaround);
  // The tracker: Requested is the current step; the surveyor is not assigned yet.
  assertMatch(html, /aria-current="step"[^>]*>.*?Requested/s);
  assertStringIncludes(html, "Not assigned yet");
  // Actions: view, cancel (an island, still allowed), request another.
  assertStringIncludes(html, `href="/survey/${survey.id}"`);
  assertEquals(islandProps(html, "CancelSurveyButton").surveyId, survey.id);
  // Its confirmation dialog is drawn at the first click, not sent with every card.
  assert(!html.includes("<dialog"), "no closed dialog in the page");
  // Steps still to come carry no empty "(…)" text for screen readers.
  assert(!html.includes('<span class="visually-hidden"></span>'));
  assertStringIncludes(html, 'href="/create-survey">Request another survey');
  t.close();
});

test("[survey pages] a client never sees another client's requests on the dashboard", async () => {
  const t = await createTestApp();
  const alice = await signInAs(t, "client");
  const bob = await signInAs(t, "client");
  const aliceSurvey = await submitSurvey(t, alice);
  const { html } = await loadPage(t, "/client-dashboard", bob);
  assert(!html.includes(aliceSurvey.id));
  assertStringIncludes(html, "No survey requests yet");
  t.close();
});

test("[survey pages] after an admin moves a request on, the client sees the status with its date", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const admin = await signInAs(t, "admin");
  const survey = await submitSurvey(t, client);
  const res = await t.request("PATCH", `/api/surveys/${survey.id}/status`, {
    cookie: admin,
    body: { status: "scheduled", scheduledDate: "2099-03-01" },
  });
  assertEquals(res.status, 200);
  const { html } = await loadPage(t, "/client-dashboard", client);
  assertStringIncludes(html, '<span class="badge badge--info">Scheduled</span>');
  assertMatch(html, /aria-current="step"[^>]*>.*?Scheduled/s);
  // Once a visit is booked a client can no longer cancel.
  assert(!html.includes('data-island="CancelSurveyButton"'));
  t.close();
});

test("[survey pages] the dashboard's tracker and breakdown follow the request between two visits", async () => {
  // Both are remembered as HTML by what they show (components/html_cache.ts): a visit after a
  // change must show the change, never the markup of the visit before.
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const admin = await signInAs(t, "admin");
  const survey = await submitSurvey(t, client);
  const twin = await submitSurvey(t, client);
  const before = await loadPage(t, "/client-dashboard", client);
  assertEquals(before.html.match(/aria-current="step"[^>]*>.*?Requested/gs)?.length, 2);
  const firstLine = twin.quote.lineItems[0].label;
  assertStringIncludes(before.html, firstLine);
  const res = await t.request("PATCH", `/api/surveys/${survey.id}/status`, {
    cookie: admin,
    body: { status: "scheduled", scheduledDate: "2099-03-01" },
  });
  assertEquals(res.status, 200);
  const quote = {
    ...twin.quote,
    lineItems: [{ key: "base", label: "Hand-checked base", detail: "", amountCents: 50_000 }],
    subtotalCents: 50_000,
    totalCents: 50_000,
  };
  await t.sql`update surveys set quote = ${t.sql.json(quote as never)}, quoted_price_cents = 50000
    where id = ${twin.id}`;
  const after = await pageText(await getPage(t, "/client-dashboard", client));
  const card = (id: string) => {
    const start = after.indexOf(`data-survey-id="${id}"`);
    return after.slice(start, after.indexOf("</article>", start));
  };
  assertMatch(card(survey.id), /aria-current="step"[^>]*>.*?Scheduled/s);
  assertMatch(card(survey.id), /Requested<\/span><span class="survey-tracker__date">[^<]+</);
  assert(!card(survey.id).includes('data-island="CancelSurveyButton"'));
  assertMatch(card(twin.id), /aria-current="step"[^>]*>.*?Requested/s);
  assertStringIncludes(card(twin.id), "Hand-checked base");
  assert(!card(twin.id).includes(firstLine));
  assertMatch(card(twin.id), /Total<\/th><td>\$500</);
  // The header's badge and the facts' price are remembered too.
  assertStringIncludes(card(survey.id), '<span class="badge badge--info">Scheduled</span>');
  assertStringIncludes(card(survey.id), "<dd>Mar 1, 2099</dd>");
  assertMatch(card(twin.id), /data-testid="quoted-price">\$500</);
  t.close();
});

test("[survey pages] the client dashboard is paginated", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  for (let i = 0; i < CLIENT_PAGE_SIZE + 1; i++) await submitSurvey(t, client);
  const first = await loadPage(t, "/client-dashboard", client);
  assertEquals(first.html.match(/class="card survey-card"/g)?.length, CLIENT_PAGE_SIZE);
  assertStringIncludes(first.html, "Page 1 of 2");
  const second = await loadPage(t, "/client-dashboard?page=2", client);
  assertEquals(second.html.match(/class="card survey-card"/g)?.length, 1);
  // A nonsense page number is ignored rather than an error.
  const odd = await loadPage(t, "/client-dashboard?page=-3", client);
  assertEquals(odd.res.status, 200);
  t.close();
});

// ------------------------------------------------------------------------------- /survey/{id}

test("[survey pages] the owner sees the full request, its quote breakdown and timeline", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const survey = await submitSurvey(t, client, { accessNotes: "Gate code 4321" });
  const { res, html } = await loadPage(t, `/survey/${survey.id}`, client);
  assertEquals(res.status, 200);
  assertHtml(res);
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  assertStringIncludes(html, "Boundary Survey");
  assertStringIncludes(html, "Gate code 4321");
  assertStringIncludes(html, "Dana Client");
  assertStringIncludes(html, "Quoted price breakdown");
  assertStringIncludes(html, "Request submitted");
  assertStringIncludes(html, "This price does not change.");
  assertEquals(islandProps(html, "CancelSurveyButton").surveyId, survey.id);
  t.close();
});

test("[survey pages] a request shows only what its type asks, its turnaround and whole dollars", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const certificate = await submitSurvey(t, client, {
    surveyType: "elevation_certificate",
    acreage: undefined,
    terrain: undefined,
    vegetation: undefined,
    cornersKnown: undefined,
    structures: 2,
  });
  const { html } = await loadPage(t, `/survey/${certificate.id}`, client);
  for (const term of ["Lot size", "Terrain", "Vegetation", "Corners marked", "Corners to set"]) {
    assert(!html.includes(`<dt>${term}</dt>`), `shows ${term}`);
  }
  assertStringIncludes(html, "<dt>Structures</dt>");
  assertMatch(html, /data-testid="quoted-price">\$437</);
  assertStringIncludes(html, "Estimated turnaround: 3-5 business days");
  const subdivision = await submitSurvey(t, client, { surveyType: "subdivision", acreage: 12 });
  const page = await loadPage(t, `/survey/${subdivision.id}`, client);
  assertStringIncludes(page.html, "Turnaround: quoted per project");
  assert(!page.html.includes("Estimated turnaround"));
  const dashboard = await loadPage(t, "/client-dashboard", client);
  assertStringIncludes(dashboard.html, "<dd>Quoted per project</dd>");
  t.close();
});

test("[survey pages] a request quoted with cents before whole dollars keeps its breakdown", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const survey = await submitSurvey(t, client);
  const old = {
    ...survey.quote,
    lineItems: [
      { key: "base", label: "Boundary Survey base price", detail: "", amountCents: 38_500 },
      { key: "terrain", label: "Terrain", detail: "Rolling (+15%)", amountCents: 5_775 },
    ],
    subtotalCents: 44_275,
    totalCents: 44_275,
  };
  await t.sql`update surveys set quote = ${t.sql.json(old as never)}, quoted_price_cents = 44275
    where id = ${survey.id}`;
  const { html } = await loadPage(t, `/survey/${survey.id}`, client);
  assertMatch(html, /data-testid="quoted-price">\$442\.75</);
  assertMatch(html, /Terrain.*\$57\.75.*Total.*\$442\.75/s);
  t.close();
});

test("[survey pages] an admin sees any request with the client's name", async () => {
  const t = await createTestApp();
  const { cookie: client, user } = await createSignedInUser(t, { role: "client" });
  const survey = await submitSurvey(t, client);
  const { res, html } = await loadPage(t, `/survey/${survey.id}`, await signInAs(t, "admin"));
  assertEquals(res.status, 200);
  assertStringIncludes(html, `Client: ${user.fullName}`);
  // Admins manage status on the dashboard; the client's cancel button is not theirs.
  assert(!html.includes('data-island="CancelSurveyButton"'));
  t.close();
});

test("[survey pages] another client's, a surveyor's or an unknown survey page is a 404", async () => {
  const t = await createTestApp();
  const owner = await signInAs(t, "client");
  const survey = await submitSurvey(t, owner);
  const cases: [string, string][] = [
    [`/survey/${survey.id}`, await signInAs(t, "client")],
    [`/survey/${survey.id}`, await signInAs(t, "surveyor")],
    [`/survey/${survey.id}`, await signInAs(t, "technician")],
    [`/survey/${crypto.randomUUID()}`, owner],
    ["/survey/not-a-uuid", owner],
    [`/survey/${"9".repeat(10_000)}`, owner],
  ];
  for (const [path, cookie] of cases) {
    const { res, html } = await loadPage(t, path, cookie);
    assertEquals(res.status, 404, path.slice(0, 60));
    assertHtml(res);
    assertStringIncludes(html, "404 Page Not Found");
    assert(!html.includes("1200 Barton Springs"), "nothing of the survey leaks");
  }
  t.close();
});

test("[survey pages] /survey/{id} sends signed-out visitors to sign in", async () => {
  const t = await createTestApp();
  const path = `/survey/${crypto.randomUUID()}`;
  await assertRedirectsToAuth(await getPage(t, path), path);
  t.close();
});

test("[survey pages] timeline times are rendered in UTC for the LocalTime island to localise", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const survey = await submitSurvey(t, client);
  const [{ createdAt }] = await t.sql<{ createdAt: Date }[]>`
    select created_at from survey_events where survey_id = ${survey.id}`;
  const { html } = await loadPage(t, `/survey/${survey.id}`, client);
  const timeline = html.slice(html.indexOf('class="survey-timeline"'));
  assertEquals(islandProps(timeline, "LocalTime"), { iso: createdAt.toISOString() });
  assertMatch(
    timeline,
    /<time dateTime="[^"]+">[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M UTC<\/time>/,
  );
  t.close();
});

test("[survey pages] the emailed request link signs a signed-out client in and lands on the survey", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client" });
  const survey = await submitSurvey(t, await sessionFor(t, user));
  const path = `/client/surveys/${survey.id}`;
  const [email] = await t.sql<{ html: string; text: string }[]>`
    select html, text from email_outbox where template = 'survey_request_confirmation'`;
  assertStringIncludes(email.html, `href="${ORIGIN}${path}"`);
  assertStringIncludes(email.text, `${ORIGIN}${path}`);

  // Signed out: sign in first, with the emailed path as returnTo.
  await assertRedirectsToAuth(await getPage(t, path), path);
  const auth = await loadPage(t, `/auth?returnTo=${encodeURIComponent(path)}`);
  assertEquals(islandProps(auth.html, "AuthForm").returnTo, path);
  const cookie = await signIn(t, { identifier: user.email, password: user.password });
  // Where the sign-in form (and /auth, once signed in) sends the client: the path itself,
  // not the dashboard, because it starts with /client.
  assertEquals(redirectAfterLogin("client", path), path);
  const again = await getPage(t, `/auth?returnTo=${encodeURIComponent(path)}`, cookie);
  assertRedirect(again, path);
  await again.body?.cancel();
  // …which is the survey's page.
  const hop = await getPage(t, path, cookie);
  assertRedirect(hop, `/survey/${survey.id}`);
  await hop.body?.cancel();
  const page = await loadPage(t, `/survey/${survey.id}`, cookie);
  assertEquals(page.res.status, 200);
  assertStringIncludes(page.html, "Quoted price breakdown");
  t.close();
});

test("[survey pages] /client/surveys/{id} of someone else's or an unknown survey ends in a 404", async () => {
  const t = await createTestApp();
  const survey = await submitSurvey(t, await signInAs(t, "client"));
  const stranger = await signInAs(t, "client");
  for (const id of [survey.id, crypto.randomUUID(), "not-a-uuid"]) {
    const hop = await getPage(t, `/client/surveys/${id}`, stranger);
    assertRedirect(hop, `/survey/${id}`);
    await hop.body?.cancel();
    const { res, html } = await loadPage(t, `/survey/${id}`, stranger);
    assertEquals(res.status, 404, id);
    assert(!html.includes("1200 Barton Springs"), "nothing of the survey leaks");
  }
  t.close();
});

// --------------------------------------------------------------------------- /admin-dashboard

test("[survey pages] /admin-dashboard is admin only", async () => {
  const t = await createTestApp();
  await assertRedirectsToAuth(await getPage(t, "/admin-dashboard"), "/admin-dashboard");
  for (const role of ["client", "surveyor", "technician"] as const) {
    const html = await assertForbiddenPage(
      await getPage(t, "/admin-dashboard", await signInAs(t, role)),
      role,
    );
    assert(!html.includes('data-island="AdminSurveys"'));
  }
  t.close();
});

test("[survey pages] the admin dashboard counts requests by status and renders the first page", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const admin = await signInAs(t, "admin");
  const a = await submitSurvey(t, client);
  const b = await submitSurvey(t, client, { surveyType: "topographic" });
  await submitSurvey(t, client, { surveyType: "alta", propertyType: "commercial" });
  await t.request("DELETE", `/api/surveys/${a.id}`, { cookie: client }); // cancels
  const { res, html } = await loadPage(t, "/admin-dashboard", admin);
  assertEquals(res.status, 200);
  assertHtml(res);
  assertMatch(
    html,
    /admin-overview__count">3<\/span><span class="admin-overview__label">All requests/,
  );
  assertMatch(
    html,
    /admin-overview__count">2<\/span><span class="admin-overview__label">Requested/,
  );
  assertMatch(
    html,
    /admin-overview__count">1<\/span><span class="admin-overview__label">Cancelled/,
  );
  const props = islandProps(html, "AdminSurveys") as {
    initial: { rows: { id: string; status: string }[]; total: number; page: number };
    filters: Record<string, string>;
  };
  assertEquals(props.initial.total, 3);
  assertEquals(props.initial.page, 1);
  assertEquals(props.initial.rows.length, 3);
  assertEquals(props.filters, { status: "", surveyType: "", from: "", to: "", q: "" });
  // Server-rendered rows: the newest first, each with its status menu.
  assertStringIncludes(html, `data-survey-id="${b.id}"`);
  assertStringIncludes(html, `id="status-${b.id}"`);
  t.close();
});

test("[survey pages] the admin table's filters come from the URL; bad ones are dropped", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const admin = await signInAs(t, "admin");
  await submitSurvey(t, client);
  const topo = await submitSurvey(t, client, { surveyType: "topographic" });
  const filtered = await loadPage(t, "/admin-dashboard?surveyType=topographic", admin);
  const props = islandProps(filtered.html, "AdminSurveys") as {
    initial: { rows: { id: string }[]; total: number };
    filters: Record<string, string>;
  };
  assertEquals(props.initial.total, 1);
  assertEquals(props.initial.rows[0].id, topo.id);
  assertEquals(props.filters.surveyType, "topographic");

  const bad = await loadPage(
    t,
    `/admin-dashboard?status=bogus&from=yesterday&page=-1&q=${"x".repeat(10_000)}`,
    admin,
  );
  assertEquals(bad.res.status, 200);
  const badProps = islandProps(bad.html, "AdminSurveys") as {
    initial: { total: number };
    filters: Record<string, string>;
  };
  assertEquals(badProps.initial.total, 2);
  assertEquals(badProps.filters, { status: "", surveyType: "", from: "", to: "", q: "" });
  t.close();
});

test("[survey pages] past the table's last page the admin dashboard still counts requests by status, and the table its total", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const admin = await signInAs(t, "admin");
  const a = await submitSurvey(t, client);
  await submitSurvey(t, client);
  await submitSurvey(t, client, { surveyType: "topographic" });
  await t.request("DELETE", `/api/surveys/${a.id}`, { cookie: client }); // cancels
  // The total from the counts (no filter, status), from survey_counts (type) or counted
  // (dates): each read in the page's one statement.
  for (
    const [query, total] of [
      ["page=9", 3],
      ["status=cancelled&page=2", 1],
      ["surveyType=topographic&page=9", 1],
      ["from=2000-01-01&page=9", 3],
    ] as const
  ) {
    const { res, html } = await loadPage(t, `/admin-dashboard?${query}`, admin);
    assertEquals(res.status, 200, query);
    const count = (label: string) =>
      new RegExp(
        `admin-overview__count">(\\d+)</span><span class="admin-overview__label">${label}<`,
      )
        .exec(html)?.[1];
    assertEquals(
      [count("All requests"), count("Requested"), count("Cancelled"), count("Completed")],
      ["3", "2", "1", "0"],
      query,
    );
    const props = islandProps(html, "AdminSurveys") as {
      initial: { rows: unknown[]; total: number; page: number };
    };
    assertEquals(props.initial.rows, [], query);
    assertEquals(props.initial.total, total, query);
    assertEquals(props.initial.page, Number(/page=(\d+)/.exec(query)![1]), query);
  }
  t.close();
});
