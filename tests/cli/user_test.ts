import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, signIn } from "../_auth.ts";
import { runUserCli } from "../../lib/cli/user.ts";
import { getUserByEmail } from "../../db/users.ts";
import { listAuditEvents } from "../../db/audit.ts";
import { openDatabase } from "../../db/client.ts";
import { migrate } from "../../db/migrate.ts";
import { lockPath, readHolder } from "../../db/embedded.ts";

async function cli(t: TestApp, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runUserCli(args, {
    sql: t.sql,
    kv: t.kv,
    output: { out: (l) => out.push(l), err: (l) => err.push(l) },
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

async function userCount(t: TestApp): Promise<number> {
  return (await t.sql`select count(*)::int as n from users`)[0].n;
}

test("[cli] create without --password prints a generated one that signs in", async () => {
  const t = await createTestApp();
  const r = await cli(
    t,
    "create",
    "--role",
    "admin",
    "--email",
    "Ops@Example.com",
    "--name",
    "Ops Admin",
  );
  assertEquals(r.code, 0, r.err);
  assertMatch(r.out, /^Created admin Ops@Example.com \(id [0-9a-f-]{36}\)\./);
  const password = /Generated password: (\S+)/.exec(r.out)?.[1];
  assert(password && password.length >= 20, r.out);
  const user = await getUserByEmail(t.sql, "ops@example.com");
  assertEquals([user?.role, user?.fullName, user?.username], [
    "admin",
    "Ops Admin",
    "Ops@Example.com",
  ]);
  await signIn(t, { identifier: "ops@example.com", password });
  const [event] = await listAuditEvents(t.sql, { userId: user!.id, event: "user_created" });
  assertEquals(event.details, { role: "admin", via: "cli" });
  assert(!JSON.stringify(event).includes(password));
  t.close();
});

test("[cli] create with --password uses it and does not print it", async () => {
  const t = await createTestApp();
  const r = await cli(
    t,
    "create",
    "--role",
    "surveyor",
    "--email",
    "sv@example.com",
    "--name",
    "Sam Surveyor",
    "--password",
    "chosen-secret",
    "--company",
    "Acme",
    "--phone",
    "555-0100",
  );
  assertEquals(r.code, 0, r.err);
  assert(!r.out.includes("chosen-secret"));
  assert(!r.out.includes("Generated password"));
  const user = await getUserByEmail(t.sql, "sv@example.com");
  assertEquals([user?.role, user?.companyName, user?.phone], ["surveyor", "Acme", "555-0100"]);
  await signIn(t, { identifier: "sv@example.com", password: "chosen-secret" });
  t.close();
});

test("[cli] a duplicate email fails with exit code 1", async () => {
  const t = await createTestApp();
  const args = ["create", "--role", "client", "--email", "dup@example.com", "--name", "Dup"];
  assertEquals((await cli(t, ...args)).code, 0);
  const again = await cli(
    t,
    "create",
    "--role",
    "admin",
    "--email",
    "DUP@example.com",
    "--name",
    "X",
  );
  assertEquals(again.code, 1);
  assertEquals(again.err, "An account with the email DUP@example.com already exists.");
  assertEquals(await userCount(t), 1);
  assertEquals((await getUserByEmail(t.sql, "dup@example.com"))?.role, "client");
  t.close();
});

test("[cli] bad usage exits 2 with the usage text and stores nothing", async () => {
  const t = await createTestApp();
  const cases: [string[], string][] = [
    [["create", "--email", "a@b.co", "--name", "A"], "Missing --role"],
    [["create", "--role", "admin", "--name", "A"], "Missing --email"],
    [["create", "--role", "admin", "--email", "a@b.co"], "Missing --name"],
    [["create", "--role", "root", "--email", "a@b.co", "--name", "A"], "--role must be one of"],
    [["create", "--role", "admin", "--email", "nope", "--name", "A"], "Not a valid email address"],
    [
      ["create", "--role", "admin", "--email", "a@b.co", "--name", "A", "--password", "12345"],
      "--password must be 6 to 128 characters",
    ],
    [
      ["create", "--role", "admin", "--email", "a@b.co", "--name", "x".repeat(10_240)],
      "--name must be",
    ],
    [["create", "--role", "admin", "--email", "a@b.co", "--name", "A", "--seed"], "Unknown option"],
    [["launch"], "Unknown command: launch"],
    [["set-role", "--email", "a@b.co"], "Missing --role"],
    [["disable"], "Missing --email"],
  ];
  for (const [args, message] of cases) {
    const r = await cli(t, ...args);
    assertEquals(r.code, 2, args.join(" "));
    assertStringIncludes(r.err, message);
    assertStringIncludes(r.err, "Usage:");
  }
  assertEquals((await cli(t)).code, 2);
  assertEquals((await cli(t, "help")).code, 0);
  assertEquals(await userCount(t), 0);
  t.close();
});

test("[cli] set-role changes the role, ends the user's sessions and is audited", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  const r = await cli(t, "set-role", "--email", user.email.toUpperCase(), "--role", "technician");
  assertEquals(r.code, 0, r.err);
  assertStringIncludes(r.out, "is now technician (was client)");
  assertEquals((await getUserByEmail(t.sql, user.email))?.role, "technician");
  const res = await t.request("GET", "/api/user", { cookie });
  assertEquals(res.status, 401);
  await res.body?.cancel();
  const [event] = await listAuditEvents(t.sql, { userId: user.id, event: "role_changed" });
  assertEquals(event.details, { from: "client", to: "technician", via: "cli" });
  const missing = await cli(t, "set-role", "--email", "ghost@example.com", "--role", "admin");
  assertEquals([missing.code, missing.err], [1, "No account with the email ghost@example.com."]);
  t.close();
});

test("[cli] disable ends sessions and blocks sign-in; enable lets the user back", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "surveyor" });
  const r = await cli(t, "disable", "--email", user.email);
  assertEquals(r.code, 0, r.err);
  assert((await getUserByEmail(t.sql, user.email))?.disabledAt);
  const me = await t.request("GET", "/api/user", { cookie });
  assertEquals(me.status, 401);
  await me.body?.cancel();
  const login = await t.request("POST", "/api/login", {
    body: { identifier: user.email, password: user.password },
  });
  assertEquals(login.status, 401);
  await login.body?.cancel();
  assertEquals(
    (await listAuditEvents(t.sql, { userId: user.id, event: "user_disabled" })).length,
    1,
  );
  assertEquals((await cli(t, "enable", "--email", user.email)).code, 0);
  await signIn(t, { identifier: user.email, password: user.password });
  assertEquals((await cli(t, "disable", "--email", "ghost@example.com")).code, 1);
  t.close();
});

