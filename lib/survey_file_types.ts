/**
 * Survey files as islands, pages and the API share them: kinds, the size limit, the accepted
 * types in words, the file record as JSON. No zod and no server imports, so islands can use it.
 */

/** Checklist photos, or the final documents delivered to the client. */
export type SurveyFileKind = "photo" | "deliverable";

/** The kinds, in display order. */
export const SURVEY_FILE_KINDS: readonly SurveyFileKind[] = ["photo", "deliverable"];

/** Largest file accepted: 25 MB (MiB, as survey_files.size_bytes checks). */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

/** The limit as people read it. */
export const MAX_FILE_SIZE_TEXT = "25 MB";

/** 413 text for a file over the limit. */
export const FILE_TOO_LARGE_MESSAGE = `File is too large: the limit is ${MAX_FILE_SIZE_TEXT}.`;

/**
 * Storage quotas (issue 20): the recorded files of one survey may take up to 200 MB (eight
 * full-size files, or hundreds of photos), and those of all the surveys a firm works on up to
 * 5 GB. Config (SURVEY_STORAGE_QUOTA_MB, FIRM_STORAGE_QUOTA_MB) may change them.
 */
export const SURVEY_STORAGE_QUOTA_BYTES = 200 * 1024 * 1024;

/** See `SURVEY_STORAGE_QUOTA_BYTES`. */
export const FIRM_STORAGE_QUOTA_BYTES = 5 * 1024 * 1024 * 1024;

/**
 * Largest upload request: the file plus room for the multipart headers and the few text
 * fields beside it.
 */
export const MAX_UPLOAD_REQUEST_BYTES = MAX_FILE_BYTES + 64 * 1024;

/** What each kind accepts, in words (the 415 message and the upload form say it). */
export const ACCEPTED_TYPES_TEXT: Readonly<Record<SurveyFileKind, string>> = {
  photo: "JPEG, PNG, WebP or HEIC/HEIF photos",
  deliverable: "PDF, DWG, DXF, CSV point files, JPEG or PNG",
};

/** The file chooser's `accept` hint per kind (the server checks the content regardless). */
export const ACCEPT_ATTRIBUTE: Readonly<Record<SurveyFileKind, string>> = {
  photo: "image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif",
  deliverable: ".pdf,.dwg,.dxf,.csv,.txt,.jpg,.jpeg,.png,application/pdf,text/csv,image/jpeg," +
    "image/png",
};

/**
 * The window event DeliverableUpload sends after an upload or a removal, with
 * `detail: {surveyId, count}` (the deliverables now on the survey): "Mark complete" listens.
 */
export const DELIVERABLES_EVENT = "meridian:deliverables-changed";

/** `POST` path of uploads for `surveyId`. */
export function fileUploadPath(surveyId: string): string {
  return `/api/surveys/${encodeURIComponent(surveyId)}/files`;
}

/** The download path of a file; `inline` asks for an image to be shown rather than saved. */
export function fileDownloadPath(fileId: string, { inline = false } = {}): string {
  return `/api/files/${encodeURIComponent(fileId)}${inline ? "?inline=1" : ""}`;
}

/**
 * Whether `method` + `path` is a file upload: the one API request whose body is multipart and
 * may be up to `MAX_UPLOAD_REQUEST_BYTES` (routes/_middleware.ts, main.ts).
 */
export function isFileUploadRequest(method: string, path: string): boolean {
  return method === "POST" && /^\/api\/surveys\/[^/]+\/files$/.test(path);
}

/** A stored file as the API and the pages show it. */
export interface SurveyFileInfo {
  id: string;
  surveyId: string;
  kind: SurveyFileKind;
  checklistItemId: string | null;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  uploadedBy: string | null;
  /** The uploader's name, or null when their account is gone. */
  uploadedByName: string | null;
  /** ISO 8601. */
  createdAt: string;
}

/** A size as people read it: "812 bytes", "48.2 KB", "19.1 MB" (powers of 1024). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A short name for a stored content type ("PDF", "DWG drawing", "CSV points", "JPEG"). */
export function fileTypeLabel(contentType: string): string {
  return TYPE_LABELS[contentType] ?? contentType;
}

const TYPE_LABELS: Record<string, string> = {
  "application/pdf": "PDF",
  "image/vnd.dwg": "DWG drawing",
  "image/vnd.dxf": "DXF drawing",
  "text/csv": "CSV points",
  "image/jpeg": "JPEG image",
  "image/png": "PNG image",
  "image/webp": "WebP image",
  "image/heic": "HEIC image",
  "image/heif": "HEIF image",
};
