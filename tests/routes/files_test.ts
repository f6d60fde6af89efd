/**
 * Survey files through the HTTP API on the default (Postgres) storage: uploads by role and
 * kind, type by content, the 25 MB limit, replayed uploads, downloads with their headers for
 * everyone who may see the survey (and 404 for anyone else), deletes and what they leave.
 * The S3 provider's HTTP round trip is in tests/lib/storage_s3_test.ts.
 */
import { createHash } from "node:crypto";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, ORIGIN, test } from "../_helpers.ts";
import { expectJson } from "../_fixtures.ts";
import {
  addChecklistItems,
  bytesStartingWith,
  download,
  fileFixture,
  FILES,
  storedCounts,
  upload,
} from "../_file_fixtures.ts";
import { countDeliverables, listSurveyFiles } from "../../db/survey_files.ts";
import { MAX_FILE_BYTES } from "../../lib/survey_file_types.ts";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

test("[files] the surveyor uploads a PDF deliverable: typed by content, stored in chunks", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  const res = await upload(t, f.survey.id, {
    cookie: f.cookies.surveyor,
    kind: "deliverable",
    bytes: FILES.pdf,
    fileName: "Boundary plat — Lot 7.pdf",
    // What the browser claims is never stored.
    partType: "application/x-msdownload",
  });
  const body = await expectJson(res, 201);
  assertEquals(body.message, "File uploaded");
  assertEquals(body.file.kind, "deliverable");
  assertEquals(body.file.contentType, "application/pdf");
  assertEquals(body.file.fileName, "Boundary plat — Lot 7.pdf");
  assertEquals(body.file.sizeBytes, FILES.pdf.length);
  assertEquals(body.file.sha256, sha256(FILES.pdf));
  assertEquals(body.file.surveyId, f.survey.id);
  assertEquals(await storedCounts(t), { files: 1, chunks: 1, pending: 0 });
  assertEquals(await countDeliverables(t.sql, { surveyId: f.survey.id }), 1);
  const listed = await listSurveyFiles(t.sql, { surveyId: f.survey.id, kind: "deliverable" });
  assertEquals(listed.map((file) => [file.id, file.uploadedByName]), [
    [body.file.id, "Acme Survey Owner"],
  ]);
  t.close();
});

test("[files] every accepted deliverable type is recognised, whatever the name says", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  const cases: [keyof typeof FILES, string, string, string][] = [
    ["dwg", "site.dwg", "image/vnd.dwg", "site.dwg"],
    ["dxf", "site.DXF", "image/vnd.dxf", "site.DXF"],
    ["csv", "points.csv", "text/csv", "points.csv"],
    ["png", "scan.png", "image/png", "scan.png"],
    ["jpeg", "scan.jpeg", "image/jpeg", "scan.jpeg"],
    // A real PDF under a misleading name is saved with the extension of what it is.
    ["pdf", "plat.exe", "application/pdf", "plat.exe.pdf"],
  ];
  for (const [key, fileName, contentType, storedName] of cases) {
    const res = await upload(t, f.survey.id, {
      cookie: f.cookies.surveyor,
      kind: "deliverable",
      bytes: FILES[key],
      fileName,
    });
    const body = await expectJson(res, 201);
    assertEquals([body.file.contentType, body.file.fileName], [contentType, storedName], key);
  }
  t.close();
});

test("[files] a wrong type or a renamed program is refused with 415 naming what is accepted", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  const cases: [keyof typeof FILES, string, string, RegExp][] = [
    ["exe", "plat.pdf", "deliverable", /Windows program/],
    ["elf", "points.csv", "deliverable", /Linux program/],
    ["script", "points.csv", "deliverable", /a script/],
    ["zip", "drawings.dwg", "deliverable", /archive/],
    ["gif", "photo.jpg", "photo", /type is not accepted/],
    ["text", "notes.csv", "deliverable", /type is not accepted/],
    // A PDF is a fine deliverable but not a checklist photo.
    ["pdf", "photo.jpg", "photo", /PDF file is not accepted as a photo/],
  ];
  for (const [key, fileName, kind, pattern] of cases) {
    const res = await upload(t, f.survey.id, {
      cookie: f.cookies.surveyor,
      kind,
      bytes: FILES[key],
      fileName,
    });
    const body = await expectJson(res, 415);
    assertMatch(body.message, pattern, key);
    const accepted = kind === "photo"
      ? "JPEG, PNG, WebP or HEIC/HEIF photos"
      : "PDF, DWG, DXF, CSV point files, JPEG or PNG";
    assertStringIncludes(body.message, accepted, key);
  }
  assertEquals(await storedCounts(t), { files: 0, chunks: 0, pending: 0 });
  t.close();
});

