/**
 * Technicians (issue 12): a surveyor firm's field crew, or Meridian's own staff, invited by
 * email, assigned to the surveys the firm works on, and taken off a firm when they leave.
 *
 * Who may do what:
 * - Inviting and removing: the surveyor whose account is linked to a firm record, for that
 *   firm; admins for any firm or for Meridian staff (`surveyorId` null).
 * - Assigning (spec §3 "technician assignment: technicianId, notes"): an admin, or the survey's
 *   working surveyor (db/survey_access.ts "surveyor"), to a technician of the working firm;
 *   admins may also pick a staff technician. Only while the survey is assigned, scheduled or in
 *   fieldwork. Reassigning ends the current row (history stays) and tells the previous
 *   technician; the new one gets a notification and an email with the job. The same technician
 *   again only updates the notes. The survey's checklist is instantiated in the same
 *   transaction (db/checklists.ts `instantiateChecklist`), so template edits made later never
 *   change a job in progress.
 *
 * Everything is written in the caller's transaction; a refusal (`TechnicianError`) writes
 * nothing.
 */
import type { Db } from "../db/client.ts";
import { type FieldworkAccess, getFieldworkAccess } from "../db/survey_access.ts";
import {
  type CurrentTechnicianAssignment,
  deleteTechnician,
  type EligibleTechnician,
  type EndedTechnicianJob,
  endOpenAssignmentsOf,
  endTechnicianAssignment,
  getCurrentTechnicianAssignment,
  getTechnician,
  insertTechnician,
  insertTechnicianAssignment,
  listEligibleTechnicians,
  TECHNICIAN_ASSIGNABLE_STATUSES,
  type TechnicianJob,
  type TechnicianMember,
  updateTechnicianAssignmentNotes,
} from "../db/technicians.ts";
import { instantiateChecklist } from "../db/checklists.ts";
import {
  disableUser,
  getUserByEmail,
  insertUser,
  type User,
  UserExistsError,
} from "../db/users.ts";
import { insertNotification } from "../db/notifications.ts";
import { deletePasswordResetTokens, insertPasswordResetToken } from "../db/password_resets.ts";
import { type AuditEventInput, insertAuditEvent } from "../db/audit.ts";
import { queueTechnicianInvitationEmail, queueTechnicianJobAssignedEmail } from "./mail/emails.ts";
import { formatVisitDate } from "./assignment_constants.ts";
import type { Role } from "./roles.ts";
import { STATUS_INFO, type SurveyStatus } from "./survey_status.ts";
import { SURVEY_TYPE_INFO, type SurveyType } from "./survey_types.ts";
import {
  TECHNICIAN_DASHBOARD_PATH,
  TECHNICIAN_TOASTS,
  technicianJobPath,
} from "./technician_constants.ts";
import type { AssignTechnicianProps } from "../islands/AssignTechnician.tsx";
import type { TeamMember } from "../islands/TechnicianTeam.tsx";

/** Texts the technician API answers with (toasts are the islands'). */
export const TECHNICIAN_MESSAGES = {
  assigned: TECHNICIAN_TOASTS.assigned,
  surveyNotFound: "Survey not found",
  technicianNotFound: "Technician not found",
  firmNotFound: "Surveyor not found",
  noFirm: "No surveyor profile is linked to your account yet",
  emailTaken: "An account with this email already exists",
  firmRequired: "Choose the firm, or Meridian staff",
  alreadySignedIn:
    "This technician has already signed in; they can reset their password from the sign-in page",
  accountDisabled: "This technician's account is disabled",
  removed: TECHNICIAN_TOASTS.removed,
} as const;

/** A refused technician action: `status` is the HTTP status to answer, `message` the text. */
export class TechnicianError extends Error {
  /** Builds the error; `status` is 400, 404 or 409. */
  constructor(readonly status: 400 | 404 | 409, message: string) {
    super(message);
    this.name = "TechnicianError";
  }
}

/** The 409 sentence for a survey whose status takes no technician. */
export function notAssignableMessage(status: SurveyStatus): string {
  return `This survey is ${
    STATUS_INFO[status].label.toLowerCase()
  }; a technician can be assigned only while it is assigned, scheduled or in fieldwork.`;
}

