import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoPdf } from "~/demo/documents.server";
import { readUpload } from "~/files/upload.server";
import { localFileStore, type FileStore } from "~/files/store.server";
import { addMonths, organisationToday } from "~/utils/organisation-calendar";
import { gpsPhoto, multipartRequest } from "../../tests/support/evidence-files";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { startTestS3, type TestS3 } from "../../tests/support/s3-server";
import { createTestDb, type TestDb } from "../../tests/support/test-db";
import { writeTransaction } from "#db/connection";
import { recordAssessment } from "./assessment.server";
import { changePartResultOnAppeal } from "./hrw/hrw-assessment.server";
import { addEvidence, assessmentFor } from "./evidence.server";
import { addLearnerDocument, learnerDocumentFor } from "./learner-document.server";
import { STORED_FILE_COLUMNS } from "./stored-files.server";
import { destroyRecords, listDueForDestruction, listTombstones, setRetentionRule } from "./retention.server";

let t: TestDb;
let s3: TestS3;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "retention-"));
let trainer: { id: string };
let student: { id: string };
let admin: { id: string };
let courseId: string;
let enrollmentId: string;
const TODAY = "2026-11-28";

beforeAll(async () => {
  t = await createTestDb();
  s3 = await startTestS3();
  trainer = await makeUser(t.db, { role: "trainer" });
  student = await makeUser(t.db, { role: "student" });
  admin = await makeUser(t.db, { role: "admin" });
  courseId = (await makeCourse(t.db)).id;
  enrollmentId = (await makeEnrollment(t.db, student.id, courseId)).id;
});
afterAll(async () => {
  await s3.close();
  await t.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function assessmentWithEvidence(store: FileStore, resultOn: string, shade: number | { name: string; bytes: Buffer }, course = courseId) {
  const id = crypto.randomUUID();
  await t.db
    .insertInto("assessments")
    .values({
      id,
      enrollment_id: enrollmentId,
      student_id: student.id,
      course_id: course,
      assessment_type: "Practical",
      status: "passed",
      score: null,
      max_score: null,
      assessment_date: `${resultOn}T00:00:00.000Z`,
      feedback: null,
      assessed_by: trainer.id,
      created_at: new Date().toISOString(),
    })
    .execute();
  return { id, file: await uploadEvidence(store, id, shade) };
}

/** A photo of its own `shade`, or the given file, uploaded as the assessor. */
async function uploadEvidence(store: FileStore, id: string, content: number | { name: string; bytes: Buffer }) {
  const a = await assessmentFor(t.db, { id: trainer.id, role: "trainer" }, { kind: "unit", id });
  const file = typeof content === "number" ? { name: `lift-${content}.jpg`, bytes: await gpsPhoto(content) } : content;
  const read = await readUpload(multipartRequest("http://localhost/x", {}, [{ field: "files", ...file }]));
  try {
    const [file] = await addEvidence(t.db, store, { assessment: a, actor: trainer.id, files: read.files, dir: read.dir });
    return file!;
  } finally {
    read.dispose();
  }
}

const stores: [string, () => FileStore][] = [
  ["file", () => localFileStore(path.join(dir, "files"))],
  ["s3", () => s3.store],
];

describe.each(stores)("retention (%s store)", (_kind, make) => {
  it("lists evidence past its keep-until day; destruction removes the bytes, keeps a tombstone and is audited", async () => {
    const store = make();
    // shades far apart: photos (and thumbnails) that share no bytes
    const { file: old } = await assessmentWithEvidence(store, "2026-01-10", _kind === "s3" ? 40 : 10);
    const { file: recent } = await assessmentWithEvidence(store, "2026-10-01", _kind === "s3" ? 220 : 160);
    const due = await listDueForDestruction(t.db, TODAY);
    expect(due.map((d) => d.id)).toContain(old.id);
    expect(due.map((d) => d.id)).not.toContain(recent.id);
    expect(due.find((d) => d.id === old.id)!.keep_until).toBe(addMonths("2026-01-10", 6));
    // a recent one is refused: nothing is destroyed
    await expect(destroyRecords(t.db, store, { ids: [old.id, recent.id], today: TODAY }, admin.id)).rejects.toMatchObject({ status: 422 });
    expect(await store.has(old.sha256)).toBe(true);

    const [tomb] = await destroyRecords(t.db, store, { ids: [old.id], today: TODAY }, admin.id);
    expect(tomb).toMatchObject({ record_type: "evidence_file", record_id: old.id, subject_user_id: student.id, destroyed_by: { id: admin.id } });
    expect(tomb!.hashes).toEqual([old.sha256, old.thumbnail_sha256]);
    expect(tomb!.description).toContain(`lift-`);
    expect(await store.has(old.sha256)).toBe(false);
    expect(await store.has(old.thumbnail_sha256!)).toBe(false);
    expect(await store.has(recent.sha256)).toBe(true);
    expect(await t.db.selectFrom("evidence_files").select("id").where("id", "=", old.id).executeTakeFirst()).toBeUndefined();
    expect((await listTombstones(t.db)).map((x) => x.record_id)).toContain(old.id);
    const audit = await t.db
      .selectFrom("audit_log")
      .select(["action", "actor_id", "subject_id"])
      .where("action", "=", "records.destroyed")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor_id: admin.id, subject_id: old.id });
  });
});

