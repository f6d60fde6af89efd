import type { ReactNode } from "react";
import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppContext, AppEnv, SessionUser } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { dashboardPath, requirePageRole, requirePageUser } from "./_auth.ts";
import { appPage } from "./_app_page.tsx";
import { Card, EmptyState, PageHeader, Pager } from "../components/AppPage.tsx";
import { formatDate } from "../components/survey/format.ts";
import { Island } from "../components/Island.tsx";
import ImpersonateButton from "../islands/ImpersonateButton.tsx";
import { TableRegion } from "../islands/_table.tsx";
import { getUserById, isUuid, listUsers, type User } from "../db/users.ts";
import {
  type RenderedEmail,
  renderEmail,
  TEMPLATE_IDS,
  type TemplateId,
  TEMPLATES,
} from "../lib/mail/render.tsx";

const SURVEYORS_PAGE_SIZE = 25;

function firstName(user: SessionUser): string {
  return user.fullName.trim().split(/\s+/)[0] || user.fullName;
}

/** A sign-in or join date; an account that never signed in says so. */
function formatDay(iso: string | null): string {
  return iso ? formatDate(iso) : "Never";
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

/** Active or Disabled, for an account. */
function AccountStatus({ user }: { user: User }) {
  return user.disabledAt
    ? <span className="badge badge--danger">Disabled</span>
    : <span className="badge badge--success">Active</span>;
}

/** The button that lets an admin view the site as `user` (not for disabled accounts). */
function ImpersonateAction({ user }: { user: User }) {
  return (
    <Island
      component={ImpersonateButton}
      props={{ userId: user.id, name: user.fullName }}
      hydrate="idle"
    />
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
      <td data-label="Email" className="surveyors__email">{user.email}</td>
      <td data-label="Company">{user.companyName ?? <span className="muted">—</span>}</td>
      <td data-label="Phone">{user.phone ?? <span className="muted">—</span>}</td>
      <td data-label="Joined">{formatDay(user.createdAt)}</td>
      <td data-label="Last sign-in">{formatDay(user.lastLogin)}</td>
      <td data-label="Status">
        <AccountStatus user={user} />
      </td>
      <td className="table__actions-cell">
        <div className="table__actions">
          {user.disabledAt ? null : <ImpersonateAction user={user} />}
        </div>
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
          <Card id="leads-heading" title="Leads" bodyClass="stack">
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
          </Card>
          <NextSteps user={user}>
            <Step title="Watch for new leads.">
              Each lead shows the property, the survey type and the lead price before you buy it.
            </Step>
            <Step title="Contact the client.">
              Once you buy a lead, call the client to confirm the details and schedule the visit;
              clients expect a reply within 48 hours.
            </Step>
          </NextSteps>
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
      notFoundPage(c, {
        title: "Lead not found",
        active: "/surveyor/purchased-leads",
        text: "This lead is not among your purchased leads, or it no longer exists.",
        back: { href: "/surveyor/purchased-leads", label: "Back to purchased leads" },
      }),
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
  // Admin pages owned here (/admin is routes/admin_pages.tsx; /admin-dashboard,
  // /pricing-algorithm and /regrid-api-test live with their features).
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
              <TableRegion label="Surveyors">
                <table className="table table--cards">
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
                      <th scope="col" className="table__actions-cell">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {users.map((user) => <SurveyorRow key={user.id} user={user} />)}
                  </tbody>
                </table>
              </TableRegion>
            )}
          <Pager page={page} total={total} pageSize={SURVEYORS_PAGE_SIZE} path="/surveyors" />
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
        return notFoundPage(c, {
          title: "Surveyor not found",
          active: "/surveyors",
          text:
            "There is no surveyor with this id. It may have been removed, or the link is wrong.",
          back: { href: "/surveyors", label: "Back to surveyors" },
        });
      }
      return appPage(
        c,
        { title: surveyor.fullName, active: "/surveyors" },
        <>
          <PageHeader
            title={surveyor.fullName}
            intro={surveyor.companyName ?? "Independent surveyor"}
            actions={surveyor.disabledAt ? null : <ImpersonateAction user={surveyor} />}
          />
          <div className="grid-2">
            <Card
              id="contact-heading"
              title="Account"
              aside={<AccountStatus user={surveyor} />}
            >
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
                <dd>{formatDay(surveyor.createdAt)}</dd>
                <dt>Last sign-in</dt>
                <dd>{formatDay(surveyor.lastLogin)}</dd>
              </dl>
            </Card>
            <Card id="network-heading" title="Network details">
              <p className="muted">
                Coverage area, contacts, contact history and assigned surveys arrive with the
                surveyor management work. Until then, this page shows the account itself.
              </p>
            </Card>
          </div>
          <p>
            <a href="/surveyors">← Back to surveyors</a>
          </p>
        </>,
      );
    },
  );
