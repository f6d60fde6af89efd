import { type FormEvent, useState } from "react";
import { apiJson, errorMessage, setQueryData } from "./_api.ts";
import { toast } from "./_toast.ts";
import {
  CheckedForm,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_SHORT,
  PASSWORDS_DONT_MATCH,
  TextField,
} from "./_fields.tsx";

/** Props of the profile island: the user's editable fields as the server rendered them. */
export interface ProfileFormProps {
  email: string;
  fullName: string;
  companyName: string | null;
  phone: string | null;
  /** While an admin impersonates this user, the password cannot be changed. */
  isImpersonating: boolean;
}

type Errors = Record<string, string | undefined>;

/**
 * /profile: edit full name, company and phone (PATCH /api/user), and change the password with
 * the current one (POST /api/user/password). The password form is replaced by a notice while
 * impersonating.
 */
export default function ProfileForm(props: ProfileFormProps) {
  return (
    <div className="profile-grid">
      <DetailsForm {...props} />
      {props.isImpersonating
        ? (
          <section className="card" aria-labelledby="password-heading">
            <div className="card__header">
              <h2 id="password-heading">Password</h2>
            </div>
            <div className="card__body">
              <p className="alert alert--info">
                Password changes are turned off while you are viewing this account as an admin.
              </p>
            </div>
          </section>
        )
        : <PasswordForm />}
    </div>
  );
}

function DetailsForm({ email, ...initial }: ProfileFormProps) {
  const [fullName, setFullName] = useState(initial.fullName);
  const [companyName, setCompanyName] = useState(initial.companyName ?? "");
  const [phone, setPhone] = useState(initial.phone ?? "");
  const [errors, setErrors] = useState<Errors>({});
  const [isPending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: Errors = {
      fullName: fullName.trim() ? undefined : "Full name is required",
      phone: !phone.trim() || /^[0-9+()\-.\s]{7,30}$/.test(phone.trim())
        ? undefined
        : "Please enter a valid phone number",
    };
    setErrors(next);
    if (next.fullName || next.phone) return;
    setPending(true);
    try {
      const user = await apiJson<{ fullName: string }>("PATCH", "/api/user", {
        fullName: fullName.trim(),
        companyName: companyName.trim() || null,
        phone: phone.trim() || null,
      });
      if (user) setQueryData("/api/user", user);
      toast({ title: "Profile updated", description: "Your changes have been saved." });
    } catch (err) {
      toast({
        title: "Error",
        description: errorMessage(err, "Could not save your profile. Please try again."),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card" aria-labelledby="details-heading">
      <div className="card__header">
        <h2 id="details-heading">Your details</h2>
      </div>
      <CheckedForm
        errors={errors}
        isPending={isPending}
        className="card__body stack"
        onSubmit={onSubmit}
      >
        <div className="field">
          <span className="field__label" id="profile-email-label">Email</span>
          <p aria-labelledby="profile-email-label">{email}</p>
        </div>
        <TextField
          id="profile-full-name"
          label="Full Name"
          value={fullName}
          onValue={setFullName}
          error={errors.fullName}
          autoComplete="name"
          maxLength={100}
        />
        <TextField
          id="profile-company"
          label="Company"
          optional
          value={companyName}
          onValue={setCompanyName}
          autoComplete="organization"
          maxLength={100}
        />
        <TextField
          id="profile-phone"
          label="Phone"
          optional
          type="tel"
          value={phone}
          onValue={setPhone}
          error={errors.phone}
          autoComplete="tel"
          maxLength={30}
        />
        <div className="form-actions">
          <button type="submit" className="btn btn--primary" disabled={isPending}>
            {isPending ? "Saving..." : "Save changes"}
          </button>
        </div>
      </CheckedForm>
    </section>
  );
}

function PasswordForm() {
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [isPending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: Errors = {
      currentPassword: currentPassword ? undefined : "Current password is required",
      newPassword: newPassword.length >= PASSWORD_MIN_LENGTH ? undefined : PASSWORD_TOO_SHORT,
      confirmPassword: confirmPassword === newPassword ? undefined : PASSWORDS_DONT_MATCH,
    };
    setErrors(next);
    if (next.currentPassword || next.newPassword || next.confirmPassword) return;
    setPending(true);
    try {
      const result = await apiJson<{ message?: string }>("POST", "/api/user/password", {
        currentPassword,
        newPassword,
        confirmPassword,
      });
      setCurrentPassword("");
      setNewPassword("");
      setConfirmPassword("");
      toast({
        title: "Password changed",
        description: result?.message ?? "Your password has been changed.",
      });
    } catch (err) {
      toast({
        title: "Error",
        description: errorMessage(err, "Could not change your password. Please try again."),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card" aria-labelledby="password-heading">
      <div className="card__header">
        <h2 id="password-heading">Change password</h2>
      </div>
      <CheckedForm
        errors={errors}
        isPending={isPending}
        className="card__body stack"
        onSubmit={onSubmit}
      >
        <TextField
          id="profile-current-password"
          label="Current Password"
          type="password"
          value={currentPassword}
          onValue={setCurrentPassword}
          error={errors.currentPassword}
          autoComplete="current-password"
          maxLength={128}
        />
        <TextField
          id="profile-new-password"
          label="New Password"
          type="password"
          value={newPassword}
          onValue={setNewPassword}
          error={errors.newPassword}
          hint="At least 6 characters. Other devices signed in to your account will be signed out."
          autoComplete="new-password"
          maxLength={128}
        />
        <TextField
          id="profile-confirm-password"
          label="Confirm New Password"
          type="password"
          value={confirmPassword}
          onValue={setConfirmPassword}
          error={errors.confirmPassword}
          autoComplete="new-password"
          maxLength={128}
        />
        <div className="form-actions">
          <button type="submit" className="btn btn--primary" disabled={isPending}>
            {isPending ? "Changing password..." : "Change password"}
          </button>
        </div>
      </CheckedForm>
    </section>
  );
}
