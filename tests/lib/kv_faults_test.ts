import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createUser, sessionCookieFrom, signIn } from "../_auth.ts";
import { faultyKv, type KvFault, LOCKED_MESSAGE, lockKvFile } from "../_kv_faults.ts";
import { KV_CONCURRENCY, openKv, withKv } from "../../db/kv.ts";
import { createSession, sessionCookie, USER_SESSION_TIMEOUTS } from "../../lib/sessions.ts";
import {
  RETRY_AFTER_SECONDS,
  ServiceUnavailableError,
  UNAVAILABLE_MESSAGE,
} from "../../lib/unavailable.ts";

/** Asserts the clean 503 every KV outage gets, and that it sets no cookie. */
async function assertUnavailable(res: Response, what: string): Promise<void> {
  assertEquals(res.status, 503, `${what}: ${await res.clone().text()}`);
  assertEquals(res.headers.get("retry-after"), String(RETRY_AFTER_SECONDS), what);
  assertEquals(res.headers.getSetCookie(), [], `${what} sets no cookie`);
  assert(res.headers.get("content-type")?.startsWith("application/json"), what);
  assertEquals(await res.json(), { message: UNAVAILABLE_MESSAGE }, what);
}

/** Runs `fn`, which must fail with ServiceUnavailableError("kv"); returns that error. */
async function unavailable(fn: () => Promise<unknown>): Promise<ServiceUnavailableError> {
  const err = await assertRejects(fn);
  assert(err instanceof ServiceUnavailableError, `expected a 503 error, got ${err}`);
  assertEquals(err.dependency, "kv");
  return err;
}

function locked(): Promise<never> {
  return Promise.reject(new TypeError(LOCKED_MESSAGE));
}

Deno.test("[kv] withKv tries a locked file again and returns the later answer", async () => {
  const kv = await openKv(":memory:");
  let calls = 0;
  const value = await withKv(kv, () => ++calls < 3 ? locked() : Promise.resolve("done"));
  assertEquals([value, calls], ["done", 3]);
  kv.close();
});

Deno.test("[kv] withKv gives up on a file that stays locked with ServiceUnavailableError", async () => {
  const kv = await openKv(":memory:");
  let calls = 0;
  const err = await unavailable(() => withKv(kv, () => (calls++, locked()), { budgetMs: 300 }));
  assertEquals((err.cause as Error).message, LOCKED_MESSAGE);
  assert(calls >= 2, `tried ${calls} times`);
  kv.close();
});

Deno.test("[kv] withKv passes other errors through at once", async () => {
  const kv = await openKv(":memory:");
  let calls = 0;
  const err = await assertRejects(() =>
    withKv(kv, () => (calls++, Promise.reject(new TypeError("Key too large for write"))))
  );
  assert(err instanceof TypeError && err.message === "Key too large for write", String(err));
  assertEquals(calls, 1);
  kv.close();
});

Deno.test("[kv] a call that does not answer is a 503, and later calls wait for it", async () => {
  const kv = await openKv(":memory:");
  const stuck = Promise.withResolvers<string>();
  const err = await unavailable(() => withKv(kv, () => stuck.promise, { budgetMs: 50 }));
  // The 503 names its cause in the server's log: the timeout, not a KV error there was none of.
  assertEquals((err.cause as Error).message, "KV did not answer within 50 ms");
  let ran = false;
  // While the first call is still waiting on KV, a new one is not queued behind it for ever.
  await unavailable(() => withKv(kv, () => (ran = true, Promise.resolve(1)), { budgetMs: 50 }));
  assertEquals(ran, false);
  stuck.resolve("late");
  assertEquals(await withKv(kv, () => Promise.resolve("next"), { budgetMs: 1000 }), "next");
  kv.close();
});

