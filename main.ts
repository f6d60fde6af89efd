import { Hono } from "hono";
import type { AppDeps, AppEnv } from "./routes/_env.ts";
import { notFound, onError } from "./routes/_errors.tsx";
import { frontDoor } from "./routes/_front_door.ts";
import { RememberingRouter } from "./routes/_router.ts";
import { health } from "./routes/health.ts";
import { metrics } from "./routes/metrics.ts";
import { staticFiles } from "./routes/static.ts";
import { serviceWorker } from "./routes/service_worker.ts";
import { servePageCache } from "./routes/_pages.ts";
import { pages } from "./routes/pages.tsx";
import { noScript } from "./routes/no_script.tsx";
import { redirects } from "./routes/redirects.ts";
import { seo } from "./routes/seo.ts";
import { geo } from "./routes/geo.ts";
import { contact } from "./routes/contact.ts";
import { devReload } from "./routes/dev_reload.ts";
import { sessions } from "./routes/_auth.ts";
import { authApi } from "./routes/auth_api.ts";
import { oauth } from "./routes/oauth.tsx";
import { adminApi } from "./routes/admin_api.ts";
import { adminMessages } from "./routes/admin_messages.ts";
import { adminPages } from "./routes/admin_pages.tsx";
import { accountPages } from "./routes/account_pages.tsx";
import { appPages } from "./routes/app_pages.tsx";
import { purchasedLeadPages } from "./routes/purchased_lead_pages.tsx";
import { surveyorDashboard } from "./routes/surveyor_dashboard.tsx";
import { surveyorCrewPages } from "./routes/surveyor_crew_pages.tsx";
import { surveyorJobPages } from "./routes/surveyor_job_pages.tsx";
import { reviews } from "./routes/reviews.ts";
import { firms } from "./routes/firms.tsx";
import { localPages } from "./routes/local_pages.tsx";
import { messages } from "./routes/messages.ts";
import { technicianSurveyPages } from "./routes/technician_survey_pages.tsx";
import { technicians } from "./routes/technicians.ts";
import { technicianPages } from "./routes/technician_pages.tsx";
import { pricing } from "./routes/pricing.ts";
import { pricingPages } from "./routes/pricing_pages.tsx";
import { support } from "./routes/support.tsx";
import { services } from "./routes/services.tsx";
import { surveys } from "./routes/surveys.ts";
import { notifications } from "./routes/notifications.ts";
import { dispatch } from "./routes/dispatch.ts";
import { assignments } from "./routes/assignments.ts";
import { files } from "./routes/files.ts";
import { checklists } from "./routes/checklists.ts";
import { checklistTemplatePages } from "./routes/checklist_template_pages.tsx";
import { emailTemplatePages } from "./routes/email_template_pages.tsx";
import { emailAdminApi } from "./routes/email_admin_api.ts";
import { emailTemplateApi } from "./routes/email_template_api.ts";
import { leadsApi } from "./routes/leads_api.ts";
import { surveyPages } from "./routes/survey_pages.tsx";
import { surveyorPages } from "./routes/surveyor_pages.tsx";
import { leadPages } from "./routes/lead_pages.tsx";
import { surveyors } from "./routes/surveyors.ts";
import { surveyorAccounts } from "./routes/surveyor_accounts.ts";
import { surveyorJoin } from "./routes/surveyor_join.tsx";
import { surveyorSelfJoin } from "./routes/surveyor_self_join.tsx";
import { licenceChecks } from "./routes/licence_checks.ts";
import { publicLeads } from "./routes/public_leads.tsx";
import { refunds } from "./routes/refunds.ts";
import { proposals } from "./routes/proposals.ts";
import { billing } from "./routes/billing.ts";
import { billingPages } from "./routes/billing_pages.tsx";
import { kvPath } from "./lib/config.ts";
import { listeningLine, publicUrlWarning, withListenPort } from "./lib/public_url.ts";
import { recordServerUrl } from "./db/embedded.ts";
import {
  analyzeChangedTables,
  statisticsAreOurs,
  TABLE_STATISTICS_INTERVAL_MS,
} from "./db/table_statistics.ts";
import { initdbChildMain } from "./db/embedded_initdb.ts";
import { configOrExit, migrateOrExit, openDatabaseOrExit } from "./lib/cli/startup.ts";
import { KvStartError, openKv } from "./db/kv.ts";
import { configuredProviders } from "./lib/providers.ts";
import { ensureBuild } from "./lib/assets.ts";
import { warmOfflineIndex } from "./lib/geo/offline.ts";
import { collectStartupGarbage } from "./lib/memory.ts";
import {
  ORPHAN_SWEEP_INTERVAL_MS,
  STORAGE_SWEEP_INTERVAL_MS,
  sweepOrphanChunks,
  sweepStorage,
} from "./lib/storage/cleanup.ts";
import { startOutboxSender } from "./lib/mail/sender.ts";
import { mailDelivery } from "./lib/mail/delivery.ts";
import { backgroundWork } from "./lib/background.ts";
import { RecurringFailures } from "./lib/recurring_failures.ts";
import { processPasswordResetRequests } from "./lib/password_reset.ts";
import { APP_JOB_HANDLERS, startJobWorker, workerName } from "./lib/jobs.ts";
import { firstStopSignal, settlesWithin } from "./lib/shutdown.ts";

