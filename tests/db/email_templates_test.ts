/**
 * db/email_templates.ts on the test database (PGlite, or Postgres with DATABASE_URL): versions
 * numbered per template, who saved them, the copy the app sends, concurrent saves, stale saves.
 */
import { getEmailTemplateListWithViewer } from "../../db/email_template_list.ts";
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createUser } from "../_auth.ts";
import {
  getCurrentCopy,
  getLatestVersions,
  insertTemplateVersion,
  listTemplateVersions,
  StaleVersionError,
} from "../../db/email_templates.ts";

const TEXTS = { subject: "Reset your password, {name}", blocks: { heading: "Hello" } };

test("[email templates db] versions count up per template and the newest is what is sent", async () => {
  const t = await createTestApp();
  try {
    const admin = await createUser(t.sql, { role: "admin", fullName: "Ada Admin" });
    assertEquals(await getCurrentCopy(t.sql, { template: "password_reset" }), undefined);
    const v1 = await t.sql.begin((tx) =>
      insertTemplateVersion(tx, { template: "password_reset", ...TEXTS, createdBy: admin.id })
    );
    assertEquals([v1.version, v1.createdByName, v1.isReset], [1, "Ada Admin", false]);
    await t.sql.begin((tx) =>
      insertTemplateVersion(tx, {
        template: "password_reset",
        subject: "Second",
        blocks: { heading: "Hi" },
        createdBy: admin.id,
      })
    );
    // Another template starts at 1.
    const other = await t.sql.begin((tx) =>
      insertTemplateVersion(tx, { template: "low_balance", ...TEXTS, createdBy: admin.id })
    );
    assertEquals(other.version, 1);

    assertEquals(await getCurrentCopy(t.sql, { template: "password_reset" }), {
      subject: "Second",
      blocks: { heading: "Hi" },
    });
    const { current, previous } = await getLatestVersions(t.sql, { template: "password_reset" });
    assertEquals([current?.version, previous?.version], [2, 1]);
    assertEquals(previous?.subject, TEXTS.subject);
    assertEquals(previous?.blocks, TEXTS.blocks);
    assert(current!.createdAt instanceof Date);
    const history = await listTemplateVersions(t.sql, { template: "password_reset" });
    assertEquals(history.map((v) => [v.version, v.createdByName]), [
      [2, "Ada Admin"],
      [1, "Ada Admin"],
    ]);
    const { viewer, current: newest } = await getEmailTemplateListWithViewer(t.sql, {
      viewerId: admin.id,
      since: new Date(),
    });
    assertEquals(viewer?.id, admin.id);
    assertEquals([...newest.keys()].sort(), ["low_balance", "password_reset"]);
    assertEquals(newest.get("password_reset")?.version, 2);
    assertEquals(newest.get("password_reset")?.subject, "Second");
    assertEquals(newest.get("password_reset")?.createdByName, "Ada Admin");
    assertEquals(newest.get("password_reset")?.createdAt, current!.createdAt);

    // A reset version sends the code's defaults again (undefined), and stays in the history.
    await t.sql.begin((tx) =>
      insertTemplateVersion(tx, {
        template: "password_reset",
        ...TEXTS,
        isReset: true,
        createdBy: admin.id,
      })
    );
    assertEquals(await getCurrentCopy(t.sql, { template: "password_reset" }), undefined);
    assertEquals(
      (await listTemplateVersions(t.sql, { template: "password_reset" }))[0].isReset,
      true,
    );
  } finally {
    t.close();
  }
});

test("[email templates db] concurrent saves get distinct, consecutive numbers", async () => {
  const t = await createTestApp();
  try {
    const admin = await createUser(t.sql, { role: "admin" });
    const saved = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.sql.begin((tx) =>
          insertTemplateVersion(tx, {
            template: "password_reset",
            subject: `Subject ${i}`,
            blocks: {},
            createdBy: admin.id,
          })
        )),
    );
    assertEquals(saved.map((v) => v.version).sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8]);
    const [{ count }] = await t.sql<{ count: number }[]>`
      select count(distinct version)::int as count from email_template_versions`;
    assertEquals(count, 8);
    // The unique key is the last line of defence: a duplicate number is refused.
    await assertRejects(() =>
      t.sql`insert into email_template_versions (template, version, subject, blocks)
        values ('password_reset', 3, 'Dup', '{}'::jsonb)`
    );
  } finally {
    t.close();
  }
});

test("[email templates db] a save based on an older version is refused and stores nothing", async () => {
  const t = await createTestApp();
  try {
    const admin = await createUser(t.sql, { role: "admin", fullName: "Bo Admin" });
    const save = (baseVersion: number) =>
      t.sql.begin((tx) =>
        insertTemplateVersion(tx, {
          template: "password_reset",
          ...TEXTS,
          createdBy: admin.id,
          baseVersion,
        })
      );
    assertEquals((await save(0)).version, 1);
    const err = await assertRejects(() => save(0));
    assert(err instanceof StaleVersionError, String(err));
    assertEquals(err.current?.version, 1);
    assertEquals(err.current?.createdByName, "Bo Admin");
    assertEquals((await save(1)).version, 2);
    assertEquals((await listTemplateVersions(t.sql, { template: "password_reset" })).length, 2);
  } finally {
    t.close();
  }
});

test("[email templates db] a version outlives its author's account", async () => {
  const t = await createTestApp();
  try {
    const admin = await createUser(t.sql, { role: "admin" });
    await t.sql.begin((tx) =>
      insertTemplateVersion(tx, { template: "password_reset", ...TEXTS, createdBy: admin.id })
    );
    await t.sql`delete from users where id = ${admin.id}`;
    const [v] = await listTemplateVersions(t.sql, { template: "password_reset" });
    assertEquals([v.version, v.createdBy, v.createdByName], [1, null, null]);
    assertEquals(
      (await getCurrentCopy(t.sql, { template: "password_reset" }))?.subject,
      TEXTS.subject,
    );
  } finally {
    t.close();
  }
});
