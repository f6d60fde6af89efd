/**
 * The second half of `deno task seed --demo`: takes the stored demo requests through the app's
 * own domain functions, as the people of the demo would through its pages, so every dashboard
 * opens on a marketplace at work. Per request stage (lib/demo_network.ts `DemoStage`):
 *
 * - offered and later: dispatched as a new request is (lib/dispatch.ts `dispatchSurvey`): its
 *   lead is priced and offered to the firms around it, with their notifications and emails;
 * - bought: the crew firm buys a place on the lead (db/lead_market.ts `buyLead`), sends the
 *   client a proposal (lib/proposals.ts `sendProposal`), which waits for the client's answer,
 *   and it and the client exchange a few messages (./seed_messages.ts); the two nearest other
 *   firms licensed for it (given the credit, their radius widened to reach it) buy the other
 *   places and propose too, so the client compares three pending proposals with the quote;
 * - assigned: the crew firm claims the lead (`claimLead`, the first claim being the free
 *   welcome claim) and is assigned at the quote, with the same short conversation;
 * - fieldwork: … schedules the visit (lib/assignments.ts), gives the job to its technician
 *   (lib/technicians.ts), who starts fieldwork on site and answers part of the checklist, and
 *   writes to the client in the firm's thread;
 * - delivered: … the technician answers the whole checklist with corner photos and marks it
 *   surveyed, the surveyor uploads the plat (a small PDF, through the storage provider) and
 *   completes it, and the client rates the work with a public text, which the firm answers
 *   (db/firm_profiles.ts `replyToReview`, the client told as the app tells them).
 *
 * Each step is its own transaction, as in the app (the timeline orders events by time, and
 * one transaction would give them all the same `now()`). The status moves and the review
 * follow the rules of routes/surveys.ts and routes/reviews.ts and throw when those would
 * refuse: the seed never overrides a rule the app enforces.
 */
import type { Sql } from "../../db/client.ts";
import { getLeadForSurvey } from "../../db/leads.ts";
import { buyLead, claimLead, LeadMarketError } from "../../db/lead_market.ts";
import { applySurveyStatusChange, lockSurvey } from "../../db/surveys.ts";
import { getFieldworkAccess } from "../../db/survey_access.ts";
import {
  applyChecklistAnswers,
  type ChecklistAnswerInput,
  listChecklistItems,
} from "../../db/checklists.ts";
import { insertSurveyFile } from "../../db/survey_files.ts";
import { insertReview } from "../../db/reviews.ts";
import { insertNotification, notifyAdmins } from "../../db/notifications.ts";
import { dispatchSurvey } from "../dispatch.ts";
import { earliestVisitDate, updateAssignmentStatusInTx } from "../assignments.ts";
import { assignTechnicianInTx } from "../technicians.ts";
import { sendProposal } from "../proposals.ts";
import { todayInUs } from "../proposal_schema.ts";
import {
  deliveredNotice,
  deliveryState,
  followDelivery,
  getDeliveryParty,
  recordFieldworkStart,
} from "../fieldwork.ts";
import { parseAnswerValue } from "../checklists.ts";
import type { ChecklistItemView, ChecklistValue } from "../checklist_types.ts";
import { canTransition, deliveryBlockers, type SurveyStatus } from "../survey_status.ts";
import { detectFileType } from "../file_types.ts";
import { MAX_FILE_BYTES, type SurveyFileKind } from "../survey_file_types.ts";
import { newStorageKey, type StorageProvider } from "../storage/provider.ts";
import { claimUpload, registerUpload } from "../storage/cleanup.ts";
import { SURVEY_TYPE_INFO } from "../survey_types.ts";
import type { DemoStage } from "../demo_network.ts";
import { seedConversation, seedTechnicianConversation } from "./seed_messages.ts";
import { postLedgerEntry } from "../../db/ledger.ts";
import { replyToReview } from "../../db/firm_profiles.ts";
import { notifyReviewReplied } from "../review_replies.ts";
import type { Role } from "../roles.ts";

