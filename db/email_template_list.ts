/**
 * The admin's list of emails (/admin/email-templates, routes/email_template_pages.tsx): the
 * newest saved words of every template and how many of each were sent since a time, with the
 * viewer (db/users.ts `readWithViewer`, routes/_auth.ts `ownViewerPage`), in one statement
 * where the page read three.
 */
import type { Db } from "./client.ts";
import { readWithViewer, type Viewer } from "./users.ts";
import type { EmailTemplateVersion } from "./email_templates.ts";

type VersionJson = Omit<EmailTemplateVersion, "createdAt"> & { createdAt: string };

/**
 * The viewer `viewerId`, the newest version of every template that has one (template → that
 * version with its texts: the list shows who last saved each and renders its preview from
 * the texts) and how many of each template's emails were delivered at or after `since`.
 */
export async function getEmailTemplateListWithViewer(
  db: Db,
  { viewerId, since }: { viewerId: string; since: Date },
): Promise<{
  viewer: Viewer | undefined;
  current: Map<string, EmailTemplateVersion>;
  sent: Map<string, number>;
}> {
  const { viewer, rows } = await readWithViewer<
    { versions: VersionJson[] | null; sent: Record<string, number> | null }
  >(
    db,
    viewerId,
    db`
      select
        (select json_agg(json_build_object('template', v.template, 'version', v.version,
            'subject', v.subject, 'blocks', v.blocks, 'isReset', v.is_reset,
            'createdBy', v.created_by, 'createdByName', u.full_name, 'createdAt', v.created_at))
          from (
            select distinct on (template) * from email_template_versions
            order by template, version desc
          ) v left join users u on u.id = v.created_by) as versions,
        (select json_object_agg(c.template, c.n) from (
            select template, count(*)::int as n from email_outbox
            where status = 'sent' and sent_at >= ${since}
            group by template
          ) c) as sent`,
  );
  const row = rows[0];
  return {
    viewer,
    current: new Map(
      (row?.versions ?? []).map((v) => [v.template, { ...v, createdAt: new Date(v.createdAt) }]),
    ),
    sent: new Map(Object.entries(row?.sent ?? {})),
  };
}
