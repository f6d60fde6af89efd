/**
 * A survey's files as a list: name (the download link), type, size, and when and by whom each
 * was uploaded. Pure markup, so pages render it on the server and the DeliverableUpload island
 * renders the same list (with its remove buttons) in the browser.
 */
import type { ReactNode } from "react";
import {
  fileDownloadPath,
  fileTypeLabel,
  formatFileSize,
  type SurveyFileInfo,
} from "../lib/survey_file_types.ts";
import { formatUtcDateTime } from "../islands/LocalTime.tsx";

/**
 * Props: `files` in display order; `emptyText` when there are none; `actions` adds controls
 * after a file (the island's Remove); `renderTime` shows the upload time (UTC by default, the
 * viewer's zone in an island); `label` names the list for screen readers.
 */
export interface SurveyFilesListProps {
  files: readonly SurveyFileInfo[];
  emptyText?: string;
  label?: string;
  actions?: (file: SurveyFileInfo) => ReactNode;
  renderTime?: (iso: string) => ReactNode;
}

function utcTime(iso: string) {
  return <time dateTime={iso}>{formatUtcDateTime(iso)}</time>;
}

/** The list (see the file's comment); `emptyText` in a paragraph when there are no files. */
export function SurveyFilesList(
  { files, emptyText = "No files yet.", label = "Files", actions, renderTime = utcTime }:
    SurveyFilesListProps,
) {
  if (files.length === 0) return <p className="muted" data-testid="files-empty">{emptyText}</p>;
  return (
    <ul className="file-list" aria-label={label}>
      {files.map((file) => (
        <li key={file.id} className="file-list__item" data-file-id={file.id}>
          <div className="file-list__main">
            <a
              className="file-list__name"
              href={fileDownloadPath(file.id)}
              download={file.fileName}
            >
              {file.fileName}
            </a>
            <span className="file-list__meta">
              {fileTypeLabel(file.contentType)} · {formatFileSize(file.sizeBytes)} · uploaded{" "}
              {renderTime(file.createdAt)}
              {file.uploadedByName ? ` by ${file.uploadedByName}` : ""}
            </span>
          </div>
          {actions ? <div className="file-list__actions">{actions(file)}</div> : null}
        </li>
      ))}
    </ul>
  );
}
