import type { ReactNode } from "react";
import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppContext, AppEnv, SessionUser } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { dashboardPath, requirePageRole, requirePageUser } from "./_auth.ts";
import { appPage } from "./_app_page.tsx";
import { Card, EmptyState, PageHeader } from "../components/AppPage.tsx";
import {
  type RenderedEmail,
  renderEmail,
  TEMPLATE_IDS,
  type TemplateId,
  TEMPLATES,
} from "../lib/mail/render.tsx";

function firstName(user: SessionUser): string {
  return user.fullName.trim().split(/\s+/)[0] || user.fullName;
}

/** One numbered step of a dashboard's "What's next" list. */
function Step({ title, children }: { title: string; children: ReactNode }) {
  return (
    <li>
      <div>
        <strong>{title}</strong> {children}
      </div>
    </li>
  );
}

/** The dashboards' "What's next" card: completing the profile, then the role's own steps. */
function NextSteps({ user, children }: { user: SessionUser; children: ReactNode }) {
  return (
    <Card id="next-heading" title="What's next">
      <ol className="app-steps">
        <ProfileStep user={user} />
        {children}
      </ol>
    </Card>
  );
}

/** Profile completeness: surveyors and technicians are reached by phone. */
function ProfileStep({ user }: { user: SessionUser }) {
  const missing = [user.companyName ? "" : "company", user.phone ? "" : "phone number"].filter(
    Boolean,
  );
  return (
    <Step title="Complete your profile.">
      {missing.length
        ? (
          <>
            Add your {missing.join(" and ")} so clients and our team can reach you.{" "}
            <a href="/profile">Edit profile</a>
          </>
        )
        : (
          <>
            Done: your company and phone are on file. <a href="/profile">Review</a>
          </>
        )}
    </Step>
  );
}

/** The in-app 404 page for an object the user may not see (or that does not exist). */
function notFoundPage(c: AppContext, { title, active, text, back }: {
  title: string;
  active: string;
  text: string;
  back: { href: string; label: string };
}): Promise<Response> {
  return appPage(
    c,
    { title, active },
    <>
      <PageHeader title={title} />
      <EmptyState
        title={title}
        action={<a className="btn btn--primary" href={back.href}>{back.label}</a>}
      >
        {text}
      </EmptyState>
    </>,
    404,
  );
}

// Any id string is accepted here; an unknown or malformed one is the same 404 page.
const SurveyIdParam = z.object({ surveyId: z.string() });

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
 * Signed-in pages: /dashboard (redirect by role), the surveyor and technician areas and the
 * admin pages owned here. Signed-out visitors go to /auth?returnTo=…; the wrong role gets the
 * 403 page, decided on the server.
 */
export const appPages = new Hono<AppEnv>()
  .get("/dashboard", requirePageUser, (c) => c.redirect(dashboardPath(c.var.user!.role), 302))
  // The surveyor area is routes/surveyor_dashboard.tsx, routes/lead_pages.tsx and
  // routes/purchased_lead_pages.tsx.
  // Technician area
  .get("/technician-dashboard", requirePageRole("technician"), (c) => {
    const user = c.var.user!;
    return appPage(
      c,
      { title: "Technician dashboard", active: "/technician-dashboard" },
      <>
        <PageHeader
          title={`Welcome, ${firstName(user)}`}
          intro="Your technician dashboard: the surveys you are assigned to."
        />
        <div className="grid-2">
          <Card id="assigned-heading" title="Assigned surveys">
            <p>
              <strong>No surveys assigned yet.</strong>{" "}
              When our team assigns you to a survey, it appears here with the property address, the
              survey type and any notes for the field visit.
            </p>
          </Card>
          <NextSteps user={user}>
            <Step title="Wait for an assignment.">
              The bell at the top of the page tells you when you are assigned.
            </Step>
            <Step title="Open the survey.">
              Each assignment has its own page with the details you need on site.
            </Step>
          </NextSteps>
        </div>
      </>,
    );
  })
  .get(
    "/technician-survey-detail/:surveyId",
    requirePageRole("technician"),
    zValidator("param", SurveyIdParam, onInvalid),
    (c) =>
      // Technician assignments do not exist yet, so no survey is visible to anyone here.
      notFoundPage(c, {
        title: "Survey not found",
        active: "/technician-dashboard",
        text: "This survey is not assigned to you, or it no longer exists.",
        back: { href: "/technician-dashboard", label: "Back to your dashboard" },
      }),
  )
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