/** What the lifecycle needs: the database, the site's address for links, the file storage. */
export interface LifecycleDeps {
  sql: Sql;
  publicUrl: string;
  storage: StorageProvider;
}

/** One stored demo request and the people around it. */
export interface LifecycleRequest {
  surveyId: string;
  stage: DemoStage;
  clientId: string;
  lat: number;
  lng: number;
  /** The firm that buys or claims it, and its account; null for requested and offered. */
  firm: { surveyorId: string; userId: string } | null;
  /** The technician of that firm's crew (fieldwork and delivered). */
  technicianId: string | null;
}

/** What the lifecycle left behind, for the summary. */
export interface LifecycleResult {
  /** Requests dispatched, and firm offers made in all. */
  dispatched: number;
  offers: number;
  /** Survey id of the delivered request, if any. */
  deliveredSurveyId: string | null;
}

const ORDER: readonly DemoStage[] = [
  "delivered",
  "fieldwork",
  "assigned",
  "bought",
  "offered",
  "requested",
];

/**
 * Plays the lifecycle of `requests` (see the module comment), oldest stage first so the crew's
 * first claim is the delivered job. Throws when any step is refused.
 */
export async function playLifecycle(
  deps: LifecycleDeps,
  requests: readonly LifecycleRequest[],
): Promise<LifecycleResult> {
  const result: LifecycleResult = { dispatched: 0, offers: 0, deliveredSurveyId: null };
  const sorted = [...requests].sort((a, b) => ORDER.indexOf(a.stage) - ORDER.indexOf(b.stage));
  for (const req of sorted) {
    if (req.stage === "requested") continue;
    const { notified } = await dispatchSurvey(
      { sql: deps.sql, config: { PUBLIC_URL: deps.publicUrl } },
      { surveyId: req.surveyId },
    );
    if (notified === 0) throw new Error(`demo request ${req.surveyId}: nobody was offered it`);
    result.dispatched++;
    result.offers += notified;
    if (req.stage === "offered") continue;

    const firm = req.firm;
    if (!firm) throw new Error(`demo request ${req.surveyId}: no firm to take it`);
    const lead = await getLeadForSurvey(deps.sql, { surveyId: req.surveyId });
    const take = { leadId: lead!.id, surveyorId: firm.surveyorId, actorId: firm.userId };
    const talk = { surveyId: req.surveyId, clientId: req.clientId, firmUserId: firm.userId };
    if (req.stage === "bought") {
      await buyLead(deps.sql, { ...take, publicUrl: deps.publicUrl });
      await propose(deps, req, take);
      await seedConversation(deps.sql, { ...talk, publicUrl: deps.publicUrl });
      await otherBuyersPropose(deps, req, take);
      continue;
    }
    await claimLead(deps.sql, { ...take, publicUrl: deps.publicUrl });
    if (req.stage === "assigned") {
      await seedConversation(deps.sql, { ...talk, publicUrl: deps.publicUrl });
      continue;
    }

    await fieldwork(deps, req, firm);
    if (req.stage === "fieldwork" && req.technicianId) {
      await seedTechnicianConversation(deps.sql, {
        surveyId: req.surveyId,
        clientId: req.clientId,
        technicianId: req.technicianId,
        publicUrl: deps.publicUrl,
      });
    }
    if (req.stage === "delivered") {
      await deliver(deps, req, firm);
      result.deliveredSurveyId = req.surveyId;
    }
  }
  return result;
}

/**
 * The buyer's proposal on a bought request: a little under the instant quote, in whole dollars,
 * a visit in three days and a week's turnaround, as a firm keen on the job would send.
 */
