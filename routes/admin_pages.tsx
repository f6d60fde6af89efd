import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { ownViewerPage, settleViewer, viewerIdOf } from "./_auth.ts";
import { loadMessagePage, MESSAGES_PAGE_SIZE } from "./admin_messages.ts";
import { appPage, rememberedAppPage } from "./_app_page.tsx";
import { PageHeader } from "../components/AppPage.tsx";
import { Island } from "../components/Island.tsx";
import { AdminTabs } from "../components/AdminTabs.tsx";
import AdminUsers, { ADMIN_USERS_PAGE_SIZE } from "../islands/AdminUsers.tsx";
import AdminMessages from "../islands/AdminMessages.tsx";
import { ROLES } from "../db/users.ts";
import {
  type AdminConsoleCounts,
  countAdminConsoleWaiting,
  getAdminConsoleUsers,
} from "../db/admin_console.ts";
import RefundQueue from "../islands/RefundQueue.tsx";
import { listRefundRequests } from "../db/refunds.ts";
import { REFUND_REQUESTS_PAGE_SIZE } from "./refunds.ts";
import LicenceChecks from "../islands/LicenceChecks.tsx";
import { listLicenceChecks } from "../db/surveyor_licences.ts";
import { LICENCE_CHECKS_PATH } from "../lib/surveyor_licence.ts";

/** The nav entry of the console (components/AppLayout.tsx ROLE_NAV). */
export const ADMIN_CONSOLE_NAV = "/admin?tab=users";

const TABS = [
  { id: "users", label: "Users", href: "/admin?tab=users" },
  { id: "messages", label: "Contact messages", href: "/admin?tab=messages" },
  { id: "returns", label: "Lead returns", href: "/admin?tab=returns" },
  { id: "licences", label: "Licence checks", href: LICENCE_CHECKS_PATH },
] as const;

// A page never answers 400: anything odd in the address falls back to the default view.
const ConsoleQuery = z.object({
  tab: z.enum(["users", "messages", "returns", "licences"]).catch("users").default("users"),
  role: z.enum(ROLES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

/** The console's title and tabs, a tab's badge saying how many things wait in it. */
function ConsoleHeader({ tab, counts }: { tab: string; counts: AdminConsoleCounts }) {
  const waiting: Record<string, number> = {
    returns: counts.pendingReturns,
    licences: counts.licenceChecks,
  };
  const tabs = TABS.map((t) => ({ ...t, waiting: waiting[t.id] }));
  return (
    <>
      <PageHeader
        title="Admin console"
        intro="Manage accounts, decide lead returns and licence checks, and read what visitors send through the contact form."
      />
      <AdminTabs label="Admin console sections" tabs={tabs} current={tab} />
    </>
  );
}

/**
 * GET /admin, the admin console (admins only): the users list with role changes, disabling
 * and 'View as', and the contact form's inbox. Each tab is its own address (`?tab=`), so only
 * that tab's island and data are loaded.
 */
/** The admin console, which reads its viewer in its own statement on every tab. */
const CONSOLE = ownViewerPage("/admin", "admin");

export const adminPages = new Hono<AppEnv>()
  .get(
    CONSOLE.path,
    CONSOLE.guard,
    zValidator("query", ConsoleQuery, onInvalid),
    async (c) => {
      const { tab, role, page } = c.req.valid("query");
      const db = c.var.db;
      const viewerId = viewerIdOf(c);
      // Each tab reads its page, the tabs' counts and the admin (with the bell's count) in as
      // few statements as it can: one for the users tab, the list and the counts pipelined
      // beside it for the others (db/admin_console.ts says why). Nothing is shown until the
      // session is settled with the admin read (routes/_auth.ts `ownViewerPage`).
      if (tab === "returns") {
        const [{ viewer, ...counts }, initial] = await Promise.all([
          countAdminConsoleWaiting(db, { viewerId }),
          listRefundRequests(db, {
            status: "pending",
            page: 1,
            pageSize: REFUND_REQUESTS_PAGE_SIZE,
          }),
        ]);
        const denied = await settleViewer(c, CONSOLE, viewer);
        if (denied) return denied;
        return await appPage(
          c,
          { title: "Lead returns", active: ADMIN_CONSOLE_NAV },
          <>
            <ConsoleHeader tab={tab} counts={counts} />
            <section className="admin-console" aria-labelledby="admin-returns-title">
              <h2 id="admin-returns-title" className="visually-hidden">Lead returns</h2>
              <Island component={RefundQueue} props={{ initial }} hydrate="load" />
            </section>
          </>,
        );
      }
      if (tab === "licences") {
        const [{ viewer, ...counts }, initial] = await Promise.all([
          countAdminConsoleWaiting(db, { viewerId }),
          listLicenceChecks(db),
        ]);
        const denied = await settleViewer(c, CONSOLE, viewer);
        if (denied) return denied;
        return await appPage(
          c,
          { title: "Licence checks", active: ADMIN_CONSOLE_NAV },
          <>
            <ConsoleHeader tab={tab} counts={counts} />
            <section className="admin-console" aria-labelledby="admin-licences-title">
              <h2 id="admin-licences-title">Licence checks</h2>
              <p>
                Firms that joined and wait for their first licence check, and states and licence
                numbers that verified surveyors added to their profiles. Nothing counts for leads
                until you verify it.
              </p>
              <Island component={LicenceChecks} props={{ initial }} hydrate="load" />
            </section>
          </>,
        );
      }
      if (tab === "messages") {
        const [{ viewer, ...counts }, initial] = await Promise.all([
          countAdminConsoleWaiting(db, { viewerId }),
          loadMessagePage(c, { limit: MESSAGES_PAGE_SIZE, unreadOnly: false }),
        ]);
        const denied = await settleViewer(c, CONSOLE, viewer);
        if (denied) return denied;
        return await appPage(
          c,
          { title: "Contact messages", active: ADMIN_CONSOLE_NAV },
          <>
            <ConsoleHeader tab={tab} counts={counts} />
            <section className="admin-console" aria-labelledby="admin-messages-title">
              <h2 id="admin-messages-title" className="visually-hidden">Contact messages</h2>
              <Island component={AdminMessages} props={{ initial }} hydrate="load" />
            </section>
          </>,
        );
      }
      const { viewer, users, total, counts } = await getAdminConsoleUsers(db, {
        role,
        limit: ADMIN_USERS_PAGE_SIZE,
        offset: (page - 1) * ADMIN_USERS_PAGE_SIZE,
        viewerId,
      });
      const denied = await settleViewer(c, CONSOLE, viewer);
      if (denied) return denied;
      // Remembered whole while its data is (routes/_remembered_pages.ts); it reads no clock.
      return await rememberedAppPage(
        c,
        { title: "Users", active: ADMIN_CONSOLE_NAV },
        `admin-users ${viewerId} ${role} ${page}`,
        [role, page, users, total, counts],
        () => (
          <>
            <ConsoleHeader tab={tab} counts={counts} />
            <section className="admin-console" aria-labelledby="admin-users-title">
              <h2 id="admin-users-title" className="visually-hidden">Users</h2>
              <Island
                component={AdminUsers}
                props={{
                  currentUserId: c.var.user!.id,
                  role: role ?? "",
                  initial: { users, total, page, pageSize: ADMIN_USERS_PAGE_SIZE },
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
