/**
 * Storage quotas (issue 20: "256 MB stored on one survey with no quota"): per survey and per
 * firm, checked before storing, while storing and when recording; a refusal is a 413 naming the
 * quota, its size and what is used, and leaves nothing stored.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { expectJson } from "../_fixtures.ts";
import { bytesStartingWith, fileFixture, storedCounts, upload } from "../_file_fixtures.ts";
import { clientWithSurvey } from "../_assignment_fixtures.ts";
import { storageQuotas } from "../../lib/storage/quota.ts";

const KB = 1024;
const pdf = (size: number) => bytesStartingWith("%PDF-1.7\n", size);

/** A second survey of the client fixture's firm, in fieldwork. */
async function anotherJobOf(t: TestApp, surveyorId: string): Promise<string> {
  const { survey } = await clientWithSurvey(t);
  await t.sql`
    insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, source, status)
    values (${survey.id}, ${surveyorId}, 90000, 'admin', 'accepted')`;
  await t.sql`
    update surveys set status = 'scheduled', assigned_surveyor_id = ${surveyorId}
    where id = ${survey.id}`;
  return survey.id;
}

test("[files] quotas default to 200 MB per survey and 5 GB per firm; config changes them", () => {
  assertEquals(storageQuotas({}), { surveyBytes: 200 * 1024 * KB, firmBytes: 5 * 1024 ** 3 });
  assertEquals(
    storageQuotas({ SURVEY_STORAGE_QUOTA_MB: 3, FIRM_STORAGE_QUOTA_MB: 10 }),
    { surveyBytes: 3 * 1024 * KB, firmBytes: 10 * 1024 * KB },
  );
});

test("[files] a file over what is left of the survey's quota is refused with 413 and leaves nothing", async () => {
  const t = await createTestApp({ env: { SURVEY_STORAGE_QUOTA_MB: "1" } });
  const f = await fileFixture(t);
  const send = (size: number) =>
    upload(t, f.survey.id, { cookie: f.cookies.surveyor, kind: "deliverable", bytes: pdf(size) });
  await expectJson(await send(600 * KB), 201);
  const before = await storedCounts(t);

  // Found while streaming: 424 KB are left.
  const refused = await expectJson(await send(600 * KB), 413);
  assertEquals(
    refused.message,
    "Storage quota reached: this survey's files may take 1 MB and already take 0.6 MB " +
      "(0.4 MB left), and this file is larger than that. Delete files the survey no longer " +
      "needs, or ask an admin for more room.",
  );
  assertEquals(await storedCounts(t), before);

  // What fits is still taken, up to the quota exactly; then nothing more.
  await expectJson(await send(424 * KB), 201);
  const full = await expectJson(await send(1), 413);
  assertStringIncludes(full.message, "already take 1 MB (0 MB left)");
  const counts = await storedCounts(t);
  assertEquals([counts.files, counts.pending], [2, 0]);
  // Another survey has its own quota.
  const otherSurvey = await anotherJobOf(t, f.surveyorId);
  await expectJson(
    await upload(t, otherSurvey, {
      cookie: f.cookies.surveyor,
      kind: "deliverable",
      bytes: pdf(600 * KB),
    }),
    201,
  );
  t.close();
});

test("[files] the firm's quota counts the files of all its surveys", async () => {
  const t = await createTestApp({ env: { FIRM_STORAGE_QUOTA_MB: "1" } });
  const f = await fileFixture(t);
  await expectJson(
    await upload(t, f.survey.id, {
      cookie: f.cookies.technician,
      kind: "photo",
      bytes: bytesStartingWith(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), 700 * KB),
    }),
    201,
  );
  const otherSurvey = await anotherJobOf(t, f.surveyorId);
  const before = await storedCounts(t);
  const refused = await expectJson(
    await upload(t, otherSurvey, {
      cookie: f.cookies.surveyor,
      kind: "deliverable",
      bytes: pdf(400 * KB),
    }),
    413,
  );
  assertStringIncludes(
    refused.message,
    "Storage quota reached: your firm's files may take 1 MB and already take 0.7 MB",
  );
  assertEquals(await storedCounts(t), before);
  t.close();
});

test("[files] uploads at once cannot pass the quota together", async () => {
  const t = await createTestApp({ env: { SURVEY_STORAGE_QUOTA_MB: "1" } });
  const f = await fileFixture(t);
  const answers = await Promise.all(
    Array.from({ length: 3 }, () =>
      upload(t, f.survey.id, {
        cookie: f.cookies.surveyor,
        kind: "deliverable",
        bytes: pdf(400 * KB),
      })),
  );
  const statuses = answers.map((res) => res.status).sort();
  assertEquals(statuses, [201, 201, 413]);
  for (const res of answers) {
    const body = await res.json();
    if (res.status === 413) assertStringIncludes(body.message, "Storage quota reached");
  }
  const counts = await storedCounts(t);
  assertEquals([counts.files, counts.pending], [2, 0]);
  const [{ bytes }] = await t.sql<{ bytes: number }[]>`
    select sum(size_bytes)::float8 as bytes from survey_files`;
  assert(bytes <= 1024 * KB, `${bytes} bytes recorded under a 1 MB quota`);
  t.close();
});
