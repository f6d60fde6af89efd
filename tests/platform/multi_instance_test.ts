/**
 * Issue 13, the app is stateless: two real server processes on one Postgres database and one
 * KV file, behind nginx (round-robin, TRUST_PROXY=1), behave as one instance. A session made
 * on one instance works on the other, a rate limit counts requests to both, public page
 * caches agree, a dispatch job is done exactly once, and two instances starting at once on an
 * empty database migrate it once.
 *
 * Needs Postgres (DATABASE_URL; embedded PGlite has one writer) and nginx; ignored without
 * them, except that REQUIRE_E2E=1 (CI) turns a missing nginx into a failure. CI runs this file
 * in its multi-instance stage (E2E_INSTANCES=2), beside the end-to-end suite through nginx.
 */
import postgres from "postgres";
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, type TestApp } from "../_helpers.ts";
import { createUser, sessionFor, TEST_PASSWORD } from "../_auth.ts";
import { surveyRequest } from "../_fixtures.ts";
import { addMarketSurveyor } from "../_lead_fixtures.ts";
import { readMigrations } from "../../db/migrate.ts";
import { insertSurveyor } from "../../db/surveyors.ts";
import {
  type Cluster,
  freePort,
  NginxPortTakenError,
  nginxPresent,
  startCluster,
  startInstance,
  startNginx,
} from "../e2e/_multi_instance.ts";

const DATABASE_URL = Deno.env.get("DATABASE_URL") || undefined;
const hasNginx = nginxPresent() || Deno.env.get("REQUIRE_E2E") === "1";

/** Deno.test for this file: the shared test database outlives each test. */
function multiTest(name: string, needsNginx: boolean, fn: () => Promise<void>): void {
  Deno.test({
    name: `[multi-instance] ${name}`,
    ignore: !DATABASE_URL || (needsNginx && !hasNginx),
    sanitizeResources: false,
    sanitizeOps: false,
    fn,
  });
}

/**
 * Runs `fn` against two instances behind nginx on the test database (emptied first) and a
 * fresh KV file, with `t` on the same database and KV for fixtures and checks.
 */
async function withCluster(
  fn: (ctx: { t: TestApp; cluster: Cluster }) => Promise<void>,
  env: Record<string, string> = {},
): Promise<void> {
  const nginxPort = freePort();
  const origin = `http://127.0.0.1:${nginxPort}`;
  const kvDir = await Deno.makeTempDir({ prefix: "meridian-multi-kv-" });
  const kvPath = `${kvDir}/kv.sqlite3`;
  const t = await createTestApp({ env: { PUBLIC_URL: origin, ...env }, kvPath });
  try {
    const cluster = await startCluster({ nginxPort, env: { KV_PATH: kvPath, ...env } });
    try {
      await fn({ t, cluster });
    } finally {
      await cluster.stop();
    }
  } finally {
    t.close();
    await Deno.remove(kvDir, { recursive: true }).catch(() => {});
  }
}