/** True when a survey in `status` can be given a technician. */
export function isTechnicianAssignable(status: SurveyStatus): boolean {
  return (TECHNICIAN_ASSIGNABLE_STATUSES as readonly string[]).includes(status);
}

function typeName(type: SurveyType): string {
  return SURVEY_TYPE_INFO[type].name;
}

/** Input of `assignTechnicianInTx`. */
export interface AssignTechnicianInput {
  surveyId: string;
  technicianId: string;
  /** The crew notes; null or empty for none. */
  notes: string | null;
  /** Who asks (their rights decide): an admin, or the survey's working surveyor. */
  user: { id: string; role: Role };
  /** Who is recorded as assigning (the admin while impersonating); default `user.id`. */
  actorId?: string;
  /** The site's public origin (config PUBLIC_URL), for the link in the email. */
  publicUrl: string;
}

/**
 * Assigns technician `technicianId` to `surveyId` in the caller's transaction (see the module
 * comment). Returns the current assignment and whether the technician changed (false when
 * the same technician only had their notes updated).
 *
 * Throws `TechnicianError` 404 when the survey does not exist or the caller does not work on
 * it (an admin always does), or the technician is not one the caller may pick (unknown,
 * disabled, of another firm, staff for a surveyor); 409 when the survey is not assigned,
 * scheduled or in fieldwork.
 */
export async function assignTechnicianInTx(
  tx: Db,
  input: AssignTechnicianInput,
): Promise<{ assignment: CurrentTechnicianAssignment; isNew: boolean }> {
  const access = await getFieldworkAccess(tx, {
    surveyId: input.surveyId,
    user: input.user,
    lock: true,
  });
  if (!access || (access.as !== "admin" && access.as !== "surveyor")) {
    throw new TechnicianError(404, TECHNICIAN_MESSAGES.surveyNotFound);
  }
  const { survey } = access;
  if (!isTechnicianAssignable(survey.status)) {
    throw new TechnicianError(409, notAssignableMessage(survey.status));
  }
  const technician = await getTechnician(tx, { userId: input.technicianId, lock: true });
  if (!technician || !mayPick(technician, access.as, survey.workingSurveyorId)) {
    throw new TechnicianError(404, TECHNICIAN_MESSAGES.technicianNotFound);
  }
  const notes = input.notes?.trim() || null;
  const current = await getCurrentTechnicianAssignment(tx, { surveyId: survey.id });
  if (current?.technicianId === technician.id) {
    const updated = await updateTechnicianAssignmentNotes(tx, { id: current.id, notes });
    return { assignment: updated ?? current, isNew: false };
  }

  const what = `${typeName(survey.surveyType)} at ${survey.address}`;
  if (current) {
    await endTechnicianAssignment(tx, { id: current.id });
    await insertNotification(tx, {
      userId: current.technicianId,
      kind: "technician_unassigned",
      title: "You were taken off a job",
      body: `The ${what} was given to another technician.`,
      link: TECHNICIAN_DASHBOARD_PATH,
    });
  }
  const assignment = await insertTechnicianAssignment(tx, {
    surveyId: survey.id,
    technicianId: technician.id,
    notes,
    assignedBy: input.actorId ?? input.user.id,
  });
  await instantiateChecklist(tx, { surveyId: survey.id });
  const visit = survey.scheduledDate ? formatVisitDate(survey.scheduledDate) : null;
  await insertNotification(tx, {
    userId: technician.id,
    kind: "technician_assigned",
    title: "You were assigned a job",
    body: `${what}${visit ? `, visit on ${visit}` : ", visit date to be set"}.`,
    link: technicianJobPath(survey.id),
  });
  await queueTechnicianJobAssignedEmail(tx, {
    to: technician.email,
    name: technician.fullName,
    companyName: technician.companyName ?? "Meridian",
    surveyTypeName: typeName(survey.surveyType),
    address: survey.address,
    visitDate: visit,
    notes,
    jobPath: technicianJobPath(survey.id),
    publicUrl: input.publicUrl,
  });
  return { assignment, isNew: true };
}

/** Whether a caller working on a survey as `as` may give it to `technician`. */
function mayPick(
  technician: TechnicianMember,
  as: "admin" | "surveyor",
  workingSurveyorId: string | null,
): boolean {
  if (technician.disabledAt) return false;
  if (technician.surveyorId === null) return as === "admin";
  return technician.surveyorId === workingSurveyorId;
}

