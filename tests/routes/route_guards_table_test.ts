/**
 * Every route the real app registers (from `createApp`, not a synthetic app) against who may
 * call it. A route must be listed here: either as public, or with the roles it admits. A new
 * route without an entry fails the first test; one whose guard is missing or wrong fails the
 * second, because a signed-out caller or a wrong role gets through.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createUser, sessionFor } from "../_auth.ts";
import { ROLES } from "../_fixtures.ts";
import type { Role } from "../../lib/roles.ts";

/** Anyone may call it. */
const PUBLIC = "public";
/** Any signed-in user, whatever the role (the handler may still check ownership). */
const USER = "user";
/**
 * No session or role: a bearer token from the configuration (`GET /metrics`, METRICS_TOKEN).
 * Every caller without it, signed in or not, gets a 401 (a 404 when no token is configured).
 */
const TOKEN = "token";
/**
 * Admins only, and invisible to everyone else: a signed-in caller of any other role gets the
 * 404 an unknown id gets (one outbox message, whose links may hold a set-password token).
 */
const ADMIN_ELSE_404 = "admin, else 404";
type Access =
  | typeof PUBLIC
  | typeof USER
  | typeof TOKEN
  | typeof ADMIN_ELSE_404
  | readonly Role[];

const ADMIN: readonly Role[] = ["admin"];
const CLIENT: readonly Role[] = ["client"];
const SURVEYOR: readonly Role[] = ["surveyor"];
const TECHNICIAN: readonly Role[] = ["technician"];

