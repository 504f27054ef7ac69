import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readUpload } from "~/files/upload.server";
import { localFileStore, type FileStore } from "~/files/store.server";
import { evidenceResponse } from "~/route-helpers/serve-file.server";
import { gpsPhoto, multipartRequest } from "../../tests/support/evidence-files";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { startTestS3, type TestS3 } from "../../tests/support/s3-server";
import { createTestDb, type TestDb } from "../../tests/support/test-db";
import { signatureSchema } from "~/schemas/evidence";
import { addEvidence, assessmentFor, listEvidence, listSignatures, signAssessment, SIGNATURE_MESSAGES, type EvidenceAssessment } from "./evidence.server";

let t: TestDb;
let s3: TestS3;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "evidence-model-"));
let trainer: { id: string };
let other: { id: string };
let student: { id: string };
let admin: { id: string };
let assessmentId: string;

beforeAll(async () => {
  t = await createTestDb();
  s3 = await startTestS3();
  trainer = await makeUser(t.db, { role: "trainer" });
  other = await makeUser(t.db, { role: "trainer" });
  student = await makeUser(t.db, { role: "student" });
  admin = await makeUser(t.db, { role: "admin" });
  const course = await makeCourse(t.db);
  const enrollment = await makeEnrollment(t.db, student.id, course.id);
  assessmentId = crypto.randomUUID();
  await t.db
    .insertInto("assessments")
    .values({
      id: assessmentId,
      enrollment_id: enrollment.id,
      student_id: student.id,
      course_id: course.id,
      assessment_type: "Practical",
      status: "passed",
      score: null,
      max_score: null,
      assessment_date: "2026-05-01T00:00:00.000Z",
      feedback: null,
      assessed_by: trainer.id,
      created_at: new Date().toISOString(),
    })
    .execute();
});
afterAll(async () => {
  await s3.close();
  await t.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function upload(store: FileStore, assessment: EvidenceAssessment, actorId: string, photos: Buffer[]) {
  const read = await readUpload(
    multipartRequest(
      "http://localhost/trainer/evidence/unit/x",
      {},
      photos.map((bytes, i) => ({ field: "files", name: `photo-${i}.jpg`, bytes })),
    ),
  );
  try {
    return await addEvidence(t.db, store, { assessment, actor: actorId, files: read.files, dir: read.dir });
  } finally {
    read.dispose();
  }
}

const stores: [string, () => FileStore][] = [
  ["file", () => localFileStore(path.join(dir, "files"))],
  ["s3", () => s3.store],
];

describe.each(stores)("evidence on an assessment (%s store)", (_kind, make) => {
  it("is added by the assessor, the same photo stored once, and listed", async () => {
    const ref = { kind: "unit" as const, id: assessmentId };
    const a = await assessmentFor(t.db, { id: trainer.id, role: "trainer" }, ref);
    const photo = await gpsPhoto(Math.floor(Math.random() * 200));
    const before = (await listEvidence(t.db, ref)).length;
    const added = await upload(make(), a, trainer.id, [photo, photo]);
    expect(added).toHaveLength(2);
    expect(added[0]!.sha256).toBe(added[1]!.sha256);
    expect(await listEvidence(t.db, ref)).toHaveLength(before + 2);
    const audit = await t.db
      .selectFrom("audit_log")
      .select(["action", "subject_user_id"])
      .where("action", "=", "evidence.uploaded")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audit.subject_user_id).toBe(student.id);
  });

  it("is 404 to another trainer, readable by the learner and admins, and a staff download is audited", async () => {
    const ref = { kind: "unit" as const, id: assessmentId };
    await expect(assessmentFor(t.db, { id: other.id, role: "trainer" }, ref)).rejects.toMatchObject({ status: 404 });
    const a = await assessmentFor(t.db, { id: trainer.id, role: "trainer" }, ref);
    await expect(upload(make(), a, other.id, [await gpsPhoto(3)])).rejects.toMatchObject({ status: 404 });
    // the newest: uploaded into this store by the test above
    const file = (await listEvidence(t.db, ref)).at(-1);
    expect(await evidenceResponse(t.db, make(), { id: other.id, role: "trainer" }, file!.id)).toBeNull();
    const learner = await evidenceResponse(t.db, make(), { id: student.id, role: "student" }, file!.id);
    expect(learner!.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(learner!.headers.get("Content-Disposition")).toMatch(/^attachment; filename="photo-\d.jpg"/);
    await learner!.arrayBuffer();
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom("audit_log")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("action", "=", "evidence.downloaded")
            .executeTakeFirstOrThrow()
        ).n,
      );
    const downloadsBefore = await count();
    const byAdmin = await evidenceResponse(t.db, make(), { id: admin.id, role: "admin" }, file!.id);
    expect(
      Buffer.from(await byAdmin!.arrayBuffer())
        .subarray(0, 2)
        .toString("hex"),
    ).toBe("ffd8");
    expect(await count()).toBe(downloadsBefore + 1);

    // a thumbnail shows the photo too: staff's are audited under their own action, naming the
    // thumbnail's bytes; the learner's own are not
    const thumbnails = () =>
      t.db
        .selectFrom("audit_log")
        .select(["actor_id", "subject_id", "subject_user_id", "detail"])
        .where("action", "=", "evidence.thumbnail_downloaded")
        .execute();
    const before = (await thumbnails()).length;
    const ownThumb = await evidenceResponse(t.db, make(), { id: student.id, role: "student" }, file!.id, true);
    await ownThumb!.arrayBuffer();
    expect(await thumbnails()).toHaveLength(before);
    for (const viewer of [
      { id: admin.id, role: "admin" as const },
      { id: trainer.id, role: "trainer" as const },
    ]) {
      const thumb = await evidenceResponse(t.db, make(), viewer, file!.id, true);
      expect(thumb!.headers.get("Content-Type")).toBe("image/jpeg");
      await thumb!.arrayBuffer();
    }
    const audited = (await thumbnails()).slice(before);
    expect(audited.map((e) => e.actor_id).sort()).toEqual([admin.id, trainer.id].sort());
    expect(audited.every((e) => e.subject_id === file!.id && e.subject_user_id === student.id && e.detail === file!.thumbnail_sha256)).toBe(true);
    expect(await count()).toBe(downloadsBefore + 1);
  });

  it("refuses the whole upload when one file is not evidence, recording nothing", async () => {
    const ref = { kind: "unit" as const, id: assessmentId };
    const a = await assessmentFor(t.db, { id: trainer.id, role: "trainer" }, ref);
    const before = (await listEvidence(t.db, ref)).length;
    const read = await readUpload(
      multipartRequest("http://localhost/x", {}, [
        { field: "files", name: "ok.jpg", bytes: await gpsPhoto(9) },
        { field: "files", name: "page.jpg", bytes: Buffer.from("<html><body>hi</body></html>") },
      ]),
    );
    try {
      await expect(addEvidence(t.db, make(), { assessment: a, actor: trainer.id, files: read.files, dir: read.dir })).rejects.toMatchObject({
        status: 422,
        fieldErrors: { files: expect.stringContaining("page.jpg is not a JPEG") },
      });
    } finally {
      read.dispose();
    }
    expect(await listEvidence(t.db, ref)).toHaveLength(before);
  });
});

