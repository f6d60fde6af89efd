/**
 * The spec's shared "survey checklist": a survey's checklist items (check, number with unit,
 * text, photo; required ones marked) with their answers and the progress of the required ones,
 * editable by the crew on site — and usable without signal.
 *
 * Every edit is written to the device first (islands/_checklist_store.ts: IndexedDB, photos as
 * Blobs) and then sent in order (islands/_checklist_sync.ts) at once, when the browser says it
 * is back online, and every 20 seconds while anything waits. While an edit is being written to
 * the device it says "Saving on this device…"; once written, and until the server has everything,
 * "Saved on this device — will sync"; then "Saved". A reload, or a closed tab,
 * keeps the queue: the next time the page opens it shows the queued edits and sends them.
 * Photos are taken with the phone's camera (`capture="environment"`), kept on the device while
 * offline and uploaded through `POST /api/surveys/{id}/files`, after which the item's answer
 * lists the stored file's id.
 *
 * Placing it (the technician's survey page, the surveyor's job page):
 *
 * ```tsx
 * const checklist = await getChecklist(db, { surveyId });
 * <Island component={SurveyChecklist}
 *   props={{ surveyId, items: checklist.items, canEdit }} hydrate="load" />
 * ```
 *
 * `canEdit` is false for a completed or cancelled survey (routes/checklists.ts
 * CHECKLIST_EDITABLE_STATUSES), which shows the answers read-only.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import {
  type ChecklistItemView,
  type ChecklistValue,
  isItemDone,
  progressOf,
} from "../lib/checklist_types.ts";
import { ChecklistProgressBar } from "../components/ChecklistProgress.tsx";
import LocalTime from "./LocalTime.tsx";
import {
  checklistStore,
  LOCAL_PHOTO,
  type QueuedOp,
  type StoredPhoto,
} from "./_checklist_store.ts";
import { syncChecklist, type SyncOutcome } from "./_checklist_sync.ts";
import { CHECKLIST_PROGRESS_EVENT } from "./_field_status.ts";
import { readFieldMemory, rememberAnswers, withNewerAnswers } from "./_field_memory.ts";

/** Props of SurveyChecklist (plain JSON). */
export interface SurveyChecklistProps {
  surveyId: string;
  /** The checklist as the server has it (db/checklists.ts getChecklist). */
  items: ChecklistItemView[];
  canEdit: boolean;
}

/** Shown while edits wait on the device (spec wording for the offline state). */
export const PENDING_TEXT = "Saved on this device — will sync";
/** Shown once the server has every edit. */
export const SAVED_TEXT = "Saved";
/**
 * Shown while an edit is still being written to the device: until the write has landed a
 * reload would lose it, so the island must not say "Saved on this device" yet.
 */
export const WRITING_TEXT = "Saving on this device…";
/**
 * Shown while a text or number answer is being typed: it is queued after a pause in typing,
 * when the field loses focus, or when the page is hidden or closed.
 */
export const DRAFT_TEXT = "Unsaved changes";
/** Shown when the device refuses to keep an edit (storage full, private mode). */
export const NOT_KEPT_TEXT =
  "This change could not be saved on this device (its storage may be full). Try again.";
/** How often a waiting queue is retried, in milliseconds. */
export const RETRY_EVERY_MS = 20_000;
/** The longest the controls wait for the device's queue to be read before they come alive. */
const QUEUE_READ_WAIT_MS = 3_000;
/** How long typing pauses before a text or number edit is queued. */
const TYPING_PAUSE_MS = 800;

type SyncState = "idle" | "syncing" | SyncOutcome;

function newId(): string {
  return crypto.randomUUID();
}

/** Each item's value with the queued edits applied over the server's, and which are pending. */
function overlay(items: ChecklistItemView[], queue: QueuedOp[]) {
  const values = new Map<string, ChecklistValue>(items.map((item) => [item.id, item.value]));
  const pending = new Set<string>();
  for (const op of queue) {
    pending.add(op.itemId);
    if (op.type === "answer") values.set(op.itemId, op.value);
  }
  return { values, pending };
}