test("[files] a file over 25 MB is refused with 413 while streaming and leaves nothing", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  const res = await upload(t, f.survey.id, {
    cookie: f.cookies.surveyor,
    kind: "deliverable",
    bytes: bytesStartingWith("%PDF-1.4\n", MAX_FILE_BYTES + 1),
  });
  const body = await expectJson(res, 413);
  assertStringIncludes(body.message, "25 MB");
  assertEquals(await storedCounts(t), { files: 0, chunks: 0, pending: 0 });
  // Exactly the limit is fine.
  const atLimit = await upload(t, f.survey.id, {
    cookie: f.cookies.surveyor,
    kind: "deliverable",
    bytes: bytesStartingWith("%PDF-1.4\n", MAX_FILE_BYTES),
  });
  const stored = await expectJson(atLimit, 201);
  assertEquals(stored.file.sizeBytes, MAX_FILE_BYTES);
  assertEquals((await storedCounts(t)).chunks, 100);
  t.close();
});

test("[files] a Content-Length over the limit is refused before the body is read", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(1024));
    },
  });
  const res = await t.app.request(`${ORIGIN}/api/surveys/${f.survey.id}/files`, {
    method: "POST",
    headers: {
      origin: ORIGIN,
      cookie: f.cookies.surveyor,
      "content-type": "multipart/form-data; boundary=x",
      "content-length": String(30 * 1024 * 1024),
    },
    body,
    duplex: "half",
  } as RequestInit);
  const json = await expectJson(res, 413);
  assertStringIncludes(json.message, "25 MB");
  assert(pulled <= 2, `read ${pulled} chunks of a body refused by its length`);
  t.close();
});

test("[files] a replayed opId answers 200 with the file already stored", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  const { photoItemId } = await addChecklistItems(t, f.survey.id);
  const opId = crypto.randomUUID();
  const send = (isFileFirst: boolean) =>
    upload(t, f.survey.id, {
      cookie: f.cookies.technician,
      kind: "photo",
      bytes: FILES.jpeg,
      fileName: "corner.jpg",
      checklistItemId: photoItemId,
      opId,
      isFileFirst,
    });
  const first = await expectJson(await send(false), 201);
  assertEquals(first.file.checklistItemId, photoItemId);
  const again = await expectJson(await send(false), 200);
  assertEquals(again.message, "File already uploaded");
  assertEquals(again.file.id, first.file.id);
  // Fields after the file: the bytes were stored before the opId was known, then released.
  const late = await expectJson(await send(true), 200);
  assertEquals(late.file.id, first.file.id);
  assertEquals(await storedCounts(t), { files: 1, chunks: 1, pending: 0 });
  // The same opId on another survey is not a replay.
  const other = await fileFixture(t);
  const res = await upload(t, other.survey.id, {
    cookie: other.cookies.admin,
    kind: "photo",
    bytes: FILES.jpeg,
    opId,
  });
  await expectJson(res, 409);
  t.close();
});

