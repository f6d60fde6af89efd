import { assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { Hono } from "hono";
import { RememberingRouter } from "../../routes/_router.ts";

// The app's router remembers recent matches (routes/_router.ts): every request must still get
// the route and the parameters of its own path, however often and in whatever order paths come.
test("[router] each path gets its own route and parameters, remembered or not", async () => {
  const app = new Hono({ router: new RememberingRouter() })
    .patch("/api/notifications/mark-all-read", (c) => c.text("all"))
    .patch("/api/notifications/:id/read", (c) => c.text(`one ${c.req.param("id")}`))
    .get("/survey/:id", (c) => c.text(`survey ${c.req.param("id")}`));
  const text = async (method: string, path: string) => (await app.request(path, { method })).text();
  for (let round = 0; round < 2; round++) {
    assertEquals(await text("PATCH", "/api/notifications/mark-all-read"), "all");
    assertEquals(await text("PATCH", "/api/notifications/n1/read"), "one n1");
    assertEquals(await text("PATCH", "/api/notifications/n2/read"), "one n2");
    assertEquals(await text("GET", "/survey/s%C3%A9"), "survey sé");
    assertEquals((await app.request("/survey/s1", { method: "PATCH" })).status, 404);
  }
  // Past the paths it remembers, and past the longest it remembers: still each its own.
  for (let i = 0; i < 1100; i++) assertEquals(await text("GET", `/survey/${i}`), `survey ${i}`);
  const long = "x".repeat(300);
  assertEquals(await text("GET", `/survey/${long}`), `survey ${long}`);
  assertEquals(await text("GET", "/survey/5"), "survey 5");
  // A route added after requests were answered is matched from then on.
  assertEquals((await app.request("/later")).status, 404);
  app.get("/later", (c) => c.text("later"));
  assertEquals(await text("GET", "/later"), "later");
});