/** `METHOD /path` as the router spells it → who may call it. */
const ACCESS: Record<string, Access> = {
  // Platform and public pages.
  "GET /healthz": PUBLIC,
  "GET /readyz": PUBLIC,
  // Prometheus scrapes (tests/routes/metrics_test.ts).
  "GET /metrics": TOKEN,
  "GET /static/*": PUBLIC,
  "GET /sw.js": PUBLIC,
  "GET /sitemap.xml": PUBLIC,
  "GET /robots.txt": PUBLIC,
  "GET /": PUBLIC,
  "GET /about": PUBLIC,
  "GET /firms/:slug": PUBLIC,
  "GET /land-surveyors/:state": PUBLIC,
  "GET /land-surveyors/:state/:town": PUBLIC,
  "GET /services/:type/:state/:town": PUBLIC,
  "GET /sitemap-local.xml": PUBLIC,
  "GET /sitemaps/:file": PUBLIC,
  "GET /auth": PUBLIC,
  // An island form submitted without JavaScript (routes/no_script.tsx).
  "POST /needs-javascript": PUBLIC,
  "GET /forgot-password": PUBLIC,
  "GET /reset-password": PUBLIC,
  "GET /create-survey": PUBLIC,
  "GET /help-center": PUBLIC,
  "GET /help": PUBLIC,
  "GET /faq": PUBLIC,
  "GET /contact": PUBLIC,
  "GET /services": PUBLIC,
  "GET /support": PUBLIC,
  "GET /privacy": PUBLIC,
  "GET /terms": PUBLIC,
  "GET /surveyor/dashboard": PUBLIC,
  "GET /services/boundary-surveys": PUBLIC,
  "GET /services/elevation-certificates": PUBLIC,
  "GET /services/topographic-surveys": PUBLIC,
  "GET /services/alta-surveys": PUBLIC,
  "GET /services/construction-surveys": PUBLIC,
  "GET /services/subdivision-surveys": PUBLIC,
  "GET /support/help-center": PUBLIC,
  "GET /support/contact": PUBLIC,
  "GET /support/privacy-policy": PUBLIC,
  "GET /support/getting-started": PUBLIC,
  "GET /support/quality-standards": PUBLIC,
  "GET /support/timeline-scheduling": PUBLIC,
  // The public lead view (spec section 2) and the join page of an invitation.
  "GET /lead/:id": PUBLIC,
  "GET /leads/:id": PUBLIC,
  "GET /surveyor/claim": PUBLIC,
  // Firms that join by themselves (issue 22): the page, the prospect search and the sign-up.
  "GET /for-surveyors": PUBLIC,
  "GET /api/surveyors/join/matches": PUBLIC,
  "POST /api/surveyors/join": PUBLIC,
  "GET /api/surveyors/:id/claim-requests": ADMIN,
  "POST /api/surveyors/:id/claim-requests/:requestId": ADMIN,
  // Public API: address search, quotes, contact, and the ways into an account.
  "GET /api/address-suggestions": PUBLIC,
  "GET /api/geocode": PUBLIC,
  "POST /api/calculate-price": PUBLIC,
  "POST /api/contact": PUBLIC,
  "POST /api/register": PUBLIC,
  "POST /api/login": PUBLIC,
  "POST /api/forgot-password": PUBLIC,
  "GET /api/reset-password/verify": PUBLIC,
  "POST /api/reset-password": PUBLIC,
  // Sign in with Google: the start and Google's return (404 while no client is configured).
  "GET /auth/google": PUBLIC,
  "GET /auth/google/callback": PUBLIC,
  // Creates an account only with a valid invitation token (the credential).
  "POST /api/surveyor/join": PUBLIC,
  // Answers only whether the caller's own session is an impersonation (false when signed out).
  "GET /api/admin/impersonation-status": PUBLIC,

  // Any signed-in user.
  "POST /api/logout": USER,
  "GET /api/user": USER,
  "DELETE /api/user/google": USER,
  "PATCH /api/user": USER,
  "POST /api/user/password": USER,
  "POST /api/admin/return": USER,
  "GET /api/notifications": USER,
  "PATCH /api/notifications/mark-all-read": USER,
  "PATCH /api/notifications/:id/read": USER,
  "GET /api/parcels/lookup": USER,
  "GET /api/surveys/:id": USER,
  "PATCH /api/surveys/:id/status": USER,
  "DELETE /api/surveys/:id": USER,
  "GET /dashboard": USER,
  "GET /profile": USER,
  "GET /survey/:id": USER,
  "GET /client/surveys/:id": USER,

  // Some roles.
  "GET /api/surveys": ["admin", "client"],
  "POST /api/surveys": CLIENT,
  "GET /client-dashboard": CLIENT,
  "GET /surveyor-dashboard": SURVEYOR,
  "GET /surveyor/crew": SURVEYOR,
  "GET /leads": SURVEYOR,
  // The spec lists these two among public routes, but they show a surveyor's own leads: a
  // signed-out visitor is sent to sign in with returnTo (the public lead view is /leads/{id}).
  "GET /surveyor/available-leads": SURVEYOR,
  "GET /surveyor/leads/:id": SURVEYOR,
  "GET /surveyor/purchased-leads": SURVEYOR,
  "GET /surveyor/purchased-leads/:id": SURVEYOR,
  "GET /surveyor/jobs/:surveyId": SURVEYOR,
  // The lead market API: the surveyor is the record linked to the account (none → 404).
  "GET /api/leads": SURVEYOR,
  "GET /api/leads/:id": SURVEYOR,
  "POST /api/leads/:id/buy": SURVEYOR,
  "POST /api/leads/:id/claim": SURVEYOR,
  "POST /api/leads/:id/dismiss": SURVEYOR,
  "GET /api/purchased-leads": SURVEYOR,
  "GET /api/purchased-leads/:id": SURVEYOR,
  "PATCH /api/purchased-leads/:id": SURVEYOR,
  "GET /technician-dashboard": TECHNICIAN,
  // The field page: the assigned technician, the surveyor doing the job, admins (others 404).
  "GET /technician-survey-detail/:surveyId": ["admin", "surveyor", "technician"],
  // A client rates the surveyor of their own completed survey (another's is a 404).
  "POST /api/surveys/:id/review": CLIENT,
  // Proposals (tests/routes/proposals_test.ts): a buyer sends, edits and withdraws; the owning
  // client (and admins) list, accept and decline, everyone else 404.
  "POST /api/purchased-leads/:leadId/proposal": SURVEYOR,
  "PATCH /api/purchased-leads/:leadId/proposal": SURVEYOR,
  "DELETE /api/purchased-leads/:leadId/proposal": SURVEYOR,
  "GET /api/surveys/:id/proposals": USER,
  "POST /api/surveys/:id/proposals/:proposalId/accept": USER,
  "POST /api/surveys/:id/proposals/:proposalId/decline": USER,
  // The firm's own surveyor account; anyone else signed in gets the 404 of an unknown review.
  "POST /api/reviews/:id/reply": USER,
  // Messages on the job: whoever is in the thread (everyone else 404; tests/routes/messages_test.ts).
  "GET /api/surveys/:id/messages": USER,
  "POST /api/surveys/:id/messages": USER,
  "GET /api/users": ADMIN,
  "PATCH /api/admin/users/:userId/role": ADMIN,
  "POST /api/admin/users/:userId/disable": ADMIN,
  "POST /api/admin/users/:userId/enable": ADMIN,
  "POST /api/admin/impersonate/:userId": ADMIN,
  "GET /api/admin/contact-messages": ADMIN,
  // Lead returns: the buyer asks (ownership checked in the query), admins decide.
  "POST /api/purchased-leads/:leadId/refund-request": SURVEYOR,
  "GET /api/admin/refund-requests": ADMIN,
  "POST /api/admin/refund-requests/:id/decision": ADMIN,
  "PATCH /api/admin/contact-messages/:id/read": ADMIN,
  "GET /api/admin/pricing-config": ADMIN,
  "PUT /api/admin/pricing-config": ADMIN,
  "GET /api/admin/pricing-config/history": ADMIN,
  "GET /api/admin/pricing-config/versions/:version": ADMIN,
  "POST /api/admin/pricing-preview": ADMIN,
  "GET /api/admin/discount-codes": ADMIN,
  "POST /api/admin/discount-codes": ADMIN,
  "PATCH /api/admin/discount-codes/:id": ADMIN,
  "GET /api/surveyors": ADMIN,
  "POST /api/surveyors": ADMIN,
  "GET /api/surveyors/:id": ADMIN,
  "PATCH /api/surveyors/:id": ADMIN,
  "POST /api/surveyors/:id/contact-history": ADMIN,
  "POST /api/surveyors/:id/contacts": ADMIN,
  "PATCH /api/surveyors/:id/contacts/:index": ADMIN,
  "DELETE /api/surveyors/:id/contacts/:index": ADMIN,
  "GET /api/surveys/by-surveyor/:id": ADMIN,
  "POST /api/convert-place-to-surveyor": ADMIN,
  "POST /api/surveyors/:id/invite": ADMIN,
  "POST /api/surveyors/:id/verify": ADMIN,
  // The licence check of states and numbers verified firms asked for (issue 20).
  "GET /api/licence-checks": ADMIN,
  "POST /api/surveyors/:id/licence-states/:state": ADMIN_ELSE_404,
  "POST /api/surveyors/:id/licence-number": ADMIN_ELSE_404,
  "POST /api/surveyors/:id/licence": ADMIN_ELSE_404,
  "POST /api/surveyors/:id/link-user": ADMIN,
  "DELETE /api/surveyors/:id/link-user": ADMIN,
  // A surveyor's own record, found by their user id (no id in the path).
  "GET /api/surveyor/profile": SURVEYOR,
  "PATCH /api/surveyor/profile": SURVEYOR,
  // Billing: a surveyor's own balance (found by their user id), any surveyor's for an admin.
  "GET /api/billing": SURVEYOR,
  "POST /api/billing/checkout": SURVEYOR,
  "GET /surveyor/billing": SURVEYOR,
  "GET /api/surveyors/:id/ledger": ADMIN,
  "POST /api/surveyors/:id/balance-adjustments": ADMIN,
  // Stripe's servers: no session; authenticated by the signature over the raw body.
  "POST /api/stripe/webhook": PUBLIC,
  "POST /api/surveys/delete-multiple": ADMIN,
  "POST /api/surveys/:id/find-surveyors": ADMIN,
  "POST /api/surveys/:id/notify-surveyors": ADMIN,
  // The client for their own request (names and companies only; another's is a 404).
  "GET /api/surveys/:id/surveyors": ["admin", "client"],
  "GET /api/surveys/:id/dispatch-map": ["admin"],
  // Survey files: uploads by the crew (the kind decides who), downloads by anyone on the
  // survey (its client too), deletes by the uploader, surveyor or admin; others get 404.
  "POST /api/surveys/:id/files": ["admin", "surveyor", "technician"],
  "GET /api/files/:id": USER,
  "DELETE /api/files/:id": ["admin", "surveyor", "technician"],
  "POST /api/surveys/:surveyId/assign/:surveyorId": ADMIN,
  // The surveyor linked to :surveyorId (another surveyor gets a 404).
  "PATCH /api/surveys/:surveyId/assignment/:surveyorId/status": ["admin", "surveyor"],
  // The checklist: anyone on the survey reads it (its client the progress only); the crew
  // answers it; others get 404. Templates are the admins'.
  "GET /api/surveys/:id/checklist": USER,
  "POST /api/surveys/:id/checklist/answers": ["admin", "surveyor", "technician"],
  "GET /api/checklist-templates": ADMIN,
  "POST /api/checklist-templates/:surveyType": ADMIN,
  "GET /admin/checklists": ADMIN,
  "GET /admin/checklists/:surveyType": ADMIN,
  // Technicians (issue 12): a surveyor manages their own firm's crew and assigns it on the
  // surveys their firm works on (anything else is a 404); admins any.
  "GET /api/technicians": ["admin", "surveyor"],
  "POST /api/technicians": ["admin", "surveyor"],
  "POST /api/technicians/:technicianId/invite": ["admin", "surveyor"],
  "DELETE /api/technicians/:technicianId": ["admin", "surveyor"],
  "GET /api/surveys/:surveyId/technicians": ["admin", "surveyor"],
  "PATCH /api/surveys/:surveyId/assign-technician": ["admin", "surveyor"],
  "GET /admin": ADMIN,
  "GET /admin-dashboard": ADMIN,
  "GET /admin/email-templates": ADMIN,
  // The outbox and its retry (recipients are personal data).
  "GET /admin/email-outbox": ADMIN,
  "POST /api/admin/email-outbox/:id/retry": ADMIN,
  // One message with its bodies and links.
  "GET /admin/email-outbox/:id": ADMIN_ELSE_404,
  "GET /api/admin/email-outbox/:id": ADMIN_ELSE_404,
  // The words of each email: the editor page, saves, reset, preview and "Send me a test".
  "GET /admin/email-templates/:id": ADMIN,
  "GET /admin/email-templates/:id/preview": ADMIN,
  "POST /api/admin/email-templates/:id/versions": ADMIN,
  "POST /api/admin/email-templates/:id/reset": ADMIN,
  "POST /api/admin/email-templates/:id/preview": ADMIN,
  "POST /api/admin/email-templates/:id/test": ADMIN,
  "GET /admin/technicians": ADMIN,
  "GET /pricing-algorithm": ADMIN,
  "GET /regrid-api-test": ADMIN,
  "GET /surveyors": ADMIN,
  "GET /surveyors/map-table": ADMIN,
  "GET /surveyor-detail/:id": ADMIN,
};