test("[files] photos: the technician uploads them to a photo item of this survey only", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  const { photoItemId, textItemId } = await addChecklistItems(t, f.survey.id);
  const other = await fileFixture(t);
  const elsewhere = await addChecklistItems(t, other.survey.id);
  const photo = (cookie: string, extra: Record<string, string> = {}) =>
    upload(t, f.survey.id, {
      cookie,
      kind: "photo",
      bytes: FILES.heic,
      fileName: "ne.heic",
      ...extra,
    });

  const ok = await expectJson(
    await photo(f.cookies.technician, { checklistItemId: photoItemId }),
    201,
  );
  assertEquals(ok.file.contentType, "image/heic");
  await expectJson(
    await photo(f.cookies.technician, { checklistItemId: elsewhere.photoItemId }),
    404,
  );
  await expectJson(await photo(f.cookies.technician, { checklistItemId: textItemId }), 400);
  // No item: a general site photo.
  await expectJson(await photo(f.cookies.surveyor), 201);
  await expectJson(await photo(f.cookies.admin), 201);
  // Deliverables are the surveyor's, whether kind comes before or after the file.
  for (const isFileFirst of [false, true]) {
    const res = await upload(t, f.survey.id, {
      cookie: f.cookies.technician,
      kind: "deliverable",
      bytes: FILES.pdf,
      isFileFirst,
    });
    const body = await expectJson(res, 403);
    assertEquals(body.message, "Only the survey's surveyor or an admin can upload deliverables");
  }
  // Not on the survey: 404, as if it did not exist.
  for (const cookie of [f.cookies.otherTechnician, f.cookies.otherSurveyor]) {
    await expectJson(await photo(cookie), 404);
  }
  // A client never uploads.
  await expectJson(await photo(f.cookies.client), 403);
  assertEquals(await storedCounts(t), { files: 3, chunks: 3, pending: 0 });
  t.close();
});

test("[files] downloads: owner, surveyor, technician and admin get the bytes with the right headers", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  const bytes = bytesStartingWith("%PDF-1.6\n", 700 * 1024);
  const up = await expectJson(
    await upload(t, f.survey.id, {
      cookie: f.cookies.surveyor,
      kind: "deliverable",
      bytes,
      fileName: 'Plat "final" – Zoë.pdf',
    }),
    201,
  );
  for (const who of ["client", "surveyor", "technician", "admin"] as const) {
    const res = await download(t, up.file.id, f.cookies[who]);
    assertEquals(res.status, 200, who);
    assertEquals(res.headers.get("content-type"), "application/pdf");
    assertEquals(res.headers.get("content-length"), String(bytes.length));
    assertEquals(
      res.headers.get("content-disposition"),
      `attachment; filename="Plat _final_ _ Zo_.pdf"; ` +
        `filename*=UTF-8''Plat%20%22final%22%20%E2%80%93%20Zo%C3%AB.pdf`,
    );
    assertEquals(res.headers.get("x-content-type-options"), "nosniff");
    assertMatch(res.headers.get("cache-control") ?? "", /^private, no-store/);
    const got = new Uint8Array(await res.arrayBuffer());
    assertEquals(got.length, bytes.length, who);
    assertEquals(sha256(got), sha256(bytes), who);
  }
  t.close();
});

test("[files] another client, firm or technician gets 404 for a file, as for an unknown id", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  const up = await expectJson(
    await upload(t, f.survey.id, {
      cookie: f.cookies.surveyor,
      kind: "deliverable",
      bytes: FILES.pdf,
    }),
    201,
  );
  for (
    const cookie of [f.cookies.otherClient, f.cookies.otherSurveyor, f.cookies.otherTechnician]
  ) {
    const res = await download(t, up.file.id, cookie);
    const body = await expectJson(res, 404);
    assertEquals(body.message, "File not found");
  }
  await expectJson(await download(t, crypto.randomUUID(), f.cookies.admin), 404);
  const signedOut = await t.request("GET", `/api/files/${up.file.id}`);
  assertEquals(signedOut.status, 401);
  await signedOut.body?.cancel();
  t.close();
});