async function propose(
  deps: LifecycleDeps,
  req: LifecycleRequest,
  { leadId, surveyorId }: { leadId: string; surveyorId: string },
  offer: { share: number; visitInDays: number; turnaroundDays: number; message: string } = {
    share: 0.92,
    visitInDays: 3,
    turnaroundDays: 7,
    message:
      "Thanks for the request. Our price includes the field visit, setting any missing corners and a signed, sealed drawing as a PDF. " +
      "Please have your deed and any earlier survey of the lot to hand; we will call to confirm access before the visit.",
  },
): Promise<void> {
  const [survey] = await deps.sql<{ quotedPriceCents: number | null }[]>`
    select quoted_price_cents from surveys where id = ${req.surveyId}`;
  const quote = survey?.quotedPriceCents ?? 1000_00;
  const priceCents = Math.max(100, Math.round((quote * offer.share) / 100) * 100);
  const visit = new Date(`${todayInUs()}T00:00:00Z`);
  visit.setUTCDate(visit.getUTCDate() + offer.visitInDays);
  await deps.sql.begin((tx) =>
    sendProposal(tx, {
      leadId,
      surveyorId,
      fields: {
        priceCents,
        earliestVisitDate: visit.toISOString().slice(0, 10),
        turnaroundDays: offer.turnaroundDays,
        message: offer.message,
      },
      publicUrl: deps.publicUrl,
    })
  );
}

/** What the other two buyers of the bought request offer: one dearer and sooner, one cheaper. */
const OTHER_OFFERS = [
  {
    share: 1.05,
    visitInDays: 2,
    turnaroundDays: 4,
    message:
      "We can be on site this week and deliver in four business days. The price covers research at the county, the field visit and a sealed plat; corner monuments are extra if any are missing.",
  },
  {
    share: 0.85,
    visitInDays: 9,
    turnaroundDays: 10,
    message:
      "Our next opening is the week after next. The price includes the boundary survey and a PDF plat; we work from the recorded plat, so please send us the lot and block if you know them.",
  },
] as const;

/**
 * Two more firms near the bought request (active, in the network, licensed in its state for its
 * type, not the crew firm) get the demo credit for it, buy the other places and each send a
 * proposal: the client then has three pending proposals to compare. A firm the market refuses
 * is skipped; so with fewer such firms the request has fewer proposals.
 */
async function otherBuyersPropose(
  deps: LifecycleDeps,
  req: LifecycleRequest,
  { leadId, surveyorId }: { leadId: string; surveyorId: string },
): Promise<void> {
  // Dispatch offered the lead to the firms whose service area reaches it; in a demo network
  // that is often the crew firm alone. The nearest other firms licensed in the state for the
  // survey's type widen their radius to reach it (as a firm keen on the area would).
  const candidates = await deps.sql<{ surveyorId: string; priceCents: number; reach: number }[]>`
    select v.id as surveyor_id, l.price_cents,
      ceil(geo_distance_m(geo_point(s.lat, s.lng), geo_point(v.lat, v.lng)) / 1609.344)::int + 5
        as reach
    from leads l
    join surveys s on s.id = l.survey_id
    join surveyors v on v.status = 'active' and v.in_network and v.id <> ${surveyorId}
      and s.state = any(v.license_states) and s.survey_type = any(v.survey_types)
      and v.lat is not null and v.lng is not null
    where l.id = ${leadId} and s.lat is not null
    order by 3, v.id
    limit 6`;
  let sent = 0;
  for (const c of candidates) {
    if (sent === OTHER_OFFERS.length) break;
    if (c.reach > 300) break;
    await deps.sql`
      update surveyors set service_radius_miles = greatest(service_radius_miles, ${c.reach})
      where id = ${c.surveyorId}`;
    if (c.priceCents > 0) {
      await deps.sql.begin((tx) =>
        postLedgerEntry(tx, {
          surveyorId: c.surveyorId,
          kind: "adjustment",
          amountCents: c.priceCents,
          note: "Demo credit to try the lead market",
          actorId: null,
        })
      );
    }
    try {
      await buyLead(deps.sql, {
        leadId,
        surveyorId: c.surveyorId,
        actorId: null,
        publicUrl: deps.publicUrl,
      });
    } catch (err) {
      if (err instanceof LeadMarketError) continue;
      throw err;
    }
    await propose(deps, req, { leadId, surveyorId: c.surveyorId }, OTHER_OFFERS[sent]);
    sent++;
  }
}

