import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createUser, signIn } from "../_auth.ts";
import { runSeedCli } from "../../lib/cli/seed.ts";

async function seed(t: TestApp, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runSeedCli(args, {
    sql: t.sql,
    output: { out: (l) => out.push(l), err: (l) => err.push(l) },
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
    users: 10,
    demoUsers: 10,
    surveyors: 400,
    demoSurveyors: 400,
    linked: 5,
    history: c.history,
    surveys: 8,
    events: 8,
  });
  assert(c.history > 300, `history: ${c.history}`);

  // Every account is a demo account at the demo domain with a password printed once.
  const accounts = await t.sql<{ email: string; role: string }[]>`
    select email, role from users order by role, email`;
  for (const a of accounts) assertMatch(a.email, /@demo\.meridian\.invalid$/);
  const password = passwordOf(r.out, "admin@demo.meridian.invalid");
  const cookie = await signIn(t, { identifier: "admin@demo.meridian.invalid", password });
  const list = await t.request("GET", "/api/surveys?pageSize=20", { cookie });
  assertEquals(list.status, 200);
  const body = await list.json();
  assertEquals(body.total, 8);
  // Requests are stored as the app stores a submission: priced, in status requested.
  for (const s of body.surveys) {
    assertEquals(s.status, "requested");
    if (s.surveyType !== "subdivision") assert(s.quotedPriceCents > 0, JSON.stringify(s));
  }

  // The linked accounts are surveyors of active in-network firms.
  const linked = await t.sql<{ role: string; status: string; inNetwork: boolean }[]>`
    select u.role, s.status, s.in_network from surveyors s join users u on u.id = s.user_id`;
  assertEquals(linked.length, 5);
  for (const l of linked) {
    assertEquals([l.role, l.status, l.inNetwork], ["surveyor", "active", true]);
  }
  // History is written by the demo admin.
  const [{ authors }] = await t.sql<{ authors: string[] }[]>`
    select array_agg(distinct u.email) as authors
    from surveyor_contact_history h join users u on u.id = h.author_id`;
  assertEquals(authors, ["admin@demo.meridian.invalid"]);
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
    "This database already has the demo network (10 demo accounts, 120 demo surveyors). " +
      "Run `deno task seed --demo --reset-demo` to replace it.",
  );
  assertEquals((await counts(t)).surveyors, 120);

  const reset = await seed(t, "--demo", "--reset-demo", "--seed", "7");
  assertEquals(reset.code, 0, reset.err);
  assertStringIncludes(reset.out, "Removed the earlier demo network (10 accounts, 120 surveyors).");
  const c = await counts(t);
  assertEquals([c.users, c.surveyors, c.surveys, c.events], [10, 400, 8, 8]);
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

async function task(dataDir: string, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", ...args],
    cwd: new URL("../../", import.meta.url),
    env: { DATA_DIR: dataDir, DATABASE_URL: "", KV_PATH: "", NODE_ENV: "test" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, out: decode(out.stdout), err: decode(out.stderr) };
}

test("[seed] `deno task seed --demo` works end to end on the embedded database", async () => {
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
});
