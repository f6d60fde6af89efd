/**
 * Saved versions of the editable email copy (issue 13): a template's subject and copy blocks as
 * admins wrote them, one row per save (migration 0021). The newest version is what the app
 * sends, unless it is a "Reset to default", which sends the defaults in the template's code.
 * Template ids and block keys are checked by the caller against the registry
 * (lib/mail/render.tsx); this module stores and reads.
 */
import type { Db } from "./client.ts";
import type { CopyTexts } from "../lib/mail/copy.ts";

/** One saved version of a template's copy. */
export interface EmailTemplateVersion {
  template: string;
  version: number;
  subject: string;
  blocks: Record<string, string>;
  /** A "Reset to default": the app sends the code's defaults while this is the newest. */
  isReset: boolean;
  createdBy: string | null;
  /** The saving admin's name; null when their account was deleted. */
  createdByName: string | null;
  createdAt: Date;
}

/** A version without its texts, for the history list. */
export type EmailTemplateVersionSummary = Omit<EmailTemplateVersion, "subject" | "blocks">;

/** Versions the editor lists, newest first. */
export const VERSION_HISTORY_LIMIT = 50;

/** The newest version of `template` and the one before it, by the same one round trip. */
export async function getLatestVersions(
  db: Db,
  { template }: { template: string },
): Promise<{ current?: EmailTemplateVersion; previous?: EmailTemplateVersion }> {
  const rows = await db<EmailTemplateVersion[]>`
    select v.template, v.version, v.subject, v.blocks, v.is_reset, v.created_by,
      u.full_name as created_by_name, v.created_at
    from email_template_versions v left join users u on u.id = v.created_by
    where v.template = ${template}
    order by v.version desc
    limit 2`;
  return { current: rows[0], previous: rows[1] };
}

/**
 * The copy the app sends for `template` now: the newest saved texts, or undefined for the
 * code's defaults (never saved, or reset to default). One indexed lookup; used by every queued
 * email inside the caller's transaction.
 */
export async function getCurrentCopy(
  db: Db,
  { template }: { template: string },
): Promise<CopyTexts | undefined> {
  const [row] = await db<{ subject: string; blocks: Record<string, string>; isReset: boolean }[]>`
    select subject, blocks, is_reset from email_template_versions
    where template = ${template}
    order by version desc
    limit 1`;
  if (!row || row.isReset) return undefined;
  return { subject: row.subject, blocks: row.blocks };
}

/** The versions of `template`, newest first, without their texts (at most `limit`). */
export async function listTemplateVersions(
  db: Db,
  { template, limit = VERSION_HISTORY_LIMIT }: { template: string; limit?: number },
): Promise<EmailTemplateVersionSummary[]> {
  return await db<EmailTemplateVersionSummary[]>`
    select v.template, v.version, v.is_reset, v.created_by,
      u.full_name as created_by_name, v.created_at
    from email_template_versions v left join users u on u.id = v.created_by
    where v.template = ${template}
    order by v.version desc
    limit ${limit}`;
}

/** A save refused because another version was saved since the editor loaded `expected`. */
export class StaleVersionError extends Error {
  constructor(readonly expected: number, readonly current: EmailTemplateVersion | undefined) {
    super(`Expected version ${expected}, found ${current?.version ?? 0}`);
    this.name = "StaleVersionError";
  }
}

/**
 * Appends the next version of `template` (1 for the first) and returns it. Run inside a
 * transaction: saves of one template are serialised by a transaction-scoped advisory lock, so
 * two concurrent saves get consecutive numbers (the unique key would refuse a duplicate).
 * With `baseVersion` (the version the editor started from, 0 for the defaults), throws
 * StaleVersionError when another version was saved since, so nobody overwrites unseen work.
 */
export async function insertTemplateVersion(
  tx: Db,
  { template, subject, blocks, isReset = false, createdBy, baseVersion }: {
    template: string;
    subject: string;
    blocks: Record<string, string>;
    isReset?: boolean;
    createdBy: string;
    baseVersion?: number;
  },
): Promise<EmailTemplateVersion> {
  await tx`select pg_advisory_xact_lock(hashtext(${"email_template:" + template}))`;
  if (baseVersion !== undefined) {
    const { current } = await getLatestVersions(tx, { template });
    if ((current?.version ?? 0) !== baseVersion) {
      throw new StaleVersionError(baseVersion, current);
    }
  }
  const [row] = await tx<{ version: number; createdAt: Date }[]>`
    insert into email_template_versions (template, version, subject, blocks, is_reset, created_by)
    select ${template}, coalesce(max(version), 0) + 1, ${subject}, ${tx.json(blocks)},
      ${isReset}, ${createdBy}
    from email_template_versions where template = ${template}
    returning version, created_at`;
  const [user] = await tx<{ fullName: string }[]>`
    select full_name from users where id = ${createdBy}`;
  return {
    template,
    version: row.version,
    subject,
    blocks,
    isReset,
    createdBy,
    createdByName: user?.fullName ?? null,
    createdAt: row.createdAt,
  };
}
