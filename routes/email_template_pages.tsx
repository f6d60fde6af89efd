import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import {
  ownViewerPage,
  requirePageRole,
  requirePageUser,
  settleViewer,
  viewerIdOf,
} from "./_auth.ts";
import { appPage, rememberedAppPage } from "./_app_page.tsx";
import { onInvalid } from "./_errors.tsx";
import {
  adminElseNotFound,
  EMAIL_NOT_FOUND,
  outboxRowView,
  viewOutboxMessage,
} from "./email_admin_api.ts";
import { Card, EmptyState, PageHeader } from "../components/AppPage.tsx";
import { Island } from "../components/Island.tsx";
import { AdminTabs } from "../components/AdminTabs.tsx";
import { TableRegion } from "../islands/_table.tsx";
import EmailOutbox, {
  attemptsText,
  formatOutboxTime,
  NOT_SENT_LABEL,
  outboxStatus,
} from "../islands/EmailOutbox.tsx";
import EmailTemplateEditor from "../islands/EmailTemplateEditor.tsx";
import { formatSavedAt, savedBy } from "../islands/_email_template.ts";
import { editorProps, isTemplateId } from "./email_template_api.ts";
import { type EmailTemplateVersion, getLatestVersions } from "../db/email_templates.ts";
import { getEmailTemplateListWithViewer } from "../db/email_template_list.ts";
import { isUuid } from "../db/users.ts";
import { listOutboxPage } from "../db/email_outbox_admin.ts";
import { EMAIL_CATALOG } from "../lib/mail/catalog.ts";
import { MAX_ATTEMPTS, type OutboxStatus } from "../lib/mail/outbox.ts";
import { type MailDelivery, mailDelivery } from "../lib/mail/delivery.ts";
import { TEMPLATE_IDS, TEMPLATES } from "../lib/mail/render.tsx";
import { samplePreview, samplePreviewPath } from "../lib/mail/sample_previews.ts";

const ACTIVE = "/admin/email-templates";
/** The list of emails reads its admin in its own statement. */
const LIST = ownViewerPage(ACTIVE, "admin");
const SENT_WINDOW_DAYS = 30;
const DAY_MS = 24 * 60 * 60_000;

const STATUSES: readonly { value: OutboxStatus; label: string }[] = [
  { value: "queued", label: "Queued" },
  { value: "sending", label: "Sending" },
  { value: "sent", label: "Sent" },
  { value: "failed", label: "Failed" },
];

/** The status filter's choices: waiting emails are "Not sent" when no mail server exists. */
function statusChoices(delivery: MailDelivery) {
  return STATUSES.filter((s) => delivery === "smtp" || s.value !== "sending").map((s) =>
    delivery === "none" && s.value === "queued" ? { ...s, label: NOT_SENT_LABEL } : s
  );
}

/** Said on the outbox pages when SMTP_URL is unset: nothing leaves, and what to do about it. */
function NoMailServer({ isOneMessage }: { isOneMessage: boolean }) {
  return (
    <p className="alert alert--warning email-outbox__no-server">
      <span>
        <strong>No mail server is configured</strong>{" "}
        (SMTP_URL is unset), so Meridian sends no email: every email stays here, unsent.{" "}
        {isOneMessage
          ? "To get this one to its recipient, pass its link on yourself."
          : "Open an email to read it and copy its links (an invitation's or a password reset's, for instance)."}
        {" "}
        Set SMTP_URL and restart to send the emails still waiting.
      </span>
    </p>
  );
}

/** The sample rendering of every template with the words it sends now (`current`). */
function templatePreviews(current: Map<string, EmailTemplateVersion>) {
  return Promise.all(
    TEMPLATE_IDS.map(async (id) => ({ id, email: await samplePreview(id, current.get(id)) })),
  );
}

/** "Default words" or "Version 3, saved by Jo Admin, Nov 21, 2026, 3:04 PM UTC". */
function wordsLine(saved: EmailTemplateVersion | undefined): string {
  if (!saved) return "Default words";
  const when = `saved by ${savedBy(saved)}, ${
    formatSavedAt(new Date(saved.createdAt).toISOString())
  }`;
  return saved.isReset
    ? `Default words (reset in version ${saved.version}, ${when})`
    : `Version ${saved.version}, ${when}`;
}

/** The two pages of the email admin, as tabs. */
function EmailTabs({ current }: { current: "templates" | "outbox" }) {
  const tabs = [
    { id: "templates", label: "Templates", href: "/admin/email-templates" },
    { id: "outbox", label: "Outbox", href: "/admin/email-outbox" },
  ] as const;
  return <AdminTabs label="Email sections" tabs={tabs} current={current} />;
}