Deno.test("[kv] calls in flight together each keep their own deadline", async () => {
  const kv = await openKv(":memory:");
  const later = (ms: number, value: string) =>
    new Promise<string>((resolve) => setTimeout(() => resolve(value), ms));
  const stuck = Promise.withResolvers<string>();
  // Started together: the short one times out first, the long ones still answer after it.
  const short = unavailable(() => withKv(kv, () => stuck.promise, { budgetMs: 40 }));
  const slow = withKv(kv, () => later(150, "slow"), { budgetMs: 1000 });
  const quick = withKv(kv, () => later(10, "quick"), { budgetMs: 1000 });
  assertEquals(await quick, "quick");
  await short;
  assertEquals(await slow, "slow");
  stuck.resolve("late");
  assertEquals(await withKv(kv, () => Promise.resolve("next"), { budgetMs: 1000 }), "next");
  kv.close();
});

Deno.test("[kv] a call's budget counts the call itself, not its wait behind a burst of others", async () => {
  const kv = await openKv(":memory:");
  // Deno KV on a file answers one operation at a time: model that with a serial chain, and
  // fill every turn with calls held behind a slow first one.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = chain.then(work);
    chain = run.catch(() => {});
    return run;
  };
  const slow = Promise.withResolvers<void>();
  const burst = Array.from(
    { length: KV_CONCURRENCY },
    (_, i) => withKv(kv, () => serial(() => i === 0 ? slow.promise : Promise.resolve())),
  );
  // Its own operation is quick; it only has to wait its turn, longer than its 50 ms budget.
  const mine = withKv(kv, () => serial(() => Promise.resolve("mine")), { budgetMs: 50 });
  await new Promise((resolve) => setTimeout(resolve, 200));
  slow.resolve();
  assertEquals(await mine, "mine");
  await Promise.all(burst);
  kv.close();
});

Deno.test("[kv] a call whose answer came while the process was too busy to look is not a timeout", async () => {
  const kv = await openKv(":memory:");
  // The call answers after 150 ms; its budget is 100 ms; the process is busy for 300 ms
  // from the start, so both timers are overdue when it looks again. The answer is there.
  const call = withKv(
    kv,
    () => new Promise<string>((resolve) => setTimeout(() => resolve("answered"), 150)),
    { budgetMs: 100 },
  );
  const busyUntil = Date.now() + 300;
  while (Date.now() < busyUntil) { /* a long synchronous render, a starved CPU */ }
  assertEquals(await call, "answered");
  kv.close();
});

Deno.test("[kv] calls one at a time share one deadline timer instead of arming one each", async () => {
  const kv = await openKv(":memory:");
  const real = globalThis.setTimeout;
  let armed = 0;
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    armed++;
    return real(...args);
  }) as typeof setTimeout;
  try {
    for (let i = 0; i < 20; i++) await withKv(kv, () => kv.get(["one at a time", i]));
  } finally {
    globalThis.setTimeout = real;
    kv.close();
  }
  // One timer armed, at most (none if an earlier test's is still armed for a sooner deadline).
  assert(armed <= 1, `${armed} timers armed for 20 calls`);
});

Deno.test("[kv] a call that never answers still gets its 503 when nothing else keeps the process up", async () => {
  const kv = await openKv(":memory:");
  // The first call leaves the shared timer armed for its own (short) deadline and unref'd; the
  // stuck call's deadline is later, so it arms nothing and must ref that timer again, or deno
  // would have nothing left to wait for.
  await withKv(kv, () => kv.get(["before"]), { budgetMs: 20 });
  const never = new Promise<never>(() => {});
  await unavailable(() => withKv(kv, () => never, { budgetMs: 100 }));
  kv.close();
});

async function faultyApp(fault: (key: Deno.KvKey, write: boolean) => KvFault) {
  const inner = await openKv(":memory:");
  let current: typeof fault = () => null;
  const t = await createTestApp({ deps: { kv: faultyKv(inner, (k, w) => current(k, w)) } });
  return {
    t,
    inner,
    /** Turns the fault on. */
    break() {
      current = fault;
    },
    /** Turns the fault off again. */
    heal() {
      current = () => null;
    },
    close() {
      t.close();
      inner.close();
    },
  };
}

