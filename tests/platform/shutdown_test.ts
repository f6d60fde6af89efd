/**
 * Graceful shutdown of the real server: SIGTERM while a request is in flight (a parcel lookup
 * waiting on a slow Regrid). The listener closes at once, the request already received is
 * answered, and the process exits 0 within SHUTDOWN_TIMEOUT_SECONDS; a request that does not
 * finish in time is abandoned at the bound and the process exits 1.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { startServer } from "./_server.ts";

/**
 * A stand-in for Regrid's API that holds every parcel request until `release()`, then answers
 * 404 (no parcel there). A parcel lookup through the app is then a request that legitimately
 * takes as long as the test wants, with no test-only endpoint in the app.
 */
function slowRegrid() {
  const received = Promise.withResolvers<void>();
  const released = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    received.resolve();
    await released.promise;
    return Response.json({ message: "No parcels found" }, { status: 404 });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/api/v2`,
    received: received.promise,
    release: () => released.resolve(),
    close: () => server.shutdown(),
  };
}

/**
 * A client account's session cookie on the real server, made through the public API. A 503
 * (the freshly started server shedding load on a busy machine: seen once in CI, beside other
 * suites) is tried again after its Retry-After, as a browser's user would, at most three times:
 * what these tests look at is the shutdown, not the sign-up.
 */
async function signUp(origin: string): Promise<string> {
  const email = `shutdown-${crypto.randomUUID()}@example.com`;
  let res: Response;
  for (let attempt = 1;; attempt++) {
    res = await fetch(`${origin}/api/register`, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({
        email,
        password: "a long enough password",
        fullName: "Shutdown Test",
      }),
    });
    if (res.status !== 503 || attempt === 3) break;
    const wait = Number(res.headers.get("retry-after") ?? 1);
    await res.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 5) * 1000));
  }
  const text = await res.text();
  assertEquals(res.status, 201, text);
  const cookie = res.headers.get("set-cookie")?.split(";")[0];
  assert(cookie, "no session cookie");
  return cookie;
}

async function isRefused(port: number): Promise<boolean> {
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    conn.close();
    return false;
  } catch (err) {
    return err instanceof Deno.errors.ConnectionRefused;
  }
}

Deno.test({
  name: "[shutdown] SIGTERM: new connections refused, the request in flight answered 200, exit 0",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const regrid = slowRegrid();
    const server = await startServer({
      SHUTDOWN_TIMEOUT_SECONDS: "10",
      REGRID_API_TOKEN: "test-token",
      REGRID_API_URL: regrid.url,
    });
    try {
      const cookie = await signUp(server.origin);
      const inFlight = fetch(`${server.origin}/api/parcels/lookup?lat=40.1&lng=-75.2`, {
        headers: { cookie },
      });
      // The app is now waiting on Regrid for this request.
      await regrid.received;
      const signalledAt = performance.now();
      server.child.kill("SIGTERM");
      await server.waitForOutput("SIGTERM: shutting down", 5000);

      let refused = false;
      for (let i = 0; i < 40 && !refused; i++) {
        refused = await isRefused(server.port);
        if (!refused) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert(refused, "the server still accepted new connections after SIGTERM");
      // Still running: it waits for the request it has.
      const early = await Promise.race([
        server.child.status.then(() => "exited"),
        new Promise((resolve) => setTimeout(() => resolve("running"), 500)),
      ]);
      assertEquals(early, "running", server.output());

      regrid.release();
      const res = await inFlight;
      const body = await res.json();
      assertEquals(res.status, 200, JSON.stringify(body));
      assertEquals(body.parcel, null);

      const status = await server.exited();
      const seconds = (performance.now() - signalledAt) / 1000;
      assertEquals(status.code, 0, server.output());
      assert(seconds < 10, `exit took ${seconds.toFixed(1)} s`);
      assertStringIncludes(server.output(), "Shutdown complete.");
    } finally {
      regrid.release();
      await server.cleanUp();
      await regrid.close();
    }
  },
});

Deno.test({
  name: "[shutdown] a request that does not finish is abandoned at SHUTDOWN_TIMEOUT_SECONDS",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const regrid = slowRegrid();
    const server = await startServer({
      SHUTDOWN_TIMEOUT_SECONDS: "2",
      REGRID_API_TOKEN: "test-token",
      REGRID_API_URL: regrid.url,
    });
    try {
      const cookie = await signUp(server.origin);
      const inFlight = fetch(`${server.origin}/api/parcels/lookup?lat=40.1&lng=-75.2`, {
        headers: { cookie },
      }).catch((err) => err);
      await regrid.received;
      const signalledAt = performance.now();
      server.child.kill("SIGTERM");
      const status = await server.exited();
      const seconds = (performance.now() - signalledAt) / 1000;
      assertEquals(status.code, 1, server.output());
      assert(seconds >= 1.9 && seconds < 8, `exit after ${seconds.toFixed(1)} s`);
      assertStringIncludes(server.output(), "did not finish within 2 s");
      assertStringIncludes(server.output(), "Shutdown forced.");
      // The abandoned request's connection is closed, not left hanging.
      const abandoned = await inFlight;
      assert(abandoned instanceof Error, `the abandoned request got ${abandoned}`);
    } finally {
      regrid.release();
      await server.cleanUp();
      await regrid.close();
    }
  },
});

Deno.test({
  name: "[shutdown] SIGTERM the moment the server says it listens still shuts it down cleanly",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // Start-up goes on after the listening line (a statement, a file): a signal in that window
    // once killed the process (exit 143) before its handlers were in place.
    const server = await startServer();
    try {
      server.child.kill("SIGTERM");
      const status = await server.exited();
      assertEquals(status.code, 0, server.output());
      assertStringIncludes(server.output(), "Shutdown complete.");
    } finally {
      await server.cleanUp();
    }
  },
});
