import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import {
  ownViewerPage,
  requirePageUser,
  settleViewer,
  viewerIdOf,
  viewerRoleGuess,
} from "./_auth.ts";
import { renderPage } from "../components/render.tsx";
import { AppLayout } from "../components/AppLayout.tsx";
import { rememberedAppPage } from "./_app_page.tsx";
import { Card, EmptyState, PageHeader, Pager } from "../components/AppPage.tsx";
import { PublicLayout } from "../components/PublicLayout.tsx";
import { Island } from "../components/Island.tsx";
import AssignTechnician from "../islands/AssignTechnician.tsx";
import { assignTechnicianProps, isTechnicianAssignable } from "../lib/technicians.ts";
import { SurveyCard, surveyTitle } from "../components/survey/SurveyCard.tsx";
import { surveyPageCardsHtml } from "../components/survey/SurveyPageCards.tsx";
import { SurveyTimeline } from "../components/survey/SurveyTimeline.tsx";
import { StatusBadge } from "../components/survey/StatusBadge.tsx";
import { AWAITING_SURVEYOR_LABEL, isAwaitingSurveyor } from "../components/survey/SurveyFacts.tsx";
import CreateSurvey from "../islands/CreateSurvey.tsx";
import { isGoogleSignInConfigured } from "../lib/oauth/google.ts";
import CancelSurveyButton from "../islands/CancelSurveyButton.tsx";
import AdminSurveys, { type AdminSurveyFilters } from "../islands/AdminSurveys.tsx";
import Toaster from "../islands/Toaster.tsx";
import {
  getAdminDashboard,
  getSurveyPageData,
  getSurveyPageDataWithViewer,
  listClientSurveysWithEvents,
} from "../db/surveys.ts";
import { getUserWithUnreadCount } from "../db/users.ts";
import { DEFAULT_PAGE_SIZE } from "../lib/survey_schema.ts";
import { CLIENT_CANCELLABLE, STATUS_INFO, SURVEY_STATUSES } from "../lib/survey_status.ts";
import { SURVEY_TYPE_INFO, SURVEY_TYPES } from "../lib/survey_types.ts";
import { singleLine } from "../lib/text.ts";
import { formatInteger } from "../lib/numbers.ts";
import { assignSurveyorProps, DispatchCard } from "../components/DispatchCard.tsx";
import { surveyDispatchCard } from "../lib/dispatch.ts";
import { DeliveryCards } from "../components/SurveyDelivery.tsx";
import {
  DashboardProposals,
  firstProposalAt,
  SurveyProposalsCard,
} from "../components/Proposals.tsx";
import { MessagesCard } from "../components/MessagesCard.tsx";
import { loadMessagesCard, preferredThreadId } from "../lib/messages.ts";
import { htmlResponse } from "./_html_response.ts";

/** Client dashboard page size. */
export const CLIENT_PAGE_SIZE = 10;

/** The client dashboard, which reads its viewer in its own statement. */
const CLIENT_DASHBOARD = ownViewerPage("/client-dashboard", "client");
/** A request's page, for its client and admins, which reads its viewer in its own statement. */
const SURVEY_PAGE = ownViewerPage("/survey/:id", null);
/** The admins' dashboard, which reads its viewer in its own statement. */
const ADMIN_DASHBOARD = ownViewerPage("/admin-dashboard", "admin");

/**
 * A query value read only as short text; anything odd (arrays, huge strings, control
 * characters) is ignored.
 */
const text = (label: string, max: number) => singleLine(label, { max }).optional().catch(undefined);

const CreateSurveyQuery = z.object({ address: text("Address", 300) });
const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).optional().catch(undefined),
});
// Anything but a uuid names no survey: it becomes "" and then the 404 page, never a 400.
const IdParam = z.object({ id: z.string().max(100).catch("") });

// The admin table's filters come from the URL: an invalid one is dropped, never a 400 page.
const AdminDashboardQuery = z.object({
  status: z.enum(SURVEY_STATUSES).optional().catch(undefined),
  surveyType: z.enum(SURVEY_TYPES).optional().catch(undefined),
  from: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
  q: text("Search", 200),
  page: z.coerce.number().int().min(1).max(100_000).optional().catch(undefined),
});

/**
 * Survey pages: the request flow (/create-survey, public), the client dashboard, a request's
 * page (/survey/{id}) and the admin dashboard with its surveys table.
 */