/** The survey checklist (see the file's comment). */
export default function SurveyChecklist(
  { surveyId, items: initial, canEdit }: SurveyChecklistProps,
) {
  const [items, setItems] = useState(initial);
  const [queue, setQueue] = useState<QueuedOp[]>([]);
  // Edits shown at once but not yet written to the device's outbox, by op id.
  const [writing, setWriting] = useState<Map<string, QueuedOp>>(new Map());
  // Items whose text or number is being typed and not yet queued.
  const [drafts, setDrafts] = useState<ReadonlySet<string>>(new Set());
  const onDraft = useCallback((itemId: string, isOpen: boolean) => {
    setDrafts((old) => {
      if (old.has(itemId) === isOpen) return old;
      const next = new Set(old);
      if (isOpen) next.add(itemId);
      else next.delete(itemId);
      return next;
    });
  }, []);
  const [photos, setPhotos] = useState<Map<string, StoredPhoto>>(new Map());
  const [syncState, setSyncState] = useState<SyncState>("idle");
  const [hasSaved, setHasSaved] = useState(false);
  const [refused, setRefused] = useState<string[]>([]);
  const [isHydrated, setHydrated] = useState(false);
  const running = useRef(false);
  const again = useRef(false);
  const mounted = useRef(true);

  const reload = useCallback(async () => {
    const store = checklistStore();
    const [ops, stored] = await Promise.all([
      store.listOps(surveyId),
      store.listPhotos(surveyId),
    ]);
    if (!mounted.current) return ops;
    setQueue(ops);
    setPhotos(new Map(stored.map((photo) => [photo.uploadOpId, photo])));
    return ops;
  }, [surveyId]);

  const sync = useCallback(async () => {
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
    try {
      do {
        again.current = false;
        const ops = await checklistStore().listOps(surveyId);
        if (ops.length === 0) break;
        if (mounted.current) setSyncState("syncing");
        // One tab at a time sends a survey's queue (op ids make a race harmless, not free).
        const work = () => syncChecklist(checklistStore(), surveyId);
        const result = navigator.locks
          ? await navigator.locks.request(`meridian-checklist-${surveyId}`, work)
          : await work();
        if (!mounted.current) return;
        if (result.items) {
          setItems(result.items);
          rememberAnswers(surveyId, result.items);
        }
        if (result.refused.length > 0) setRefused((old) => [...old, ...result.refused]);
        setSyncState(result.outcome);
        // "Saved" says the server has every edit: not when it refused some (the alert says).
        if (result.outcome === "synced") setHasSaved(result.refused.length === 0);
        await reload();
        if (result.outcome !== "synced") break;
      } while (again.current);
    } finally {
      running.current = false;
    }
  }, [surveyId, reload]);

  useEffect(() => {
    mounted.current = true;
    // A copy of the page kept for offline use may predate answers this device saw confirmed.
    setItems((shown) => withNewerAnswers(shown, readFieldMemory(surveyId)));
    // The controls come alive once the device's queue is shown over the page's answers, so an
    // item ticked offline before a reload never shows unticked, nor is ticked again on top;
    // at the latest after QUEUE_READ_WAIT_MS, should the device's storage not answer at all.
    const alive = () => {
      if (mounted.current) setHydrated(true);
    };
    const fallback = setTimeout(alive, QUEUE_READ_WAIT_MS);
    reload().then((ops) => {
      alive();
      if (ops.length > 0) sync();
    }, alive);
    const onOnline = () => sync();
    globalThis.addEventListener("online", onOnline);
    const timer = setInterval(() => sync(), RETRY_EVERY_MS);
    return () => {
      clearTimeout(fallback);
      mounted.current = false;
      globalThis.removeEventListener("online", onOnline);
      clearInterval(timer);
    };
  }, [surveyId, reload, sync]);

  const enqueue = useCallback(async (itemId: string, value: ChecklistValue) => {
    const op = {
      type: "answer" as const,
      surveyId,
      opId: newId(),
      itemId,
      value,
      answeredAt: new Date().toISOString(),
    };
    // Shown at once (a controlled checkbox must not spring back while the device writes), as
    // being written: "Saved on this device" only once the outbox has it.
    setWriting((old) => new Map(old).set(op.opId, { ...op, seq: Number.MAX_SAFE_INTEGER }));
    let isKept = false;
    try {
      await checklistStore().addOp(op);
      isKept = true;
      await reload();
    } catch {
      if (mounted.current && !isKept) setRefused((old) => [...old, NOT_KEPT_TEXT]);
    } finally {
      if (mounted.current) {
        setWriting((old) => {
          const next = new Map(old);
          next.delete(op.opId);
          return next;
        });
      }
    }
    if (isKept) sync();
  }, [surveyId, reload, sync]);

  const addPhoto = useCallback(async (itemId: string, file: File, refs: string[]) => {
    const store = checklistStore();
    const uploadOpId = newId();
    try {
      await store.putPhoto({
        uploadOpId,
        surveyId,
        itemId,
        blob: file,
        fileName: file.name || "photo.jpg",
      });
      await store.addOp({ type: "upload", surveyId, itemId, uploadOpId });
    } catch {
      if (mounted.current) setRefused((old) => [...old, NOT_KEPT_TEXT]);
      return;
    }
    await enqueue(itemId, [...refs, `${LOCAL_PHOTO}${uploadOpId}`]);
  }, [surveyId, enqueue]);

  const shownQueue = useMemo(
    () => writing.size === 0 ? queue : [...queue, ...writing.values()],
    [queue, writing],
  );
  const { values, pending } = useMemo(() => overlay(items, shownQueue), [items, shownQueue]);
  const progress = useMemo(
    () => progressOf(items.map((item) => ({ ...item, value: values.get(item.id) ?? null }))),
    [items, values],
  );
  const waiting = shownQueue.length > 0;
  // FieldActions on the same page enables "Mark surveyed" from this (islands/_field_status.ts).
  useEffect(() => {
    globalThis.dispatchEvent(
      new CustomEvent(CHECKLIST_PROGRESS_EVENT, {
        detail: { surveyId, progress, isSynced: !waiting && drafts.size === 0 },
      }),
    );
  }, [surveyId, progress, waiting, drafts]);

  return (
    <div className="survey-checklist">
      <ChecklistProgressBar progress={progress} />
      {canEdit
        ? (
          <SyncStatus
            waiting={waiting}
            isWriting={writing.size > 0}
            isDrafting={drafts.size > 0}
            state={syncState}
            hasSaved={hasSaved}
            count={shownQueue.filter((op) => op.type === "answer").length}
          />
        )
        : null}
      {refused.length > 0
        ? (
          <div className="checklist-refused" role="alert">
            <p>
              <strong>Some changes could not be saved:</strong>
            </p>
            <ul>{refused.map((message, i) => <li key={i}>{message}</li>)}</ul>
            <button
              type="button"
              className="btn btn--secondary btn--sm"
              onClick={() => setRefused([])}
            >
              Dismiss
            </button>
          </div>
        )
        : null}
      <ol className="checklist-items">
        {items.map((item) => (
          <ChecklistItem
            key={item.id}
            item={item}
            value={values.get(item.id) ?? null}
            isPending={pending.has(item.id)}
            isDrafting={drafts.has(item.id)}
            onDraft={(isOpen) => onDraft(item.id, isOpen)}
            photos={photos}
            disabled={!canEdit || !isHydrated}
            readOnly={!canEdit}
            onAnswer={(value) => enqueue(item.id, value)}
            onPhoto={(file, refs) => addPhoto(item.id, file, refs)}
          />
        ))}
      </ol>
    </div>
  );
}

