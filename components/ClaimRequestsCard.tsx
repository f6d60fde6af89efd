import { Card } from "./AppPage.tsx";
import { Island } from "./Island.tsx";
import ClaimRequests, { type ClaimRequestItem } from "../islands/ClaimRequests.tsx";
import type { ClaimRequestView } from "../db/surveyor_self_join.ts";

const WHY: Record<ClaimRequestView["reason"], string> = {
  licence_number: "signed up with this firm's licence number",
  company_state: "signed up as a firm of the same name in the same state",
  taken: "claimed this listing, which already has an account",
};

function typedText(details: Record<string, unknown>): string {
  const text = (key: string) => (typeof details[key] === "string" ? details[key] as string : "");
  const states = Array.isArray(details.licenseStates) ? details.licenseStates.join(", ") : "";
  return [
    text("companyName"),
    text("licenseNumber") ? `licence ${text("licenseNumber")}${states ? ` (${states})` : ""}` : "",
    text("address"),
    text("phone"),
  ].filter(Boolean).join(" · ");
}

/**
 * The "Sign-ups to review" card of /surveyor-detail/{id} (issue 22): the people who signed up
 * on /for-surveyors for this firm while it was already on record; nothing when there are none.
 */
export function ClaimRequestsCard(
  { surveyorId, requests }: { surveyorId: string; requests: ClaimRequestView[] },
) {
  if (requests.length === 0) return null;
  const items: ClaimRequestItem[] = requests.map((r) => ({
    id: r.id,
    name: r.userName,
    email: r.userEmail,
    why: WHY[r.reason],
    typed: typedText(r.details),
    status: r.status,
  }));
  return (
    <Card id="surveyor-claim-requests-title" title="Sign-ups to review">
      <Island component={ClaimRequests} props={{ surveyorId, requests: items }} hydrate="load" />
    </Card>
  );
}
