/**
 * The device's checklist outbox: every edit made on the survey checklist is written here first
 * (answers as ops, photos as Blobs) and removed only once the server has it, so nothing typed
 * or photographed on a site without signal is lost, even when the page is closed or reloaded.
 *
 * IndexedDB (it holds Blobs, which localStorage cannot) with two stores:
 * - `ops`: the queue, in order (`seq` autoincrement), one record per edit or photo upload;
 * - `photos`: the photo Blobs by their upload op id, with the server's file id once uploaded.
 *
 * Where IndexedDB is missing (server render, test DOM, some private modes) an in-memory store
 * with the same interface keeps the queue for the life of the page.
 */
import type { ChecklistValue } from "../lib/checklist_types.ts";

/** An answer edit waiting to be sent. For photo items, `value` lists refs (see PhotoRef). */
export interface QueuedAnswer {
  type: "answer";
  seq: number;
  surveyId: string;
  opId: string;
  itemId: string;
  value: ChecklistValue;
  answeredAt: string;
}

/** A photo upload waiting to be sent; its Blob is in the photos store under uploadOpId. */
export interface QueuedUpload {
  type: "upload";
  seq: number;
  surveyId: string;
  itemId: string;
  uploadOpId: string;
}

/** One queued record. */
export type QueuedOp = QueuedAnswer | QueuedUpload;
/** A queued record before the store numbers it. */
export type NewOp = Omit<QueuedAnswer, "seq"> | Omit<QueuedUpload, "seq">;

/** A photo kept on the device. */
export interface StoredPhoto {
  uploadOpId: string;
  surveyId: string;
  itemId: string;
  blob: Blob;
  fileName: string;
  /** The server's file id once the upload succeeded. */
  fileId?: string;
}

/**
 * A photo item's value while edits are queued: a server file id, or `local:{uploadOpId}` for
 * a photo not uploaded yet (resolved to its file id just before the answer is sent).
 */
export type PhotoRef = string;
/** Prefix of a PhotoRef naming a photo still on the device. */
export const LOCAL_PHOTO = "local:";

/** The outbox's operations; every method resolves once the change is durable. */
export interface ChecklistStore {
  addOp(op: NewOp): Promise<number>;
  listOps(surveyId: string): Promise<QueuedOp[]>;
  deleteOps(seqs: number[]): Promise<void>;
  putPhoto(photo: StoredPhoto): Promise<void>;
  getPhoto(uploadOpId: string): Promise<StoredPhoto | undefined>;
  listPhotos(surveyId: string): Promise<StoredPhoto[]>;
  deletePhotos(uploadOpIds: string[]): Promise<void>;
}

const DB_NAME = "meridian-checklists";
const DB_VERSION = 1;

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
  });
}

function openDb(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = factory.open(DB_NAME, DB_VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      const ops = db.createObjectStore("ops", { keyPath: "seq", autoIncrement: true });
      ops.createIndex("surveyId", "surveyId");
      const photos = db.createObjectStore("photos", { keyPath: "uploadOpId" });
      photos.createIndex("surveyId", "surveyId");
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** The IndexedDB outbox. */
export function indexedDbStore(factory: IDBFactory): ChecklistStore {
  let opened: Promise<IDBDatabase> | undefined;
  const db = () => (opened ??= openDb(factory));
  async function run<T>(
    names: string[],
    mode: IDBTransactionMode,
    work: (tx: IDBTransaction) => Promise<T> | T,
  ): Promise<T> {
    const tx = (await db()).transaction(names, mode);
    const finished = done(tx);
    const result = await work(tx);
    await finished;
    return result;
  }
  return {
    addOp: (op) =>
      run(["ops"], "readwrite", (tx) => request(tx.objectStore("ops").add(op)) as Promise<number>),
    listOps: (surveyId) =>
      run(["ops"], "readonly", async (tx) => {
        const ops = await request(
          tx.objectStore("ops").index("surveyId").getAll(surveyId),
        ) as QueuedOp[];
        return ops.sort((a, b) => a.seq - b.seq);
      }),
    deleteOps: (seqs) =>
      run(["ops"], "readwrite", (tx) => {
        for (const seq of seqs) tx.objectStore("ops").delete(seq);
      }),
    putPhoto: (photo) =>
      run(["photos"], "readwrite", (tx) => {
        tx.objectStore("photos").put(photo);
      }),
    getPhoto: (uploadOpId) =>
      run(
        ["photos"],
        "readonly",
        (tx) =>
          request(tx.objectStore("photos").get(uploadOpId)) as Promise<StoredPhoto | undefined>,
      ),
    listPhotos: (surveyId) =>
      run(["photos"], "readonly", (tx) =>
        request(
          tx.objectStore("photos").index("surveyId").getAll(surveyId),
        ) as Promise<StoredPhoto[]>),
    deletePhotos: (ids) =>
      run(["photos"], "readwrite", (tx) => {
        for (const id of ids) tx.objectStore("photos").delete(id);
      }),
  };
}

/** An outbox in memory (for the life of the page): where IndexedDB is unavailable, and tests. */
export function memoryStore(): ChecklistStore {
  let next = 1;
  const ops = new Map<number, QueuedOp>();
  const photos = new Map<string, StoredPhoto>();
  return {
    addOp(op) {
      const seq = next++;
      ops.set(seq, { ...op, seq } as QueuedOp);
      return Promise.resolve(seq);
    },
    listOps: (surveyId) =>
      Promise.resolve(
        [...ops.values()].filter((op) => op.surveyId === surveyId).sort((a, b) => a.seq - b.seq),
      ),
    deleteOps(seqs) {
      for (const seq of seqs) ops.delete(seq);
      return Promise.resolve();
    },
    putPhoto(photo) {
      photos.set(photo.uploadOpId, photo);
      return Promise.resolve();
    },
    getPhoto: (id) => Promise.resolve(photos.get(id)),
    listPhotos: (surveyId) =>
      Promise.resolve([...photos.values()].filter((photo) => photo.surveyId === surveyId)),
    deletePhotos(ids) {
      for (const id of ids) photos.delete(id);
      return Promise.resolve();
    },
  };
}

let shared: ChecklistStore | undefined;

/**
 * The page's outbox: IndexedDB when the browser has it, else memory. One per page, so every
 * checklist on it shares the queue.
 */
export function checklistStore(): ChecklistStore {
  shared ??= typeof indexedDB !== "undefined" ? indexedDbStore(indexedDB) : memoryStore();
  return shared;
}

/** Replaces the page's outbox (tests). */
export function setChecklistStore(store: ChecklistStore | undefined): void {
  shared = store;
}