function SyncStatus(
  { waiting, isWriting, isDrafting, state, hasSaved, count }: {
    waiting: boolean;
    isWriting: boolean;
    isDrafting: boolean;
    state: SyncState;
    hasSaved: boolean;
    count: number;
  },
) {
  let text = "";
  let detail = "";
  if (isWriting) {
    text = WRITING_TEXT;
  } else if (waiting) {
    text = PENDING_TEXT;
    if (state === "signed-out") detail = "Sign in again to send your changes.";
    else if (state === "syncing") detail = "Sending…";
    else if (state === "offline") detail = "No connection right now; it will retry.";
    if (count > 0) detail = `${count} ${count === 1 ? "change" : "changes"} waiting. ${detail}`;
  } else if (isDrafting) {
    text = DRAFT_TEXT;
  } else if (hasSaved) {
    text = SAVED_TEXT;
  }
  return (
    <p
      className={`checklist-sync${waiting ? " checklist-sync--pending" : ""}`}
      role="status"
      aria-live="polite"
    >
      {text ? <strong className="checklist-sync__state">{text}</strong> : null}
      {detail ? <span className="checklist-sync__detail">{` ${detail.trim()}`}</span> : null}
    </p>
  );
}

interface ItemProps {
  item: ChecklistItemView;
  value: ChecklistValue;
  isPending: boolean;
  /** A typed answer not queued yet. */
  isDrafting: boolean;
  onDraft(isOpen: boolean): void;
  photos: Map<string, StoredPhoto>;
  disabled: boolean;
  readOnly: boolean;
  onAnswer(value: ChecklistValue): void;
  onPhoto(file: File, refs: string[]): void;
}