const keepUntilOf = async (fileId: string) =>
  (await t.db.selectFrom("evidence_files").select("keep_until").where("id", "=", fileId).executeTakeFirstOrThrow()).keep_until;

describe("the keep-until day is set by the change it depends on, in its transaction", () => {
  it("evidence uploaded on a result dated 14 months ago is due at once, with no job run", async () => {
    const today = organisationToday();
    const resultOn = addMonths(today, -14);
    const { file } = await assessmentWithEvidence(localFileStore(path.join(dir, "files")), resultOn, 70);
    expect(file.keep_until).toBe(addMonths(resultOn, 6));
    expect((await listDueForDestruction(t.db, today)).map((d) => d.id)).toContain(file.id);
  });

  it("a result recorded on an assessment that already has evidence stamps its files", async () => {
    const today = organisationToday();
    const resultOn = addMonths(today, -14);
    const learner = await makeUser(t.db, { role: "student" });
    const enrollment = await makeEnrollment(t.db, learner.id, courseId, { status: "in_progress", enrollment_date: `${addMonths(today, -15)}T00:00:00.000Z` });
    const entry = {
      enrollment_id: enrollment.id,
      assessment_type: "Practical" as const,
      assessment_date: resultOn,
      score: null,
      max_score: null,
      actorId: trainer.id,
    };
    const { id } = await recordAssessment(t.db, { ...entry, status: "in_progress", feedback: null });
    const file = await uploadEvidence(localFileStore(path.join(dir, "files")), id, 100);
    expect(file.keep_until).toBeNull();
    await recordAssessment(t.db, { ...entry, status: "passed", feedback: null });
    expect(await keepUntilOf(file.id)).toBe(addMonths(resultOn, 6));
    expect((await listDueForDestruction(t.db, today)).map((d) => d.id)).toContain(file.id);
  });

  it("a licence assessment's evidence runs from its latest part result, under the class's own rule", async () => {
    const store = localFileStore(path.join(dir, "files"));
    const at = new Date().toISOString();
    const locationId = crypto.randomUUID();
    await t.db
      .insertInto("delivery_locations")
      .values({
        id: locationId,
        identifier: `R${locationId.slice(0, 8)}`,
        name: "Retention yard",
        suburb: null,
        postcode: null,
        state: null,
        country: "1101",
        created_at: at,
        updated_at: at,
      })
      .execute();
    const course = await makeCourse(t.db);
    const id = crypto.randomUUID();
    const booked = {
      candidate_id: student.id,
      course_id: course.id,
      licence_class: "CN",
      state: "NSW",
      start_time: "08:00",
      location_id: locationId,
      assessor_id: trainer.id,
      plant_description: "Crane",
      plant_registration: "R1",
      booked_by: admin.id,
      created_at: at,
      updated_at: at,
    };
    await t.db
      .insertInto("hrw_assessments")
      .values({ id, assessment_date: "2024-06-01", ...booked })
      .execute();
    await setRetentionRule(t.db, { record_type: "assessment_evidence", licence_class: "CN", keep_months: 24, source: "WorkSafe asks longer" }, admin.id);
    const a = await assessmentFor(t.db, { id: trainer.id, role: "trainer" }, { kind: "hrw", id });
    const read = await readUpload(multipartRequest("http://localhost/x", {}, [{ field: "files", name: "nai.jpg", bytes: await gpsPhoto(190) }]));
    const [file] = await addEvidence(t.db, store, { assessment: a, actor: trainer.id, files: read.files, dir: read.dir }).finally(read.dispose);
    // no part result yet: no judgement, no day
    expect(file!.keep_until).toBeNull();
    await writeTransaction(t.db, (trx) =>
      changePartResultOnAppeal(trx, {
        assessmentId: id,
        part: "practical",
        result: "satisfactory",
        reference: "APP-1",
        actor: { id: admin.id },
        now: new Date("2024-07-15T02:00:00Z"),
      }),
    );
    expect(await keepUntilOf(file!.id)).toBe("2026-07-15");
  });

  it("a rule changed moves every file's day in the same transaction, to the month's end when the day is past it", async () => {
    const course = await makeCourse(t.db);
    // 31 August: six months on is 28 February, 30 months on is 29 February of a leap year
    const { file } = await assessmentWithEvidence(localFileStore(path.join(dir, "files")), "2025-08-31", 130, course.id);
    expect(file.keep_until).toBe("2026-02-28");
    await t.db.updateTable("courses").set({ licence_class: "DG" }).where("id", "=", course.id).execute();
    await setRetentionRule(t.db, { record_type: "assessment_evidence", licence_class: "DG", keep_months: 30, source: "A longer rule for dogging" }, admin.id);
    expect(await keepUntilOf(file.id)).toBe("2028-02-29");
    expect(addMonths("2025-08-31", 30)).toBe("2028-02-29");
    await setRetentionRule(
      t.db,
      { record_type: "assessment_evidence", licence_class: "DG", keep_months: 7, source: "Back to nearly the general rule" },
      admin.id,
    );
    expect(await keepUntilOf(file.id)).toBe("2026-03-31");
  });
});

