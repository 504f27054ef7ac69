import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOBS } from "~/jobs/runner.server";
import { readUpload } from "~/files/upload.server";
import { localFileStore, type FileStore } from "~/files/store.server";
import { addMonths } from "~/utils/organisation-calendar";
import { gpsPhoto, multipartRequest } from "../../tests/support/evidence-files";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { startTestS3, type TestS3 } from "../../tests/support/s3-server";
import { createTestDb, type TestDb } from "../../tests/support/test-db";
import { addEvidence, assessmentFor } from "./evidence.server";
import { destroyRecords, listDueForDestruction, listTombstones, setRetentionRule, stampKeepUntil } from "./retention.server";

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

async function assessmentWithEvidence(store: FileStore, resultOn: string, shade: number) {
  const id = crypto.randomUUID();
  await t.db
    .insertInto("assessments")
    .values({ id, enrollment_id: enrollmentId, student_id: student.id, course_id: courseId, assessment_type: "Practical", status: "passed", score: null, max_score: null, assessment_date: `${resultOn}T00:00:00.000Z`, feedback: null, assessed_by: trainer.id, created_at: new Date().toISOString() })
    .execute();
  const a = await assessmentFor(t.db, { id: trainer.id, role: "trainer" }, { kind: "unit", id });
  const read = await readUpload(multipartRequest("http://localhost/x", {}, [{ field: "files", name: `lift-${shade}.jpg`, bytes: await gpsPhoto(shade) }]));
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
    const old = await assessmentWithEvidence(store, "2026-01-10", _kind === "s3" ? 40 : 10);
    const recent = await assessmentWithEvidence(store, "2026-10-01", _kind === "s3" ? 220 : 160);
    // the runner's retention job stamps the days
    await JOBS.find((j) => j.name === "retention")!.run(t.db, new Date());
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
    const audit = await t.db.selectFrom("audit_log").select(["action", "actor_id", "subject_id"]).where("action", "=", "records.destroyed").orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor_id: admin.id, subject_id: old.id });
  });
});

describe("what is never offered", () => {
  it("a certificate record, however old, is never listed nor destroyed", async () => {
    const certificateId = crypto.randomUUID();
    await t.db
      .insertInto("certificates")
      .values({ id: certificateId, enrollment_id: enrollmentId, student_id: student.id, course_id: courseId, certificate_number: `OLD-${certificateId.slice(0, 6)}`, tier_achieved: "tier_1", issue_date: "1990-01-01", issued_by: admin.id, created_at: "1990-01-01T00:00:00.000Z", verification_code: certificateId.replace(/-/g, "").slice(0, 16) })
      .execute();
    await stampKeepUntil(t.db);
    const due = await listDueForDestruction(t.db, "2100-01-01");
    expect(due.every((d) => d.record_type === "assessment_evidence")).toBe(true);
    expect(due.map((d) => d.id)).not.toContain(certificateId);
    await expect(destroyRecords(t.db, localFileStore(dir), { ids: [certificateId], today: "2100-01-01" }, admin.id)).rejects.toMatchObject({ status: 422 });
    expect(await t.db.selectFrom("certificates").select("id").where("id", "=", certificateId).executeTakeFirst()).toBeDefined();
  });

  it("the audit trail's rule cannot change, and evidence is kept at least 6 months", async () => {
    await expect(setRetentionRule(t.db, { record_type: "audit_trail", licence_class: "", keep_months: 12, source: "x" }, admin.id)).rejects.toMatchObject({ status: 422 });
    await expect(setRetentionRule(t.db, { record_type: "assessment_evidence", licence_class: "", keep_months: 3, source: "x" }, admin.id)).rejects.toMatchObject({ status: 422 });
    await setRetentionRule(t.db, { record_type: "assessment_evidence", licence_class: "CN", keep_months: 24, source: "WorkSafe asks longer" }, admin.id);
  });
});