const sessionKeys = (key: Deno.KvKey) => key[0] === "sessions" || key[0] === "sessions_by_user";

test("[kv] sign-in answers 503 and sets no cookie when its session cannot be stored", async () => {
  const app = await faultyApp((key, write) => write && sessionKeys(key) ? "locked" : null);
  const user = await createUser(app.t.sql, { role: "client" });
  app.break();
  const res = await app.t.request("POST", "/api/login", {
    body: { identifier: user.email, password: user.password },
  });
  await assertUnavailable(res, "login");
  assertEquals(await Array.fromAsync(app.inner.list({ prefix: ["sessions"] })), []);
  app.close();
});

test("[kv] registration answers 503 and sets no cookie when its session cannot be stored", async () => {
  const app = await faultyApp((key, write) => write && sessionKeys(key) ? "locked" : null);
  app.break();
  const res = await app.t.request("POST", "/api/register", {
    body: { email: "new@example.com", password: "a long enough password", fullName: "New" },
  });
  await assertUnavailable(res, "register");
  // Nothing half-made: no account is left to meet the retry with "already exists".
  const [{ n }] = await app.t.sql`select count(*)::int as n from users`;
  assertEquals(n, 0);
  app.heal();
  const retry = await app.t.request("POST", "/api/register", {
    body: { email: "new@example.com", password: "a long enough password", fullName: "New" },
  });
  assertEquals(retry.status, 201, await retry.clone().text());
  app.close();
});

test("[kv] a password change whose old sessions cannot be ended is a 503 and changes nothing", async () => {
  const app = await faultyApp((key, write) => write && key[0] === "sessions" ? "locked" : null);
  const user = await createUser(app.t.sql, { role: "client" });
  const cookie = await signIn(app.t, { identifier: user.email, password: user.password });
  // A second browser, whose session the change has to end.
  await signIn(app.t, { identifier: user.email, password: user.password });
  app.break();
  const res = await app.t.request("POST", "/api/user/password", {
    cookie,
    body: { currentPassword: user.password, newPassword: "a brand new password 42" },
  });
  await assertUnavailable(res, "password change");
  app.heal();
  // The old password still works and the new one does not: the change rolled back.
  await signIn(app.t, { identifier: user.email, password: user.password });
  const refused = await app.t.request("POST", "/api/login", {
    body: { identifier: user.email, password: "a brand new password 42" },
  });
  assertEquals(refused.status, 401);
  app.close();
});

test("[kv] disabling a user whose sessions cannot be ended is a 503 and leaves the account", async () => {
  const app = await faultyApp((key, write) =>
    write && key[0] === "sessions_by_user" ? "locked" : null
  );
  const admin = await createUser(app.t.sql, { role: "admin" });
  const adminCookie = await signIn(app.t, { identifier: admin.email, password: admin.password });
  const target = await createUser(app.t.sql, { role: "client" });
  await signIn(app.t, { identifier: target.email, password: target.password });
  app.break();
  const res = await app.t.request("POST", `/api/admin/users/${target.id}/disable`, {
    cookie: adminCookie,
  });
  await assertUnavailable(res, "disable");
  const [row] = await app.t.sql`select disabled_at from users where id = ${target.id}`;
  assertEquals(row.disabledAt, null);
  app.close();
});

