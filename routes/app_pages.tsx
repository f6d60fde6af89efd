import type { ReactNode } from "react";
import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppContext, AppEnv, SessionUser } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { dashboardPath, requirePageRole, requirePageUser } from "./_auth.ts";
import { renderPage } from "../components/render.tsx";
import { AppLayout } from "../components/AppLayout.tsx";
import { Island } from "../components/Island.tsx";
import ImpersonateButton from "../islands/ImpersonateButton.tsx";
import { getUserById, isUuid, listUsers, type User } from "../db/users.ts";
import {
  type RenderedEmail,
  renderEmail,
  TEMPLATE_IDS,
  type TemplateId,
  TEMPLATES,
} from "../lib/mail/render.tsx";

const SURVEYORS_PAGE_SIZE = 25;

/** Renders `body` inside the signed-in layout (the guard has already set `c.var.user`). */
function appPage(
  c: AppContext,
  meta: { title: string; active?: string },
  body: ReactNode,
  status: 200 | 404 = 200,
): Response {
  const user = c.var.user!;
  return c.html(
    renderPage(
      c,
      { title: meta.title, noindex: true, bodyClass: "app" },
      <AppLayout
        user={user}
        isImpersonating={Boolean(c.var.session?.impersonatorId)}
        active={meta.active}
      >
        {body}
      </AppLayout>,
    ),
    status,
  );
}

function PageHeader(
  { title, intro, actions }: { title: string; intro?: ReactNode; actions?: ReactNode },
) {
  return (
    <header className="app-page-header">
      <div>
        <h1>{title}</h1>
        {intro ? <p>{intro}</p> : null}
      </div>
      {actions ? <div className="cluster">{actions}</div> : null}
    </header>
  );
}

function EmptyState(
  { title, children, action }: { title: string; children: ReactNode; action?: ReactNode },
) {
  return (
    <div className="empty-state">
      <h2>{title}</h2>
      <p className="muted">{children}</p>
      {action ? <p>{action}</p> : null}
    </div>
  );
}

function firstName(user: SessionUser): string {
  return user.fullName.trim().split(/\s+/)[0] || user.fullName;
}

function formatDate(iso: string | null): string {
  if (!iso) return "Never";
  return new Date(iso).toLocaleDateString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}

/** Profile completeness: surveyors and technicians are reached by phone. */
function ProfileStep({ user }: { user: SessionUser }) {
  const missing = [user.companyName ? "" : "company", user.phone ? "" : "phone number"].filter(
    Boolean,
  );
  return (
    <li>
      <div>
        <strong>Complete your profile.</strong> {missing.length
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
      </div>
    </li>
  );
}

function NotFoundInApp(
  { title, text, back }: { title: string; text: string; back: { href: string; label: string } },
) {
  return (
    <>
      <PageHeader title={title} />
      <EmptyState
        title={title}
        action={<a className="btn btn--primary" href={back.href}>{back.label}</a>}
      >
        {text}
      </EmptyState>
    </>
  );
}

// Any id string is accepted here; an unknown or malformed one is the same 404 page.
const IdParam = z.object({ id: z.string() });
const SurveyIdParam = z.object({ surveyId: z.string() });
const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).optional().catch(undefined),
});

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

function SurveyorRow({ user }: { user: User }) {
  return (
    <tr>
      <th scope="row">
        <a href={`/surveyor-detail/${user.id}`}>{user.fullName}</a>
      </th>
      <td>{user.email}</td>
      <td>{user.companyName ?? <span className="muted">—</span>}</td>
      <td>{user.phone ?? <span className="muted">—</span>}</td>
      <td>{formatDate(user.createdAt)}</td>
      <td>{formatDate(user.lastLogin)}</td>
      <td>
        {user.disabledAt
          ? <span className="badge badge--danger">Disabled</span>
          : <span className="badge badge--success">Active</span>}
      </td>
      <td>
        {user.disabledAt ? null : (
          <Island
            component={ImpersonateButton}
            props={{ userId: user.id, name: user.fullName }}
            hydrate="idle"
          />
        )}
      </td>
    </tr>
  );
}

/**
 * Signed-in pages: /dashboard (redirect by role), the surveyor and technician areas and the
 * admin pages owned here. Signed-out visitors go to /auth?returnTo=…; the wrong role gets the
 * 403 page, decided on the server.
 */