function ChecklistItem(props: ItemProps) {
  const { item, value, isPending, isDrafting } = props;
  const id = useId();
  const helpId = item.help ? `${id}-help` : undefined;
  const done = isItemDone(item.kind, value);
  return (
    <li className={`checklist-item${done ? " checklist-item--done" : ""}`} data-key={item.key}>
      {item.kind === "check" ? <CheckControl {...props} id={id} helpId={helpId} /> : (
        <>
          <div className="checklist-item__head">
            {item.kind === "photo"
              ? <span className="checklist-item__label" id={`${id}-label`}>{item.label}</span>
              : (
                <label className="checklist-item__label" htmlFor={`${id}-input`}>
                  {item.label}
                  {item.unit ? <span className="muted">{` (${item.unit})`}</span> : null}
                </label>
              )}
            <RequiredMark isRequired={item.isRequired} />
          </div>
          {item.help
            ? <p className="checklist-item__help field__hint" id={helpId}>{item.help}</p>
            : null}
          {item.kind === "number"
            ? <NumberControl {...props} id={id} helpId={helpId} />
            : item.kind === "text"
            ? <TextControl {...props} id={id} helpId={helpId} />
            : <PhotoControl {...props} id={id} helpId={helpId} />}
        </>
      )}
      <p className="checklist-item__meta muted">
        {isDrafting
          ? <span className="checklist-item__pending">Not saved yet</span>
          : isPending
          ? <span className="checklist-item__pending">Not synced yet</span>
          : item.answeredAt && item.answeredByName && value !== null
          ? (
            <>
              {`${item.answeredByName}, `}
              <LocalTime iso={item.answeredAt} />
            </>
          )
          : null}
      </p>
    </li>
  );
}

function RequiredMark({ isRequired }: { isRequired: boolean }) {
  return isRequired
    ? <span className="badge badge--warning checklist-item__required">Required</span>
    : <span className="badge badge--neutral">Optional</span>;
}

type ControlProps = ItemProps & { id: string; helpId?: string };

function CheckControl({ item, value, disabled, onAnswer, id, helpId }: ControlProps) {
  return (
    <>
      <div className="checklist-item__head">
        <label className="checklist-check" htmlFor={`${id}-input`}>
          <input
            id={`${id}-input`}
            type="checkbox"
            checked={value === true}
            disabled={disabled}
            aria-describedby={helpId}
            onChange={(e) => onAnswer(e.currentTarget.checked)}
          />
          <span>{item.label}</span>
        </label>
        <RequiredMark isRequired={item.isRequired} />
      </div>
      {item.help
        ? <p className="checklist-item__help field__hint" id={helpId}>{item.help}</p>
        : null}
    </>
  );
}

