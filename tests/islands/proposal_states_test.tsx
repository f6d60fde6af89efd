/**
 * Every proposal state has a screen that says what is true and what to do next (issue 22): the
 * client's SurveyProposals (no proposals yet, one, three, accepted, declined, withdrawn, expired
 * lead, cancelled survey) and the buyer's ProposalForm (the same states from their side), each
 * rendered from the props the server gives it.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { test } from "../_helpers.ts";
import type { ClientProposal, OwnProposal } from "../../lib/proposal_constants.ts";
import { setupDom } from "./_dom.ts";

setupDom();
const { cleanup, render, screen } = await import("@testing-library/react");
const { default: ProposalForm } = await import("../../islands/ProposalForm.tsx");
const { default: SurveyProposals } = await import("../../islands/SurveyProposals.tsx");
type SurveyProposalsProps = import("../../islands/SurveyProposals.tsx").SurveyProposalsProps;
type ProposalFormProps = import("../../islands/ProposalForm.tsx").ProposalFormProps;
const { CANCELLED_NEXT_STEP } = await import("../../components/Proposals.tsx");
const { PROPOSAL_MESSAGES } = await import("../../lib/proposal_constants.ts");

const SURVEY_ID = "3f1c2a9e-0000-4000-8000-000000000001";
const EXPIRED_AT = "2030-03-04T15:00:00.000Z";

function proposal(n: number, overrides: Partial<ClientProposal> = {}): ClientProposal {
  return {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    status: "pending",
    priceCents: (300 + n * 10) * 100,
    earliestVisitDate: "2030-03-10",
    turnaroundDays: 5,
    message: `Message from firm ${n}.`,
    sentAt: "2030-03-01T12:00:00.000Z",
    declineReason: null,
    surveyor: {
      id: `10000000-0000-4000-8000-00000000000${n}`,
      companyName: `Firm ${n} Surveying`,
      rating: 4.5,
      reviewCount: 3,
      licenceVerified: true,
      distanceMiles: 12.5,
      profileUrl: n === 3 ? null : `/firms/firm-${n}-surveying-1000000${n}`,
    },
    ...overrides,
  };
}

function client(overrides: Partial<SurveyProposalsProps> = {}) {
  cleanup();
  render(
    <SurveyProposals
      surveyId={SURVEY_ID}
      surveyStatus="surveyors_notified"
      hasSurveyor={false}
      canAnswer
      quotedPriceCents={385_00}
      quoteTurnaround="Typical turnaround: 5–10 business days"
      proposals={[]}
      {...overrides}
    />,
  );
  return screen.getByRole("status").textContent ?? "";
}

function buttons(name: RegExp) {
  return screen.queryAllByRole("button", { name });
}

test("[proposal states] the client: none yet, one, three (each says what to do)", () => {
  try {
    const none = client();
    assertStringIncludes(none, "No proposals yet.");
    assertStringIncludes(none, "we email you when one arrives");
    assertStringIncludes(none, "your instant quote stands");
    assertEquals(buttons(/^Accept/).length, 0);

    const one = client({ proposals: [proposal(1)] });
    assertStringIncludes(one, "1 proposal is waiting for your answer. Compare it");
    assertEquals(buttons(/^Accept/).length, 1);

    const three = client({ proposals: [proposal(1), proposal(2), proposal(3)] });
    assertStringIncludes(three, "3 proposals are waiting for your answer. Compare them");
    assertEquals(buttons(/^Accept/).length, 3);
    assertEquals(buttons(/^Decline/).length, 3);
    // A firm with a public page is a link; one without (profileUrl null) is plain text.
    assert(screen.getByRole("link", { name: "Firm 1 Surveying" }));
    assertEquals(screen.queryAllByRole("link", { name: "Firm 3 Surveying" }).length, 0);
    assert(screen.getByRole("heading", { name: "Firm 3 Surveying" }));
  } finally {
    cleanup();
  }
});

test("[proposal states] the client: accepted, declined, withdrawn", () => {
  try {
    const accepted = client({
      hasSurveyor: true,
      surveyStatus: "assigned",
      proposals: [
        proposal(1, { status: "accepted" }),
        proposal(2, {
          status: "declined",
          declineReason: "The client accepted another surveyor's proposal.",
        }),
      ],
    });
    assertStringIncludes(accepted, "You accepted Firm 1 Surveying's proposal");
    assertStringIncludes(accepted, "They will call you to confirm the details and book the visit.");
    assertEquals(buttons(/^Accept/).length, 0);

    const declined = client({
      proposals: [proposal(1, { status: "declined", declineReason: "Too far away." })],
    });
    assertStringIncludes(declined, "No proposal is waiting for your answer.");
    assertStringIncludes(declined, "your instant quote stands");
    assert(screen.getByText("Declined: Too far away."));

    const withdrawn = client({ proposals: [proposal(2, { status: "withdrawn" })] });
    assertStringIncludes(withdrawn, "No proposal is waiting for your answer.");
    assert(screen.getByText("The surveyor withdrew this proposal."));
    assertEquals(buttons(/^Accept/).length, 0);
  } finally {
    cleanup();
  }
});

test("[proposal states] the client: an expired lead says so and points to support; proposals still stand", () => {
  try {
    const none = client({ leadExpiredAt: EXPIRED_AT });
    assertStringIncludes(
      none,
      "stopped being offered to new surveyors on Mon, Mar 4, 2030 without a proposal",
    );
    assertStringIncludes(none, "Write to Meridian support");
    assertEquals(
      screen.getByRole("link", { name: "Write to Meridian support" }).getAttribute("href"),
      "/support/contact",
    );

    const waiting = client({
      leadExpiredAt: EXPIRED_AT,
      proposals: [proposal(1), proposal(2), proposal(3)],
    });
    assertStringIncludes(waiting, "but the 3 proposals below still stand");
    assertStringIncludes(waiting, "Accept one to assign the survey");
    assertEquals(buttons(/^Accept/).length, 3, "the proposals can still be accepted");
  } finally {
    cleanup();
  }
});

test("[proposal states] the client: a cancelled survey closes the proposals and offers a new request", () => {
  try {
    const cancelled = client({ surveyStatus: "cancelled", proposals: [proposal(1)] });
    assertStringIncludes(cancelled, "This request was cancelled");
    assertStringIncludes(cancelled, "none can be accepted");
    assertStringIncludes(cancelled, "start a new request");
    assertEquals(buttons(/^Accept/).length, 0);
    assertEquals(
      screen.getByRole("link", { name: "Start a new request" }).getAttribute("href"),
      "/create-survey",
    );
  } finally {
    cleanup();
  }
});

function own(overrides: Partial<OwnProposal> = {}): OwnProposal {
  return {
    id: "20000000-0000-4000-8000-000000000001",
    surveyId: SURVEY_ID,
    leadId: "30000000-0000-4000-8000-000000000001",
    status: "pending",
    priceCents: 350_00,
    earliestVisitDate: "2030-03-10",
    turnaroundDays: 5,
    message: "Corners set.",
    declineReason: null,
    sentAt: "2030-03-01T12:00:00.000Z",
    updatedAt: "2030-03-01T12:00:00.000Z",
    decidedAt: null,
    ...overrides,
  };
}

function buyer(overrides: Partial<ProposalFormProps> = {}) {
  cleanup();
  const { container } = render(
    <ProposalForm
      leadId="30000000-0000-4000-8000-000000000001"
      surveyId={SURVEY_ID}
      proposal={null}
      closedReason={null}
      quotedPriceCents={385_00}
      minDate="2030-03-05"
      maxDate="2031-03-05"
      {...overrides}
    />,
  );
  return {
    text: container.textContent ?? "",
    hasForm: screen.queryAllByLabelText(/^Price/).length > 0,
  };
}

test("[proposal states] the buyer: none yet, pending, accepted, declined, withdrawn", () => {
  try {
    const none = buyer();
    assertStringIncludes(none.text, "Send the client your price");
    assert(none.hasForm);

    const pending = buyer({ proposal: own() });
    assertStringIncludes(pending.text, "The client has your proposal");
    assert(buttons(/^Edit proposal$/).length === 1 && buttons(/^Withdraw$/).length === 1);

    const accepted = buyer({ proposal: own({ status: "accepted" }) });
    assertStringIncludes(accepted.text, "The client accepted your proposal");
    assertStringIncludes(accepted.text, "Call the client to confirm the details");
    assert(screen.getByRole("link", { name: "Open the job" }));

    const declined = buyer({ proposal: own({ status: "declined", declineReason: "Too far." }) });
    assertStringIncludes(declined.text, "The client declined your proposal: “Too far.”");
    assert(declined.hasForm, "a new proposal can be sent");

    const withdrawn = buyer({ proposal: own({ status: "withdrawn" }) });
    assertStringIncludes(withdrawn.text, "You withdrew your proposal");
    assert(withdrawn.hasForm);
  } finally {
    cleanup();
  }
});

test("[proposal states] the buyer: an expired lead says no one else can buy it and the proposal still stands", () => {
  try {
    const none = buyer({ leadExpiredAt: EXPIRED_AT });
    assertStringIncludes(none.text, "This lead's offer window closed on Mar 4, 2030");
    assertStringIncludes(none.text, "you can still send the client a proposal");
    assert(none.hasForm);

    const pending = buyer({ leadExpiredAt: EXPIRED_AT, proposal: own() });
    assertStringIncludes(pending.text, "Your proposal still stands until the client answers it.");
  } finally {
    cleanup();
  }
});

test("[proposal states] the buyer: a cancelled survey removes the form and says why and what next", () => {
  try {
    const cancelled = buyer({
      proposal: own({ status: "declined" }),
      closedReason: `${PROPOSAL_MESSAGES.surveyCancelled} ${CANCELLED_NEXT_STEP}`,
    });
    assertStringIncludes(
      cancelled.text,
      "This request was cancelled; it no longer takes proposals.",
    );
    assertStringIncludes(cancelled.text, "Your other leads are under Purchased leads.");
    assert(!cancelled.hasForm, "no form");
    assertEquals(buttons(/^Send/).length, 0);
  } finally {
    cleanup();
  }
});