/**
 * The props of the AssignTechnician island for `surveyId` as a caller working on it as `as`
 * sees it: the working firm's technicians (and staff for an admin) and the current one.
 */
export async function assignTechnicianProps(
  db: Db,
  { surveyId, as, workingSurveyorId, known }: {
    surveyId: string;
    as: "admin" | "surveyor";
    workingSurveyorId: string | null;
    /**
     * The survey's current technician assignment, when the caller read it already, and the
     * technicians to choose from (`listEligibleTechnicians` for this caller), when read too.
     */
    known?: {
      current: CurrentTechnicianAssignment | undefined;
      technicians?: EligibleTechnician[];
    };
  },
): Promise<AssignTechnicianProps> {
  const [technicians, current] = await Promise.all([
    known?.technicians ??
      listEligibleTechnicians(db, { surveyorId: workingSurveyorId, includeStaff: as === "admin" }),
    known ? known.current : getCurrentTechnicianAssignment(db, { surveyId }),
  ]);
  return {
    surveyId,
    technicians: technicians.map((t) => ({
      id: t.id,
      name: t.fullName,
      // A surveyor's choices are all their own crew: the firm's name would only crowd the list.
      detail: as === "surveyor" ? "" : t.companyName ?? "Meridian staff",
    })),
    current: current
      ? { technicianId: current.technicianId, name: current.technicianName, notes: current.notes }
      : null,
    invitePath: as === "surveyor" ? "/surveyor/crew#crew-title" : null,
  };
}

/** Input of `createTechnicianInTx`. */
export interface CreateTechnicianInput {
  fullName: string;
  email: string;
  phone: string | null;
  /** The firm, or null for Meridian staff. */
  surveyorId: string | null;
  passwordHash: string;
  /** The audit fields (who, from where). */
  audit: Pick<AuditEventInput, "actorId" | "ip" | "userAgent">;
  /** How the account came to be, for the audit row ("technician_invitation", "cli"). */
  via: string;
}

/**
 * Creates a technician's account (role technician, company name their firm's) and their
 * `technicians` row in firm `surveyorId` (null: Meridian staff), with a `user_created` audit
 * row, in the caller's transaction: the account the crew lists, the assign form and the
 * technician pages all know. Returns the new technician.
 *
 * Throws `TechnicianError` 404 when `surveyorId` names no firm, 409 when the email already has
 * an account (any role, any letter case).
 */
export async function createTechnicianInTx(
  tx: Db,
  input: CreateTechnicianInput,
): Promise<TechnicianMember> {
  let companyName: string | null = null;
  if (input.surveyorId !== null) {
    const [firm] = await tx<{ companyName: string }[]>`
      select company_name from surveyors where id = ${input.surveyorId}`;
    if (!firm) throw new TechnicianError(404, TECHNICIAN_MESSAGES.firmNotFound);
    companyName = firm.companyName;
  }
  if (await getUserByEmail(tx, input.email)) {
    throw new TechnicianError(409, TECHNICIAN_MESSAGES.emailTaken);
  }
  let user: User;
  try {
    user = await insertUser(tx, {
      email: input.email,
      fullName: input.fullName,
      role: "technician",
      passwordHash: input.passwordHash,
      companyName,
      phone: input.phone,
    });
  } catch (err) {
    if (err instanceof UserExistsError) {
      throw new TechnicianError(409, TECHNICIAN_MESSAGES.emailTaken);
    }
    throw err;
  }
  await insertTechnician(tx, {
    userId: user.id,
    surveyorId: input.surveyorId,
    invitedBy: input.audit.actorId ?? null,
  });
  await insertAuditEvent(tx, {
    event: "user_created",
    ...input.audit,
    targetId: user.id,
    details: { role: "technician", via: input.via, surveyorId: input.surveyorId },
  });
  return (await getTechnician(tx, { userId: user.id }))!;
}

