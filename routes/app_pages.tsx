import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";
import { dashboardPath, requirePageUser } from "./_auth.ts";

/**
 * Signed-in pages: /dashboard (redirect by role). Signed-out visitors go to /auth?returnTo=…;
 * the wrong role gets the 403 page, decided on the server.
 */
export const appPages = new Hono<AppEnv>()
  // The surveyor area is routes/surveyor_dashboard.tsx, routes/lead_pages.tsx and
  // routes/purchased_lead_pages.tsx; the technician dashboard routes/technician_pages.tsx.
  // /technician-survey-detail/{surveyId} is routes/technician_survey_pages.tsx.
  // Admin pages: /admin is routes/admin_pages.tsx, /surveyors and /surveyor-detail/{id}
  // routes/surveyor_pages.tsx, /admin/email-templates and /admin/email-outbox
  // routes/email_template_pages.tsx; /admin-dashboard, /pricing-algorithm and
  // /regrid-api-test live with their features.
  .get("/dashboard", requirePageUser, (c) => c.redirect(dashboardPath(c.var.user!.role), 302));