/**
 * Builds the whole app from its dependencies. Starts nothing: tests call it in-process and
 * drive it with `app.request()`.
 */
export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>({ router: new RememberingRouter() });
  // The request context, security headers, admission control, compression and the checks of
  // a change, in front of anything that reads the session, a body or the database; then the
  // session, in the same frame.
  app.use(frontDoor(deps, sessions(deps)));
  app.route("/", health);
  app.route("/", metrics);
  app.route("/", staticFiles);
  app.route("/", serviceWorker);
  app.route("/", redirects);
  app.route("/", seo);
  app.route("/", geo);
  app.route("/", contact);
  app.route("/", authApi);
  app.route("/", oauth);
  app.route("/", adminApi);
  app.route("/", adminMessages);
  app.route("/", pricing);
  app.route("/", surveys);
  app.route("/", notifications);
  app.route("/", dispatch);
  app.route("/", assignments);
  app.route("/", files);
  app.route("/", checklists);
  app.route("/", leadsApi);
  app.route("/", surveyors);
  app.route("/", surveyorAccounts);
  app.route("/", surveyorJoin);
  app.route("/", surveyorSelfJoin);
  app.route("/", licenceChecks);
  app.route("/", refunds);
  app.route("/", proposals);
  app.route("/", billing);
  app.route("/", services);
  app.route("/", support);
  app.route("/", accountPages);
  app.route("/", surveyPages);
  app.route("/", surveyorPages);
  app.route("/", publicLeads);
  app.route("/", leadPages);
  app.route("/", billingPages);
  app.route("/", pricingPages);
  app.route("/", checklistTemplatePages);
  app.route("/", emailTemplatePages);
  app.route("/", emailAdminApi);
  app.route("/", emailTemplateApi);
  app.route("/", adminPages);
  app.route("/", purchasedLeadPages);
  app.route("/", surveyorDashboard);
  app.route("/", surveyorCrewPages);
  app.route("/", surveyorJobPages);
  app.route("/", reviews);
  app.route("/", firms);
  app.route("/", localPages);
  app.route("/", messages);
  app.route("/", technicianSurveyPages);
  app.route("/", technicians);
  app.route("/", technicianPages);
  app.route("/", appPages);
  app.route("/", pages);
  app.route("/", noScript);
  if (Deno.env.get("MERIDIAN_DEV_RELOAD") === "1") app.route("/", devReload);
  app.notFound(notFound);
  app.onError(onError);
  // Already-rendered public pages skip the router for signed-out visitors; app.request()
  // goes through app.fetch, so tests exercise the same path.
  app.fetch = servePageCache(deps, app.fetch);
  return app;
}

/**
 * Opens everything from the environment, migrates, and serves until SIGTERM or SIGINT; then
 * stops accepting connections, lets in-flight requests, running jobs and background work
 * finish for up to SHUTDOWN_TIMEOUT_SECONDS, closes Postgres and KV and exits (0, or 1 when
 * the time ran out).
 */