/** A learner's document uploaded by the office, read from a multipart body as the page's form sends it. */
async function uploadLearnerDocument(store: FileStore, studentId: string, file: { name: string; bytes: Buffer }) {
  const read = await readUpload(multipartRequest("http://localhost/x", {}, [{ field: "file", ...file }]));
  try {
    return await addLearnerDocument(t.db, {
      studentId,
      document: { description: "White Card" },
      upload: { store, files: read.files, dir: read.dir },
      actor: admin.id,
    });
  } finally {
    read.dispose();
  }
}

describe("a stored file is destroyed only when nothing names it", () => {
  it("destroying evidence keeps the bytes of the same file kept as a learner's document", async () => {
    const store = localFileStore(path.join(dir, "files"));
    const whiteCard = { name: "white-card.pdf", bytes: demoPdf(`White Card ${crypto.randomUUID()}`) };
    const document = await uploadLearnerDocument(store, student.id, whiteCard);
    const { file } = await assessmentWithEvidence(store, "2025-01-10", whiteCard);
    expect(file.sha256).toBe(document.sha256);
    const [tomb] = await destroyRecords(t.db, store, { ids: [file.id], today: TODAY }, admin.id);
    expect(tomb!.record_id).toBe(file.id);
    expect(await store.has(document.sha256!)).toBe(true);
    expect(await learnerDocumentFor(t.db, { id: student.id, role: "student" }, document.id)).toMatchObject({ id: document.id });
    // once nothing names them, the bytes go with the last evidence that did
    await t.db.deleteFrom("files").where("id", "=", document.id).execute();
    const { file: again } = await assessmentWithEvidence(store, "2025-01-10", whiteCard);
    await destroyRecords(t.db, store, { ids: [again.id], today: TODAY }, admin.id);
    expect(await store.has(document.sha256!)).toBe(false);
  });

  it("a file uploaded while a destruction removes the same bytes is recorded with its bytes in the store", async () => {
    const inner = localFileStore(path.join(dir, "files"));
    const bytes = demoPdf(`Licence ${crypto.randomUUID()}`);
    const { file: due } = await assessmentWithEvidence(inner, "2025-01-10", { name: "licence.pdf", bytes });
    // the upload's bytes are in the store already (put answers false); before its row is
    // recorded, an administrator destroys the evidence that was the only row naming them
    let destroyed = false;
    const racing: FileStore = {
      ...inner,
      put: async (hash, source) => {
        const wrote = await inner.put(hash, source);
        if (hash === due.sha256 && !destroyed) {
          destroyed = true;
          await destroyRecords(t.db, inner, { ids: [due.id], today: TODAY }, admin.id);
        }
        return wrote;
      },
    };
    const document = await uploadLearnerDocument(racing, student.id, { name: "licence.pdf", bytes });
    expect(destroyed).toBe(true);
    expect(document.sha256).toBe(due.sha256);
    expect(await inner.has(document.sha256!)).toBe(true);
  });

  it("every column of the schema that names a stored file (its name ends in sha256) is one the removal checks", async () => {
    const tables = await t.db.introspection.getTables();
    const named = tables.flatMap((table) => table.columns.filter((c) => /sha256$/.test(c.name)).map((c) => `${table.name}.${c.name}`)).sort();
    expect(named).toEqual(STORED_FILE_COLUMNS.map((c) => `${c.table}.${c.column}`).sort());
  });
});