/** Schedules the visit for today, gives the job to the technician, who starts on site. */
async function fieldwork(
  deps: LifecycleDeps,
  req: LifecycleRequest,
  firm: { surveyorId: string; userId: string },
): Promise<void> {
  const surveyor = { id: firm.userId, role: "surveyor" as const };
  const technicianId = req.technicianId;
  if (!technicianId) throw new Error(`demo request ${req.surveyId}: no technician`);
  await deps.sql.begin((tx) =>
    updateAssignmentStatusInTx(tx, {
      surveyId: req.surveyId,
      surveyorId: firm.surveyorId,
      status: "scheduled",
      scheduledDate: earliestVisitDate(),
      actor: surveyor,
      publicUrl: deps.publicUrl,
    })
  );
  await deps.sql.begin((tx) =>
    assignTechnicianInTx(tx, {
      surveyId: req.surveyId,
      technicianId,
      notes: "Client will meet you at the gate. Pins were last found in 2009; bring the old plat.",
      user: surveyor,
      publicUrl: deps.publicUrl,
    })
  );
  const technician = { id: technicianId, role: "technician" as const };
  await moveSurvey(deps, {
    surveyId: req.surveyId,
    user: technician,
    to: "in_fieldwork",
    position: { lat: req.lat, lng: req.lng },
  });
  // The office research is done before the crew drives out; the field items wait for them.
  await answerChecklist(deps, { surveyId: req.surveyId, technicianId, share: 0.4 });
}

/** The rest of the checklist with photos, surveyed, the plat uploaded, completed, rated. */
async function deliver(
  deps: LifecycleDeps,
  req: LifecycleRequest,
  firm: { surveyorId: string; userId: string },
): Promise<void> {
  const technicianId = req.technicianId!;
  await answerChecklist(deps, { surveyId: req.surveyId, technicianId, share: 1 });
  const today = earliestVisitDate();
  await moveSurvey(deps, {
    surveyId: req.surveyId,
    user: { id: technicianId, role: "technician" },
    to: "surveyed",
    surveyedDate: today,
  });
  await storeFile(deps, {
    surveyId: req.surveyId,
    kind: "deliverable",
    checklistItemId: null,
    fileName: "boundary-plat.pdf",
    bytes: demoPdf("Plat of survey (demo)", "A demo deliverable made by deno task seed --demo."),
    uploadedBy: firm.userId,
  });
  await moveSurvey(deps, {
    surveyId: req.surveyId,
    user: { id: firm.userId, role: "surveyor" },
    to: "completed",
    completedDate: today,
  });
  await reviewSurvey(deps, {
    surveyId: req.surveyId,
    clientId: req.clientId,
    rating: 5,
    comment: "Clear plat, on time, and they found the old iron pins the last survey missed.",
    text:
      "On time and easy to reach. They found the old iron pins the last survey missed and explained the plat line by line.",
  });
  await deps.sql.begin(async (tx) => {
    const [review] = await tx<{ id: string }[]>`
      select id from surveyor_reviews where survey_id = ${req.surveyId}`;
    const outcome = await replyToReview(tx, {
      reviewId: review.id,
      userId: firm.userId,
      body:
        "Thank you! Those pins took some digging. Call us when you are ready to fence the line and we will stake it.",
    });
    if (outcome.kind !== "replied") throw new Error(`demo reply: ${outcome.kind}`);
    await notifyReviewReplied(tx, { ...outcome, publicUrl: deps.publicUrl });
  });
}

/**
 * A status change by `user` as `PATCH /api/surveys/{id}/status` makes it: who works on the
 * survey and in what role, the lifecycle's moves, the delivery rules (never overridden), the
 * fieldwork start and the delivery's follow-up.
 */