/**
 * What a text or number field shows: the stored value, or the person's draft from their first
 * keystroke until the stored value next changes (their own edit coming back from the queue,
 * or another answer winning), but never while they are still typing. The draft is queued
 * after a pause in typing, when the field loses focus, when the page is hidden (the phone
 * locked, another app opened) or left, and when the field goes away: never dropped.
 * `onOpen(true)` when typing starts, `onOpen(false)` once the draft is handed to `commit`.
 */
function useDraft(
  stored: string,
  commit: (draft: string) => void,
  onOpen: (isOpen: boolean) => void,
): [string, (next: string) => void, () => void] {
  const [draft, setDraft] = useState<string | null>(null);
  const editing = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef("");
  const commitRef = useRef(commit);
  commitRef.current = commit;
  const onOpenRef = useRef(onOpen);
  onOpenRef.current = onOpen;
  useEffect(() => {
    if (!editing.current) setDraft(null);
  }, [stored]);
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    if (!editing.current) return;
    editing.current = false;
    onOpenRef.current(false);
    commitRef.current(latest.current);
  }, []);
  useEffect(() => {
    const onHidden = () => {
      if (document.visibilityState === "hidden") flush();
    };
    document.addEventListener("visibilitychange", onHidden);
    globalThis.addEventListener("pagehide", flush);
    return () => {
      document.removeEventListener("visibilitychange", onHidden);
      globalThis.removeEventListener("pagehide", flush);
      flush();
    };
  }, [flush]);
  const change = useCallback((next: string) => {
    if (!editing.current) onOpenRef.current(true);
    editing.current = true;
    latest.current = next;
    setDraft(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(flush, TYPING_PAUSE_MS);
  }, [flush]);
  return [draft ?? stored, change, flush];
}

function NumberControl(
  { item, value, disabled, readOnly, onAnswer, onDraft, id, helpId }: ControlProps,
) {
  const stored = typeof value === "number" ? String(value) : "";
  const [error, setError] = useState<string | undefined>();
  const commit = useCallback((draft: string) => {
    const text = draft.trim().replace(",", ".");
    if (text === "") {
      setError(undefined);
      if (stored !== "") onAnswer(null);
      return;
    }
    const number = Number(text);
    if (!Number.isFinite(number) || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) {
      setError("Enter a number");
      return;
    }
    setError(undefined);
    if (number !== value) onAnswer(number);
  }, [onAnswer, stored, value]);
  const [draft, change, flush] = useDraft(stored, commit, onDraft);
  const errorId = `${id}-error`;
  return (
    <div className="checklist-number">
      <input
        id={`${id}-input`}
        className="field__input"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={draft}
        disabled={disabled && !readOnly}
        readOnly={readOnly}
        aria-invalid={error ? true : undefined}
        aria-describedby={[helpId, error ? errorId : ""].filter(Boolean).join(" ") || undefined}
        onChange={(e) => change(e.currentTarget.value)}
        onBlur={flush}
        onKeyDown={(e) => {
          if (e.key === "Enter") flush();
        }}
      />
      {item.unit
        ? <span className="checklist-number__unit" aria-hidden="true">{item.unit}</span>
        : null}
      {error ? <p className="field__error" id={errorId}>{error}</p> : null}
    </div>
  );
}

function TextControl(
  { value, disabled, readOnly, onAnswer, onDraft, id, helpId }: ControlProps,
) {
  const stored = typeof value === "string" ? value : "";
  const commit = useCallback((draft: string) => {
    const next = draft.trim() === "" ? null : draft;
    if (next !== (value ?? null)) onAnswer(next);
  }, [onAnswer, value]);
  const [draft, change, flush] = useDraft(stored, commit, onDraft);
  return (
    <textarea
      id={`${id}-input`}
      className="field__input checklist-text"
      rows={2}
      maxLength={2000}
      value={draft}
      disabled={disabled && !readOnly}
      readOnly={readOnly}
      aria-describedby={helpId}
      onChange={(e) => change(e.currentTarget.value)}
      onBlur={flush}
    />
  );
}

