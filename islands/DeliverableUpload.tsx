/**
 * The surveyor's deliverables on their job page (/surveyor/jobs/{surveyId}): choose one or more
 * files (plat or certificate PDF, DWG/DXF drawings, CSV point files, JPEG/PNG), each uploaded
 * in turn with its own progress bar through POST /api/surveys/{id}/files, then listed with a
 * download link and a Remove button (DELETE /api/files/{id}). A refusal says why in the row
 * (the server's 413 and 415 texts: the 25 MB limit, what is accepted); a file over the limit is
 * refused before it is sent. After each change the page is told the new count
 * (DELIVERABLES_EVENT), which enables "Mark complete".
 */
import { useEffect, useId, useRef, useState } from "react";
import { SurveyFilesList } from "../components/SurveyFilesList.tsx";
import LocalTime from "./LocalTime.tsx";
import { ApiError, apiRequest, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import {
  ACCEPT_ATTRIBUTE,
  ACCEPTED_TYPES_TEXT,
  DELIVERABLES_EVENT,
  FILE_TOO_LARGE_MESSAGE,
  fileDownloadPath,
  fileUploadPath,
  MAX_FILE_BYTES,
  MAX_FILE_SIZE_TEXT,
  type SurveyFileInfo,
} from "../lib/survey_file_types.ts";

/** Texts of the island. */
export const DELIVERABLE_TEXTS = {
  choose: "Add deliverables",
  hint: `${ACCEPTED_TYPES_TEXT.deliverable}; up to ${MAX_FILE_SIZE_TEXT} each.`,
  uploaded: "File uploaded",
  deleted: "File deleted",
  uploadFailed: "Upload failed",
  deleteFailed: "Could not remove the file",
  offline: "No connection: the upload did not finish. Try again when you are back online.",
  empty: "No deliverables uploaded yet.",
  closed: "The survey is completed: its deliverables are final.",
} as const;

/**
 * Props (plain JSON): `surveyId`; `files`: its deliverables now; `canChange`: whether files
 * may still be added or removed (not after completion).
 */
export interface DeliverableUploadProps {
  surveyId: string;
  files: SurveyFileInfo[];
  canChange: boolean;
}

/** One file being sent, or refused. */
interface UploadRow {
  key: string;
  name: string;
  /** 0..1 while sending; null once it failed. */
  progress: number | null;
  error: string | null;
}

/** The upload's answer: the stored file, or the error text. */
function send(
  surveyId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<{ file: SurveyFileInfo } | { error: string }> {
  return new Promise((resolve) => {
    const form = new FormData();
    // The fields first: the server checks them before it stores a byte.
    form.append("kind", "deliverable");
    form.append("opId", crypto.randomUUID());
    form.append("file", file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", fileUploadPath(surveyId));
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: { file?: SurveyFileInfo; message?: string } | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch { /* not JSON: the status says it */ }
      if (xhr.status >= 200 && xhr.status < 300 && body?.file) resolve({ file: body.file });
      else {
        resolve({
          error: body?.message || `${DELIVERABLE_TEXTS.uploadFailed} (${xhr.status})`,
        });
      }
    };
    xhr.onerror = () => resolve({ error: DELIVERABLE_TEXTS.offline });
    xhr.send(form);
  });
}

/** The deliverables card's content (see the file's comment). */
export default function DeliverableUpload(props: DeliverableUploadProps) {
  const [files, setFiles] = useState(props.files);
  // The list as it is now, for changes that finish while others run (an upload landing during a
  // removal, a removal during a batch): each applies to the latest list, not to the one it
  // started from, so no removed file comes back and no uploaded one disappears.
  const latest = useRef(props.files);
  const [rows, setRows] = useState<UploadRow[]>([]);
  const [isHydrated, setHydrated] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const id = useId();
  useEffect(() => setHydrated(true), []);

  function announce(next: SurveyFileInfo[]) {
    globalThis.dispatchEvent(
      new CustomEvent(DELIVERABLES_EVENT, {
        detail: { surveyId: props.surveyId, count: next.length },
      }),
    );
  }

  function changeFiles(change: (current: SurveyFileInfo[]) => SurveyFileInfo[]) {
    const next = change(latest.current);
    latest.current = next;
    setFiles(next);
    announce(next);
  }

  function updateRow(key: string, change: Partial<UploadRow>) {
    setRows((all) => all.map((row) => (row.key === key ? { ...row, ...change } : row)));
  }

  async function uploadAll(chosen: File[]) {
    const queued = chosen.map((file, i) => ({
      file,
      row: {
        key: `${Date.now()}-${i}-${file.name}`,
        name: file.name,
        progress: file.size > MAX_FILE_BYTES ? null : 0,
        error: file.size > MAX_FILE_BYTES ? FILE_TOO_LARGE_MESSAGE : null,
      },
    }));
    setRows((all) => [...all.filter((r) => r.error === null), ...queued.map((q) => q.row)]);
    for (const { file, row } of queued) {
      if (row.error) continue;
      const outcome = await send(
        props.surveyId,
        file,
        (progress) => updateRow(row.key, { progress }),
      );
      if ("error" in outcome) {
        updateRow(row.key, { progress: null, error: outcome.error });
        continue;
      }
      const uploaded = outcome.file;
      changeFiles((current) => [...current.filter((f) => f.id !== uploaded.id), uploaded]);
      setRows((all) => all.filter((r) => r.key !== row.key));
      toast({ title: DELIVERABLE_TEXTS.uploaded, description: uploaded.fileName });
    }
  }

  async function remove(file: SurveyFileInfo) {
    setRemoving(file.id);
    try {
      await apiRequest("DELETE", fileDownloadPath(file.id));
      changeFiles((current) => current.filter((f) => f.id !== file.id));
      toast({ title: DELIVERABLE_TEXTS.deleted, description: file.fileName });
    } catch (err) {
      toast({
        title: DELIVERABLE_TEXTS.deleteFailed,
        description: err instanceof ApiError
          ? errorMessage(err, DELIVERABLE_TEXTS.deleteFailed)
          : DELIVERABLE_TEXTS.offline,
        variant: "destructive",
      });
    } finally {
      setRemoving(null);
    }
  }

  const inputId = `${id}-file`;
  const hintId = `${id}-hint`;
  return (
    <div className="stack deliverables">
      <SurveyFilesList
        files={files}
        label="Deliverables"
        emptyText={DELIVERABLE_TEXTS.empty}
        renderTime={(iso) => <LocalTime iso={iso} />}
        actions={props.canChange
          ? (file) => (
            <button
              type="button"
              className="btn btn--ghost btn--sm"
              disabled={!isHydrated || removing !== null}
              aria-label={`Remove ${file.fileName}`}
              onClick={() => remove(file)}
            >
              {removing === file.id ? "Removing…" : "Remove"}
            </button>
          )
          : undefined}
      />
      {rows.length > 0
        ? (
          <ul className="upload-rows" aria-label="Uploads">
            {rows.map((row) => (
              <li key={row.key} className="upload-rows__item">
                <span className="upload-rows__name">{row.name}</span>
                {row.error === null
                  ? (
                    <progress
                      max={1}
                      value={row.progress ?? 0}
                      aria-label={`Uploading ${row.name}`}
                    />
                  )
                  : <p className="upload-rows__error" role="alert">{row.error}</p>}
              </li>
            ))}
          </ul>
        )
        : null}
      {props.canChange
        ? (
          <div className="field">
            <label htmlFor={inputId} className="field__label">{DELIVERABLE_TEXTS.choose}</label>
            <input
              id={inputId}
              className="field__input deliverables__input"
              type="file"
              multiple
              accept={ACCEPT_ATTRIBUTE.deliverable}
              aria-describedby={hintId}
              disabled={!isHydrated}
              onChange={(e) => {
                const chosen = [...(e.currentTarget.files ?? [])];
                e.currentTarget.value = "";
                if (chosen.length > 0) uploadAll(chosen);
              }}
            />
            <p id={hintId} className="field__hint">{DELIVERABLE_TEXTS.hint}</p>
          </div>
        )
        : <p className="muted">{DELIVERABLE_TEXTS.closed}</p>}
    </div>
  );
}
