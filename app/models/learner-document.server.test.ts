import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readUpload } from "~/files/upload.server";
import { localFileStore } from "~/files/store.server";
import { learnerDocumentResponse } from "~/route-helpers/serve-file.server";
import { EVIDENCE_MESSAGES } from "~/files/types";
import { LEARNER_DOCUMENT_MESSAGES } from "~/schemas/learner-document";
import { demoPdf } from "~/demo/documents.server";
import { gpsPhoto, multipartRequest } from "../../tests/support/evidence-files";
import { makeUser } from "../../tests/support/factories";
import { createTestDb, type TestDb } from "../../tests/support/test-db";
import { getStudentDetail } from "./student.server";
import { addLearnerDocument, learnerDocumentFor, listLearnerDocuments } from "./learner-document.server";

let t: TestDb;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "learner-documents-"));
const store = localFileStore(path.join(dir, "files"));
let admin: { id: string };
let learner: { id: string };
let otherLearner: { id: string };
let trainer: { id: string };

beforeAll(async () => {
  t = await createTestDb();
  admin = await makeUser(t.db, { role: "admin" });
  learner = await makeUser(t.db, { role: "student" });
  otherLearner = await makeUser(t.db, { role: "student" });
  trainer = await makeUser(t.db, { role: "trainer" });
});
afterAll(async () => {
  await t.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The office's form posted with these files, read as the page reads it, then kept. */
async function upload(files: { name: string; bytes: Buffer }[], description = "White Card", studentId = learner.id) {
  const read = await readUpload(
    multipartRequest(
      "http://localhost/admin/students/x",
      { description },
      files.map((f) => ({ field: "file", ...f })),
    ),
  );
  try {
    return await addLearnerDocument(t.db, {
      studentId,
      document: { description },
      upload: { store, files: read.files, dir: read.dir, tooMany: read.tooMany },
      actor: admin.id,
    });
  } finally {
    read.dispose();
  }
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: { status?: number; message: string; fieldErrors?: Record<string, string> }) => error,
  );

describe("learner documents", () => {
  it("keeps an uploaded PDF by its hash, lists it on the profile with its address, and audits the upload", async () => {
    const added = await upload([{ name: "white-card.pdf", bytes: demoPdf("White Card") }]);
    expect(added).toMatchObject({ student_id: learner.id, filename: "white-card.pdf", file_type: "application/pdf", description: "White Card" });
    expect(await store.has(added.sha256!)).toBe(true);
    expect((await listLearnerDocuments(t.db, learner.id)).map((d) => d.id)).toContain(added.id);
    const detail = await getStudentDetail(t.db, learner.id);
    expect(detail!.files.find((f) => f.id === added.id)).toMatchObject({ download_url: `/api/learner-documents/${added.id}`, size_bytes: added.size_bytes });
    const audit = await t.db
      .selectFrom("audit_log")
      .select(["actor_id", "subject_user_id"])
      .where("action", "=", "learner_document.uploaded")
      .where("subject_id", "=", added.id)
      .execute();
    expect(audit).toEqual([{ actor_id: admin.id, subject_user_id: learner.id }]);
  });

  it("takes the location out of a photo before it is kept", async () => {
    const added = await upload([{ name: "photo-id.jpg", bytes: await gpsPhoto(77) }], "Photo ID");
    expect(added.file_type).toBe("image/jpeg");
    const response = await learnerDocumentResponse(t.db, store, { id: admin.id, role: "admin" }, added.id);
    const bytes = Buffer.from(await response!.arrayBuffer());
    expect(bytes.includes(Buffer.from("GPS"))).toBe(false);
  });

  it("refuses a file that is not a document or photo by its bytes, no file, or two, with a clear message, and keeps nothing", async () => {
    const before = await listLearnerDocuments(t.db, learner.id);
    const wrong = await refusal(upload([{ name: "licence.pdf", bytes: Buffer.from("just some text, not a PDF") }]));
    expect(wrong).toMatchObject({
      status: 422,
      message: EVIDENCE_MESSAGES.wrongType("licence.pdf"),
      fieldErrors: { file: EVIDENCE_MESSAGES.wrongType("licence.pdf") },
    });
    expect(await refusal(upload([]))).toMatchObject({ status: 422, fieldErrors: { file: LEARNER_DOCUMENT_MESSAGES.oneFile } });
    const pdf = demoPdf("two");
    expect(
      await refusal(
        upload([
          { name: "a.pdf", bytes: pdf },
          { name: "b.pdf", bytes: pdf },
        ]),
      ),
    ).toMatchObject({ status: 422, fieldErrors: { file: LEARNER_DOCUMENT_MESSAGES.oneFile } });
    expect(await listLearnerDocuments(t.db, learner.id)).toEqual(before);
  });

  it("is not kept on someone who is not a learner", async () => {
    expect(await refusal(upload([{ name: "x.pdf", bytes: demoPdf("x") }], "ID", trainer.id))).toMatchObject({ status: 404 });
  });

  it("downloads for its learner and administrators only, as a nosniff attachment; each administrator's download is audited", async () => {
    const added = await upload([{ name: "licence.pdf", bytes: demoPdf("Licence") }], "Licence");
    expect(await learnerDocumentFor(t.db, { id: otherLearner.id, role: "student" }, added.id)).toBeNull();
    expect(await learnerDocumentFor(t.db, { id: trainer.id, role: "trainer" }, added.id)).toBeNull();
    const downloads = () =>
      t.db.selectFrom("audit_log").select("actor_id").where("action", "=", "learner_document.downloaded").where("subject_id", "=", added.id).execute();

    const own = await learnerDocumentResponse(t.db, store, { id: learner.id, role: "student" }, added.id);
    expect(own!.headers.get("Content-Type")).toBe("application/pdf");
    expect(own!.headers.get("Content-Disposition")).toMatch(/^attachment; filename="licence\.pdf"/);
    expect(own!.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(
      Buffer.from(await own!.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    expect(await downloads()).toEqual([]);

    const office = await learnerDocumentResponse(t.db, store, { id: admin.id, role: "admin", client: "203.0.113.9" }, added.id);
    expect(office!.status).toBe(200);
    await office!.arrayBuffer();
    expect(await downloads()).toEqual([{ actor_id: admin.id }]);
    expect(await learnerDocumentResponse(t.db, store, { id: otherLearner.id, role: "student" }, added.id)).toBeNull();
  });
});
