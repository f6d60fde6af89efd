import { assertEquals } from "../_assert.ts";
import { dashboardPath, redirectAfterLogin, safeReturnTo } from "../../lib/return_to.ts";

const OPEN_REDIRECTS = [
  "https://evil.example",
  "//evil.example",
  "/\\evil.example",
  "%2F%2Fevil.example",
  "javascript:alert(1)",
  "/%2F/evil.example",
  "/%5Cevil.example",
  "%252F%252Fevil.example",
  "/%252F%252Fevil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/%09/evil.example",
  "http:/evil.example",
  "\\\\evil.example",
  " //evil.example",
  "data:text/html,<script>alert(1)</script>",
  "",
  "client-dashboard",
  "/%E0%A4%A",
  "/" + "a".repeat(3000),
  // Dot segments the browser resolves into `//host`.
  "/.//evil.example",
  "/client/..//evil.example",
  "/surveyor/..//evil.example/x?y=1",
  "/a/b/../..//evil.example",
  "/././/evil.example",
  "/%2e//evil.example",
  "/%2E%2E//evil.example",
  "/client/%2e%2e//evil.example",
  "/client/.%2e//evil.example",
  "/./%2Fevil.example",
  "/%2e%2e%2f%2fevil.example",
  "/client/%252e%252e//evil.example",
];

Deno.test("[returnTo] every open-redirect case falls back to nothing", () => {
  for (const raw of OPEN_REDIRECTS) assertEquals(safeReturnTo(raw), null, JSON.stringify(raw));
  assertEquals(safeReturnTo(null), null);
  assertEquals(safeReturnTo(undefined), null);
});

Deno.test("[returnTo] local paths are kept with their query and hash", () => {
  assertEquals(safeReturnTo("/client-dashboard"), "/client-dashboard");
  assertEquals(safeReturnTo("/survey/1?tab=notes#top"), "/survey/1?tab=notes#top");
  assertEquals(
    safeReturnTo("/create-survey?address=1%20Main%20St"),
    "/create-survey?address=1%20Main%20St",
  );
  assertEquals(safeReturnTo("/"), "/");
});

Deno.test("[returnTo] dot segments come back resolved, as the browser would read them", () => {
  assertEquals(safeReturnTo("/client/./surveys/../dashboard"), "/client/dashboard");
  assertEquals(safeReturnTo("/client/%2e%2e/profile?x=1"), "/profile?x=1");
  assertEquals(safeReturnTo("/../../profile"), "/profile");
  assertEquals(redirectAfterLogin("client", "/client/../admin"), "/client-dashboard");
  assertEquals(redirectAfterLogin("surveyor", "/surveyor/../leads"), "/surveyor-dashboard");
});

Deno.test("[returnTo] non-ASCII paths come back percent-encoded", () => {
  assertEquals(safeReturnTo("/client/é"), "/client/%C3%A9");
});

Deno.test("[returnTo] an open redirect falls back to each role's dashboard", () => {
  for (const raw of OPEN_REDIRECTS) {
    assertEquals(redirectAfterLogin("admin", raw), "/admin-dashboard");
    assertEquals(redirectAfterLogin("client", raw), "/client-dashboard");
    assertEquals(redirectAfterLogin("surveyor", raw), "/surveyor-dashboard");
    assertEquals(redirectAfterLogin("technician", raw), "/technician-dashboard");
    assertEquals(redirectAfterLogin("guest", raw), "/");
  }
});

Deno.test("[returnTo] admins always land on /admin-dashboard", () => {
  assertEquals(redirectAfterLogin("admin", "/surveyors"), "/admin-dashboard");
  assertEquals(redirectAfterLogin("admin", "/admin/email-templates"), "/admin-dashboard");
  assertEquals(redirectAfterLogin("admin", null), "/admin-dashboard");
});

Deno.test("[returnTo] surveyors, clients and technicians only return under their own prefix", () => {
  assertEquals(
    redirectAfterLogin("surveyor", "/surveyor/purchased-leads/7"),
    "/surveyor/purchased-leads/7",
  );
  assertEquals(redirectAfterLogin("surveyor", "/client-dashboard"), "/surveyor-dashboard");
  assertEquals(redirectAfterLogin("surveyor", "/leads"), "/surveyor-dashboard");
  assertEquals(redirectAfterLogin("client", "/client-dashboard?x=1"), "/client-dashboard?x=1");
  assertEquals(redirectAfterLogin("client", "/survey/5"), "/client-dashboard");
  assertEquals(redirectAfterLogin("client", "/profile"), "/client-dashboard");
  assertEquals(
    redirectAfterLogin("technician", "/technician-survey-detail/9"),
    "/technician-survey-detail/9",
  );
  assertEquals(redirectAfterLogin("technician", "/admin"), "/technician-dashboard");
  assertEquals(redirectAfterLogin("client", undefined), "/client-dashboard");
});

Deno.test("[returnTo] any other role goes to returnTo if present, else /", () => {
  assertEquals(redirectAfterLogin("guest", "/about"), "/about");
  assertEquals(redirectAfterLogin("guest", null), "/");
  assertEquals(redirectAfterLogin("guest", ""), "/");
});

Deno.test("[returnTo] each role's dashboard", () => {
  assertEquals(dashboardPath("admin"), "/admin-dashboard");
  assertEquals(dashboardPath("client"), "/client-dashboard");
  assertEquals(dashboardPath("surveyor"), "/surveyor-dashboard");
  assertEquals(dashboardPath("technician"), "/technician-dashboard");
  assertEquals(dashboardPath("nobody"), "/");
});