/** A JSON request from the site's own pages (same Origin as PUBLIC_URL) to `url`. */
function send(
  origin: string,
  url: string,
  { method = "POST", body, cookie }: { method?: string; body?: unknown; cookie?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { origin };
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers["content-type"] = "application/json";
  return fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

multiTest(
  "a session made on one instance works on the other, and signing out on that one ends it on both",
  true,
  () =>
    withCluster(async ({ cluster }) => {
      const [a, b] = cluster.instances;
      const email = `multi-${crypto.randomUUID()}@example.com`;
      const registered = await send(cluster.origin, `${a.origin}/api/register`, {
        body: { email, password: TEST_PASSWORD, fullName: "Morgan Multi" },
      });
      assertEquals(registered.status, 201, await registered.clone().text());
      await registered.body?.cancel();
      const cookie = registered.headers.get("set-cookie")?.split(";")[0];
      assert(cookie, "no session cookie from instance A");

      const onB = await fetch(`${b.origin}/api/user`, { headers: { cookie } });
      assertEquals(onB.status, 200);
      assertEquals((await onB.json()).email, email);

      const loggedOut = await send(cluster.origin, `${b.origin}/api/logout`, { cookie });
      assertEquals(loggedOut.status, 200);
      await loggedOut.body?.cancel();
      const onA = await fetch(`${a.origin}/api/user`, { headers: { cookie } });
      assertEquals(onA.status, 401);
      await onA.body?.cancel();
    }),
);

multiTest(
  "a rate limit counts the requests both instances answered",
  true,
  () =>
    withCluster(async ({ cluster }) => {
      // Ten failed sign-ins from one address (a different unknown email each time, so only the
      // per-address limit of 10 per 3 minutes can trip), round-robin across the instances.
      for (let i = 0; i < 10; i++) {
        const res = await send(cluster.origin, `${cluster.origin}/api/login`, {
          body: { identifier: `nobody-${i}@example.com`, password: "not the password" },
        });
        assertEquals(res.status, 401, `attempt ${i + 1}`);
        await res.body?.cancel();
      }
      // nginx writes a request's log line just after sending its answer: wait for the tenth.
      const logged = async () =>
        (await cluster.nginx.accessLog()).filter((l) => l.path === "/api/login");
      for (const deadline = Date.now() + 5000; (await logged()).length < 10;) {
        assert(Date.now() < deadline, "nginx logged fewer than 10 sign-ins within 5 s");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const perInstance = (await logged()).reduce(
        (counts, line) => counts.set(line.upstream, (counts.get(line.upstream) ?? 0) + 1),
        new Map<string, number>(),
      );
      assertEquals(
        cluster.instances.map((i) => perInstance.get(`127.0.0.1:${i.port}`)),
        [5, 5],
        "nginx alternates between the instances",
      );
      // Each instance saw 5: only a count shared through KV reaches the limit.
      const limited = await send(cluster.origin, `${cluster.origin}/api/login`, {
        body: { identifier: "nobody-11@example.com", password: "not the password" },
      });
      assertEquals(limited.status, 429);
      assertMatch(limited.headers.get("retry-after") ?? "", /^\d+$/);
      assertEquals(
        (await limited.json()).message,
        "Too many login attempts. Please try again in 3 minutes.",
      );
    }),
);

multiTest(
  "both instances serve a cached public page with the same ETag",
  true,
  () =>
    withCluster(async ({ cluster }) => {
      const [a, b] = cluster.instances;
      for (const path of ["/", "/about"]) {
        const first = await fetch(`${a.origin}${path}`);
        const html = await first.text();
        // The second request is answered from each instance's page cache.
        const fromA = await fetch(`${a.origin}${path}`);
        const fromB = await fetch(`${b.origin}${path}`);
        assertEquals([first.status, fromA.status, fromB.status], [200, 200, 200], path);
        assertEquals(await fromB.text(), html, path);
        await fromA.body?.cancel();
        const etag = fromA.headers.get("etag");
        assert(etag, path);
        assertEquals(fromB.headers.get("etag"), etag, path);
        // A browser revalidating through nginx gets its 304 from whichever instance answers.
        for (let i = 0; i < 2; i++) {
          const revalidated = await fetch(`${cluster.origin}${path}`, {
            headers: { "if-none-match": etag },
          });
          assertEquals(revalidated.status, 304, path);
          await revalidated.body?.cancel();
        }
      }
    }),
);

multiTest(
  "both instances drop a cached local page the moment the firm covering its town leaves",
  true,
  () =>
    withCluster(async ({ t, cluster }) => {
      const [a, b] = cluster.instances;
      const path = "/land-surveyors/tx/austin";
      const firm = await insertSurveyor(t.sql, {
        companyName: "Barton Creek Surveying",
        status: "active",
        licenseStates: ["TX"],
        lat: 30.27,
        lng: -97.74,
        serviceRadiusMiles: 30,
      });
      const statuses = async () => {
        const out: number[] = [];
        for (const i of [a, b, a, b]) {
          const res = await fetch(`${i.origin}${path}`);
          await res.body?.cancel();
          out.push(res.status);
        }
        return out;
      };
      // Built on each instance, then served from each one's cache.
      assertEquals(await statuses(), [200, 200, 200, 200]);
      await t.sql`update surveyors set status = 'paused' where id = ${firm.id}`;
      assertEquals(await statuses(), [404, 404, 404, 404]);
      await t.sql`update surveyors set status = 'active' where id = ${firm.id}`;
      const [fromA, fromB] = [await fetch(`${a.origin}${path}`), await fetch(`${b.origin}${path}`)];
      assertEquals([fromA.status, fromB.status], [200, 200]);
      assertEquals(await fromA.text(), await fromB.text());
    }),
);

multiTest(
  "each automatic dispatch job is done exactly once by the two instances' workers",
  true,
  () =>
    withCluster(async ({ t, cluster }) => {
      const ada = await addMarketSurveyor(t, "Barton Creek Surveying", { miles: 5 });
      const ben = await addMarketSurveyor(t, "Hill Country Boundaries", { miles: 8 });
      const client = await createUser(t.sql, { role: "client", fullName: "Dana Client" });
      const cookie = await sessionFor(t, client);
      // Several requests at once through nginx, so both workers find due jobs in the same pass.
      const ids = await Promise.all(Array.from({ length: 6 }, async () => {
        const res = await send(cluster.origin, `${cluster.origin}/api/surveys`, {
          cookie,
          body: surveyRequest({ contactName: client.fullName, contactEmail: client.email }),
        });
        const body = await res.json();
        assertEquals(res.status, 201, JSON.stringify(body));
        return body.survey.id as string;
      }));
      const deadline = Date.now() + 60_000;
      for (;;) {
        const [{ pending }] = await t.sql<{ pending: number }[]>`
        select count(*)::int as pending from jobs where done_at is null and failed_at is null`;
        if (pending === 0) break;
        assert(Date.now() < deadline, `${pending} jobs still pending after 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const jobs = await t.sql<{ kind: string; attempts: number; failedAt: Date | null }[]>`
      select kind, attempts, failed_at from jobs order by id`;
      assertEquals(jobs.length, ids.length);
      for (const job of jobs) {
        assertEquals([job.kind, job.attempts, job.failedAt], ["dispatch_survey", 1, null]);
      }
      const surveys = await t.sql<{ status: string }[]>`
      select status from surveys where id in ${t.sql(ids)}`;
      assertEquals(
        surveys.map((s) => s.status),
        ids.map(() => "surveyors_notified"),
      );
      const leads = await t.sql<{ surveyId: string }[]>`
      select survey_id from leads where survey_id in ${t.sql(ids)}`;
      assertEquals(leads.length, ids.length, "one lead per request");
      const offers = await t.sql<{ userId: string; n: number }[]>`
      select user_id, count(*)::int as n from notifications
      where kind = 'lead_offered' group by user_id order by user_id`;
      assertEquals(
        [...offers],
        [ada.userId!, ben.userId!].sort().map((userId) => ({ userId, n: ids.length })),
        "each surveyor is told of each lead once",
      );
    }),
);

multiTest(
  "two instances starting at once on an empty database migrate it once",
  false,
  async () => {
    const admin = postgres(DATABASE_URL!, { max: 1, onnotice: () => {} });
    const name = `${new URL(DATABASE_URL!).pathname.slice(1)}_mi_${
      crypto.randomUUID().slice(0, 8)
    }`;
    // As an operator hands one out: from template0, owned by the role the instances run as.
    await admin.unsafe(`create database "${name}" template template0`);
    try {
      const url = new URL(DATABASE_URL!);
      url.pathname = `/${name}`;
      const started = await Promise.allSettled(
        [0, 1].map(() =>
          startInstance({ DATABASE_URL: url.href, KV_PATH: "", NODE_ENV: "production" })
        ),
      );
      const servers = started.flatMap((s) => s.status === "fulfilled" ? [s.value] : []);
      try {
        for (const s of started) if (s.status === "rejected") throw s.reason;
        const outputs = servers.map((s) => s.output());
        const migrations = await readMigrations();
        const versions = migrations.map((m) => m.version);
        // One instance applied everything while the other waited on the advisory lock and then
        // found nothing left to do; neither printed an error.
        const appliedLines = outputs.flatMap((o) => o.match(/^Applied migrations .*$/gm) ?? []);
        assertEquals(
          appliedLines,
          [`Applied migrations ${versions.join(", ")}`],
          outputs.join("\n"),
        );
        for (const output of outputs) {
          assert(!/error/i.test(output), output);
          assertMatch(output, /Meridian listening on .* \(postgres, production\)/);
        }
        const db = postgres(url.href, { max: 1, onnotice: () => {} });
        try {
          const rows = await db<{ version: number; name: string }[]>`
          select version, name from schema_migrations order by version`;
          assertEquals([...rows], migrations.map(({ version, name }) => ({ version, name })));
          // Both serve the migrated database.
          for (const server of servers) {
            const res = await fetch(`${server.origin}/readyz`);
            assertEquals(res.status, 200, await res.text());
          }
        } finally {
          await db.end();
        }
        const codes = await Promise.all(servers.map((s) => s.stop()));
        assertEquals(codes, [0, 0], "both shut down cleanly");
      } finally {
        await Promise.all(servers.map((s) => s.stop()));
      }
    } finally {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  },
);

multiTest(
  "nginx whose port another process took in the meantime is not mistaken for it",
  true,
  async () => {
    // The cluster picks nginx's port free before its instances start; a test's server that
    // takes the port in those seconds answered the whole test instead of nginx once.
    const squatter = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => new Response("not nginx"),
    );
    try {
      const err = await startNginx(squatter.addr.port, [freePort()]).then(
        (nginx) => nginx.stop().then(() => undefined),
        (err) => err,
      );
      assert(err instanceof NginxPortTakenError, `nginx started: ${err}`);
    } finally {
      await squatter.shutdown();
    }
  },
);