async function moveSurvey(
  deps: LifecycleDeps,
  { surveyId, user, to, position, surveyedDate, completedDate }: {
    surveyId: string;
    user: { id: string; role: Role };
    to: SurveyStatus;
    position?: { lat: number; lng: number };
    surveyedDate?: string;
    completedDate?: string;
  },
): Promise<void> {
  await deps.sql.begin(async (tx) => {
    const survey = await lockSurvey(tx, { id: surveyId });
    const access = survey && await getFieldworkAccess(tx, { surveyId, user });
    if (!survey || !access || !canTransition(access.as, survey.status, to)) {
      throw new Error(`demo request ${surveyId}: ${user.role} cannot move it to ${to}`);
    }
    const state = await deliveryState(tx, { surveyId, from: survey.status, to });
    const blockers = deliveryBlockers(survey.status, to, state);
    if (blockers.length > 0) throw new Error(`demo request ${surveyId}: ${blockers.join(" ")}`);
    const party = to === "completed"
      ? await getDeliveryParty(tx, {
        surveyId,
        workingSurveyorId: access.survey.workingSurveyorId,
        deliverables: state.deliverables,
      })
      : undefined;
    await applySurveyStatusChange(tx, {
      survey,
      to,
      actorId: user.id,
      surveyedDate,
      completedDate,
      notice: party ? deliveredNotice(party, survey) : undefined,
    });
    if (to === "in_fieldwork") await recordFieldworkStart(tx, { surveyId, position });
    if (party) {
      await followDelivery(tx, {
        survey,
        party,
        completedDate: completedDate!,
        bySurveyor: access.as === "surveyor",
        publicUrl: deps.publicUrl,
      });
    }
  });
}

// Answers a crew would give, by item key; other items get a generic one of their kind.
const TEXT_ANSWERS: Record<string, string> = {
  monument_descriptions:
    "1/2\" iron rods found at three corners (two capped 'RPLS 4410'); one 5/8\" rod with cap set at the NW corner.",
  encroachments: "Neighbour's wood fence runs about 0.4 ft inside the east line.",
  field_notes: "Client met us at the gate. No access problems.",
  flood_zone: "Zone AE, FIRM panel 0453J, effective 2016, BFE 512.0 ft.",
  benchmark: "NGS PID AB1234, NAVD 88.",
  control: "GNSS RTK on the state plane grid; two control points set on site.",
};
const NUMBER_ANSWERS: Record<string, number> = {
  monuments_found: 3,
  monuments_set: 1,
  boundary_monuments_found: 4,
  contour_interval: 1,
};

function demoAnswer(item: ChecklistItemView, photoIds: string[]): ChecklistValue {
  switch (item.kind) {
    case "check":
      return true;
    case "number":
      return NUMBER_ANSWERS[item.key] ?? 2;
    case "text":
      return TEXT_ANSWERS[item.key] ?? "Checked in the field; nothing unusual.";
    case "photo":
      return photoIds;
  }
}

/**
 * The technician answers the first `share` of the survey's checklist items, in order, as the
 * checklist API stores them (values checked like the API checks them); a photo item gets a
 * photo uploaded to it first.
 */
async function answerChecklist(
  deps: LifecycleDeps,
  { surveyId, technicianId, share }: { surveyId: string; technicianId: string; share: number },
): Promise<void> {
  const items = await listChecklistItems(deps.sql, { surveyId });
  const chosen = items.slice(0, Math.ceil(items.length * share)).filter((i) => i.value === null);
  const ops: (ChecklistAnswerInput & { itemId: string })[] = [];
  for (const item of chosen) {
    const photoIds = item.kind === "photo"
      ? [
        (await storeFile(deps, {
          surveyId,
          kind: "photo",
          checklistItemId: item.id,
          fileName: `${item.key}.png`,
          bytes: DEMO_PNG,
          uploadedBy: technicianId,
        })).id,
      ]
      : [];
    const parsed = parseAnswerValue(item.kind, item.label, demoAnswer(item, photoIds));
    if ("error" in parsed) throw new Error(`demo checklist: ${parsed.error}`);
    ops.push({
      opId: crypto.randomUUID(),
      itemId: item.id,
      value: parsed.value,
      answeredAt: new Date(),
    });
  }
  if (ops.length === 0) return;
  await deps.sql.begin(async (tx) => {
    const access = await getFieldworkAccess(tx, {
      surveyId,
      user: { id: technicianId, role: "technician" },
      lock: true,
    });
    if (access?.as !== "technician") throw new Error(`demo checklist: ${surveyId} is not theirs`);
    await applyChecklistAnswers(tx, { surveyId, answeredBy: technicianId, ops });
  });
}