/** Every `METHOD /path` the app routes, from Hono's own route table. */
function registeredRoutes(t: TestApp): string[] {
  const routes = new Set<string>();
  for (const { method, path } of t.app.routes) {
    // `app.use()` middleware is listed as ALL on a wildcard; it is not an endpoint.
    if (method === "ALL" && path.endsWith("*")) continue;
    routes.add(`${method} ${path}`);
  }
  return [...routes];
}

/** A concrete URL for a route pattern: ids are a UUID nobody owns, versions a number. */
function concretePath(pattern: string): string {
  return pattern
    .replace(/:(\w+)(\{[^}]*\})?/g, (_, name: string) => name === "version" ? "1" : UUID)
    .replace(/\*$/, "x");
}

const UUID = "00000000-0000-4000-8000-000000000000";

type Caller = Role | "signed out";

/** The request a `caller` makes to `route`: a fresh session each time (a route may end it). */
async function call(
  t: TestApp,
  route: string,
  caller: Caller,
  users: Record<Role, { id: string; role: Role }>,
) {
  const [method, pattern] = route.split(" ");
  const path = concretePath(pattern);
  const cookie = caller === "signed out" ? undefined : await sessionFor(t, users[caller]);
  const isPage = !path.startsWith("/api/");
  const hasBody = ["POST", "PUT", "PATCH"].includes(method);
  const res = await t.request(method, path, {
    cookie,
    body: hasBody ? {} : undefined,
    headers: isPage ? { accept: "text/html" } : {},
  });
  return { res, path, isPage, text: await res.text() };
}

