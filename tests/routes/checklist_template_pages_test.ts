import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { assertHtml, getPage, islandProps, loadPage, pageText } from "../_pages.ts";
import { DEFAULT_CHECKLIST_TEMPLATES } from "../../lib/checklists.ts";
import type { ChecklistTemplateEditorProps } from "../../islands/ChecklistTemplateEditor.tsx";

test("[checklist template pages] the list shows every survey type's current version and who saved it", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
    const saved = await t.request("POST", "/api/checklist-templates/topographic", {
      cookie: admin.cookie,
      body: { items: [{ key: "spots", label: "Spot shots", kind: "check", isRequired: false }] },
    });
    assertEquals(saved.status, 201);
    const res = await getPage(t, "/admin/checklists", admin.cookie);
    assertEquals(res.status, 200);
    assertHtml(res);
    const html = await pageText(res);
    assertStringIncludes(html, "<h1>Survey checklists</h1>");
    for (
      const name of [
        "Boundary Survey",
        "Elevation Certificate",
        "Topographic Survey",
        "ALTA/NSPS Survey",
      ]
    ) {
      assertStringIncludes(html, name);
    }
    assertStringIncludes(html, 'href="/admin/checklists/elevation_certificate"');
    const boundary = DEFAULT_CHECKLIST_TEMPLATES.boundary;
    const required = boundary.filter((i) => i.isRequired).length;
    assertStringIncludes(html, `${boundary.length} (${required} required)`);
    assertStringIncludes(html, "Meridian defaults");
    // The topographic row: version 2 by the admin, one item, none required.
    assert(
      /Topographic Survey<\/a><\/th><td>v2<\/td><td>1 \(0 required\)<\/td><td>Ada Admin/.test(html),
    );
    assertStringIncludes(html, 'aria-current="page"');
  } finally {
    t.close();
  }
});

test("[checklist template pages] a type's page carries its current template into the editor", async () => {
  const t = await createTestApp();
  try {
    const cookie = await signInAs(t, "admin");
    const { res, html } = await loadPage(t, "/admin/checklists/alta", cookie);
    assertEquals(res.status, 200);
    const props = islandProps<ChecklistTemplateEditorProps>(html, "ChecklistTemplateEditor");
    assertEquals(props.surveyType, "alta");
    assertEquals(props.surveyTypeName, "ALTA/NSPS Survey");
    assertEquals(props.template.version, 1);
    assertEquals(props.template.items, DEFAULT_CHECKLIST_TEMPLATES.alta);
    assertStringIncludes(html.replaceAll("<!-- -->", ""), "one required item per Table A item");
    assertStringIncludes(html, "Save as version 2");
  } finally {
    t.close();
  }
});

test("[checklist template pages] a type's page shows a version saved since its last view", async () => {
  const t = await createTestApp();
  try {
    const cookie = await signInAs(t, "admin");
    const version = async () =>
      islandProps<ChecklistTemplateEditorProps>(
        (await loadPage(t, "/admin/checklists/boundary", cookie)).html,
        "ChecklistTemplateEditor",
      ).template;
    assertEquals((await version()).version, 1);
    assertEquals((await version()).version, 1);
    const items = [{ key: "pins_found", label: "Pins found", kind: "number", isRequired: true }];
    const saved = await t.request("POST", "/api/checklist-templates/boundary", {
      cookie,
      body: { items },
    });
    assertEquals(saved.status, 201);
    const after = await version();
    assertEquals(after.version, 2);
    assertEquals(after.items.map((i) => i.label), ["Pins found"]);
  } finally {
    t.close();
  }
});

test("[checklist template pages] an unknown type is the 404 page; other roles may not see them", async () => {
  const t = await createTestApp();
  try {
    const admin = await signInAs(t, "admin");
    const missing = await getPage(t, "/admin/checklists/mining", admin);
    assertEquals(missing.status, 404);
    assertHtml(missing);
    for (const role of ["client", "surveyor", "technician"] as const) {
      const cookie = await signInAs(t, role);
      for (const path of ["/admin/checklists", "/admin/checklists/boundary"]) {
        const res = await getPage(t, path, cookie);
        assert(res.status === 403 || res.status === 404, `${role} ${path}: ${res.status}`);
        assert(!(await res.text()).includes("ChecklistTemplateEditor"));
      }
    }
    const signedOut = await getPage(t, "/admin/checklists");
    assertEquals(signedOut.status, 302);
    assertStringIncludes(signedOut.headers.get("location") ?? "", "/auth?returnTo=");
  } finally {
    t.close();
  }
});
