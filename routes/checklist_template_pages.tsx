import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "./_env.ts";
import { ownViewerPage, requirePageRole, settleViewer, viewerIdOf } from "./_auth.ts";
import { appPage, rememberedAppPage } from "./_app_page.tsx";
import { Card, PageHeader } from "../components/AppPage.tsx";
import { Island } from "../components/Island.tsx";
import ChecklistTemplateEditor from "../islands/ChecklistTemplateEditor.tsx";
import LocalTime from "../islands/LocalTime.tsx";
import { getCurrentTemplateWithViewer, listCurrentTemplates } from "../db/checklists.ts";
import { getUserWithUnreadCount } from "../db/users.ts";
import { SURVEY_TYPE_INFO, SURVEY_TYPES, type SurveyType } from "../lib/survey_types.ts";

const ACTIVE = "/admin/checklists";
/** A survey type's checklist template reads its admin in its own statement. */
const TEMPLATE = ownViewerPage("/admin/checklists/:surveyType", "admin");

function isSurveyType(value: string): value is SurveyType {
  return (SURVEY_TYPES as readonly string[]).includes(value);
}

/**
 * Admin pages for the checklist templates:
 *
 * - `/admin/checklists`: every survey type with its current template version, how many items
 *   (and required ones) it has and who saved it when, each linking to its editor.
 * - `/admin/checklists/{surveyType}`: the ChecklistTemplateEditor island for that type's
 *   current version (an unknown type is the 404 page). Saving makes a new version; surveys
 *   that already have their checklist keep the version they were given.
 */
export const checklistTemplatePages = new Hono<AppEnv>()
  .get("/admin/checklists", requirePageRole("admin"), async (c) => {
    const templates = new Map(
      (await listCurrentTemplates(c.var.db)).map((t) => [t.surveyType, t]),
    );
    return appPage(
      c,
      { title: "Survey checklists", active: ACTIVE },
      <>
        <PageHeader
          title="Survey checklists"
          intro="What a crew records on site for each survey type. A survey's checklist is copied from the current version when a technician is first assigned; later edits apply to new assignments only."
        />
        <Card id="checklist-templates-title" title="Templates">
          <div
            className="table-wrap"
            role="region"
            aria-label="Checklist templates table"
            tabIndex={0}
          >
            <table className="table checklist-templates">
              <caption className="visually-hidden">Checklist template per survey type</caption>
              <thead>
                <tr>
                  <th scope="col">Survey type</th>
                  <th scope="col">Version</th>
                  <th scope="col">Items</th>
                  <th scope="col">Last saved</th>
                </tr>
              </thead>
              <tbody>
                {SURVEY_TYPES.map((type) => {
                  const template = templates.get(type);
                  const required = template?.items.filter((item) => item.isRequired).length ?? 0;
                  return (
                    <tr key={type}>
                      <th scope="row">
                        <a href={`/admin/checklists/${type}`}>{SURVEY_TYPE_INFO[type].name}</a>
                      </th>
                      <td>{template ? `v${template.version}` : "—"}</td>
                      <td>
                        {template ? `${template.items.length} (${required} required)` : "—"}
                      </td>
                      <td>
                        {template
                          ? (
                            <>
                              {template.createdByName ?? "Meridian defaults"}
                              {", "}
                              <LocalTime iso={template.createdAt} />
                            </>
                          )
                          : "—"}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </Card>
      </>,
    );
  })
  .get(TEMPLATE.path, TEMPLATE.guard, async (c) => {
    const surveyType = c.req.param("surveyType") ?? "";
    // The admin and the template in one statement (routes/_auth.ts `ownViewerPage`).
    const read = isSurveyType(surveyType)
      ? await getCurrentTemplateWithViewer(c.var.db, { surveyType, viewerId: viewerIdOf(c) })
      : { viewer: await getUserWithUnreadCount(c.var.db, viewerIdOf(c)), template: undefined };
    const denied = await settleViewer(c, TEMPLATE, read.viewer);
    if (denied) return denied;
    const template = read.template;
    if (!isSurveyType(surveyType) || !template) {
      throw new HTTPException(404, { message: "Not found" });
    }
    const name = SURVEY_TYPE_INFO[surveyType].name;
    // Sent as it was last rendered while the template is the same (routes/_remembered_pages.ts):
    // it reads no clock.
    return rememberedAppPage(
      c,
      { title: `${name} checklist`, active: ACTIVE },
      `checklist-template ${viewerIdOf(c)} ${surveyType}`,
      template,
      () => (
        <>
          <PageHeader
            title={`${name} checklist`}
            intro={
              <>
                <a href={ACTIVE}>All checklists</a>
                {` · Version ${template.version}, saved by ${
                  template.createdByName ?? "Meridian defaults"
                }. Surveys already assigned keep the version they were given.`}
                {surveyType === "alta"
                  ? " Each ALTA survey also gets one required item per Table A item ordered with it."
                  : ""}
              </>
            }
          />
          <Island
            component={ChecklistTemplateEditor}
            hydrate="load"
            props={{ surveyType, surveyTypeName: name, template }}
          />
        </>
      ),
    );
  });
