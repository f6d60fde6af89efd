import { useState } from "react";
import { apiJson, errorMessage, invalidateQueries } from "./_api.ts";
import { toast, toastAfterNavigation } from "./_toast.ts";
import { navigate } from "./_nav.ts";

/** Props of the admin's 'View as' button. */
export interface ImpersonateButtonProps {
  userId: string;
  name: string;
}

/**
 * Admin only: signs in as the user (POST /api/admin/impersonate/{id}) and opens their
 * dashboard. The banner on every page then offers 'Return to admin'.
 */
export default function ImpersonateButton({ userId, name }: ImpersonateButtonProps) {
  const [isPending, setPending] = useState(false);

  async function impersonate() {
    setPending(true);
    try {
      const result = await apiJson<{ message?: string; redirectTo?: string }>(
        "POST",
        `/api/admin/impersonate/${encodeURIComponent(userId)}`,
      );
      invalidateQueries();
      toastAfterNavigation({
        title: "Impersonating",
        description: result?.message ?? `You are now signed in as ${name}.`,
      });
      const target = result?.redirectTo;
      navigate(
        target && target.startsWith("/") && !target.startsWith("//") ? target : "/dashboard",
      );
    } catch (err) {
      setPending(false);
      toast({
        title: "Error",
        description: errorMessage(err, `Could not sign in as ${name}`),
        variant: "destructive",
      });
    }
  }

  return (
    <button
      type="button"
      className="btn btn--secondary btn--sm"
      onClick={impersonate}
      disabled={isPending}
      aria-label={`View as ${name}`}
    >
      {isPending ? "Switching..." : "View as"}
    </button>
  );
}
