import { useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import LocalTime from "./LocalTime.tsx";

/** Props of the linked Google account card on /profile. */
export interface GoogleAccountProps {
  /** The Google account's email address as Google last reported it. */
  email: string;
  /** ISO time it was linked. */
  linkedAt: string;
  /** Whether the user has a password of their own (else removing would lock them out). */
  hasPassword: boolean;
  /** While an admin views the account, its sign-in methods stay as they are. */
  isImpersonating: boolean;
}

/**
 * /profile: the Google account linked to this user and, when they have a password, "Remove"
 * (DELETE /api/user/google); without one, why it cannot be removed and how to set a password.
 */
export default function GoogleAccount(
  { email, linkedAt, hasPassword, isImpersonating }: GoogleAccountProps,
) {
  const [isRemoved, setRemoved] = useState(false);
  const [isPending, setPending] = useState(false);

  async function onRemove() {
    setPending(true);
    try {
      const res = await apiJson<{ message: string }>("DELETE", "/api/user/google");
      setRemoved(true);
      toast({ title: "Google account removed", description: res?.message });
    } catch (err) {
      toast({
        title: "Error",
        description: errorMessage(err, "Could not remove your Google account. Please try again."),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card" aria-labelledby="google-account-heading">
      <div className="card__header">
        <h2 id="google-account-heading">Google sign-in</h2>
      </div>
      <div className="card__body google-account">
        {isRemoved
          ? (
            <p role="status">
              No Google account is linked any more. Sign in with your email and password.
            </p>
          )
          : (
            <>
              <p>
                You can sign in with the Google account{" "}
                <strong className="google-account__email">{email}</strong>, linked{" "}
                <LocalTime iso={linkedAt} />.
              </p>
              {isImpersonating
                ? (
                  <p className="alert alert--info">
                    Sign-in methods cannot be changed while you are viewing this account as an
                    admin.
                  </p>
                )
                : hasPassword
                ? (
                  <div className="form-actions">
                    <button
                      type="button"
                      className="btn btn--secondary"
                      onClick={onRemove}
                      disabled={isPending}
                    >
                      {isPending ? "Removing..." : "Remove"}
                    </button>
                  </div>
                )
                : (
                  <p className="alert alert--info">
                    This account was created with Google and has no password yet, so Google is your
                    only way to sign in and cannot be removed. To set a password, use{" "}
                    <a href="/forgot-password">Forgot Password?</a>{" "}
                    with your email address; then you can remove Google here.
                  </p>
                )}
            </>
          )}
      </div>
    </section>
  );
}
