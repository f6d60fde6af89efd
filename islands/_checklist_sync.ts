/**
 * Sends a survey's checklist outbox (islands/_checklist_store.ts) to the server, oldest first:
 * a photo upload goes to `POST /api/surveys/{id}/files` (kind photo, with its upload op id so a
 * retried upload is stored once), then runs of answers go in batches to
 * `POST /api/surveys/{id}/checklist/answers` (each with its op id, so a batch resent after a
 * lost response is stored once). A record leaves the outbox only after the server answered it.
 *
 * Stops, keeping the rest for later, when the network fails, the server is unavailable (5xx,
 * 429) or the session has ended (401). An answer the server refuses for good (400, 404, 409,
 * 413) is dropped with its message, so one bad edit cannot block the edits behind it.
 */
import type { ChecklistItemView, ChecklistValue } from "../lib/checklist_types.ts";
import {
  type ChecklistStore,
  LOCAL_PHOTO,
  type QueuedAnswer,
  type QueuedOp,
} from "./_checklist_store.ts";

/** Most answers per request (the server takes up to 100). */
export const SYNC_BATCH = 50;

/** How a sync run ended. */
export type SyncOutcome =
  /** The outbox is empty. */
  | "synced"
  /** The network or the server is unreachable: try again later. */
  | "offline"
  /** The session has ended: sync resumes after signing in again. */
  | "signed-out";

/** What a sync run did. */
export interface SyncResult {
  outcome: SyncOutcome;
  /** The checklist as the server last answered it, when an answer batch went through. */
  items?: ChecklistItemView[];
  /** Messages of edits the server refused for good (dropped from the outbox). */
  refused: string[];
}

type Fetch = typeof fetch;

class Stop extends Error {
  constructor(readonly outcome: SyncOutcome) {
    super(outcome);
  }
}

async function send(fetcher: Fetch, path: string, init: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetcher(path, { ...init, credentials: "same-origin" });
  } catch {
    throw new Stop("offline");
  }
  if (res.status === 401) throw new Stop("signed-out");
  if (res.status === 408 || res.status === 429 || res.status >= 500) throw new Stop("offline");
  return res;
}

async function messageOf(res: Response, fallback: string): Promise<string> {
  try {
    const body = await res.json();
    return typeof body?.message === "string" && body.message ? body.message : fallback;
  } catch {
    return fallback;
  }
}

/** Photo refs of a queued photo value with local photos replaced by their file ids. */
async function resolvePhotos(
  store: ChecklistStore,
  value: ChecklistValue,
): Promise<ChecklistValue> {
  if (!Array.isArray(value)) return value;
  const ids: string[] = [];
  for (const ref of value) {
    if (!ref.startsWith(LOCAL_PHOTO)) {
      ids.push(ref);
      continue;
    }
    // A photo whose upload was refused has no file id: it is left out.
    const photo = await store.getPhoto(ref.slice(LOCAL_PHOTO.length));
    if (photo?.fileId) ids.push(photo.fileId);
  }
  return ids.length > 0 ? [...new Set(ids)] : null;
}

async function uploadPhoto(
  store: ChecklistStore,
  fetcher: Fetch,
  op: Extract<QueuedOp, { type: "upload" }>,
  refused: string[],
): Promise<void> {
  const photo = await store.getPhoto(op.uploadOpId);
  if (photo && !photo.fileId) {
    const form = new FormData();
    form.append("file", photo.blob, photo.fileName);
    form.append("kind", "photo");
    form.append("checklistItemId", op.itemId);
    form.append("opId", op.uploadOpId);
    const res = await send(fetcher, `/api/surveys/${encodeURIComponent(op.surveyId)}/files`, {
      method: "POST",
      body: form,
    });
    if (res.ok) {
      const body = await res.json().catch(() => null);
      const fileId = body?.file?.id;
      if (typeof fileId !== "string") throw new Stop("offline");
      await store.putPhoto({ ...photo, fileId });
    } else {
      refused.push(await messageOf(res, "A photo could not be uploaded"));
      await store.deletePhotos([op.uploadOpId]);
    }
  }
  await store.deleteOps([op.seq]);
}

async function sendAnswers(
  store: ChecklistStore,
  fetcher: Fetch,
  surveyId: string,
  batch: QueuedAnswer[],
  refused: string[],
): Promise<ChecklistItemView[] | undefined> {
  const ops = [];
  for (const op of batch) {
    ops.push({
      opId: op.opId,
      itemId: op.itemId,
      value: await resolvePhotos(store, op.value),
      answeredAt: op.answeredAt,
    });
  }
  const path = `/api/surveys/${encodeURIComponent(surveyId)}/checklist/answers`;
  const post = (body: unknown) =>
    send(fetcher, path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const res = await post({ ops });
  if (res.ok) {
    const body = await res.json().catch(() => null);
    await store.deleteOps(batch.map((op) => op.seq));
    return Array.isArray(body?.items) ? body.items : undefined;
  }
  if (batch.length === 1) {
    refused.push(await messageOf(res, "A change could not be saved"));
    await store.deleteOps([batch[0].seq]);
    return undefined;
  }
  // The server refuses a whole batch for one bad op: send them one by one to keep the rest.
  let items: ChecklistItemView[] | undefined;
  for (const op of batch) {
    items = await sendAnswers(store, fetcher, surveyId, [op], refused) ?? items;
  }
  return items;
}

/**
 * Sends everything queued for `surveyId`, oldest first (see the file's comment). Never throws
 * for network or server trouble: the outcome says whether to try again later.
 */
export async function syncChecklist(
  store: ChecklistStore,
  surveyId: string,
  fetcher: Fetch = fetch,
): Promise<SyncResult> {
  const refused: string[] = [];
  let items: ChecklistItemView[] | undefined;
  try {
    while (true) {
      const queue = await store.listOps(surveyId);
      if (queue.length === 0) break;
      const head = queue[0];
      if (head.type === "upload") {
        await uploadPhoto(store, fetcher, head, refused);
        continue;
      }
      const batch: QueuedAnswer[] = [];
      for (const op of queue) {
        if (op.type !== "answer" || batch.length === SYNC_BATCH) break;
        batch.push(op);
      }
      items = await sendAnswers(store, fetcher, surveyId, batch, refused) ?? items;
    }
  } catch (err) {
    if (err instanceof Stop) return { outcome: err.outcome, items, refused };
    throw err;
  }
  // Everything is on the server: uploaded photos' bytes can go. The records stay (a few bytes
  // each) so a ref to a local photo made in the meantime still finds its file id.
  for (const photo of await store.listPhotos(surveyId)) {
    if (photo.fileId && photo.blob.size > 0) {
      await store.putPhoto({ ...photo, blob: new Blob([], { type: photo.blob.type }) });
    }
  }
  return { outcome: "synced", items, refused };
}
