/**
 * The users tab of the admin console (/admin): every account with its role, contact details,
 * sign-in dates and status, filtered by role and paginated. Per row: change the role, disable
 * or enable the account (each after a confirmation) and 'View as' (impersonation).
 *
 * The server renders the first page and passes it in; filters and later pages come from
 * GET /api/users, and the URL follows them so a reload shows the same page.
 */
import { useEffect, useRef, useState } from "react";
import { apiJson, errorMessage, getQuery } from "./_api.ts";
import { toast } from "./_toast.ts";
import ImpersonateButton from "./ImpersonateButton.tsx";
import { Pager } from "./_pager.tsx";
import { formatTableDay, TableRegion } from "./_table.tsx";
import { formatInteger } from "../lib/numbers.ts";

/** The four roles (islands do not import db/ or routes/, so they are spelled here). */
export type AdminRole = "admin" | "client" | "surveyor" | "technician";

/** Display names of the roles, in the order the filter offers them. */
export const ROLE_LABELS: Record<AdminRole, string> = {
  admin: "Admin",
  client: "Client",
  surveyor: "Surveyor",
  technician: "Technician",
};

const ROLE_VALUES = Object.keys(ROLE_LABELS) as AdminRole[];

/** Users per page of the console's list. */
export const ADMIN_USERS_PAGE_SIZE = 25;

/** A user as GET /api/users returns it. */
export interface AdminUser {
  id: string;
  username: string;
  email: string;
  fullName: string;
  role: AdminRole;
  companyName: string | null;
  phone: string | null;
  createdAt: string;
  lastLogin: string | null;
  disabledAt: string | null;
}

/** One page of the list, as GET /api/users returns it. */
export interface AdminUsersPage {
  users: AdminUser[];
  total: number;
  page: number;
  pageSize: number;
}

/** Props of the users tab. */
export interface AdminUsersProps {
  /** The signed-in admin: their own row offers no role change and no disable. */
  currentUserId: string;
  /** The role filter the first page was rendered with ("" = all roles). */
  role: AdminRole | "";
  initial: AdminUsersPage;
}

/** A change waiting for the admin's confirmation. */
type Pending =
  | { kind: "role"; user: AdminUser; role: AdminRole }
  | { kind: "disable"; user: AdminUser }
  | { kind: "enable"; user: AdminUser };

/** Query string of GET /api/users for a role filter and page. */
export function usersQuery(role: AdminRole | "", page: number, pageSize: number): string {
  const params = new URLSearchParams();
  if (role) params.set("role", role);
  if (page > 1) params.set("page", String(page));
  params.set("pageSize", String(pageSize));
  return params.toString();
}

function day(iso: string | null): string {
  return iso ? formatTableDay(iso) : "Never";
}

function dialogText(pending: Pending): { title: string; text: string; confirm: string } {
  const name = pending.user.fullName;
  switch (pending.kind) {
    case "role":
      return {
        title: `Make ${name} ${article(pending.role)} ${ROLE_LABELS[pending.role]}?`,
        text: `They are signed out on every device and see the ${
          ROLE_LABELS[pending.role]
        } pages the next time they sign in.`,
        confirm: "Change role",
      };
    case "disable":
      return {
        title: `Disable ${name}?`,
        text:
          "They are signed out on every device and cannot sign in or reset their password until the account is enabled again.",
        confirm: "Disable",
      };
    case "enable":
      return {
        title: `Enable ${name}?`,
        text: "They can sign in again with their existing password.",
        confirm: "Enable",
      };
  }
}

function article(role: AdminRole): string {
  return role === "admin" ? "an" : "a";
}