describe("what is never offered", () => {
  it("a certificate record, however old, is never listed nor destroyed", async () => {
    const certificateId = crypto.randomUUID();
    await t.db
      .insertInto("certificates")
      .values({
        id: certificateId,
        enrollment_id: enrollmentId,
        student_id: student.id,
        course_id: courseId,
        certificate_number: `OLD-${certificateId.slice(0, 6)}`,
        tier_achieved: "tier_1",
        issue_date: "1990-01-01",
        issued_by: admin.id,
        created_at: "1990-01-01T00:00:00.000Z",
        verification_code: certificateId.replace(/-/g, "").slice(0, 16),
      })
      .execute();
    const due = await listDueForDestruction(t.db, "2100-01-01");
    expect(due.every((d) => d.record_type === "assessment_evidence")).toBe(true);
    expect(due.map((d) => d.id)).not.toContain(certificateId);
    await expect(destroyRecords(t.db, localFileStore(dir), { ids: [certificateId], today: "2100-01-01" }, admin.id)).rejects.toMatchObject({ status: 422 });
    expect(await t.db.selectFrom("certificates").select("id").where("id", "=", certificateId).executeTakeFirst()).toBeDefined();
  });

  it("the audit trail's rule cannot change, and evidence is kept at least 6 months", async () => {
    await expect(setRetentionRule(t.db, { record_type: "audit_trail", licence_class: "", keep_months: 12, source: "x" }, admin.id)).rejects.toMatchObject({
      status: 422,
    });
    await expect(
      setRetentionRule(t.db, { record_type: "assessment_evidence", licence_class: "", keep_months: 3, source: "x" }, admin.id),
    ).rejects.toMatchObject({ status: 422 });
    await setRetentionRule(t.db, { record_type: "assessment_evidence", licence_class: "CN", keep_months: 24, source: "WorkSafe asks longer" }, admin.id);
  });
});