/**
 * Stores `bytes` through the storage provider and records the file, as an upload does:
 * registered for the cleanup sweep first, claimed by the row that records it.
 */
async function storeFile(
  deps: LifecycleDeps,
  file: {
    surveyId: string;
    kind: SurveyFileKind;
    checklistItemId: string | null;
    fileName: string;
    bytes: Uint8Array;
    uploadedBy: string;
  },
): Promise<{ id: string }> {
  const type = detectFileType(file.bytes, { isWhole: true });
  if (!type) throw new Error(`demo file ${file.fileName}: unknown type`);
  const key = newStorageKey();
  await registerUpload(deps.sql, { key, storage: deps.storage.kind });
  const object = await deps.storage.put(key, ReadableStream.from([file.bytes]), {
    contentType: type.contentType,
    maxBytes: MAX_FILE_BYTES,
  });
  return await deps.sql.begin(async (tx) => {
    const stored = await insertSurveyFile(tx, {
      surveyId: file.surveyId,
      kind: file.kind,
      checklistItemId: file.checklistItemId,
      fileName: file.fileName,
      contentType: type.contentType,
      sizeBytes: object.sizeBytes,
      sha256: object.sha256,
      storage: deps.storage.kind,
      storageKey: key,
      uploadedBy: file.uploadedBy,
      opId: null,
    });
    await claimUpload(tx, { key });
    return stored!;
  });
}

/** The client's review as `POST /api/surveys/{id}/review` stores it, with its notifications. */
async function reviewSurvey(
  deps: LifecycleDeps,
  { surveyId, clientId, rating, comment, text }: {
    surveyId: string;
    clientId: string;
    rating: number;
    comment: string;
    /** The public text /firms/{slug} shows. */
    text: string;
  },
): Promise<void> {
  await deps.sql.begin(async (tx) => {
    const access = await getFieldworkAccess(tx, {
      surveyId,
      user: { id: clientId, role: "client" },
      lock: true,
    });
    const survey = access?.survey;
    if (access?.as !== "client" || survey?.status !== "completed" || !survey.workingSurveyorId) {
      throw new Error(`demo review: ${surveyId} cannot be rated`);
    }
    const stored = await insertReview(tx, {
      surveyId,
      surveyorId: survey.workingSurveyorId,
      clientId,
      rating,
      comment,
      text,
    });
    if (!stored) throw new Error(`demo review: ${surveyId} is already rated`);
    const [row] = await tx<{ companyName: string; userId: string | null; clientName: string }[]>`
      select v.company_name, v.user_id,
        (select full_name from users where id = ${clientId}) as client_name
      from surveyors v where v.id = ${survey.workingSurveyorId}`;
    const typeName = SURVEY_TYPE_INFO[survey.surveyType].name;
    const stars = `${rating} star${rating === 1 ? "" : "s"}`;
    await notifyAdmins(tx, {
      kind: "surveyor_reviewed",
      title: `${row.companyName} was rated ${stars}`,
      body: `${row.clientName} rated the ${typeName} for ${survey.address}. “${comment}”`,
      link: `/surveyor-detail/${survey.workingSurveyorId}`,
    });
    if (row.userId) {
      await insertNotification(tx, {
        userId: row.userId,
        kind: "surveyor_reviewed",
        title: `A client rated your work ${stars}`,
        body: `Your ${typeName} for ${survey.address}. “${comment}”`,
        link: `/surveyor/jobs/${survey.id}`,
      });
    }
  });
}

/** A 1×1 PNG: the smallest real photo the file checks accept. */
const DEMO_PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

/** A one-page PDF with a title and a line of text, cross-reference table and all. */
export function demoPdf(title: string, line: string): Uint8Array {
  const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = `BT /F1 20 Tf 72 720 Td (${escape(title)}) Tj ET\nBT /F1 11 Tf 72 690 Td (${
    escape(line)
  }) Tj ET\n`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R " +
    "/Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}endstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}