export const appPages = new Hono<AppEnv>()
  .get("/dashboard", requirePageUser, (c) => c.redirect(dashboardPath(c.var.user!.role), 302))
  // Surveyor area
  .get("/surveyor-dashboard", requirePageRole("surveyor"), (c) => {
    const user = c.var.user!;
    return appPage(
      c,
      { title: "Surveyor dashboard", active: "/surveyor-dashboard" },
      <>
        <PageHeader
          title={`Welcome, ${firstName(user)}`}
          intro="Your surveyor dashboard: new leads near you, the leads you bought, and your profile."
        />
        <div className="grid-2">
          <section className="card" aria-labelledby="leads-heading">
            <div className="card__header">
              <h2 id="leads-heading">Leads</h2>
            </div>
            <div className="card__body stack">
              <p>
                <strong>No leads yet.</strong>{" "}
                When a client near you requests a survey, it appears under Available leads and the
                bell at the top of the page lets you know.
              </p>
              <p className="cluster">
                <a className="btn btn--primary btn--sm" href="/leads">Available leads</a>
                <a className="btn btn--secondary btn--sm" href="/surveyor/purchased-leads">
                  Purchased leads
                </a>
              </p>
            </div>
          </section>
          <section className="card" aria-labelledby="next-heading">
            <div className="card__header">
              <h2 id="next-heading">What's next</h2>
            </div>
            <div className="card__body">
              <ol className="app-steps">
                <ProfileStep user={user} />
                <li>
                  <div>
                    <strong>Watch for new leads.</strong>{" "}
                    Each lead shows the property, the survey type and the lead price before you buy
                    it.
                  </div>
                </li>
                <li>
                  <div>
                    <strong>Contact the client.</strong>{" "}
                    Once you buy a lead, call the client to confirm the details and schedule the
                    visit; clients expect a reply within 48 hours.
                  </div>
                </li>
              </ol>
            </div>
          </section>
        </div>
        <p className="muted app-note">
          Lead matching is being switched on region by region; your leads will show here as soon as
          it reaches your area.
        </p>
      </>,
    );
  })
  .get("/leads", requirePageRole("surveyor"), (c) =>
    appPage(
      c,
      { title: "Available leads", active: "/leads" },
      <>
        <PageHeader
          title="Available leads"
          intro="Survey requests near you that you can buy or claim."
        />
        <EmptyState
          title="No leads yet"
          action={<a className="btn btn--secondary" href="/profile">Check your profile</a>}
        >
          There are no open survey requests in your area right now. When a client nearby asks for a
          survey, it will be listed here with its price, and you will get a notification.
        </EmptyState>
      </>,
    ))
  .get("/surveyor/purchased-leads", requirePageRole("surveyor"), (c) =>
    appPage(
      c,
      { title: "Purchased leads", active: "/surveyor/purchased-leads" },
      <>
        <PageHeader
          title="Purchased leads"
          intro="The leads you bought, with the client's contact details."
        />
        <EmptyState
          title="No purchased leads yet"
          action={<a className="btn btn--primary" href="/leads">Browse available leads</a>}
        >
          Leads you buy appear here with the client's name, phone and property address, so you can
          get in touch and schedule the survey.
        </EmptyState>
      </>,
    ))
  .get(
    "/surveyor/purchased-leads/:id",
    requirePageRole("surveyor"),
    zValidator("param", IdParam, onInvalid),
    (c) =>
      // No lead belongs to anyone until lead purchasing exists: every id is one the surveyor
      // may not see, which is a 404.
      appPage(
        c,
        { title: "Lead not found", active: "/surveyor/purchased-leads" },
        <NotFoundInApp
          title="Lead not found"
          text="This lead is not among your purchased leads, or it no longer exists."
          back={{ href: "/surveyor/purchased-leads", label: "Back to purchased leads" }}
        />,
        404,
      ),
  )
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
          <section className="card" aria-labelledby="assigned-heading">
            <div className="card__header">
              <h2 id="assigned-heading">Assigned surveys</h2>
            </div>
            <div className="card__body">
              <p>
                <strong>No surveys assigned yet.</strong>{" "}
                When our team assigns you to a survey, it appears here with the property address,
                the survey type and any notes for the field visit.
              </p>
            </div>
          </section>
          <section className="card" aria-labelledby="next-heading">
            <div className="card__header">
              <h2 id="next-heading">What's next</h2>
            </div>
            <div className="card__body">
              <ol className="app-steps">
                <ProfileStep user={user} />
                <li>
                  <div>
                    <strong>Wait for an assignment.</strong>{" "}
                    The bell at the top of the page tells you when you are assigned.
                  </div>
                </li>
                <li>
                  <div>
                    <strong>Open the survey.</strong>{" "}
                    Each assignment has its own page with the details you need on site.
                  </div>
                </li>
              </ol>
            </div>
          </section>
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
      appPage(
        c,
        { title: "Survey not found", active: "/technician-dashboard" },
        <NotFoundInApp
          title="Survey not found"
          text="This survey is not assigned to you, or it no longer exists."
          back={{ href: "/technician-dashboard", label: "Back to your dashboard" }}
        />,
        404,
      ),
  )
  // Admin pages owned here (/admin-dashboard, /pricing-algorithm and /regrid-api-test live
  // with their features).
  .get("/admin", requirePageRole("admin"), (c) => c.redirect("/admin-dashboard", 302))
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
  })
  .get(
    "/surveyors",
    requirePageRole("admin"),
    zValidator("query", PageQuery, onInvalid),
    async (c) => {
      const page = c.req.valid("query").page ?? 1;
      const { users, total } = await listUsers(c.var.db, {
        role: "surveyor",
        limit: SURVEYORS_PAGE_SIZE,
        offset: (page - 1) * SURVEYORS_PAGE_SIZE,
      });
      const pages = Math.max(1, Math.ceil(total / SURVEYORS_PAGE_SIZE));
      return appPage(
        c,
        { title: "Surveyors", active: "/surveyors" },
        <>
          <PageHeader
            title="Surveyors"
            intro={`${total} surveyor account${
              total === 1 ? "" : "s"
            }. Open one for details, or view the site as that surveyor.`}
          />
          {users.length === 0
            ? (
              <EmptyState title="No surveyor accounts yet">
                Surveyor accounts are created with{" "}
                <code>deno task user create --role surveyor</code>. The network directory (coverage
                areas, contacts and contact history) arrives with the surveyor management work.
              </EmptyState>
            )
            : (
              <div className="table-wrap">
                <table className="table">
                  <caption className="visually-hidden">
                    Surveyor accounts, page {page} of {pages}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Email</th>
                      <th scope="col">Company</th>
                      <th scope="col">Phone</th>
                      <th scope="col">Joined</th>
                      <th scope="col">Last sign-in</th>
                      <th scope="col">Status</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {users.map((user) => <SurveyorRow key={user.id} user={user} />)}
                  </tbody>
                </table>
              </div>
            )}
          {pages > 1
            ? (
              <nav className="cluster" aria-label="Pages">
                {page > 1
                  ? (
                    <a className="btn btn--secondary btn--sm" href={`/surveyors?page=${page - 1}`}>
                      Previous
                    </a>
                  )
                  : null}
                <span className="muted">Page {page} of {pages}</span>
                {page < pages
                  ? (
                    <a className="btn btn--secondary btn--sm" href={`/surveyors?page=${page + 1}`}>
                      Next
                    </a>
                  )
                  : null}
              </nav>
            )
            : null}
        </>,
      );
    },
  )
  .get(
    "/surveyor-detail/:id",
    requirePageRole("admin"),
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const surveyor = isUuid(id) ? await getUserById(c.var.db, id) : undefined;
      if (!surveyor || surveyor.role !== "surveyor") {
        return appPage(
          c,
          { title: "Surveyor not found", active: "/surveyors" },
          <NotFoundInApp
            title="Surveyor not found"
            text="There is no surveyor with this id. It may have been removed, or the link is wrong."
            back={{ href: "/surveyors", label: "Back to surveyors" }}
          />,
          404,
        );
      }
      return appPage(
        c,
        { title: surveyor.fullName, active: "/surveyors" },
        <>
          <PageHeader
            title={surveyor.fullName}
            intro={surveyor.companyName ?? "Independent surveyor"}
            actions={surveyor.disabledAt ? null : (
              <Island
                component={ImpersonateButton}
                props={{ userId: surveyor.id, name: surveyor.fullName }}
                hydrate="idle"
              />
            )}
          />
          <div className="grid-2">
            <section className="card" aria-labelledby="contact-heading">
              <div className="card__header">
                <h2 id="contact-heading">Account</h2>
                {surveyor.disabledAt
                  ? <span className="badge badge--danger">Disabled</span>
                  : <span className="badge badge--success">Active</span>}
              </div>
              <div className="card__body">
                <dl className="email-preview__meta">
                  <dt>Email</dt>
                  <dd>
                    <a href={`mailto:${surveyor.email}`}>{surveyor.email}</a>
                  </dd>
                  <dt>Phone</dt>
                  <dd>
                    {surveyor.phone
                      ? <a href={`tel:${surveyor.phone}`}>{surveyor.phone}</a>
                      : "Not given"}
                  </dd>
                  <dt>Company</dt>
                  <dd>{surveyor.companyName ?? "Not given"}</dd>
                  <dt>Joined</dt>
                  <dd>{formatDate(surveyor.createdAt)}</dd>
                  <dt>Last sign-in</dt>
                  <dd>{formatDate(surveyor.lastLogin)}</dd>
                </dl>
              </div>
            </section>
            <section className="card" aria-labelledby="network-heading">
              <div className="card__header">
                <h2 id="network-heading">Network details</h2>
              </div>
              <div className="card__body">
                <p className="muted">
                  Coverage area, contacts, contact history and assigned surveys arrive with the
                  surveyor management work. Until then, this page shows the account itself.
                </p>
              </div>
            </section>
          </div>
          <p>
            <a href="/surveyors">← Back to surveyors</a>
          </p>
        </>,
      );
    },
  );
