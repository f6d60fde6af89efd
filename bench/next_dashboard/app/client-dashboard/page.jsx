// A client's dashboard as a React Server Component, doing per request what Meridian's GET
// /client-dashboard does (routes/survey_pages.tsx, routes/_auth.ts): the session cookie hashed
// and looked up, the user and their unread count read in one statement, then the page, the
// count, the timelines and the proposals in one more: Meridian's own db functions, on this
// server's pool. Meridian's PageHeader, EmptyState and Pager render as they are.
import { createHash } from "node:crypto";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getUserWithUnreadCount } from "@meridian/db/users.ts";
import { listClientSurveysWithEvents } from "@meridian/db/surveys.ts";
import { isSessionIdShape } from "@meridian/lib/sessions.ts";
import { EmptyState, PageHeader, Pager } from "@meridian/components/AppPage.tsx";
import { sql } from "../db.js";
import { AppLayout } from "../_components/AppLayout.jsx";
import { SurveyCard } from "../_components/SurveyCard.jsx";

export const dynamic = "force-dynamic";
export const metadata = { title: "My surveys | Meridian" };

// routes/survey_pages.tsx CLIENT_PAGE_SIZE, passed by the bench (that module is the whole
// app's routes, not something to load here).
const CLIENT_PAGE_SIZE = Number(process.env.MERIDIAN_CLIENT_PAGE_SIZE ?? 10);

export default async function ClientDashboard({ searchParams }) {
  // Meridian keeps sessions in Deno KV, which node cannot read: the bench stores the same
  // SHA-256 of each seeded session id in bench_astro_sessions.
  const token = (await cookies()).get("meridian_session")?.value ?? "";
  const [session] = isSessionIdShape(token)
    ? await sql`
      select user_id from bench_astro_sessions
      where token_hash = ${createHash("sha256").update(token).digest("hex")}
        and expires_at > now()`
    : [];
  const user = session && await getUserWithUnreadCount(sql, session.userId);
  if (!user || user.disabledAt) {
    redirect(`/login?returnTo=${encodeURIComponent("/client-dashboard")}`);
  }
  if (user.role !== "client") throw new Error("Access denied");
  const asked = Number((await searchParams).page ?? "");
  const page = Number.isInteger(asked) && asked >= 1 && asked <= 10_000 ? asked : 1;
  const { surveys, total, events, proposals, leadExpiredAt } = await listClientSurveysWithEvents(
    sql,
    { clientId: user.id, viewer: user, page, pageSize: CLIENT_PAGE_SIZE },
  );
  return (
    <AppLayout user={user} active="/client-dashboard" initialUnread={user.unreadNotifications}>
      <PageHeader
        title="My surveys"
        intro="Track your requests from quote to final survey."
        actions={total > 0
          ? <a className="btn btn--primary" href="/create-survey">Request another survey</a>
          : undefined}
      />
      {total === 0
        ? (
          <EmptyState
            title="No survey requests yet"
            action={<a className="btn btn--primary" href="/create-survey">Get a free quote</a>}
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
                proposals={proposals.get(s.id) ?? []}
                leadExpiredAt={leadExpiredAt.get(s.id) ?? null}
              />
            ))}
            <Pager page={page} total={total} pageSize={CLIENT_PAGE_SIZE} path="/client-dashboard" />
          </div>
        )}
    </AppLayout>
  );
}