test("[files] ?inline=1 shows a photo in the page; anything else is still an attachment", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  const photo = await expectJson(
    await upload(t, f.survey.id, {
      cookie: f.cookies.technician,
      kind: "photo",
      bytes: FILES.png,
      fileName: "corner.png",
    }),
    201,
  );
  const pdf = await expectJson(
    await upload(t, f.survey.id, {
      cookie: f.cookies.surveyor,
      kind: "deliverable",
      bytes: FILES.pdf,
    }),
    201,
  );
  const inlinePhoto = await download(t, photo.file.id, f.cookies.client, { inline: true });
  assertMatch(
    inlinePhoto.headers.get("content-disposition") ?? "",
    /^inline; filename="corner.png"/,
  );
  assertEquals(inlinePhoto.headers.get("content-type"), "image/png");
  await inlinePhoto.body?.cancel();
  const inlinePdf = await download(t, pdf.file.id, f.cookies.client, { inline: true });
  assertMatch(inlinePdf.headers.get("content-disposition") ?? "", /^attachment;/);
  await inlinePdf.body?.cancel();
  const csv = await expectJson(
    await upload(t, f.survey.id, {
      cookie: f.cookies.surveyor,
      kind: "deliverable",
      bytes: FILES.csv,
      fileName: "pts.csv",
    }),
    201,
  );
  const csvRes = await download(t, csv.file.id, f.cookies.client);
  assertEquals(csvRes.headers.get("content-type"), "text/csv; charset=utf-8");
  assertEquals(await csvRes.text(), new TextDecoder().decode(FILES.csv));
  t.close();
});

test("[files] delete: uploader, surveyor or admin until completion; the bytes go with the row", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  const post = async (cookie: string, kind: string, bytes: Uint8Array<ArrayBuffer>) =>
    (await expectJson(await upload(t, f.survey.id, { cookie, kind, bytes }), 201)).file
      .id as string;
  const techPhoto = await post(f.cookies.technician, "photo", FILES.jpeg);
  const plat = await post(f.cookies.surveyor, "deliverable", FILES.pdf);
  const points = await post(f.cookies.surveyor, "deliverable", FILES.csv);
  const del = (id: string, cookie: string) => t.request("DELETE", `/api/files/${id}`, { cookie });

  // The technician may delete their own photo, not the surveyor's plat.
  const refused = await expectJson(await del(plat, f.cookies.technician), 403);
  assertMatch(refused.message, /uploaded this file/);
  await expectJson(await del(plat, f.cookies.client), 403);
  await expectJson(await del(plat, f.cookies.otherSurveyor), 404);
  await expectJson(await del(plat, f.cookies.otherTechnician), 404);
  const gone = await expectJson(await del(techPhoto, f.cookies.technician), 200);
  assertEquals(gone.message, "File deleted");
  await expectJson(await del(techPhoto, f.cookies.technician), 404);
  await expectJson(await del(points, f.cookies.surveyor), 200);
  assertEquals(await storedCounts(t), { files: 1, chunks: 1, pending: 0 });
  await expectJson(await download(t, points, f.cookies.admin), 404);

  // Completed: files are final, for the admin too.
  await t.sql`update surveys set status = 'completed', completed_date = current_date
    where id = ${f.survey.id}`;
  const closed = await expectJson(await del(plat, f.cookies.admin), 409);
  assertMatch(closed.message, /completed/);
  await expectJson(
    await upload(t, f.survey.id, {
      cookie: f.cookies.surveyor,
      kind: "deliverable",
      bytes: FILES.pdf,
    }),
    409,
  );
  assertEquals(await storedCounts(t), { files: 1, chunks: 1, pending: 0 });
  // Deleting the survey leaves no bytes behind.
  await t.sql`delete from surveys where id = ${f.survey.id}`;
  assertEquals(await storedCounts(t), { files: 0, chunks: 0, pending: 0 });
  t.close();
});