/** The users tab. */
export default function AdminUsers({ currentUserId, role: initialRole, initial }: AdminUsersProps) {
  const [data, setData] = useState<AdminUsersPage>(initial);
  const [role, setRole] = useState<AdminRole | "">(initialRole);
  const [isLoading, setLoading] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [isSaving, setSaving] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const request = useRef(0);
  // Marks the table as interactive (tests wait for it; until then the SSR copy is inert).
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));

  async function load(nextRole: AdminRole | "", page: number) {
    const n = ++request.current;
    setLoading(true);
    try {
      const res = await getQuery<AdminUsersPage>(
        `/api/users?${usersQuery(nextRole, page, data.pageSize)}`,
      );
      if (n !== request.current) return;
      if (!res || !Array.isArray(res.users)) throw new Error("No user list");
      setData(res);
      const shown = new URLSearchParams({ tab: "users" });
      if (nextRole) shown.set("role", nextRole);
      if (res.page > 1) shown.set("page", String(res.page));
      history.replaceState(null, "", `${location.pathname}?${shown}`);
    } catch {
      if (n !== request.current) return;
      // Spec section 8: the user list failure toast.
      toast({ title: "Error", description: "Failed to load users", variant: "destructive" });
    } finally {
      if (n === request.current) setLoading(false);
    }
  }

  function ask(next: Pending) {
    setPending(next);
    dialog.current?.showModal();
  }

  function close() {
    dialog.current?.close();
    setPending(null);
  }

  async function confirm() {
    if (!pending) return;
    const { user } = pending;
    setSaving(true);
    try {
      const res = pending.kind === "role"
        ? await apiJson<{ user?: AdminUser; message?: string }>(
          "PATCH",
          `/api/admin/users/${user.id}/role`,
          { role: pending.role },
        )
        : await apiJson<{ user?: AdminUser; message?: string }>(
          "POST",
          `/api/admin/users/${user.id}/${pending.kind}`,
        );
      const updated = res?.user ?? user;
      setData((d) => ({ ...d, users: d.users.map((u) => (u.id === updated.id ? updated : u)) }));
      toast(successToast(pending, updated, res?.message));
    } catch (err) {
      toast({
        title: "Error",
        description: errorMessage(err, failureText(pending)),
        variant: "destructive",
      });
    } finally {
      setSaving(false);
      close();
    }
  }

  const text = pending ? dialogText(pending) : null;
  return (
    <div className="admin-users" data-hydrated={isHydrated || undefined}>
      <div className="admin-users__bar">
        <div className="field admin-users__filter">
          <label className="field__label" htmlFor="admin-users-role">Role</label>
          <select
            id="admin-users-role"
            className="field__input"
            value={role}
            onChange={(e) => {
              const next = e.currentTarget.value as AdminRole | "";
              setRole(next);
              load(next, 1);
            }}
          >
            <option value="">All roles</option>
            {ROLE_VALUES.map((r) => <option key={r} value={r}>{ROLE_LABELS[r]}</option>)}
          </select>
        </div>
        <p className="admin-users__count" role="status" aria-live="polite">
          {isLoading
            ? "Loading…"
            : `${formatInteger(data.total)} user${data.total === 1 ? "" : "s"}`}
        </p>
      </div>

      <TableRegion label="Users">
        <table className="table table--cards admin-users__table" aria-busy={isLoading || undefined}>
          <caption className="visually-hidden">
            {`Accounts${role ? ` with the ${ROLE_LABELS[role]} role` : ""}, newest first`}
          </caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Company</th>
              <th scope="col">Phone</th>
              <th scope="col">Created</th>
              <th scope="col">Last login</th>
              <th scope="col">Status</th>
              <th scope="col" className="table__actions-cell">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.users.length === 0
              ? (
                <tr>
                  <td colSpan={9} className="admin-users__empty">
                    {role ? `No ${ROLE_LABELS[role]} accounts.` : "No accounts yet."}
                  </td>
                </tr>
              )
              : data.users.map((user) => (
                <UserRow
                  key={user.id}
                  user={user}
                  isSelf={user.id === currentUserId}
                  isBusy={isSaving}
                  onAsk={ask}
                />
              ))}
          </tbody>
        </table>
      </TableRegion>

      {pages > 1 || data.page > 1
        ? (
          <Pager
            label="User pages"
            page={data.page}
            pages={pages}
            isLoading={isLoading}
            onPage={(page) => load(role, page)}
          />
        )
        : null}

      <dialog
        ref={dialog}
        className="admin-dialog"
        aria-labelledby="admin-users-dialog-title"
        onClose={() => setPending(null)}
      >
        <h2 id="admin-users-dialog-title" className="admin-dialog__title">
          {text?.title ?? ""}
        </h2>
        <p>{text?.text ?? ""}</p>
        <div className="form-actions">
          <button
            type="button"
            className="btn btn--ghost"
            autoFocus
            disabled={isSaving}
            onClick={close}
          >
            Cancel
          </button>
          <button
            type="button"
            className={pending?.kind === "disable" ? "btn btn--danger" : "btn btn--primary"}
            disabled={isSaving || !pending}
            onClick={confirm}
          >
            {isSaving ? "Saving..." : text?.confirm ?? "Confirm"}
          </button>
        </div>
      </dialog>
    </div>
  );
}

