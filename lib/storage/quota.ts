/**
 * Storage quotas per survey and per firm (issue 20): the limits in force and the 413 text of a
 * refusal, which names the quota, its size and what is used. The route (routes/files.ts) checks
 * them before storing (from what is recorded and the request's length), while storing (the
 * provider's byte limit is what is left) and when recording (again, with the survey and the
 * firm locked, so parallel uploads cannot overshoot together).
 */
import type { Config } from "../config.ts";
import { FIRM_STORAGE_QUOTA_BYTES, SURVEY_STORAGE_QUOTA_BYTES } from "../survey_file_types.ts";
import type { StorageUse } from "../../db/survey_files.ts";

const MB = 1024 * 1024;

/** The quotas in bytes. */
export interface StorageQuotas {
  surveyBytes: number;
  firmBytes: number;
}

/** The quotas `config` sets, else the defaults. */
export function storageQuotas(
  config: Pick<Config, "SURVEY_STORAGE_QUOTA_MB" | "FIRM_STORAGE_QUOTA_MB">,
): StorageQuotas {
  return {
    surveyBytes: config.SURVEY_STORAGE_QUOTA_MB !== undefined
      ? config.SURVEY_STORAGE_QUOTA_MB * MB
      : SURVEY_STORAGE_QUOTA_BYTES,
    firmBytes: config.FIRM_STORAGE_QUOTA_MB !== undefined
      ? config.FIRM_STORAGE_QUOTA_MB * MB
      : FIRM_STORAGE_QUOTA_BYTES,
  };
}

/** The quota with the least room left, and how much that is (never below 0). */
export interface QuotaRoom {
  scope: "survey" | "firm";
  limitBytes: number;
  usedBytes: number;
  leftBytes: number;
}

/** Room left under the tighter of the two quotas (the firm's only when there is a firm). */
export function quotaRoom(
  quotas: StorageQuotas,
  use: StorageUse,
  { hasFirm }: { hasFirm: boolean },
): QuotaRoom {
  const survey: QuotaRoom = {
    scope: "survey",
    limitBytes: quotas.surveyBytes,
    usedBytes: use.surveyBytes,
    leftBytes: Math.max(0, quotas.surveyBytes - use.surveyBytes),
  };
  if (!hasFirm) return survey;
  const firm: QuotaRoom = {
    scope: "firm",
    limitBytes: quotas.firmBytes,
    usedBytes: use.firmBytes,
    leftBytes: Math.max(0, quotas.firmBytes - use.firmBytes),
  };
  return firm.leftBytes < survey.leftBytes ? firm : survey;
}

/** Bytes as people read them: "200 MB", "5 GB", "12.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * MB) {
    const gb = bytes / (1024 * MB);
    return `${Number.isInteger(gb) ? gb : gb.toFixed(2)} GB`;
  }
  const mb = bytes / MB;
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/**
 * The 413 text: which quota, its size, what is used, and the file's size when known, e.g.
 * "Storage quota reached: this survey's files may take 200 MB and already take 190.0 MB
 * (10.0 MB left), and this file is 24.0 MB. Delete files the survey no longer needs, or ask
 * an admin for more room."
 */
export function quotaMessage(room: QuotaRoom, fileBytes?: number): string {
  const whose = room.scope === "survey" ? "this survey's files" : "your firm's files";
  const file = fileBytes === undefined
    ? `this file is larger than that`
    : `this file is ${formatBytes(fileBytes)}`;
  const remedy = room.scope === "survey" ? "the survey" : "your firm";
  return `Storage quota reached: ${whose} may take ${formatBytes(room.limitBytes)} and ` +
    `already take ${formatBytes(room.usedBytes)} (${formatBytes(room.leftBytes)} left), and ` +
    `${file}. Delete files ${remedy} no longer needs, or ask an admin for more room.`;
}
