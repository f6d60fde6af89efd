/**
 * The "Your coverage" card a signed-in surveyor sees on their dashboard and on /profile: the
 * coverage form (an island) for their own record, or, when no record is linked to the
 * account yet, what to do about it. The route loads the record and passes it in.
 */
import { Card } from "./AppPage.tsx";
import { Island } from "./Island.tsx";
import SurveyorCoverageForm from "../islands/SurveyorCoverageForm.tsx";
import type { OwnSurveyorProfile } from "../lib/surveyor_profile.ts";

/** Heading of the card, the same on both pages. */
export const COVERAGE_TITLE = "Your coverage";

/** The coverage card for `profile` (undefined: the account has no record yet). */
export function SurveyorCoverageCard({ profile }: { profile: OwnSurveyorProfile | undefined }) {
  return (
    <Card id="coverage-heading" title={COVERAGE_TITLE}>
      {profile
        ? (
          <>
            <p className="muted">
              Where your office is, how far you travel, the states you are licensed in and the
              surveys you offer: requests are matched to you with these details.
            </p>
            <Island component={SurveyorCoverageForm} props={{ profile }} hydrate="load" />
          </>
        )
        : (
          <div className="stack">
            <p>
              <strong>Your surveyor profile is not set up yet.</strong>{" "}
              Meridian links your account to your firm's record (company, office and service area)
              before requests can be matched to you.
            </p>
            <p>
              <a className="btn btn--secondary btn--sm" href="/support/contact">
                Ask Meridian to set up your profile
              </a>
            </p>
          </div>
        )}
    </Card>
  );
}