/** Input of `inviteTechnicianInTx`; the hashes are computed before the transaction. */
export interface InviteTechnicianInput extends Omit<CreateTechnicianInput, "via"> {
  /** A password nobody knows (hashed), so the account is unusable before the link is used. */
  passwordHash: string;
  /** The SHA-256 of the set-password token in `setPasswordUrl`. */
  tokenHash: string;
  setPasswordUrl: string;
  /** How many days the link works (INVITATION_TTL_MINUTES in days). */
  validDays: number;
  ttlMinutes: number;
  /** Who invites (their name goes in the email). */
  inviterName: string;
}

/**
 * Creates the technician (`createTechnicianInTx`, with a password nobody knows), an invitation
 * token and the invitation email, in the caller's transaction. Returns the new technician and
 * the outbox id of their invitation email.
 *
 * Throws `TechnicianError` 404 when `surveyorId` names no firm, 409 when the email already has
 * an account (any role, any letter case).
 */
export async function inviteTechnicianInTx(
  tx: Db,
  input: InviteTechnicianInput,
): Promise<TechnicianMember & { invitationEmailId: string }> {
  const technician = await createTechnicianInTx(tx, { ...input, via: "technician_invitation" });
  const invitationEmailId = await sendInvitation(tx, technician, technician.companyName, input);
  return { ...technician, invitationEmailId };
}

async function sendInvitation(
  tx: Db,
  user: Pick<User, "id" | "email" | "fullName">,
  companyName: string | null,
  input: Pick<
    InviteTechnicianInput,
    "tokenHash" | "setPasswordUrl" | "validDays" | "ttlMinutes" | "inviterName"
  >,
): Promise<string> {
  await insertPasswordResetToken(tx, {
    userId: user.id,
    tokenHash: input.tokenHash,
    purpose: "invitation",
    ttlMinutes: input.ttlMinutes,
  });
  return await queueTechnicianInvitationEmail(tx, {
    to: user.email,
    name: user.fullName,
    companyName: companyName ?? "Meridian",
    inviterName: input.inviterName,
    setPasswordUrl: input.setPasswordUrl,
    validDays: input.validDays,
  });
}

/**
 * Sends technician `technician` a fresh invitation link (the old one stops working), in the
 * caller's transaction. Returns the outbox id of the email. Throws `TechnicianError` 409 when
 * they have signed in already or the account is disabled.
 */
export async function resendTechnicianInvitationInTx(
  tx: Db,
  technician: TechnicianMember,
  input: Pick<
    InviteTechnicianInput,
    "tokenHash" | "setPasswordUrl" | "validDays" | "ttlMinutes" | "inviterName"
  >,
): Promise<string> {
  if (technician.disabledAt) throw new TechnicianError(409, TECHNICIAN_MESSAGES.accountDisabled);
  if (technician.lastLogin) throw new TechnicianError(409, TECHNICIAN_MESSAGES.alreadySignedIn);
  return await sendInvitation(tx, technician, technician.companyName, input);
}

/**
 * Takes technician `technician` off their firm in the caller's transaction: their open jobs
 * end (kept as history; the surveys have no technician until someone is assigned), their
 * `technicians` row goes, their account is disabled and unused invitation links die, with an
 * audit row. Returns the jobs that lost their technician. The caller revokes their sessions.
 */
export async function removeTechnicianInTx(
  tx: Db,
  technician: TechnicianMember,
  audit: Pick<AuditEventInput, "actorId" | "ip" | "userAgent">,
): Promise<EndedTechnicianJob[]> {
  const ended = await endOpenAssignmentsOf(tx, { technicianId: technician.id });
  await deleteTechnician(tx, { userId: technician.id });
  await disableUser(tx, { id: technician.id });
  await deletePasswordResetTokens(tx, { userId: technician.id });
  await insertAuditEvent(tx, {
    event: "user_disabled",
    ...audit,
    targetId: technician.id,
    details: {
      via: "technician_removed",
      surveyorId: technician.surveyorId,
      jobsEnded: ended.length,
    },
  });
  return ended;
}