/** `/admin/email-outbox` with these filters (and page cursor), empty ones left out. */
function outboxHref(q: { status?: string; template?: string; before?: string }): string {
  const params = new URLSearchParams();
  if (q.status) params.set("status", q.status);
  if (q.template) params.set("template", q.template);
  if (q.before) params.set("before", q.before);
  const search = params.toString();
  return search ? `/admin/email-outbox?${search}` : "/admin/email-outbox";
}

// A page's filters come from links and a form: a value that is not one of ours (an old
// bookmark, a hand-edited URL) is dropped rather than failing the page.
const OutboxQuery = z.object({
  status: z.enum(["queued", "sending", "sent", "failed"]).optional().catch(undefined),
  template: z.string().max(100).regex(/^[a-z0-9_]+$/).optional().catch(undefined),
  before: z.string().refine(isUuid).optional().catch(undefined),
});

/**
 * Admin pages of the email system (admins only: recipients are personal data).
 *
 * - `/admin/email-templates`: every transactional email (the registry in lib/mail/render.tsx)
 *   with what triggers it and who receives it (lib/mail/catalog.ts) and how many were sent in
 *   the last 30 days (one grouped query) and which saved words it uses, then each rendered
 *   with sample data and those words in a sandboxed frame that reads it when scrolled near.
 * - `/admin/email-templates/{id}/preview`: that email's HTML with sample data and the words it
 *   sends now, the document the previews' sandboxed frames read (framed by this origin only).
 * - `/admin/email-templates/{id}`: the words editor of one email (islands/EmailTemplateEditor.tsx,
 *   API in routes/email_template_api.ts); an id that is not a template is the 404 page.
 * - `/admin/email-outbox`: the outbox, newest first, filterable by status and template, in
 *   keyset pages of OUTBOX_PAGE_SIZE; failed emails have "Retry now" (islands/EmailOutbox.tsx).
 *   Without a mail server (SMTP_URL unset) it says so, and waiting emails read "Not sent".
 * - `/admin/email-outbox/{id}`: one message, as its recipient would get it: subject,
 *   recipient, status, attempts and last error, its links (an invitation's set-password link
 *   included, hence admins only: any other role gets the 404 page, and each view is audited),
 *   the HTML in a sandboxed frame and the plain text.
 */
