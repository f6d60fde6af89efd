import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";
import { dashboardPath, requirePageRole, requirePageUser } from "./_auth.ts";
import { appPage } from "./_app_page.tsx";
import { PageHeader } from "../components/AppPage.tsx";
import {
  type RenderedEmail,
  renderEmail,
  TEMPLATE_IDS,
  type TemplateId,
  TEMPLATES,
} from "../lib/mail/render.tsx";

let previews: Promise<{ id: TemplateId; email: RenderedEmail }[]> | undefined;

/** The sample rendering of every template; the samples are constant, so render them once. */
function templatePreviews() {
  previews ??= Promise.all(
    TEMPLATE_IDS.map(async (id) => ({
      id,
      // deno-lint-ignore no-explicit-any
      email: await renderEmail(id, TEMPLATES[id].sample as any),
    })),
  ).catch((err) => {
    previews = undefined;
    throw err;
  });
  return previews;
}

/**
 * Signed-in pages: /dashboard (redirect by role) and the admin pages owned here (the technician
 * dashboard is routes/technician_pages.tsx). Signed-out visitors go to /auth?returnTo=…; the
 * wrong role gets the 403 page, decided on the server.
 */
export const appPages = new Hono<AppEnv>()
  .get("/dashboard", requirePageUser, (c) => c.redirect(dashboardPath(c.var.user!.role), 302))
  // The surveyor area is routes/surveyor_dashboard.tsx, routes/lead_pages.tsx and
  // routes/purchased_lead_pages.tsx.
  // /technician-survey-detail/{surveyId} is routes/technician_survey_pages.tsx.
  // Admin pages owned here (/admin is routes/admin_pages.tsx, /surveyors and
  // /surveyor-detail/{id} routes/surveyor_pages.tsx; /admin-dashboard, /pricing-algorithm and
  // /regrid-api-test live with their features).
  .get("/admin/email-templates", requirePageRole("admin"), async (c) => {
    const rendered = await templatePreviews();
    return appPage(
      c,
      { title: "Email templates", active: "/admin/email-templates" },
      <>
        <PageHeader
          title="Email templates"
          intro="Every email Meridian sends, rendered with sample data: the HTML version and the plain-text version mail clients fall back to."
        />
        <nav aria-label="Templates" className="card app-toc">
          <div className="card__body">
            <ul className="app-links">
              {rendered.map(({ id }) => (
                <li key={id}>
                  <a href={`#template-${id}`}>{TEMPLATES[id].name}</a>{" "}
                  <span className="muted">— {TEMPLATES[id].audience}</span>
                </li>
              ))}
            </ul>
          </div>
        </nav>
        <div className="stack">
          {rendered.map(({ id, email }) => (
            <section
              key={id}
              id={`template-${id}`}
              className="card"
              aria-labelledby={`template-${id}-title`}
            >
              <div className="card__header">
                <h2 id={`template-${id}-title`}>{TEMPLATES[id].name}</h2>
                <span className="badge badge--neutral">{id}</span>
              </div>
              <div className="card__body email-preview">
                <p>{TEMPLATES[id].description}</p>
                <dl className="email-preview__meta">
                  <dt>To</dt>
                  <dd>{TEMPLATES[id].audience}</dd>
                  <dt>Subject</dt>
                  <dd>{email.subject}</dd>
                </dl>
                <h3>HTML</h3>
                {/* sandbox="" : no scripts, no forms, no navigation; srcdoc keeps it same-page. */}
                <iframe
                  className="email-preview__frame"
                  title={`${TEMPLATES[id].name} email, HTML preview`}
                  sandbox=""
                  srcDoc={email.html}
                  loading="lazy"
                />
                <h3>Plain text</h3>
                <pre className="email-preview__text" tabIndex={0}>{email.text}</pre>
              </div>
            </section>
          ))}
        </div>
      </>,
    );
  });