async function start() {
  const loaded = configOrExit();
  // First, so an operator sees it before anything else can go wrong.
  const warning = publicUrlWarning(loaded);
  if (warning) console.warn(warning);
  // The database first: a second server on the same DATA_DIR stops at once, before any build;
  // one started before Postgres waits a bounded time for it.
  const db = await openDatabaseOrExit(loaded);
  const assets = await ensureBuild();
  const applied = await migrateOrExit(db);
  if (applied.length) console.log(`Applied migrations ${applied.join(", ")}`);
  const kv = await openKvOrExit(kvPath(loaded), db);
  // Listen before building the app: without PUBLIC_URL the public URL is the address listened
  // on, and with PORT=0 its port is known only now. The app is in place before any request is
  // read (nothing below awaits until it is).
  let serveApp: Deno.ServeHandler = () => new Response("Starting", { status: 503 });
  // Stop signals are heard from the moment the server listens: start-up still awaits below
  // (a statement, a file), and a SIGTERM in that window used to kill the process outright
  // (exit 143) instead of shutting it down.
  const stopSignal = firstStopSignal();
  const server = Deno.serve(
    { port: loaded.PORT, hostname: loaded.HOST, onListen: () => {} },
    (req, info) => serveApp(req, info),
  );
  const config = withListenPort(loaded, server.addr.port);
  const deps: AppDeps = {
    config,
    sql: db.sql,
    kv,
    assets,
    ...configuredProviders(config, db.sql),
  };
  serveApp = createApp(deps).fetch;
  console.log(`${listeningLine(config, server.addr.port)} (${db.kind}, ${config.NODE_ENV})`);
  // `deno task seed` and `deno task user` beside this server print the URL that works.
  if (!config.DATABASE_URL) await recordServerUrl(config.DATA_DIR, config.PUBLIC_URL);
  // Build the offline address index now rather than on the first visitor's keystroke; then
  // drop what start-up allocated (lib/memory.ts).
  const warmed = config.GOOGLE_MAPS_API_KEY ? Promise.resolve() : warmOfflineIndex();
  warmed.catch((err) => console.error(err)).finally(collectStartupGarbage);
  // Forgot-password requests are answered before they are handled; any left by a crash or an
  // outage are handled now and then swept every minute.
  // Each sweep logs a failure that repeats (a database gone) once (lib/recurring_failures.ts).
  const resetFailures = new RecurringFailures("[background] password reset requests");
  const sweepResets = () =>
    backgroundWork(deps).run(
      "password reset requests",
      () => processPasswordResetRequests(deps.sql, { publicUrl: config.PUBLIC_URL }),
      resetFailures,
    );
  sweepResets();
  const resetSweep = setInterval(sweepResets, 60_000);
  // Stored bytes of deleted files (S3) and of uploads that died half way, retried with
  // backoff until their delete succeeds; and, hourly, chunks no file or upload knows.
  const storageFailures = new RecurringFailures("[background] storage sweep");
  const sweepFiles = () =>
    backgroundWork(deps).run(
      "storage sweep",
      () => sweepStorage(deps.sql, deps.storage),
      storageFailures,
    );
  sweepFiles();
  const storageSweep = setInterval(sweepFiles, STORAGE_SWEEP_INTERVAL_MS);
  const orphanFailures = new RecurringFailures("[background] orphaned chunks sweep");
  const sweepOrphans = () =>
    backgroundWork(deps).run(
      "orphaned chunks sweep",
      () => sweepOrphanChunks(deps.sql),
      orphanFailures,
    );
  sweepOrphans();
  const orphanSweep = setInterval(sweepOrphans, ORPHAN_SWEEP_INTERVAL_MS);
  // Planner statistics, where no autovacuum keeps them (PGlite; db/table_statistics.ts).
  const statisticsFailures = new RecurringFailures("[background] table statistics");
  const analyze = () =>
    backgroundWork(deps).run(
      "table statistics",
      () => analyzeChangedTables(deps.sql),
      statisticsFailures,
    );
  const statisticsSweep = await statisticsAreOurs(db.sql, db.kind).catch(() => false)
    ? (analyze(), setInterval(analyze, TABLE_STATISTICS_INTERVAL_MS))
    : undefined;
  // Jobs and emails are claimed under this instance's name: the port it listens on (PORT=0's
  // random one too), so each live instance has its own and takes back what it lost.
  const worker = workerName({ PORT: server.addr.port });
  // Without SMTP_URL, emails stay in the outbox, where admins open them (/admin/email-outbox).
  const stopMail = mailDelivery(config) === "smtp"
    ? startOutboxSender(deps, { intervalMs: 5000, worker })
    : undefined;
  // Durable jobs (automatic dispatch), polled every second; safe beside other instances.
  const stopJobs = startJobWorker(deps, {
    handlers: APP_JOB_HANDLERS,
    intervalMs: 1000,
    worker,
  });
  const signal = await stopSignal;
  const seconds = config.SHUTDOWN_TIMEOUT_SECONDS;
  console.log(`${signal}: shutting down; in-flight requests and jobs get up to ${seconds} s.`);
  clearInterval(resetSweep);
  clearInterval(storageSweep);
  clearInterval(orphanSweep);
  clearInterval(statisticsSweep);
  // server.shutdown() closes the listener at once (new connections are refused) and resolves
  // when every request already received has been answered. Jobs and the mail sender finish
  // their current pass; background work started by the last requests is waited for too.
  const drained = Promise.all([
    server.shutdown().then(() => backgroundWork(deps).settled()),
    stopJobs(),
    stopMail?.(),
  ]);
  const isDrained = await settlesWithin(drained, seconds * 1000);
  if (!isDrained) {
    console.error(
      `Shutdown: in-flight work did not finish within ${seconds} s ` +
        `(SHUTDOWN_TIMEOUT_SECONDS); closing anyway.`,
    );
  }
  kv.close();
  // A pool stuck on a dead Postgres must not hold the exit past a few seconds.
  await settlesWithin(db.close(), 5000);
  console.log(isDrained ? "Shutdown complete." : "Shutdown forced.");
  Deno.exit(isDrained ? 0 : 1);
}

/** Opens KV; a KV Connect endpoint that refuses or never answers exits with one line. */
async function openKvOrExit(path: string, db: { close(): Promise<void> }): Promise<Deno.Kv> {
  try {
    return await openKv(path);
  } catch (err) {
    if (!(err instanceof KvStartError)) throw err;
    console.error(err.message);
    await db.close();
    Deno.exit(1);
  }
}

if (import.meta.main) {
  // The compiled binary is also the embedded database's initdb child (db/embedded_initdb.ts).
  await initdbChildMain();
  await start();
}
