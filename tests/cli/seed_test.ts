import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createUser, sessionFor, signIn } from "../_auth.ts";
import { DEMO_CREDIT_CENTS, runSeedCli } from "../../lib/cli/seed.ts";
import { STATUS_INFO, type SurveyStatus } from "../../lib/survey_status.ts";
import type { StorageProvider } from "../../lib/storage/provider.ts";
import { technicianJobPath } from "../../lib/technician_constants.ts";
import { taskArgs } from "../_deno.ts";
import { embeddedTest } from "../_suite.ts";

async function seed(t: TestApp, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runSeedCli(args, {
    sql: t.sql,
    output: { out: (l) => out.push(l), err: (l) => err.push(l) },
    storage: t.deps.storage,
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

interface Counts {
  users: number;
  demoUsers: number;
  surveyors: number;
  demoSurveyors: number;
  linked: number;
  history: number;
  surveys: number;
  events: number;
}

async function counts(t: TestApp): Promise<Counts> {
  const [row] = await t.sql<Counts[]>`
    select
      (select count(*)::int from users) as users,
      (select count(*)::int from users where is_demo) as demo_users,
      (select count(*)::int from surveyors) as surveyors,
      (select count(*)::int from surveyors where is_demo) as demo_surveyors,
      (select count(*)::int from surveyors where user_id is not null) as linked,
      (select count(*)::int from surveyor_contact_history) as history,
      (select count(*)::int from surveys) as surveys,
      (select count(*)::int from survey_events) as events`;
  return row;
}

function passwordOf(out: string, email: string): string {
  const line = out.split("\n").find((l) => l.includes(` ${email} `));
  const password = line?.trim().split(/\s+/)[2];
  assert(password && password.length >= 20, `no password for ${email} in:\n${out}`);
  return password;
}

test("[seed] fills an empty database with a demo network the demo admin can sign in to", async () => {
  const t = await createTestApp();
  const r = await seed(t, "--demo");
  assertEquals(r.code, 0, r.err);
  assertStringIncludes(r.out, "Everything below is demo data");
  assertStringIncludes(r.out, "400 surveyor firms in 51 states");
  const c = await counts(t);
  assertEquals(c, {
    users: 11,
    demoUsers: 11,
    surveyors: 400,
    demoSurveyors: 400,
    linked: 5,
    history: c.history,
    surveys: 12,
    events: c.events,
  });
  assert(c.history > 300, `history: ${c.history}`);
  // The printed counts are the firms as stored, after dispatch invited some prospects.
  const n = Object.fromEntries(
    (await t.sql<{ status: string; n: number }[]>`
      select status, count(*)::int as n from surveyors group by status`).map((
      x,
    ) => [x.status, x.n]),
  );
  assertStringIncludes(
    r.out,
    `${n.active} active in-network (licences verified), ${n.paused} paused, ` +
      `${n.invited} invited, ${n.prospect} prospects;`,
  );
  // Every request but one moved on from its submission.
  assert(c.events > 12 + 11, `events: ${c.events}`);

  // Every account is a demo account at the demo domain with a password printed once.
  const accounts = await t.sql<{ email: string; role: string }[]>`
    select email, role from users order by role, email`;
  for (const a of accounts) assertMatch(a.email, /@demo\.meridian\.invalid$/);
  const password = passwordOf(r.out, "admin@demo.meridian.invalid");
  const cookie = await signIn(t, { identifier: "admin@demo.meridian.invalid", password });
  const list = await t.request("GET", "/api/surveys?pageSize=20", { cookie });
  assertEquals(list.status, 200);
  const body = await list.json();
  assertEquals(body.total, 12);
  // Requests are stored as the app stores a submission: priced.
  for (const s of body.surveys) {
    if (s.surveyType !== "subdivision") assert(s.quotedPriceCents > 0, JSON.stringify(s));
  }

  // The linked accounts are surveyors of active, verified in-network firms; so is every
  // active firm (active means its licence was checked).
  const linked = await t.sql<
    { role: string; status: string; inNetwork: boolean; isVerified: boolean }[]
  >`
    select u.role, s.status, s.in_network, s.verified_at is not null as is_verified
    from surveyors s join users u on u.id = s.user_id`;
  assertEquals(linked.length, 5);
  for (const l of linked) {
    assertEquals([l.role, l.status, l.inNetwork, l.isVerified], ["surveyor", "active", true, true]);
  }
  const [{ unverified }] = await t.sql<{ unverified: number }[]>`
    select count(*)::int as unverified from surveyors
    where status = 'active' and (verified_at is null or verified_by is null)`;
  assertEquals(unverified, 0);
  // History is written by the demo admin.
  const [{ authors }] = await t.sql<{ authors: string[] }[]>`
    select array_agg(distinct u.email) as authors
    from surveyor_contact_history h join users u on u.id = h.author_id`;
  assertEquals(authors, ["admin@demo.meridian.invalid"]);
  t.close();
});

/** The printed account lines: role, email, password, what to try. */
function accountsOf(out: string) {
  return out.split("\n").flatMap((line) => {
    const m =
      /^\s+(admin|surveyor|technician|client)\s+(\S+@demo\.meridian\.invalid)\s+(\S{20})\s+(.+)$/
        .exec(line);
    return m ? [{ role: m[1], email: m[2], password: m[3], note: m[4] }] : [];
  });
}

async function page(t: TestApp, path: string, cookie: string): Promise<string> {
  const res = await t.request("GET", path, { cookie });
  const html = await res.text();
  assertEquals(res.status, 200, `${path}: ${html.slice(0, 300)}`);
  assertMatch(res.headers.get("content-type") ?? "", /^text\/html/);
  return html;
}

async function json(t: TestApp, path: string, cookie: string) {
  const res = await t.request("GET", path, { cookie });
  const body = await res.text();
  assertEquals(res.status, 200, `${path}: ${body.slice(0, 300)}`);
  return JSON.parse(body);
}

/** The status badges a page shows (`<span class="badge badge--…">Label</span>`). */
function badges(html: string): string[] {
  return [...html.matchAll(/class="badge badge--\w+">([^<]+)</g)].map((m) => m[1]);
}

test("[seed] every demo role has something to see and do on first sign-in", async () => {
  const t = await createTestApp();
  const r = await seed(t, "--demo");
  assertEquals(r.code, 0, r.err);
  assertStringIncludes(r.out, "Open http://127.0.0.1:8000/auth and sign in");
  const accounts = accountsOf(r.out);
  assertEquals(accounts.map((a) => a.role), [
    "admin",
    ...Array(5).fill("surveyor"),
    "technician",
    ...Array(4).fill("client"),
  ]);
  // Signed in with the printed passwords (the admin's login is checked above; ten logins is
  // the per-address limit).
  const cookies = new Map<string, string>();
  for (const a of accounts.filter((a) => a.role !== "admin")) {
    cookies.set(a.email, await signIn(t, { identifier: a.email, password: a.password }));
  }
  const [admin] = await t.sql<{ id: string }[]>`
    select id from users where email = 'admin@demo.meridian.invalid'`;
  const adminCookie = await sessionFor(t, { id: admin.id, role: "admin" });

  // Each surveyor: verified, credit, and at least one open lead within reach on /leads.
  for (const a of accounts.filter((a) => a.role === "surveyor")) {
    const cookie = cookies.get(a.email)!;
    const leads = await json(t, "/api/leads", cookie);
    assert(leads.total > 0, `${a.email} has no open leads`);
    const billing = await json(t, "/api/billing", cookie);
    assert(billing.balanceCents > 0, `${a.email}: balance ${billing.balanceCents}`);
    assert(Number.isInteger(billing.balanceCents));
    const html = await page(t, "/leads", cookie);
    assert(!html.includes("Licence check in progress"), `${a.email} is not verified`);
    assertStringIncludes(html, leads.leads[0].id);
    assertStringIncludes(a.note, "open lead");
  }

  // The crew firm (first surveyor): the credit went through the ledger, it paid for its jobs
  // and still has the credit every demo surveyor gets to try the market with.
  const crew = accounts.find((a) => a.role === "surveyor")!;
  const crewBilling = await json(t, "/api/billing", cookies.get(crew.email)!);
  assert(crewBilling.balanceCents >= DEMO_CREDIT_CENTS, JSON.stringify(crewBilling));
  const kinds = crewBilling.entries.map((e: { kind: string }) => e.kind).sort();
  assert(kinds.includes("adjustment") && kinds.includes("lead_purchase"), kinds.join());
  assert(kinds.includes("claim_fee"), kinds.join());
  const purchased = await json(t, "/api/purchased-leads", cookies.get(crew.email)!);
  assert(purchased.total >= 4, `purchased: ${JSON.stringify(purchased).slice(0, 200)}`);

  // Message threads (issue 22): the bought and the assigned request each have a conversation
  // between the crew firm and the client, written through the messages API's own code; on the
  // job in fieldwork the firm's technician and the client talk in the firm's thread.
  const threads = await t.sql<{ count: number; roles: string[] }[]>`
    select count(*)::int as count, array_agg(distinct author_role order by author_role) as roles
    from survey_messages group by survey_id, surveyor_id order by 2`;
  assertEquals(
    threads.map((x) => [x.count, x.roles]),
    [[3, ["client", "surveyor"]], [3, ["client", "surveyor"]], [2, ["client", "technician"]]],
  );

  // The technician is in the crew firm's team as the technician API knows it, and has the job
  // in fieldwork on their dashboard.
  const tech = accounts.find((a) => a.role === "technician")!;
  const team = await json(t, "/api/technicians", cookies.get(crew.email)!);
  assertEquals(team.technicians.map((m: { email: string }) => m.email), [tech.email]);
  const [fieldwork] = await t.sql<{ id: string; address: string }[]>`
    select id, coalesce(formatted_address, address) as address from surveys
    where status = 'in_fieldwork'`;
  const techHtml = await page(t, "/technician-dashboard", cookies.get(tech.email)!);
  assertStringIncludes(techHtml, technicianJobPath(fieldwork.id));
  const checklist = await json(
    t,
    `/api/surveys/${fieldwork.id}/checklist`,
    cookies.get(tech.email)!,
  );
  assert(
    checklist.progress.done > 0 && checklist.progress.done < checklist.progress.total,
    JSON.stringify(checklist.progress),
  );

  // The client dashboards together show a request at every stage the demo reaches.
  const seen = new Set<string>();
  for (const a of accounts.filter((a) => a.role === "client")) {
    for (const label of badges(await page(t, "/client-dashboard", cookies.get(a.email)!))) {
      seen.add(label);
    }
  }
  const stages: SurveyStatus[] = [
    "requested",
    "surveyors_notified",
    "assigned",
    "in_fieldwork",
    "completed",
  ];
  for (const status of stages) {
    assert(seen.has(STATUS_INFO[status].label), `${status} not shown: ${[...seen].join(", ")}`);
  }

  // A client has three proposals waiting for their answer, beside the instant quote: on the
  // request's page and on their dashboard.
  const [proposal] = await t.sql<{ email: string; surveyId: string; n: number }[]>`
    select u.email, p.survey_id, count(*)::int as n from survey_proposals p
    join surveys s on s.id = p.survey_id join users u on u.id = s.client_id
    where p.status = 'pending' group by u.email, p.survey_id`;
  assert(proposal, "no pending proposal in the demo");
  assertEquals(proposal.n, 3);
  const proposalHtml = await page(t, `/survey/${proposal.surveyId}`, cookies.get(proposal.email)!);
  assertStringIncludes(proposalHtml, "3 proposals are waiting for your answer.");
  assertEquals(proposalHtml.match(/>Accept<span/g)?.length, 3);
  const dashboardHtml = await page(t, "/client-dashboard", cookies.get(proposal.email)!);
  assertStringIncludes(dashboardHtml, "3 proposals are waiting for your answer.");
  // …and the printed note sends that client to them.
  const proposalAccount = accounts.find((a) => a.email === proposal.email)!;
  assertStringIncludes(proposalAccount.note, "3 proposals from surveyors to compare and accept");

  // The delivered survey: its client sees the plat and their review on its page, and the file
  // downloads as the PDF that was stored.
  const [delivered] = await t.sql<{ id: string; email: string; fileId: string }[]>`
    select s.id, u.email, f.id as file_id
    from surveys s join users u on u.id = s.client_id
    join survey_files f on f.survey_id = s.id and f.kind = 'deliverable'
    where s.status = 'completed'`;
  const clientCookie = cookies.get(delivered.email)!;
  const surveyHtml = await page(t, `/survey/${delivered.id}`, clientCookie);
  assertStringIncludes(surveyHtml, "boundary-plat.pdf");
  assertStringIncludes(surveyHtml, "found the old iron pins the last survey missed");
  // The review has a public text the firm answered: both on the firm's public page, and the
  // client was told of the reply.
  const [firm] = await t.sql<{ path: string }[]>`
    select link as path from notifications n join users u on u.id = n.user_id
    where u.email = ${delivered.email} and n.kind = 'review_replied'`;
  assert(firm, "the client was told of the firm's reply");
  const firmHtml = await page(t, firm.path, clientCookie);
  assertStringIncludes(firmHtml, "explained the plat line by line");
  assertStringIncludes(firmHtml, "Those pins took some digging.");
  const file = await t.request("GET", `/api/files/${delivered.fileId}`, { cookie: clientCookie });
  assertEquals(file.status, 200);
  assertEquals(file.headers.get("content-type"), "application/pdf");
  assertEquals(new TextDecoder().decode((await file.bytes()).slice(0, 5)), "%PDF-");

  // The admin sees it all: the request waiting to be dispatched and the lifecycle's stages.
  const adminList = await json(t, "/api/surveys?pageSize=20", adminCookie);
  const statuses = new Set(adminList.surveys.map((s: { status: string }) => s.status));
  for (const status of stages) assert(statuses.has(status), `admin: no ${status}`);
  await page(t, `/survey/${delivered.id}`, adminCookie);
  t.close();
});

test("[seed] a failing lifecycle step leaves no demo data behind", async () => {
  const t = await createTestApp();
  const broken: StorageProvider = {
    ...t.deps.storage,
    put: () => Promise.reject(new Error("disk full")),
  };
  let error: unknown;
  try {
    await runSeedCli(["--demo", "--surveyors", "120"], {
      sql: t.sql,
      output: { out: () => {}, err: () => {} },
      storage: broken,
    });
  } catch (err) {
    error = err;
  }
  assertEquals((error as Error)?.message, "disk full");
  const c = await counts(t);
  assertEquals([c.users, c.surveyors, c.surveys], [0, 0, 0]);
  const [{ outbox }] = await t.sql<{ outbox: number }[]>`
    select count(*)::int as outbox from email_outbox`;
  assertEquals(outbox, 0);
  // And the seed can run again at once.
  assertEquals((await seed(t, "--demo", "--surveyors", "120")).code, 0);
  t.close();
});

test("[seed] refuses a database with a real user and changes nothing", async () => {
  const t = await createTestApp();
  await createUser(t.sql, { role: "client", email: "real@example.com" });
  const r = await seed(t, "--demo");
  assertEquals(r.code, 1);
  assertEquals(
    r.err,
    "This database has real data (1 user, 0 surveyor records not made by the demo seed); " +
      "`deno task seed --demo` only fills an empty database.",
  );
  assertEquals(r.out, "");
  const c = await counts(t);
  assertEquals([c.users, c.surveyors, c.surveys], [1, 0, 0]);
  // --reset-demo does not get around it.
  assertEquals((await seed(t, "--demo", "--reset-demo")).code, 1);
  assertEquals((await counts(t)).users, 1);
  t.close();
});

test("[seed] a second run refuses; --reset-demo replaces the demo network", async () => {
  const t = await createTestApp();
  const first = await seed(t, "--demo", "--surveyors", "120");
  assertEquals(first.code, 0, first.err);
  const oldAdmin = passwordOf(first.out, "admin@demo.meridian.invalid");
  const again = await seed(t, "--demo");
  assertEquals(again.code, 1);
  assertEquals(
    again.err,
    "This database already has the demo network (11 demo accounts, 120 demo surveyors). " +
      "Run `deno task seed --demo --reset-demo` to replace it.",
  );
  assertEquals((await counts(t)).surveyors, 120);

  const reset = await seed(t, "--demo", "--reset-demo", "--seed", "7");
  assertEquals(reset.code, 0, reset.err);
  assertStringIncludes(reset.out, "Removed the earlier demo network (11 accounts, 120 surveyors).");
  const c = await counts(t);
  assertEquals([c.users, c.surveyors, c.surveys], [11, 400, 12]);
  // Nothing of the first network's lifecycle is left: one delivered job, its files, one review.
  const [left] = await t.sql<{ deliverables: number; reviews: number; completed: number }[]>`
    select (select count(*)::int from survey_files where kind = 'deliverable') as deliverables,
      (select count(*)::int from surveyor_reviews) as reviews,
      (select count(*)::int from surveys where status = 'completed') as completed`;
  assertEquals(left, { deliverables: 1, reviews: 1, completed: 1 });
  const newAdmin = passwordOf(reset.out, "admin@demo.meridian.invalid");
  assert(newAdmin !== oldAdmin, "the new accounts get new passwords");
  const login = await t.request("POST", "/api/login", {
    body: { identifier: "admin@demo.meridian.invalid", password: oldAdmin },
  });
  assertEquals(login.status, 401);
  await login.body?.cancel();
  await signIn(t, { identifier: "admin@demo.meridian.invalid", password: newAdmin });
  t.close();
});

test("[seed] bad usage exits 2 with the usage text and stores nothing", async () => {
  const t = await createTestApp();
  const cases: [string[], string][] = [
    [[], "Missing --demo"],
    [["--demo", "--seed", "x"], "--seed must be a whole number"],
    [["--demo", "--seed", "0"], "--seed must be a whole number"],
    [["--demo", "--surveyors", "50000"], "--surveyors must be a whole number from 60 to 5000"],
    [["--demo", "--real"], "Unknown option"],
    [["--demo", "extra"], "positional"],
  ];
  for (const [args, message] of cases) {
    const r = await seed(t, ...args);
    assertEquals(r.code, 2, args.join(" "));
    assertStringIncludes(r.err, message);
    assertStringIncludes(r.err, "Usage:");
  }
  assertEquals((await seed(t, "--help")).code, 0);
  assertEquals((await counts(t)).users, 0);
  t.close();
});

async function task(dataDir: string, name: string, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: await taskArgs(name, ...args),
    cwd: new URL("../../", import.meta.url),
    env: { DATA_DIR: dataDir, DATABASE_URL: "", KV_PATH: "", NODE_ENV: "test" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, out: decode(out.stdout), err: decode(out.stderr) };
}

embeddedTest(
  "[seed] `deno task seed --demo` works end to end on the embedded database",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "meridian-seed-" });
    const real = await Deno.makeTempDir({ prefix: "meridian-seed-real-" });
    try {
      const first = await task(dir, "seed", "--demo");
      assertEquals(first.code, 0, first.err);
      assertMatch(first.out, /admin\s+admin@demo\.meridian\.invalid\s+[A-Za-z0-9_-]{20}/);
      assertStringIncludes(first.out, "400 surveyor firms");
      const second = await task(dir, "seed", "--demo");
      assertEquals(second.code, 1);
      assertStringIncludes(second.err, "already has the demo network");

      const created = await task(
        real,
        "user",
        "create",
        "--role",
        "admin",
        "--email",
        "ops@example.com",
        "--name",
        "Ops",
      );
      assertEquals(created.code, 0, created.err);
      const refused = await task(real, "seed", "--demo");
      assertEquals(refused.code, 1);
      assertStringIncludes(refused.err, "This database has real data (1 user,");
    } finally {
      await Deno.remove(dir, { recursive: true });
      await Deno.remove(real, { recursive: true });
    }
  },
);