function PhotoControl(
  { item, value, photos, disabled, readOnly, onAnswer, onPhoto, id, helpId }: ControlProps,
) {
  const refs = Array.isArray(value) ? value : [];
  const urls = useObjectUrls(refs, photos);
  const shown = refs.filter((ref) =>
    !ref.startsWith(LOCAL_PHOTO) || photos.has(ref.slice(LOCAL_PHOTO.length))
  );
  return (
    <div
      className="checklist-photos"
      role="group"
      aria-labelledby={`${id}-label`}
      aria-describedby={helpId}
    >
      {shown.length > 0
        ? (
          <ul className="checklist-photos__list">
            {shown.map((ref, index) => (
              <li key={ref} className="checklist-photos__photo">
                {urls.has(ref) || !ref.startsWith(LOCAL_PHOTO)
                  ? (
                    <img
                      src={urls.get(ref) ?? `/api/files/${encodeURIComponent(ref)}`}
                      alt={`${item.label}, photo ${index + 1}`}
                      width={96}
                      height={96}
                      loading="lazy"
                    />
                  )
                  : <span className="checklist-photos__placeholder">{`Photo ${index + 1}`}</span>}
                {readOnly ? null : (
                  <button
                    type="button"
                    className="btn btn--ghost btn--sm"
                    disabled={disabled}
                    aria-label={`Remove photo ${index + 1} of ${item.label}`}
                    onClick={() => {
                      const rest = refs.filter((r) => r !== ref);
                      onAnswer(rest.length > 0 ? rest : null);
                    }}
                  >
                    Remove
                  </button>
                )}
              </li>
            ))}
          </ul>
        )
        : <p className="muted checklist-photos__none">No photos yet</p>}
      {readOnly ? null : (
        <label
          className={`btn btn--secondary btn--sm checklist-photos__add${
            disabled ? " is-disabled" : ""
          }`}
        >
          <input
            type="file"
            accept="image/*"
            capture="environment"
            className="visually-hidden"
            disabled={disabled}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = "";
              if (file) onPhoto(file, refs);
            }}
          />
          {shown.length > 0 ? "Add another photo" : "Take photo"}
        </label>
      )}
    </div>
  );
}

// Thumbnails of photos on the device, by upload op id: made once per page.
const thumbnails = new Map<string, Promise<string | undefined>>();

/**
 * A small JPEG data: URL of `blob` (the page's CSP allows data: images, not blob: URLs), drawn
 * 192 px wide so a 10 MB phone photo does not become a 13 MB string; undefined when the browser
 * cannot decode it.
 */
async function thumbnailOf(blob: Blob): Promise<string | undefined> {
  try {
    const bitmap = await createImageBitmap(blob);
    const width = Math.min(192, bitmap.width);
    const height = Math.max(1, Math.round(bitmap.height * (width / bitmap.width)));
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    canvas.getContext("2d")?.drawImage(bitmap, 0, 0, width, height);
    bitmap.close();
    return canvas.toDataURL("image/jpeg", 0.8);
  } catch {
    return undefined;
  }
}

/** Preview sources of the photos still on the device among `refs` (see thumbnailOf). */
function useObjectUrls(refs: string[], photos: Map<string, StoredPhoto>): Map<string, string> {
  const [urls, setUrls] = useState<Map<string, string>>(new Map());
  const key = refs.join(",");
  useEffect(() => {
    let isCurrent = true;
    (async () => {
      const made = new Map<string, string>();
      for (const ref of refs) {
        if (!ref.startsWith(LOCAL_PHOTO)) continue;
        const uploadOpId = ref.slice(LOCAL_PHOTO.length);
        const photo = photos.get(uploadOpId);
        if (photo && photo.blob.size > 0 && typeof createImageBitmap === "function") {
          if (!thumbnails.has(uploadOpId)) thumbnails.set(uploadOpId, thumbnailOf(photo.blob));
          const url = await thumbnails.get(uploadOpId);
          if (url) made.set(ref, url);
        } else if (photo?.fileId) {
          made.set(ref, `/api/files/${encodeURIComponent(photo.fileId)}`);
        }
      }
      if (isCurrent) setUrls(made);
    })();
    return () => {
      isCurrent = false;
    };
    // refs are compared by their joined key; photos by identity (a new Map after each reload).
  }, [key, photos]);
  return urls;
}