test("[cli] a fresh database has no accounts: there is no seeded admin", async () => {
  const db = await openDatabase({ DATA_DIR: ".data/unused" }, { memory: true });
  try {
    await migrate(db.sql);
    assertEquals((await db.sql`select count(*)::int as n from users`)[0].n, 0);
  } finally {
    await db.close();
  }
});

test("[cli] `deno task user` works end to end on an embedded database", async () => {
  const dir = await Deno.makeTempDir({ prefix: "meridian-cli-" });
  const run = async (...args: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "user", ...args],
      cwd: new URL("../../", import.meta.url),
      env: { DATA_DIR: dir, DATABASE_URL: "", KV_PATH: "", NODE_ENV: "test" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (b: Uint8Array) => new TextDecoder().decode(b);
    return { code: out.code, out: decode(out.stdout), err: decode(out.stderr) };
  };
  try {
    const created = await run(
      "create",
      "--role",
      "admin",
      "--email",
      "root@example.com",
      "--name",
      "Root",
    );
    assertEquals(created.code, 0, created.err);
    assertMatch(created.out, /Generated password: [A-Za-z0-9_-]{20}/);
    const changed = await run("set-role", "--email", "root@example.com", "--role", "client");
    assertEquals(changed.code, 0, changed.err);
    assertStringIncludes(changed.out, "is now client (was admin)");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A real server process (`main.ts`) on an embedded DATA_DIR, listening on a free port. */
async function startServer(dataDir: string) {
  // PUBLIC_URL must be the origin the requests come from, so the port is picked up front.
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const origin = `http://127.0.0.1:${port}`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: new URL("../../", import.meta.url),
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      KV_PATH: "",
      PORT: String(port),
      PUBLIC_URL: origin,
      NODE_ENV: "test",
      LOG_REQUESTS: "0",
    },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("Meridian listening on")) {
    const chunk = await lines.read();
    if (chunk.done) throw new Error(`the server exited before listening:\n${seen}`);
    seen += chunk.value;
  }
  // Keep reading so the server never blocks on a full pipe.
  const drained = (async () => {
    while (!(await lines.read()).done);
  })();
  return {
    pid: child.pid,
    login(identifier: string, password: string) {
      return fetch(`${origin}/api/login`, {
        method: "POST",
        headers: { origin, "content-type": "application/json" },
        body: JSON.stringify({ identifier, password }),
      });
    },
    async stop(signal: Deno.Signal) {
      child.kill(signal);
      const status = await child.status;
      await drained;
      return status;
    },
  };
}

async function runUserTask(dataDir: string, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "user", ...args],
    cwd: new URL("../../", import.meta.url),
    env: { DATA_DIR: dataDir, DATABASE_URL: "", KV_PATH: "", NODE_ENV: "test" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, out: decode(out.stdout), err: decode(out.stderr) };
}