function successToast(pending: Pending, user: AdminUser, message?: string) {
  const name = user.fullName;
  switch (pending.kind) {
    case "role":
      return {
        title: "Role changed",
        description: message ?? `${name} is now ${article(user.role)} ${ROLE_LABELS[user.role]}.`,
      };
    case "disable":
      return {
        title: "User disabled",
        description: message ?? `${name} is signed out and can no longer sign in.`,
      };
    case "enable":
      return { title: "User enabled", description: message ?? `${name} can sign in again.` };
  }
}

function failureText(pending: Pending): string {
  const name = pending.user.fullName;
  switch (pending.kind) {
    case "role":
      return `Could not change ${name}'s role`;
    case "disable":
      return `Could not disable ${name}`;
    case "enable":
      return `Could not enable ${name}`;
  }
}

// An email has no spaces: offer a line break after the "@" so a narrow column wraps it there
// rather than mid-word.
function breakableEmail(email: string) {
  const at = email.indexOf("@");
  if (at < 0) return email;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}

function UserRow({ user, isSelf, isBusy, onAsk }: {
  user: AdminUser;
  isSelf: boolean;
  isBusy: boolean;
  onAsk(pending: Pending): void;
}) {
  const none = <span className="muted">—</span>;
  return (
    <tr data-user-id={user.id}>
      <th scope="row" className="admin-users__name">
        {user.fullName}
        {isSelf
          ? (
            <>
              {" "}
              <span className="muted">(you)</span>
            </>
          )
          : null}
      </th>
      <td className="admin-users__email" data-label="Email">
        <a href={`mailto:${user.email}`}>{breakableEmail(user.email)}</a>
      </td>
      <td data-label="Role">
        {isSelf
          ? <span className="badge badge--neutral">{ROLE_LABELS[user.role] ?? user.role}</span>
          : (
            <select
              className="field__input admin-users__role"
              aria-label={`Role of ${user.fullName}`}
              value={user.role}
              disabled={isBusy}
              onChange={(e) => {
                const next = e.currentTarget.value as AdminRole;
                if (next !== user.role) onAsk({ kind: "role", user, role: next });
              }}
            >
              {ROLE_VALUES.map((r) => <option key={r} value={r}>{ROLE_LABELS[r]}</option>)}
            </select>
          )}
      </td>
      <td data-label="Company">{user.companyName || none}</td>
      <td data-label="Phone" className="admin-users__phone">
        {user.phone ? <a href={`tel:${user.phone}`}>{user.phone}</a> : none}
      </td>
      <td data-label="Created" className="admin-users__date">
        <time dateTime={user.createdAt}>{day(user.createdAt)}</time>
      </td>
      <td data-label="Last login" className="admin-users__date">
        {user.lastLogin ? <time dateTime={user.lastLogin}>{day(user.lastLogin)}</time> : "Never"}
      </td>
      <td data-label="Status">
        {user.disabledAt
          ? <span className="badge badge--danger">Disabled</span>
          : <span className="badge badge--success">Active</span>}
      </td>
      <td className="table__actions-cell">
        <div className="table__actions admin-users__actions">
          {isSelf ? null : user.disabledAt
            ? (
              <button
                type="button"
                className="btn btn--secondary btn--sm"
                disabled={isBusy}
                onClick={() => onAsk({ kind: "enable", user })}
                aria-label={`Enable ${user.fullName}`}
              >
                Enable
              </button>
            )
            : (
              <button
                type="button"
                className="btn btn--ghost btn--sm"
                disabled={isBusy}
                onClick={() => onAsk({ kind: "disable", user })}
                aria-label={`Disable ${user.fullName}`}
              >
                Disable
              </button>
            )}
          {user.role === "admin" || user.disabledAt || isSelf
            ? null
            : <ImpersonateButton userId={user.id} name={user.fullName} />}
        </div>
      </td>
    </tr>
  );
}