export const emailTemplatePages = new Hono<AppEnv>()
  .get(LIST.path, LIST.guard, async (c) => {
    const since = new Date(Date.now() - SENT_WINDOW_DAYS * DAY_MS);
    // The admin, the saved words and the counts in one statement; shown only once the session
    // is settled with the user it read (routes/_auth.ts `ownViewerPage`).
    const { viewer, current, sent } = await getEmailTemplateListWithViewer(c.var.db, {
      viewerId: viewerIdOf(c),
      since,
    });
    const denied = await settleViewer(c, LIST, viewer);
    if (denied) return denied;
    const rendered = await templatePreviews(current);
    // Sent as it was last rendered while the words, the counts and the previews are the same
    // (routes/_remembered_pages.ts; a Map compares only as itself, so their entries): the
    // clock's one use, the counts' 30-day window, is in the counts.
    return rememberedAppPage(
      c,
      { title: "Email templates", active: ACTIVE },
      `email-templates ${viewerIdOf(c)}`,
      [[...current], [...sent], rendered],
      () => (
        <>
          <PageHeader
            title="Email templates"
            intro="Every email Meridian sends: what sends it, who receives it and how many went out in the last 30 days, then each one rendered with sample data. Open an email to edit its words and to read the plain text mail clients fall back to."
          />
          <EmailTabs current="templates" />
          <Card id="email-catalog-title" title="Emails Meridian sends">
            <TableRegion label="Emails">
              <table className="table table--cards email-catalog">
                <caption className="visually-hidden">
                  Each email with its trigger, its recipient and how many were sent in the last 30
                  days
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Email</th>
                    <th scope="col">Sent when</th>
                    <th scope="col">Sent to</th>
                    <th scope="col">Sent, last 30 days</th>
                  </tr>
                </thead>
                <tbody>
                  {TEMPLATE_IDS.map((id) => {
                    const count = sent.get(id) ?? 0;
                    return (
                      <tr key={id}>
                        <td data-label="Email">
                          <a href={`/admin/email-templates/${id}`}>{TEMPLATES[id].name}</a>
                          <span className="muted email-catalog__words">
                            {wordsLine(current.get(id))}
                            {" · "}
                            <a
                              href={`#template-${id}`}
                              aria-label={`Preview of ${TEMPLATES[id].name}`}
                            >
                              Preview
                            </a>
                          </span>
                        </td>
                        <td data-label="Sent when">{EMAIL_CATALOG[id].trigger}</td>
                        <td data-label="Sent to">{EMAIL_CATALOG[id].recipient}</td>
                        <td data-label="Sent, last 30 days" className="email-catalog__count">
                          <a
                            href={outboxHref({ template: id })}
                            aria-label={`${count} sent in the last 30 days: ${
                              TEMPLATES[id].name
                            } in the outbox`}
                          >
                            {count}
                          </a>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </TableRegion>
          </Card>
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
                  <a className="btn btn--secondary btn--sm" href={`/admin/email-templates/${id}`}>
                    Edit words<span className="visually-hidden">{` of ${TEMPLATES[id].name}`}</span>
                  </a>
                </div>
                <div className="card__body email-preview">
                  <p>{TEMPLATES[id].description}</p>
                  <dl className="email-preview__meta">
                    <dt>Subject</dt>
                    <dd>{email.subject}</dd>
                  </dl>
                  {
                    /* sandbox="": no scripts, forms or navigation. Read from its own address when
                  scrolled near, not inlined: the 22 emails' HTML was 257 KB of this page. */
                  }
                  <iframe
                    className="email-preview__frame"
                    title={`${TEMPLATES[id].name} email, HTML preview`}
                    sandbox=""
                    src={samplePreviewPath(id)}
                    loading="lazy"
                  />
                  <p>
                    <a href={`/admin/email-templates/${id}#plain-text`}>
                      Plain text<span className="visually-hidden">
                        {` of ${TEMPLATES[id].name}`}
                      </span>
                    </a>
                  </p>
                </div>
              </section>
            ))}
          </div>
        </>
      ),
    );
  })
  .get("/admin/email-templates/:id/preview", requirePageRole("admin"), async (c) => {
    const id = c.req.param("id");
    if (!isTemplateId(id)) throw new HTTPException(404, { message: "Not found" });
    const { current } = await getLatestVersions(c.var.db, { template: id });
    const email = await samplePreview(id, current);
    // Shown in this site's sandboxed frames only (the list's and the editor's previews).
    c.set("isFramedDocument", true);
    return c.html(email.html);
  })
  .get("/admin/email-templates/:id", requirePageRole("admin"), async (c) => {
    const id = c.req.param("id");
    if (!isTemplateId(id)) throw new HTTPException(404, { message: "Not found" });
    const def = TEMPLATES[id];
    const props = await editorProps(c.var.db, id, c.var.user!.email);
    return appPage(
      c,
      { title: `${def.name} email`, active: ACTIVE },
      <>
        <PageHeader
          title={`${def.name} email`}
          intro={
            <>
              <a href={ACTIVE}>All emails</a>
              {` · ${EMAIL_CATALOG[id].trigger} Sent to: ${
                EMAIL_CATALOG[id].recipient.replace(/\.$/, "")
              }. Edit the words here; the layout, links and facts stay as they are.`}
            </>
          }
        />
        <Island component={EmailTemplateEditor} hydrate="load" props={props} />
      </>,
    );
  })
  .get(
    "/admin/email-outbox",
    requirePageRole("admin"),
    zValidator("query", OutboxQuery, onInvalid),
    async (c) => {
      const { status, template, before } = c.req.valid("query");
      const page = await listOutboxPage(c.var.db, { status, template, before });
      // The cursor's row is gone from view (a stale link): start again from the newest.
      if (!page) return c.redirect(outboxHref({ status, template }), 302);
      const isFiltered = Boolean(status || template);
      const delivery = mailDelivery(c.var.deps.config);
      return appPage(
        c,
        { title: "Email outbox", active: ACTIVE },
        <>
          <PageHeader
            title="Email outbox"
            intro={`Every email waiting, sent or given up on, newest first; open one to read it and its links. A failed email was tried ${MAX_ATTEMPTS} times over about an hour; Retry now gives it one more try within a few seconds.`}
          />
          <EmailTabs current="outbox" />
          {delivery === "none" ? <NoMailServer isOneMessage={false} /> : null}
          <Card id="email-outbox-title" title="Messages">
            <form
              method="get"
              action="/admin/email-outbox"
              className="cluster email-outbox__filters"
            >
              <div className="field">
                <label className="field__label" htmlFor="outbox-status">Status</label>
                <select
                  id="outbox-status"
                  name="status"
                  className="field__input"
                  defaultValue={status ?? ""}
                >
                  <option value="">All statuses</option>
                  {statusChoices(delivery).map((s) => (
                    <option key={s.value} value={s.value}>{s.label}</option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label className="field__label" htmlFor="outbox-template">Email</label>
                <select
                  id="outbox-template"
                  name="template"
                  className="field__input"
                  defaultValue={template ?? ""}
                >
                  <option value="">All emails</option>
                  {TEMPLATE_IDS.map((id) => (
                    <option key={id} value={id}>{TEMPLATES[id].name}</option>
                  ))}
                </select>
              </div>
              <button type="submit" className="btn btn--primary">Filter</button>
              {isFiltered ? <a href="/admin/email-outbox">Clear filters</a> : null}
            </form>
            {page.items.length === 0
              ? (
                <EmptyState title={isFiltered ? "No emails match" : "No emails yet"}>
                  {isFiltered
                    ? "No email in the outbox has this status and template."
                    : "Emails appear here as soon as Meridian queues them."}
                </EmptyState>
              )
              : (
                <Island
                  component={EmailOutbox}
                  props={{ rows: page.items.map(outboxRowView), delivery }}
                  hydrate="idle"
                />
              )}
            {before || page.nextBefore
              ? (
                <nav className="survey-pager" aria-label="Pages">
                  {before
                    ? (
                      <a
                        className="btn btn--secondary btn--sm"
                        href={outboxHref({ status, template })}
                      >
                        Newest
                      </a>
                    )
                    : null}
                  {page.nextBefore
                    ? (
                      <a
                        className="btn btn--secondary btn--sm"
                        href={outboxHref({ status, template, before: page.nextBefore })}
                      >
                        Older
                      </a>
                    )
                    : null}
                </nav>
              )
              : null}
          </Card>
        </>,
      );
    },
  )
  .get(
    "/admin/email-outbox/:id",
    requirePageUser,
    adminElseNotFound,
    async (c) => {
      const id = c.req.param("id");
      const email = isUuid(id) ? await viewOutboxMessage(c, id) : undefined;
      if (!email) throw new HTTPException(404, { message: EMAIL_NOT_FOUND });
      const status = outboxStatus(email.status, email.delivery);
      const isWaiting = email.status === "queued" || email.status === "sending";
      return appPage(
        c,
        { title: `Email: ${email.subject}`, active: ACTIVE },
        <>
          <PageHeader
            title={email.subject}
            intro={
              <>
                <a href="/admin/email-outbox">All emails in the outbox</a>
                <span className="email-message__intro">
                  {` · ${email.templateName} email to ${email.toAddress}`}
                </span>
              </>
            }
          />
          {email.delivery === "none" && isWaiting ? <NoMailServer isOneMessage /> : null}
          <Card id="email-message-title" title="Delivery">
            <dl className="email-preview__meta email-message__meta">
              <dt>To</dt>
              <dd>{email.toAddress}</dd>
              <dt>Subject</dt>
              <dd>{email.subject}</dd>
              <dt>Email</dt>
              <dd>
                <a href={`/admin/email-templates/${email.template}`}>{email.templateName}</a>
              </dd>
              <dt>Status</dt>
              <dd>
                <span className={`badge ${status.badge}`}>{status.label}</span>{" "}
                <span className="muted">{attemptsText(email.attempts)}</span>
              </dd>
              {email.lastError && email.status !== "sent"
                ? (
                  <>
                    <dt>Last error</dt>
                    <dd className="email-outbox__error">{email.lastError}</dd>
                  </>
                )
                : null}
              <dt>Queued</dt>
              <dd>{formatOutboxTime(email.createdAt)}</dd>
              <dt>Sent</dt>
              <dd>{email.sentAt ? formatOutboxTime(email.sentAt) : "Not yet"}</dd>
            </dl>
          </Card>
          <Card id="email-links-title" title="Links in this email">
            {email.links.length === 0 ? <p className="muted">This email has no links.</p> : (
              <>
                <p className="muted">
                  Links can be personal (a set-password link signs its holder in): pass one only to
                  this email's recipient.
                </p>
                <ul className="email-message__links">
                  {email.links.map((link) => (
                    <li key={link.href}>
                      {link.text
                        ? <span className="email-message__link-text">{link.text}</span>
                        : null}
                      <a href={link.href} rel="noreferrer">{link.href}</a>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </Card>
          <section className="card" aria-labelledby="email-body-title">
            <div className="card__header">
              <h2 id="email-body-title">The email as sent</h2>
            </div>
            <div className="card__body email-preview">
              <h3>HTML</h3>
              {/* sandbox="" : no scripts, no forms, no navigation; srcdoc keeps it same-page. */}
              <iframe
                className="email-preview__frame"
                title={`${email.subject}, HTML`}
                sandbox=""
                srcDoc={email.html}
              />
              <h3>Plain text</h3>
              <pre className="email-preview__text" tabIndex={0}>{email.text}</pre>
            </div>
          </section>
        </>,
      );
    },
  );