test("[route table] every route of the app is in the access table, and nothing else", async () => {
  const t = await createTestApp();
  const routes = registeredRoutes(t);
  const unlisted = routes.filter((route) => !(route in ACCESS));
  const stale = Object.keys(ACCESS).filter((route) => !routes.includes(route));
  assertEquals(unlisted, [], "routes with no entry in ACCESS: say who may call them");
  assertEquals(stale, [], "ACCESS entries for routes the app no longer has");
  t.close();
});

test("[route table] every guarded route refuses signed-out callers and the wrong roles", async () => {
  const t = await createTestApp({ env: { METRICS_TOKEN: "route-table-metrics-token-0123456789" } });
  const users = {} as Record<Role, { id: string; role: Role }>;
  for (const role of ROLES) users[role] = await createUser(t.sql, { role });
  let cells = 0;
  for (const route of registeredRoutes(t)) {
    const access = ACCESS[route];
    if (access === undefined || access === PUBLIC) continue;
    if (access === TOKEN) {
      for (const caller of ["signed out", ...ROLES] as const) {
        const { res, text } = await call(t, route, caller, users);
        cells++;
        assertEquals(res.status, 401, `${route} as ${caller}: ${res.status} ${text.slice(0, 200)}`);
      }
      continue;
    }
    for (const caller of ["signed out", ...ROLES] as const) {
      const { res, path, isPage, text } = await call(t, route, caller, users);
      const cell = `${route} as ${caller}: ${res.status} ${text.slice(0, 200)}`;
      cells++;
      assert(res.status < 500, cell);
      // Whatever a signed-in caller gets (the page, a 403, a 404), no cache may keep it: the
      // front door's rule, not each route's own header (routes/_middleware.ts).
      if (caller !== "signed out") {
        assertStringIncludes(res.headers.get("cache-control") ?? "", "no-store", cell);
      }
      if (caller === "signed out") {
        if (isPage) {
          assertEquals(res.status, 302, cell);
          assertEquals(res.headers.get("location"), `/auth?returnTo=${encodeURIComponent(path)}`);
        } else {
          assertEquals(res.status, 401, cell);
        }
      } else if (access === ADMIN_ELSE_404) {
        assertEquals(res.status, 404, cell);
      } else if (access === USER || access.includes(caller)) {
        assert(res.status !== 401 && res.status !== 403, cell);
        if (res.status === 302) assert(!res.headers.get("location")?.startsWith("/auth"), cell);
      } else {
        assertEquals(res.status, 403, cell);
        if (isPage) assertStringIncludes(text, "403 Access Denied", cell);
      }
    }
  }
  assert(cells >= 200, `only ${cells} cells were checked`);
  t.close();
});
