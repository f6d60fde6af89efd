/**
 * A public firm profile (/firms/{slug}, issue 22) with a full page of reviews (10 of 25, each
 * with a public text, half with the firm's reply), as a signed-out visitor gets it, served
 * in-process by `createApp` over PGlite, or Postgres with DATABASE_URL (its tables are reset:
 * use a scratch database). Prints the wall time per request (p50/p90/p99), the process CPU
 * time per request (with PGlite that includes the database's work), and the page body's
 * server render alone (FirmProfile to a string, no database). Figures only; asserts nothing.
 *
 *   deno run -A bench/firm_profile_page.ts
 *   DATABASE_URL=postgres://… deno run -A bench/firm_profile_page.ts
 */
import process from "node:process";
import { measure, report } from "./_stats.ts";

Deno.env.set("NODE_ENV", "production");
const ITERATIONS = Number(Deno.env.get("BENCH_ITERATIONS") ?? 300);

const { createTestApp } = await import("../tests/_helpers.ts");
const { createUser } = await import("../tests/_auth.ts");
const { submitSurvey } = await import("../tests/_fixtures.ts");
const { createSignedInUser } = await import("../tests/_auth.ts");
const { addSurveyor } = await import("../tests/_assignment_fixtures.ts");
const { firmProfilePath } = await import("../lib/firm_slug.ts");

const t = await createTestApp();
const firm = await addSurveyor(t, "Ortiz Land Surveying", {
  city: "Austin",
  state: "TX",
  licenseStates: ["TX", "NM", "OK"],
  surveyTypes: ["boundary", "topographic", "alta"],
});
const { cookie, user } = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
for (let i = 0; i < 25; i++) {
  const survey = await submitSurvey(t, cookie);
  await t.sql`
    insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, status, source)
    values (${survey.id}, ${firm.surveyor.id}, 128500, 'completed', 'admin')`;
  await t.sql`insert into surveyor_reviews
      (survey_id, surveyor_id, client_id, rating, public_text, reply, replied_at)
    values (${survey.id}, ${firm.surveyor.id}, ${user.id}, ${4 + (i % 2)},
      ${"Staked every corner and explained the plat. ".repeat(6).trim()},
      ${i % 2 ? "Thank you, it was a pleasure to work on your property." : null},
      ${i % 2 ? new Date() : null})`;
}
await t.sql`update surveyors set meridian_rating_sum = 112, meridian_review_count = 25
  where id = ${firm.surveyor.id}`;
await createUser(t.sql, { role: "admin" });
const path = firmProfilePath("Ortiz Land Surveying", firm.surveyor.id);

async function page(): Promise<void> {
  const res = await t.request("GET", path, { headers: { accept: "text/html" } });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
  await res.text();
}

console.log(
  `${path} signed out, in-process, ${Deno.env.get("DATABASE_URL") ? "Postgres" : "PGlite"}`,
);
await measure(page, { warmup: 30, iterations: 0 });
const before = process.cpuUsage();
const samples = await measure(page, { warmup: 0, iterations: ITERATIONS });
const used = process.cpuUsage(before);
report("profile", samples, 10);
console.log(
  `  ${"".padEnd(10)} CPU ${
    ((used.user + used.system) / 1000 / ITERATIONS).toFixed(3)
  } ms per request (process)`,
);

// The page body alone: no database, no HTTP.
const { createElement } = await import("react");
const { renderToString } = await import("react-dom/server");
const { FirmProfile } = await import("../components/FirmProfile.tsx");
const { getPublicFirm, listPublicReviews } = await import("../db/firm_profiles.ts");
const slug = path.slice("/firms/".length);
const data = (await getPublicFirm(t.sql, { idPrefix: slug.slice(-8), slug }))!;
const reviews = await listPublicReviews(t.sql, { surveyorId: data.id });
const render = () =>
  renderToString(
    createElement(FirmProfile, { firm: data, reviews, page: 1, pageSize: 10, user: null }),
  );
for (let i = 0; i < 50; i++) render();
const start = performance.now();
for (let i = 0; i < ITERATIONS; i++) render();
console.log(
  `  render only ${
    ((performance.now() - start) / ITERATIONS).toFixed(3)
  } ms per page (${render().length} bytes of HTML)`,
);
t.close();