test("[files] malformed uploads are a 4xx {message} and store nothing", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  const raw = (body: string | Uint8Array<ArrayBuffer>, type: string) =>
    t.app.request(`${ORIGIN}/api/surveys/${f.survey.id}/files`, {
      method: "POST",
      headers: { origin: ORIGIN, cookie: f.cookies.surveyor, "content-type": type },
      body,
    });
  const multipart = "multipart/form-data; boundary=XyZ";
  const cases: [string, string | Uint8Array<ArrayBuffer>, string, number][] = [
    ["JSON body", JSON.stringify({ kind: "deliverable" }), "application/json", 415],
    ["no boundary", "x", "multipart/form-data", 415],
    ["no parts", "--XyZ--\r\n", multipart, 400],
    ["not multipart at all", "hello", multipart, 400],
    [
      "cut off inside the file",
      '--XyZ\r\nContent-Disposition: form-data; name="kind"\r\n\r\ndeliverable\r\n' +
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 abc',
      multipart,
      400,
    ],
    [
      "unknown field",
      '--XyZ\r\nContent-Disposition: form-data; name="role"\r\n\r\nadmin\r\n--XyZ--\r\n',
      multipart,
      400,
    ],
    [
      "bad kind",
      '--XyZ\r\nContent-Disposition: form-data; name="kind"\r\n\r\nvirus\r\n' +
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4\r\n--XyZ--\r\n',
      multipart,
      400,
    ],
    [
      "no file",
      '--XyZ\r\nContent-Disposition: form-data; name="kind"\r\n\r\ndeliverable\r\n--XyZ--\r\n',
      multipart,
      400,
    ],
    [
      "bad opId",
      '--XyZ\r\nContent-Disposition: form-data; name="kind"\r\n\r\ndeliverable\r\n' +
      '--XyZ\r\nContent-Disposition: form-data; name="opId"\r\n\r\n123\r\n' +
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4\r\n--XyZ--\r\n',
      multipart,
      400,
    ],
    [
      "control character in the file name",
      '--XyZ\r\nContent-Disposition: form-data; name="kind"\r\n\r\ndeliverable\r\n' +
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a\u0007.pdf"\r\n\r\n%PDF-1.4\r\n--XyZ--\r\n',
      multipart,
      400,
    ],
    [
      "right-to-left override in the file name",
      '--XyZ\r\nContent-Disposition: form-data; name="kind"\r\n\r\ndeliverable\r\n' +
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="fdp\u202Eexe.pdf"\r\n\r\n%PDF-1.4\r\n--XyZ--\r\n',
      multipart,
      400,
    ],
  ];
  for (const [label, body, type, status] of cases) {
    const res = await raw(body, type);
    const json = await expectJson(res, status).catch((err) => {
      throw new Error(`${label}: ${err.message}`);
    });
    assert(typeof json.message === "string" && json.message.length > 0, label);
  }
  assertEquals(await storedCounts(t), { files: 0, chunks: 0, pending: 0 });
  t.close();
});

test("[files] the surveyor's job page has a Deliverables card with the files and the upload", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  await expectJson(
    await upload(t, f.survey.id, {
      cookie: f.cookies.surveyor,
      kind: "deliverable",
      bytes: FILES.pdf,
      fileName: "Lot 7 plat.pdf",
    }),
    201,
  );
  const page = async () => {
    const res = await t.request("GET", `/surveyor/jobs/${f.survey.id}`, {
      cookie: f.cookies.surveyor,
      headers: { accept: "text/html" },
    });
    assertEquals(res.status, 200);
    return await res.text();
  };
  const html = await page();
  assertStringIncludes(html, 'id="deliverables-title">Deliverables</h2>');
  assertStringIncludes(html, 'data-island="DeliverableUpload"');
  assertStringIncludes(html, "Lot 7 plat.pdf");
  assertStringIncludes(html, "Add deliverables");
  assertStringIncludes(html, "PDF, DWG, DXF, CSV point files, JPEG or PNG; up to 25 MB each.");
  // Completed: listed, no longer changed.
  await t.sql`update surveys set status = 'completed' where id = ${f.survey.id}`;
  const done = await page();
  assertStringIncludes(done, "Lot 7 plat.pdf");
  assert(!done.includes("Add deliverables"), "no upload after completion");
  assertStringIncludes(done, "The survey is completed: its deliverables are final.");
  // An offered job has no card.
  await t.sql`update survey_assignments set status = 'offered' where survey_id = ${f.survey.id}`;
  assert(!(await page()).includes("deliverables-title"), "no deliverables while offered");
  t.close();
});
