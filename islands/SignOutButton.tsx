import { useState } from "react";
import { apiRequest, errorMessage, invalidateQueries } from "./_api.ts";
import { toast, toastAfterNavigation } from "./_toast.ts";
import { navigate } from "./_nav.ts";
import { clearOfflinePages } from "./_offline.ts";

/** Props of the header's sign-out control. */
export interface SignOutButtonProps {
  /** Where to go once signed out; defaults to /auth. */
  redirectTo?: string;
}

/**
 * Signs out with POST /api/logout and drops the job pages kept for offline use. Success shows
 * 'Logged out' on the next page; failure a destructive 'Logout failed' toast with the server's
 * message.
 */
export default function SignOutButton({ redirectTo = "/auth" }: SignOutButtonProps) {
  const [isPending, setPending] = useState(false);

  async function signOut() {
    setPending(true);
    try {
      await apiRequest("POST", "/api/logout");
      // Pages kept for offline use are this account's: the next person must not see them.
      await clearOfflinePages();
      invalidateQueries();
      toastAfterNavigation({
        title: "Logged out",
        description: "You have been logged out successfully.",
      });
      navigate(redirectTo);
    } catch (err) {
      setPending(false);
      toast({
        title: "Logout failed",
        description: errorMessage(err, "Could not sign out. Please try again."),
        variant: "destructive",
      });
    }
  }

  return (
    <button
      type="button"
      className="btn btn--ghost btn--sm app-header__signout"
      onClick={signOut}
      disabled={isPending}
      aria-busy={isPending || undefined}
    >
      <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
        <path
          d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4m7 14 5-5-5-5m5 5H9"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="app-header__signout-label">
        {isPending ? "Signing out..." : "Sign out"}
      </span>
    </button>
  );
}
