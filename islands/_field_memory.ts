/**
 * What this device last learnt from the server about a survey's field work, so that a job page
 * opened from the service worker's kept copy (static/sw.js) without signal shows the latest
 * state the device knows rather than the state the copy was rendered with:
 *
 * - the status the server answered after this device changed it ("Start fieldwork", "Mark
 *   surveyed"), with the server's time of that answer;
 * - each checklist answer the server confirmed (after a sync), with its answer time.
 *
 * A kept copy is rendered at some moment; the device's knowledge is applied on top of it only
 * where it is newer (the status by the server's clock, each answer by its own `answeredAt`, the
 * checklist's last-writer-wins clock). The queued edits (islands/_checklist_store.ts) are then
 * applied on top of that, as on any page.
 *
 * Kept in localStorage (a few hundred bytes per job), per survey. It describes the signed-in
 * account's jobs, so sign-out drops it with the kept pages (islands/_offline.ts).
 */
import type { ChecklistItemView } from "../lib/checklist_types.ts";
import type { SurveyStatus } from "../lib/survey_status.ts";

/** Every key this module writes starts with this (cleared on sign-out). */
export const FIELD_MEMORY_PREFIX = "meridian-field-known:";
/** Most surveys remembered; the least recently written go first. */
const MAX_SURVEYS = 40;

/** A status the server answered to this device. */
export interface KnownStatus {
  status: SurveyStatus;
  surveyedDate: string | null;
  /** Server time of the answer (ISO). */
  at: string;
}

/** An answer the server confirmed (the fields of ChecklistItemView a page shows). */
export type KnownAnswer = Pick<ChecklistItemView, "value" | "answeredByName" | "answeredAt">;

/** Everything remembered about one survey. */
export interface FieldMemory {
  status?: KnownStatus;
  answers?: Record<string, KnownAnswer>;
  /** Device time of the last write, to forget the oldest surveys first. */
  touched: number;
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** What the device remembers about `surveyId` (empty when nothing, or storage is unusable). */
export function readFieldMemory(surveyId: string): FieldMemory {
  try {
    const raw = storage()?.getItem(FIELD_MEMORY_PREFIX + surveyId);
    const parsed = raw ? JSON.parse(raw) : null;
    return parsed && typeof parsed === "object" ? parsed as FieldMemory : { touched: 0 };
  } catch {
    return { touched: 0 };
  }
}

function write(surveyId: string, change: (memory: FieldMemory) => FieldMemory): void {
  const store = storage();
  if (!store) return;
  try {
    const next = { ...change(readFieldMemory(surveyId)), touched: Date.now() };
    store.setItem(FIELD_MEMORY_PREFIX + surveyId, JSON.stringify(next));
    forgetOldest(store);
  } catch {
    // A full or blocked storage: the page still works, a kept copy just shows less.
  }
}

function forgetOldest(store: Storage): void {
  const entries: { key: string; touched: number }[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (!key?.startsWith(FIELD_MEMORY_PREFIX)) continue;
    try {
      entries.push({ key, touched: Number(JSON.parse(store.getItem(key) ?? "{}").touched) || 0 });
    } catch {
      entries.push({ key, touched: 0 });
    }
  }
  entries.sort((a, b) => a.touched - b.touched);
  for (const { key } of entries.slice(0, Math.max(0, entries.length - MAX_SURVEYS))) {
    store.removeItem(key);
  }
}

/**
 * Remembers the status the server answered, at `at` (the answer's Date header, else this
 * device's clock).
 */
export function rememberStatus(surveyId: string, status: KnownStatus): void {
  write(surveyId, (memory) => ({ ...memory, status }));
}

/** Remembers the answers of `items` (the checklist as the server answered a sync). */
export function rememberAnswers(surveyId: string, items: ChecklistItemView[]): void {
  write(surveyId, (memory) => {
    const answers = { ...memory.answers };
    for (const item of items) {
      answers[item.id] = {
        value: item.value,
        answeredByName: item.answeredByName,
        answeredAt: item.answeredAt,
      };
    }
    return { ...memory, answers };
  });
}

/** Drops everything remembered (sign-out). */
export function forgetFieldMemory(): void {
  const store = storage();
  if (!store) return;
  try {
    const keys: string[] = [];
    for (let i = 0; i < store.length; i++) {
      const key = store.key(i);
      if (key?.startsWith(FIELD_MEMORY_PREFIX)) keys.push(key);
    }
    for (const key of keys) store.removeItem(key);
  } catch {
    // Nothing readable was kept.
  }
}

/** The order field work moves in; a remembered status never moves a page backwards. */
const FIELD_ORDER: Partial<Record<SurveyStatus, number>> = {
  scheduled: 1,
  in_fieldwork: 2,
  surveyed: 3,
};

/**
 * The remembered status when it is newer than a page rendered at `renderedAt` (server time,
 * ISO) showing `status`, else undefined. Compared by the second (a known status from a server
 * that answered no `answeredAt` has only its Date header's time): an answer in the same second
 * as the render counts as newer, which at worst shows the state the page already had. Only
 * moves field work forwards (scheduled → in fieldwork → surveyed): a page showing a cancelled
 * or reassigned job stays as it is.
 */
export function newerStatus(
  memory: FieldMemory,
  page: { status: SurveyStatus; renderedAt: string },
): KnownStatus | undefined {
  const known = memory.status;
  if (!known) return undefined;
  const from = FIELD_ORDER[page.status];
  const to = FIELD_ORDER[known.status];
  if (from === undefined || to === undefined || to <= from) return undefined;
  const second = (iso: string) => Math.floor(Date.parse(iso) / 1000);
  return second(known.at) >= second(page.renderedAt) ? known : undefined;
}

/** `items` with each remembered answer newer than the page's (by `answeredAt`) put in. */
export function withNewerAnswers(
  items: ChecklistItemView[],
  memory: FieldMemory,
): ChecklistItemView[] {
  const answers = memory.answers ?? {};
  let changed = false;
  const merged = items.map((item) => {
    const known = answers[item.id];
    if (!known?.answeredAt) return item;
    if (item.answeredAt && Date.parse(item.answeredAt) >= Date.parse(known.answeredAt)) {
      return item;
    }
    changed = true;
    return { ...item, ...known };
  });
  return changed ? merged : items;
}

/** Server time from a response's Date header, else this device's clock (ISO). */
export function serverTime(res: Response | undefined): string {
  const header = res?.headers.get("date");
  const at = header ? Date.parse(header) : NaN;
  return new Date(Number.isNaN(at) ? Date.now() : at).toISOString();
}