// The time zone of each state's largest population, for the day a job is "today" in.
const STATE_TIME_ZONES: Record<string, string> = {
  AL: "America/Chicago",
  AK: "America/Anchorage",
  AZ: "America/Phoenix",
  AR: "America/Chicago",
  CA: "America/Los_Angeles",
  CO: "America/Denver",
  CT: "America/New_York",
  DE: "America/New_York",
  DC: "America/New_York",
  FL: "America/New_York",
  GA: "America/New_York",
  HI: "Pacific/Honolulu",
  ID: "America/Boise",
  IL: "America/Chicago",
  IN: "America/Indiana/Indianapolis",
  IA: "America/Chicago",
  KS: "America/Chicago",
  KY: "America/New_York",
  LA: "America/Chicago",
  ME: "America/New_York",
  MD: "America/New_York",
  MA: "America/New_York",
  MI: "America/Detroit",
  MN: "America/Chicago",
  MS: "America/Chicago",
  MO: "America/Chicago",
  MT: "America/Denver",
  NE: "America/Chicago",
  NV: "America/Los_Angeles",
  NH: "America/New_York",
  NJ: "America/New_York",
  NM: "America/Denver",
  NY: "America/New_York",
  NC: "America/New_York",
  ND: "America/Chicago",
  OH: "America/New_York",
  OK: "America/Chicago",
  OR: "America/Los_Angeles",
  PA: "America/New_York",
  RI: "America/New_York",
  SC: "America/New_York",
  SD: "America/Chicago",
  TN: "America/Chicago",
  TX: "America/Chicago",
  UT: "America/Denver",
  VT: "America/New_York",
  VA: "America/New_York",
  WA: "America/Los_Angeles",
  WV: "America/New_York",
  WI: "America/Chicago",
  WY: "America/Denver",
};

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's date (YYYY-MM-DD) where the property is: the day its visit is "today" on. */
export function localToday(state: string, now = new Date()): string {
  const timeZone = STATE_TIME_ZONES[state] ?? "America/Chicago";
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    dayFormats.set(timeZone, format);
  }
  return format.format(now);
}

/** The technician's open jobs by when they happen. */
export interface GroupedJobs {
  /** In fieldwork, or visit today (or overdue: the day passed and fieldwork has not started). */
  today: (TechnicianJob & { isOverdue: boolean })[];
  /** Visit on a later day, then those without a visit day yet, in that order. */
  upcoming: TechnicianJob[];
}

/** Splits open jobs (already in visit-day order) into today's and upcoming ones. */
export function groupOpenJobs(jobs: TechnicianJob[], now = new Date()): GroupedJobs {
  const today: GroupedJobs["today"] = [];
  const upcoming: TechnicianJob[] = [];
  for (const job of jobs) {
    const day = localToday(job.state, now);
    if (job.status === "in_fieldwork" || (job.scheduledDate && job.scheduledDate <= day)) {
      today.push({
        ...job,
        isOverdue: job.status !== "in_fieldwork" && job.scheduledDate! < day,
      });
    } else {
      upcoming.push(job);
    }
  }
  return { today, upcoming };
}

/** A technician as the TechnicianTeam island lists them. */
export function toTeamMember(m: TechnicianMember): TeamMember {
  return {
    id: m.id,
    fullName: m.fullName,
    email: m.email,
    phone: m.phone,
    lastLogin: m.lastLogin,
    disabledAt: m.disabledAt,
    openJobs: m.openJobs,
  };
}

/**
 * The AssignTechnician island's props for `user` on `surveyId`, or null when they may not
 * assign its technician now (not an admin or its working surveyor, or the survey is not
 * assigned, scheduled or in fieldwork). What the job page and /survey/{id} call.
 */
export async function assignTechnicianPropsFor(
  db: Db,
  { surveyId, user, known }: {
    surveyId: string;
    user: { id: string; role: Role };
    /**
     * The user's fieldwork access to the survey, when the caller read it already, and the
     * survey's current technician assignment, when read too.
     */
    known?: {
      access: FieldworkAccess | undefined;
      crew?: {
        current: CurrentTechnicianAssignment | undefined;
        technicians?: EligibleTechnician[];
      };
    };
  },
): Promise<AssignTechnicianProps | null> {
  const access = known ? known.access : await getFieldworkAccess(db, { surveyId, user });
  if (!access || (access.as !== "admin" && access.as !== "surveyor")) return null;
  if (!isTechnicianAssignable(access.survey.status)) return null;
  return await assignTechnicianProps(db, {
    surveyId: access.survey.id,
    as: access.as,
    workingSurveyorId: access.survey.workingSurveyorId,
    known: known?.crew,
  });
}
