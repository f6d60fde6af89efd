/**
 * The admin's record of one surveyor (/surveyor-detail/{id}, routes/surveyor_pages.tsx) in one
 * statement with the viewer (db/users.ts `readWithViewer`, routes/_auth.ts `ownViewerPage`):
 * the record, its contact history, the work sent to it, its linked account, how its licence was
 * verified, its reviews, its claim requests, its balance and newest ledger entries. The page
 * read them in thirteen statements over three round trips (issue 23). Every list is a JSON
 * column written by the module that owns it, which its own reader uses too, so the page and the
 * APIs that page through the same lists read them the same way.
 */
import type { Db } from "./client.ts";
import { isUuid, readWithViewer, type Viewer } from "./users.ts";
import {
  contactHistoryFromJson,
  contactHistoryJsonColumn,
  type HistoryJson,
  surveyorColumns,
  type SurveyorRow,
  surveyorWorkFromJson,
  type SurveyorWorkJson,
  surveyorWorkJsonColumns,
  type SurveyorWorkLead,
  type SurveyorWorkSurvey,
  toSurveyor,
} from "./surveyors.ts";
import {
  surveyorAccountFromJson,
  type SurveyorAccountJson,
  surveyorAccountJsonColumn,
} from "./surveyor_accounts.ts";
import { type SurveyorVerification, surveyorVerificationColumns } from "./claim_tokens.ts";
import {
  surveyorReviewsColumns,
  surveyorReviewsFromRow,
  type SurveyorReviewsJson,
  type SurveyorReviewsPage,
} from "./reviews.ts";
import {
  type ClaimRequestJson,
  claimRequestsFromJson,
  claimRequestsJsonColumn,
  type ClaimRequestView,
} from "./surveyor_self_join.ts";
import {
  ledgerEntriesFromJson,
  ledgerEntriesJsonColumn,
  type LedgerEntry,
  type LedgerEntryJson,
} from "./ledger.ts";
import type { Surveyor } from "../lib/surveyor_schema.ts";
import type { SurveyorAccount } from "../lib/surveyor_profile.ts";

/** Everything the admin's record of a surveyor shows. */
export interface SurveyorRecord {
  surveyor: Surveyor;
  /** The newest entries of the contact history (at most the `historyLimit` asked for). */
  history: ReturnType<typeof contactHistoryFromJson>;
  work: { surveys: SurveyorWorkSurvey[]; leads: SurveyorWorkLead[] };
  /** The linked account, or null. */
  account: SurveyorAccount | null;
  verification: SurveyorVerification;
  /** The first page of its reviews. */
  reviews: SurveyorReviewsPage;
  claimRequests: ClaimRequestView[];
  balanceCents: number;
  /** The newest ledger entries (at most the `ledgerLimit` asked for). */
  ledger: LedgerEntry[];
}

type RecordRow =
  & SurveyorRow
  & SurveyorWorkJson
  & SurveyorReviewsJson
  & SurveyorVerification
  & {
    history: HistoryJson[];
    account: SurveyorAccountJson | null;
    claimRequests: ClaimRequestJson[];
    balanceCents: string;
    ledger: LedgerEntryJson[];
    sessionViewer?: unknown;
  };

/**
 * The viewer `viewerId` and the record of surveyor `id` (undefined when there is none, or `id`
 * is not a uuid) in one statement: `historyLimit` contact history entries and `ledgerLimit`
 * ledger entries, newest first.
 */
export async function getSurveyorRecordWithViewer(
  db: Db,
  { viewerId, id, historyLimit, ledgerLimit }: {
    viewerId: string;
    id: string;
    historyLimit: number;
    ledgerLimit: number;
  },
): Promise<{ viewer: Viewer | undefined; record: SurveyorRecord | undefined }> {
  // Not a uuid: nothing can match, and a uuid parameter would refuse it.
  const surveyorId = isUuid(id) ? id : null;
  const { viewer, rows } = await readWithViewer<RecordRow>(
    db,
    viewerId,
    db`
      select ${surveyorColumns(db)},
        ${contactHistoryJsonColumn(db, { limit: historyLimit })} as history,
        ${surveyorWorkJsonColumns(db)},
        ${surveyorAccountJsonColumn(db)} as account,
        ${surveyorVerificationColumns(db)},
        ${surveyorReviewsColumns(db, {})},
        ${claimRequestsJsonColumn(db)} as claim_requests,
        balance_cents,
        ${ledgerEntriesJsonColumn(db, { limit: ledgerLimit })} as ledger
      from surveyors where id = ${surveyorId}::uuid`,
  );
  const [row] = rows;
  if (!row) return { viewer, record: undefined };
  const {
    history,
    workSurveys,
    workLeads,
    account,
    verifiedAt,
    verifiedVia,
    verifiedByName,
    reviews,
    reviewTotal,
    reviewSum,
    claimRequests,
    balanceCents,
    ledger,
    // The viewer's column rides on this row too (db/users.ts `readWithViewer`).
    sessionViewer: _viewer,
    ...surveyorRow
  } = row;
  return {
    viewer,
    record: {
      surveyor: toSurveyor(surveyorRow),
      history: contactHistoryFromJson(history),
      work: surveyorWorkFromJson({ workSurveys, workLeads }),
      account: surveyorAccountFromJson(account),
      verification: { verifiedAt, verifiedVia, verifiedByName },
      reviews: surveyorReviewsFromRow({ reviews, reviewTotal, reviewSum }),
      claimRequests: claimRequestsFromJson(claimRequests),
      balanceCents: Number(balanceCents),
      ledger: ledgerEntriesFromJson(ledger),
    },
  };
}