test("[kv] a signed-in request whose session cannot be read answers 503, not signed out", async () => {
  const app = await faultyApp((key, write) => !write && sessionKeys(key) ? "locked" : null);
  const user = await createUser(app.t.sql, { role: "client" });
  const cookie = await signIn(app.t, { identifier: user.email, password: user.password });
  app.break();
  await assertUnavailable(await app.t.request("POST", "/api/logout", { cookie }), "logout");
  await assertUnavailable(
    await app.t.request("PATCH", "/api/user", { cookie, body: { fullName: "Changed" } }),
    "profile update",
  );
  await assertUnavailable(await app.t.request("GET", "/api/user", { cookie }), "who am I");
  // A page: the session is read in the front door's own frame (routes/_front_door.ts), and its
  // 503 still leaves with the request id and the security headers every answer carries.
  const page = await app.t.request("GET", "/client-dashboard", {
    cookie,
    headers: { accept: "text/html" },
  });
  assertEquals(page.status, 503, "the dashboard");
  assertEquals(page.headers.get("retry-after"), String(RETRY_AFTER_SECONDS));
  assertEquals(page.headers.getSetCookie(), [], "the cookie is kept");
  assert(page.headers.get("x-request-id"), "the request id");
  assert(page.headers.get("content-security-policy"), "the security headers");
  assert(page.headers.get("cache-control")?.includes("no-store"), "never kept");
  await page.body?.cancel();
  const [row] = await app.t.sql`select full_name from users where id = ${user.id}`;
  assertEquals(row.fullName, user.fullName, "nothing was written as anyone");
  app.close();
});

test("[kv] a session that is read but cannot be refreshed still serves the request", async () => {
  const app = await faultyApp((key, write) => write && sessionKeys(key) ? "locked" : null);
  const user = await createUser(app.t.sql, { role: "client" });
  // Last seen two minutes ago, so this request would refresh it.
  const { id } = await createSession(app.inner, {
    userId: user.id,
    ip: "127.0.0.1",
    userAgent: "tests",
    timeouts: USER_SESSION_TIMEOUTS,
    now: Date.now() - 2 * 60_000,
  });
  app.break();
  const cookie = `${sessionCookie(app.t.deps.config).name}=${id}`;
  const res = await app.t.request("GET", "/api/user", { cookie });
  assertEquals(res.status, 200);
  assertEquals((await res.json()).id, user.id);
  app.close();
});

test("[kv] an attempt that cannot be counted against its rate limit is refused with 503", async () => {
  const app = await faultyApp((key, write) => write && key[0] === "rate_limits" ? "locked" : null);
  const user = await createUser(app.t.sql, { role: "client" });
  app.break();
  const res = await app.t.request("POST", "/api/login", {
    body: { identifier: user.email, password: user.password },
  });
  await assertUnavailable(res, "rate-limited login");
  app.close();
});

async function login(t: TestApp, user: { email: string; password: string }) {
  return await t.request("POST", "/api/login", {
    body: { identifier: user.email, password: user.password },
  });
}

test("[kv] a KV file locked by another process: 503s and an honest /readyz, then recovery", async () => {
  const dir = await Deno.makeTempDir({ prefix: "meridian-kv-lock-" });
  const path = `${dir}/kv.sqlite3`;
  const kv = await openKv(path);
  const t = await createTestApp({ deps: { kv } });
  try {
    const user = await createUser(t.sql, { role: "client" });
    const cookie = await signIn(t, { identifier: user.email, password: user.password });
    const holder = await lockKvFile(path);
    try {
      await assertUnavailable(await login(t, user), "login while locked");
      const ready = await t.request("GET", "/readyz");
      assertEquals(ready.status, 503);
      assertEquals(await ready.json(), {
        status: "unavailable",
        checks: { postgres: true, kv: false },
      });
      await assertUnavailable(await t.request("POST", "/api/logout", { cookie }), "logout");
    } finally {
      await holder.release();
    }
    // Nothing restarted: the same process and KV handle answer again once the lock is gone.
    const again = await login(t, user);
    assertEquals(again.status, 200, await again.clone().text());
    assert(sessionCookieFrom(t, again));
    const ready = await t.request("GET", "/readyz");
    assertEquals(ready.status, 200);
    assertEquals((await ready.json()).checks, { postgres: true, kv: true });
    const out = await t.request("POST", "/api/logout", { cookie });
    assertEquals(out.status, 200, "the session from before the lock is still good");
  } finally {
    t.close();
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