async function isLockFree(dataDir: string): Promise<boolean> {
  using file = await Deno.open(lockPath(dataDir), { read: true, write: true });
  const free = await file.tryLock(true);
  if (free) await file.unlock();
  return free;
}

test("[cli] `deno task user` works while the server runs; the server signs the user in", async () => {
  const dir = await Deno.makeTempDir({ prefix: "meridian-cli-live-" });
  const email = "live@example.com";
  const password = "a password for the live server";
  try {
    const server = await startServer(dir);
    let stopped = false;
    try {
      assertEquals((await readHolder(dir))?.pid, server.pid);
      const created = await runUserTask(
        dir,
        "create",
        "--role",
        "client",
        "--email",
        email,
        "--name",
        "Live User",
        "--password",
        password,
      );
      assertEquals(created.code, 0, created.err);
      assertStringIncludes(created.out, `Created client ${email}`);
      // The server reads the same database the command wrote to: no restart, no divergence.
      const res = await server.login(email, password);
      assertEquals(res.status, 200, await res.clone().text());
      assertEquals((await res.json()).email, email);
      assert(res.headers.getSetCookie().some((c) => c.startsWith("meridian_session=")));
      const status = await server.stop("SIGTERM");
      stopped = true;
      assertEquals(status.code, 0);
    } finally {
      if (!stopped) await server.stop("SIGKILL");
    }
    assert(await isLockFree(dir), "a stopped server lets go of DATA_DIR");

    const again = await startServer(dir);
    let killed = false;
    try {
      const res = await again.login(email, password);
      assertEquals(res.status, 200, "the user created through the first server is still there");
      await res.body?.cancel();
      assertEquals(await isLockFree(dir), false);
      const status = await again.stop("SIGKILL");
      killed = true;
      assertEquals(status.signal, "SIGKILL");
    } finally {
      if (!killed) await again.stop("SIGKILL");
    }
    assert(await isLockFree(dir), "kill -9 leaves no lock behind");
    // And the command now opens the files itself.
    const disabled = await runUserTask(dir, "disable", "--email", email);
    assertEquals(disabled.code, 0, disabled.err);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
