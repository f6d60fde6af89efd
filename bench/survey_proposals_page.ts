/**
 * The client's /survey/{id} with proposals (issue 22): the page as the owning client gets it,
 * served in-process by `createApp` (as the tests build it) over PGlite, or Postgres with
 * DATABASE_URL (its tables are reset: use a scratch database), with 0 and with 3 proposals.
 * Prints, per case, the wall time per request and the process CPU time per request
 * (node:process cpuUsage over the timed loop; with PGlite that includes the database's work,
 * with Postgres only the app's), p50/p90/p99 of the wall time, and the difference 3 proposals
 * make. Figures only; asserts nothing.
 *
 *   deno run -A bench/survey_proposals_page.ts
 *   DATABASE_URL=postgres://… deno run -A bench/survey_proposals_page.ts
 */
import process from "node:process";
import { measure, report } from "./_stats.ts";

Deno.env.set("NODE_ENV", "production");
const ITERATIONS = Number(Deno.env.get("BENCH_ITERATIONS") ?? 300);

const { createTestApp } = await import("../tests/_helpers.ts");
const { createSignedInUser } = await import("../tests/_auth.ts");
const { addSurveyWithLead } = await import("../tests/_refund_fixtures.ts");
const { addProposingBuyers } = await import("./_proposals.ts");

const t = await createTestApp();
const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
const bare = await addSurveyWithLead(t, client.cookie);
const withProposals = await addSurveyWithLead(t, client.cookie);
await addProposingBuyers(t, withProposals.lead, [
  "Alpha Surveying",
  "Bravo Surveying",
  "Charlie Surveying",
]);

async function page(id: string): Promise<void> {
  const res = await t.request("GET", `/survey/${id}`, {
    cookie: client.cookie,
    headers: { accept: "text/html" },
  });
  if (res.status !== 200) throw new Error(`GET /survey/${id}: ${res.status}`);
  await res.text();
}

console.log(
  `/survey/{id} as its client, in-process, ${Deno.env.get("DATABASE_URL") ? "Postgres" : "PGlite"}`,
);
const cpu: Record<string, number> = {};
for (
  const [label, id] of [["0 proposals", bare.survey.id], [
    "3 proposals",
    withProposals.survey.id,
  ]] as const
) {
  await measure(() => page(id), { warmup: 30, iterations: 0 });
  const before = process.cpuUsage();
  const samples = await measure(() => page(id), { warmup: 0, iterations: ITERATIONS });
  const used = process.cpuUsage(before);
  cpu[label] = (used.user + used.system) / 1000 / ITERATIONS;
  report(label, samples, 12);
  console.log(`  ${"".padEnd(12)} CPU ${cpu[label].toFixed(3)} ms per request (process)`);
}
console.log(`  3 proposals add ${(cpu["3 proposals"] - cpu["0 proposals"]).toFixed(3)} ms CPU`);

// The proposals card alone: the SurveyProposals island rendered as the page renders it.
const { createElement } = await import("react");
const { renderToString } = await import("react-dom/server");
const { default: SurveyProposals } = await import("../islands/SurveyProposals.tsx");
const { listSurveyProposals } = await import("../db/proposals.ts");
const proposals = await listSurveyProposals(t.sql, { surveyId: withProposals.survey.id });
const props = {
  surveyId: withProposals.survey.id,
  surveyStatus: "surveyors_notified",
  hasSurveyor: false,
  canAnswer: true,
  quotedPriceCents: 385_00,
  quoteTurnaround: "Typical turnaround: 5–10 business days",
  proposals,
};
const renders = await measure(() => void renderToString(createElement(SurveyProposals, props)), {
  warmup: 50,
  iterations: ITERATIONS * 3,
});
report("card render", renders, 12);
t.close();
Deno.exit(0);