export const surveyPages = new Hono<AppEnv>()
  .get("/create-survey", zValidator("query", CreateSurveyQuery, onInvalid), (c) => {
    const user = c.var.user;
    const { address = "" } = c.req.valid("query");
    c.header("Cache-Control", "private, no-store");
    const island = (
      <Island
        component={CreateSurvey}
        props={{
          user: user
            ? {
              id: user.id,
              fullName: user.fullName,
              email: user.email,
              role: user.role,
              phone: user.phone,
            }
            : null,
          initialAddress: address.trim(),
          hasGoogleSignIn: isGoogleSignInConfigured(c.var.deps.config),
        }}
        hydrate="load"
      />
    );
    const intro = (
      <header className="page-header cs-page-header">
        <h1>Get your free survey quote</h1>
        <p>
          Six short steps, an instant price, and no payment: a licensed surveyor near the property
          confirms the details with you before any work starts.
        </p>
        <noscript>
          <p className="alert alert--warning">
            The instant quote needs JavaScript. Please turn it on, or{" "}
            <a href="/support/contact">contact us</a> for a quote by email.
          </p>
        </noscript>
      </header>
    );
    const meta = {
      title: "Get a Free Survey Quote",
      description:
        "Request a land survey and get an instant, free quote: boundary, topographic, ALTA, elevation certificate, construction or subdivision. No upfront payment.",
      path: "/create-survey",
    };
    if (user) {
      return htmlResponse(
        c,
        renderPage(
          c,
          { ...meta, bodyClass: "app" },
          <AppLayout
            user={user}
            isImpersonating={Boolean(c.var.session?.impersonatorId)}
            active="/create-survey"
          >
            {intro}
            {island}
          </AppLayout>,
        ),
      );
    }
    return htmlResponse(
      c,
      renderPage(
        c,
        meta,
        <PublicLayout>
          <div className="container cs-page">
            {intro}
            {island}
          </div>
          <Island component={Toaster} props={{}} hydrate="load" />
        </PublicLayout>,
      ),
    );
  })
  .get(
    CLIENT_DASHBOARD.path,
    CLIENT_DASHBOARD.guard,
    zValidator("query", PageQuery, onInvalid),
    async (c) => {
      const page = c.req.valid("query").page ?? 1;
      const clientId = viewerIdOf(c);
      // The client with the bell's unread count, the page, the count, the timelines and the
      // proposals in one statement, read for the session's user; shown only once the session
      // is settled with the user it read (routes/_auth.ts `ownViewerPage`).
      const { client, surveys, total, events, proposals, leadExpiredAt } =
        await listClientSurveysWithEvents(
          c.var.db,
          {
            clientId,
            viewer: { id: clientId, role: "client" },
            page,
            pageSize: CLIENT_PAGE_SIZE,
            withClient: true,
          },
        );
      const denied = await settleViewer(c, CLIENT_DASHBOARD, client);
      if (denied) return denied;
      const newRequest = (
        <a className="btn btn--primary" href="/create-survey">Request another survey</a>
      );
      // Remembered whole while its data is (routes/_remembered_pages.ts): the render reads only
      // these values, the page number and the shell; the one clock it shows, the leads'
      // expiries, ends the snapshot cache's entry and so these objects.
      return rememberedAppPage(
        c,
        { title: "My surveys", active: "/client-dashboard" },
        `client-dashboard ${clientId} ${page}`,
        [page, surveys, total, events, proposals, leadExpiredAt],
        () => (
          <>
            <PageHeader
              title="My surveys"
              intro="Track your requests from quote to final survey."
              actions={total > 0 ? newRequest : undefined}
            />
            {total === 0
              ? (
                <EmptyState
                  title="No survey requests yet"
                  action={
                    <a className="btn btn--primary" href="/create-survey">Get a free quote</a>
                  }
                >
                  Get an instant, free quote for your property in a few minutes. No payment needed.
                </EmptyState>
              )
              : (
                <div className="stack survey-list">
                  {surveys.map((s) => (
                    <SurveyCard
                      key={s.id}
                      survey={s}
                      events={events.get(s.id) ?? []}
                      proposalsAt={firstProposalAt(proposals.get(s.id) ?? [])}
                    >
                      <DashboardProposals
                        survey={s}
                        proposals={proposals.get(s.id) ?? []}
                        leadExpiredAt={leadExpiredAt.get(s.id) ?? null}
                      />
                    </SurveyCard>
                  ))}
                  <Pager
                    page={page}
                    total={total}
                    pageSize={CLIENT_PAGE_SIZE}
                    path="/client-dashboard"
                  />
                </div>
              )}
          </>
        ),
      );
    },
  )
  // Emails link here, not to /survey/{id}: a signed-out client is sent to sign in with this
  // path as returnTo, and a client's returnTo must start with /client (lib/return_to.ts).
  .get("/client/surveys/:id", requirePageUser, zValidator("param", IdParam, onInvalid), (c) => {
    return c.redirect(`/survey/${encodeURIComponent(c.req.valid("param").id)}`, 302);
  })
  .get(
    SURVEY_PAGE.path,
    SURVEY_PAGE.guard,
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      // The survey, its timeline (filtered for the viewer in the query: a client's page never
      // holds internal notes or staff names, not even in island props), its proposals, its
      // lead's expiry, its fieldwork and delivery (the checklist's progress, never its answers
      // or notes; the deliverables once completed, admins' as soon as there are any; the
      // rating) and the conversations the viewer is in, in one statement, with the viewer and
      // the bell's count. What it reads depends on the viewer's role, so it is read for the
      // role the session was opened with and used only if the user read with it still has
      // it; otherwise (or for a session stored without its role) the user first, then the page.
      const preferred = c.req.query("thread");
      const input = { id: c.req.valid("param").id, thread: preferredThreadId(preferred) };
      const viewerId = viewerIdOf(c);
      const guess = viewerRoleGuess(c);
      const read = guess
        ? await getSurveyPageDataWithViewer(c.var.db, {
          ...input,
          user: { id: viewerId, role: guess },
          viewerId,
        })
        : { viewer: await getUserWithUnreadCount(c.var.db, viewerId), data: undefined };
      const denied = await settleViewer(c, SURVEY_PAGE, read.viewer);
      if (denied) return denied;
      const user = c.var.user!;
      const data = user.role === guess
        ? read.data
        : await getSurveyPageData(c.var.db, { ...input, user });
      // Owner and admins only; to anyone else the request does not exist.
      if (!data) throw new HTTPException(404, { message: "Survey not found" });
      const { survey, events, proposals, leadExpiredAt } = data;
      const delivery = {
        progress: data.progress,
        firm: data.firm,
        deliverables: data.deliverables,
        review: data.review,
      };
      const isAdmin = user.role === "admin";
      // The rest reads independently of each other, so it goes out at once (postgres.js
      // pipelines the statements): one wait instead of several in a row. Most pages read
      // nothing more here.
      const [dispatch, messages, crew] = await Promise.all([
        // Admins get the dispatch panel, rendered with the data its GET endpoint returns,
        // with the lead's buyers and the open assignment for the assign form, all read with
        // the survey (a query more only for places converted since the search).
        isAdmin && data.dispatch ? surveyDispatchCard({ sql: c.var.db }, data.dispatch) : undefined,
        // The client's (or, for admins, every) conversation with the firms on this request,
        // read with the survey (a query more only when the thread asked for is not the one
        // whose messages were read).
        loadMessagesCard(c.var.db, {
          surveyId: survey.id,
          user,
          preferred,
          read: { access: data.messages },
        }),
        // Admins choose the field crew while the survey is assigned, scheduled or in
        // fieldwork; in any other status there is no form, so nothing to read. The firm whose
        // crew may do it was read with the survey: only the crew and the current assignment.
        isAdmin && isTechnicianAssignable(survey.status)
          ? assignTechnicianProps(c.var.db, {
            surveyId: survey.id,
            as: "admin",
            workingSurveyorId: data.workingSurveyorId,
          })
          : null,
      ]);
      const type = SURVEY_TYPE_INFO[survey.surveyType];
      const isOwner = survey.clientId === user.id;
      const awaiting = isAwaitingSurveyor(survey);
      // Rendered once and remembered by what they show (components/survey/SurveyPageCards.tsx).
      const [progressHtml, requestHtml, quoteHtml] = surveyPageCardsHtml({
        survey,
        events,
        proposalsAt: firstProposalAt(proposals),
        firm: delivery.firm,
        isAdmin,
      });
      const back = user.role === "admin"
        ? { href: "/admin-dashboard", label: "Back to the admin dashboard" }
        : { href: "/client-dashboard", label: "Back to my surveys" };
      // Remembered whole while what it shows is (routes/_remembered_pages.ts): the survey's data
      // as its snapshot cache returned it, and what was read beside it (the dispatch panel, the
      // conversation, the crew: plain values, compared value by value). It reads no clock: the
      // lead's expiry is the data's `validUntil`.
      return rememberedAppPage(
        c,
        {
          title: `${type.name} request`,
          active: user.role === "admin" ? "/admin-dashboard" : "/client-dashboard",
        },
        `survey ${survey.id} ${user.id} ${input.thread ?? ""}`,
        [survey, events, proposals, leadExpiredAt, delivery, dispatch, messages, crew],
        () => (
          <div className="survey-page">
            <p className="survey-page__back">
              <a href={back.href}>← {back.label}</a>
            </p>
            <PageHeader
              title={type.name}
              intro={survey.formattedAddress || survey.address}
              actions={
                <>
                  <StatusBadge
                    status={survey.status}
                    label={awaiting ? AWAITING_SURVEYOR_LABEL : undefined}
                  />
                  {isOwner && CLIENT_CANCELLABLE.includes(survey.status)
                    ? (
                      <Island
                        component={CancelSurveyButton}
                        props={{ surveyId: survey.id, description: surveyTitle(survey) }}
                        hydrate="idle"
                      />
                    )
                    : null}
                </>
              }
            />
            <div className="survey-page__grid">
              <div className="stack">
                <Card id="progress-title" title="Progress" bodyHtml={progressHtml} />
                <SurveyProposalsCard
                  survey={survey}
                  proposals={proposals}
                  isOwner={isOwner}
                  leadExpiredAt={leadExpiredAt}
                />
                <DeliveryCards survey={survey} delivery={delivery} isOwner={isOwner} />
                <MessagesCard data={messages} />
                <Card id="request-title" title="Request details" bodyHtml={requestHtml} />
              </div>
              <div className="stack">
                <Card id="quote-title" title="Quote" bodyHtml={quoteHtml} />
                {crew
                  ? (
                    <Card id="technician-title" title="Field crew" bodyClass="stack">
                      <Island component={AssignTechnician} props={crew} hydrate="idle" />
                    </Card>
                  )
                  : null}
                <Card id="timeline-title" title="Timeline">
                  <SurveyTimeline events={events} showNoteAudience={user.role === "admin"} />
                </Card>
              </div>
            </div>
            {dispatch
              ? (
                <DispatchCard
                  survey={survey}
                  state={dispatch.state}
                  assign={assignSurveyorProps(
                    survey,
                    dispatch.state,
                    dispatch.buyers,
                    dispatch.assignment ?? null,
                  )}
                />
              )
              : null}
          </div>
        ),
      );
    },
  )
  .get(
    ADMIN_DASHBOARD.path,
    ADMIN_DASHBOARD.guard,
    zValidator("query", AdminDashboardQuery, onInvalid),
    async (c) => {
      const db = c.var.db;
      const { page = 1, ...given } = c.req.valid("query");
      const query = { ...given, q: given.q || undefined, page, pageSize: DEFAULT_PAGE_SIZE };
      // Only the columns the table shows, with the counts and the admin, at once
      // (getAdminDashboard); shown once the session is settled (routes/_auth.ts).
      const { viewer, rows, total, counts } = await getAdminDashboard(db, query, {
        viewerId: viewerIdOf(c),
      });
      const denied = await settleViewer(c, ADMIN_DASHBOARD, viewer);
      if (denied) return denied;
      const filters: AdminSurveyFilters = {
        status: query.status ?? "",
        surveyType: query.surveyType ?? "",
        from: query.from ?? "",
        to: query.to ?? "",
        q: query.q ?? "",
      };
      const all = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
      // Remembered whole while its data is (routes/_remembered_pages.ts); it reads no clock.
      return rememberedAppPage(
        c,
        { title: "Admin dashboard", active: "/admin-dashboard" },
        `admin-dashboard ${viewerIdOf(c)} ${JSON.stringify(query)}`,
        [query, rows, total, counts],
        () => (
          <>
            <PageHeader title="Admin dashboard" intro="Survey requests across the marketplace." />
            <section aria-labelledby="overview-title" className="admin-overview">
              <h2 id="overview-title" className="visually-hidden">Requests by status</h2>
              <ul className="admin-overview__list">
                <li>
                  <a className="admin-overview__item" href="/admin-dashboard">
                    <span className="admin-overview__count">{formatInteger(all)}</span>
                    <span className="admin-overview__label">All requests</span>
                  </a>
                </li>
                {SURVEY_STATUSES.map((status) => (
                  <li key={status}>
                    <a
                      className={`admin-overview__item admin-overview__item--${
                        STATUS_INFO[status].badge
                      }`}
                      href={`/admin-dashboard?status=${status}`}
                      aria-current={filters.status === status ? "true" : undefined}
                    >
                      <span className="admin-overview__count">
                        {formatInteger(counts[status] ?? 0)}
                      </span>
                      <span className="admin-overview__label">{STATUS_INFO[status].label}</span>
                    </a>
                  </li>
                ))}
              </ul>
            </section>
            <section aria-labelledby="surveys-title" className="admin-section">
              <h2 id="surveys-title">Survey requests</h2>
              <Island
                component={AdminSurveys}
                props={{
                  initial: {
                    rows,
                    total,
                    page: query.page,
                    pageSize: query.pageSize,
                  },
                  filters,
                }}
                hydrate="load"
                isPure
              />
            </section>
          </>
        ),
      );
    },
  );