describe("signatures", () => {
  /** A fresh passed assessment of a named learner, assessed by a named trainer. */
  async function signable() {
    const assessor = await makeUser(t.db, { role: "trainer", full_name: "Tess O'Brien" });
    const candidate = await makeUser(t.db, { role: "student", full_name: "Cal Nguyen" });
    const course = await makeCourse(t.db);
    const enrollment = await makeEnrollment(t.db, candidate.id, course.id);
    const id = crypto.randomUUID();
    await t.db
      .insertInto("assessments")
      .values({
        id,
        enrollment_id: enrollment.id,
        student_id: candidate.id,
        course_id: course.id,
        assessment_type: "Practical",
        status: "passed",
        score: null,
        max_score: null,
        assessment_date: "2026-05-01T00:00:00.000Z",
        feedback: null,
        assessed_by: assessor.id,
        created_at: new Date().toISOString(),
      })
      .execute();
    const assessment = await assessmentFor(t.db, { id: assessor.id, role: "trainer" }, { kind: "unit", id });
    return { assessor, candidate, assessment };
  }
  const stored = (a: EvidenceAssessment) =>
    t.db
      .selectFrom("assessment_signatures")
      .select(["role", "full_name", "signed_at", "client", "signed_by"])
      .where("assessment_id", "=", a.id)
      .orderBy("role")
      .execute();

  it("keeps the typed full name, the time and the client; the candidate signs on the assessor's device", async () => {
    const { assessor, candidate, assessment } = await signable();
    const before = Date.now();
    await signAssessment(t.db, {
      assessment,
      role: "assessor",
      full_name: "Tess O'Brien",
      userAgent: "Mozilla/5.0 (iPad) Yard tablet",
      actor: { id: assessor.id },
    });
    // typed on the same tablet, the assessor signed in: spaces and case as the candidate typed them
    await signAssessment(t.db, {
      assessment,
      role: "candidate",
      full_name: "  cal  NGUYEN ",
      userAgent: "Mozilla/5.0 (iPad) Yard tablet",
      actor: { id: assessor.id },
    });
    const rows = await stored(assessment);
    expect(rows.map((r) => [r.role, r.full_name, r.client, r.signed_by])).toEqual([
      ["assessor", "Tess O'Brien", "Mozilla/5.0 (iPad) Yard tablet", assessor.id],
      ["candidate", "cal NGUYEN", "Mozilla/5.0 (iPad) Yard tablet", assessor.id],
    ]);
    for (const r of rows) expect(Date.parse(r.signed_at)).toBeGreaterThanOrEqual(before - 1000);
    expect((await listSignatures(t.db, assessment)).map((s) => s.role).sort()).toEqual(["assessor", "candidate"]);
    const audit = await t.db
      .selectFrom("audit_log")
      .select(["detail", "subject_user_id"])
      .where("action", "=", "assessment.signed")
      .where("subject_id", "=", assessment.id)
      .execute();
    expect(audit.map((a) => a.detail).sort()).toEqual(["assessor", "candidate"]);
    expect(audit.every((a) => a.subject_user_id === candidate.id)).toBe(true);
  });

  it("the candidate signs later from their own login", async () => {
    const { candidate, assessment } = await signable();
    const own = await assessmentFor(t.db, { id: candidate.id, role: "student" }, assessment);
    await signAssessment(t.db, {
      assessment: own,
      role: "candidate",
      full_name: "Cal Nguyen",
      userAgent: "Mozilla/5.0 (Android) phone",
      actor: { id: candidate.id },
    });
    expect((await stored(assessment)).map((r) => [r.role, r.signed_by, r.client])).toEqual([["candidate", candidate.id, "Mozilla/5.0 (Android) phone"]]);
  });

  it("refuses bad input with a clear message and stores nothing", async () => {
    const { assessor, candidate, assessment } = await signable();
    const stranger = await makeUser(t.db, { role: "trainer", full_name: "Tess O'Brien" });
    const sign = (role: "assessor" | "candidate", full_name: string, actor: string) =>
      signAssessment(t.db, { assessment, role, full_name, userAgent: null, actor: { id: actor } });
    await expect(sign("candidate", "Cal Smith", candidate.id)).rejects.toMatchObject({
      status: 422,
      message: SIGNATURE_MESSAGES.nameMismatch("candidate"),
      fieldErrors: { full_name: SIGNATURE_MESSAGES.nameMismatch("candidate") },
    });
    await expect(sign("assessor", "Cal Nguyen", assessor.id)).rejects.toMatchObject({ status: 422, message: SIGNATURE_MESSAGES.nameMismatch("assessor") });
    // the learner cannot sign for the assessor; another trainer (even of the same name) cannot sign at all
    await expect(sign("assessor", "Tess O'Brien", candidate.id)).rejects.toMatchObject({ status: 404 });
    await expect(sign("assessor", "Tess O'Brien", stranger.id)).rejects.toMatchObject({ status: 404 });
    await expect(sign("candidate", "Cal Nguyen", stranger.id)).rejects.toMatchObject({ status: 404 });
    // the form's own check: a name too short or missing, an unknown role
    expect(signatureSchema.safeParse({ role: "candidate", full_name: " C " }).error?.issues[0]?.message).toBe("Type the full name");
    expect(signatureSchema.safeParse({ role: "witness", full_name: "Cal Nguyen" }).error?.issues[0]?.message).toBe("Choose whose declaration this is");
    expect(signatureSchema.safeParse({ role: "candidate" }).success).toBe(false);
    expect(await stored(assessment)).toEqual([]);
    // once signed, a second signature of the same declaration is refused and the first stays
    await sign("candidate", "Cal Nguyen", candidate.id);
    await expect(sign("candidate", "Cal Nguyen", assessor.id)).rejects.toMatchObject({ status: 422, message: SIGNATURE_MESSAGES.signedAlready("candidate") });
    expect((await stored(assessment)).map((r) => r.signed_by)).toEqual([candidate.id]);
  });
});
