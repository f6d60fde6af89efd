import { useState } from "react";
import { apiRequest, errorMessage, invalidateQueries } from "./_api.ts";
import { toast, toastAfterNavigation } from "./_toast.ts";
import { navigate } from "./_nav.ts";

/** Props of the impersonation banner. */
export interface ImpersonationBannerProps {
  /** Name of the user being impersonated. */
  name: string;
  /** Their role, shown so the admin knows which view they are in. */
  role: string;
}

/** Where an admin lands after returning from impersonation (spec section 2). */
export const ADMIN_RETURN_PATH = "/admin-dashboard";

/**
 * Shown on every signed-in page while an admin impersonates someone, with 'Return to admin'
 * (POST /api/admin/return). Success: 'Admin Restored' and /admin-dashboard; failure: 'Error'
 * with the server's message or 'Could not return to admin account'.
 */
export default function ImpersonationBanner({ name, role }: ImpersonationBannerProps) {
  const [isPending, setPending] = useState(false);

  async function returnToAdmin() {
    setPending(true);
    try {
      await apiRequest("POST", "/api/admin/return");
      invalidateQueries();
      toastAfterNavigation({
        title: "Admin Restored",
        description: "You have returned to your admin account.",
      });
      navigate(ADMIN_RETURN_PATH);
    } catch (err) {
      setPending(false);
      toast({
        title: "Error",
        description: errorMessage(err, "Could not return to admin account"),
        variant: "destructive",
      });
    }
  }

  return (
    <div className="impersonation-banner" role="region" aria-label="Impersonation">
      <p className="impersonation-banner__text">
        <strong>Viewing as {name}</strong>{" "}
        <span className="impersonation-banner__role">({role})</span>{" "}
        — you are signed in through your admin account.
      </p>
      <button
        type="button"
        className="btn btn--sm impersonation-banner__button"
        onClick={returnToAdmin}
        disabled={isPending}
        aria-busy={isPending || undefined}
      >
        {isPending ? "Returning..." : "Return to admin"}
      </button>
    </div>
  );
}
