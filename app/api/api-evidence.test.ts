import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import exifr from "exifr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import * as evidenceRoute from "~/routes/api+/assessments.$kind.$id.evidence";
import * as downloadRoute from "~/routes/api+/evidence.$id.download";
import * as checklistRoute from "~/routes/api+/assessments.$kind.$id.checklist";
import * as signaturesRoute from "~/routes/api+/assessments.$kind.$id.signatures";
import * as checklistsRoute from "~/routes/api+/admin.checklists";
import * as checklistRouteById from "~/routes/api+/admin.checklists.$id";
import * as reviewRoute from "~/routes/api+/admin.checklists.$id.review";
import * as retentionRoute from "~/routes/api+/admin.retention";
import * as destroyRoute from "~/routes/api+/admin.retention.destroy";
import { openApiDocument } from "./openapi";
import { bodyOf, call, caller, type CallOptions, type Caller, type RouteModule } from "../../tests/support/api-calls";
import { gpsPhoto, pngImage, writeLargePhoto } from "../../tests/support/evidence-files";
import { makeCourse, makeEnrollment } from "../../tests/support/factories";
import { conformsTo } from "../../tests/support/json-schema";
import { startTestS3, type TestS3 } from "../../tests/support/s3-server";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";

/**
 * The evidence calls of the /api, on each database and each file store: the same model calls
 * as the evidence pages, so the same limits and checks, answered as the document says.
 */

let db: DB;
let cleanup: () => Promise<void>;
let s3: TestS3;
let admin: Caller;
let trainer: Caller;
let otherTrainer: Caller;
let student: Caller;
let courseId: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-evidence-"));
const big24 = path.join(dir, "yard-24mb.jpg");
const big26 = path.join(dir, "yard-26mb.jpg");
const MB = 1024 * 1024;
const doc = openApiDocument() as unknown as Parameters<typeof conformsTo>[0];
const m = (mod: unknown) => mod as RouteModule;
const conforms = (response: Response, p: string, method: string) => conformsTo(doc, response, p, method);
type Files = { files: { id: string; original_name: string; media_type: string; sha256: string; size_bytes: number; download: string }[] };

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  s3 = await startTestS3();
  admin = await caller(db, "admin");
  trainer = await caller(db, "trainer", { full_name: "Tess Assessor" });
  otherTrainer = await caller(db, "trainer");
  student = await caller(db, "student", { full_name: "Cal Candidate" });
  writeLargePhoto(big24, 24 * MB);
  // 26 MB starting as a JPEG: refused by its size while it streams, before its type matters
  const fd = fs.openSync(big26, "w");
  fs.writeSync(fd, fs.readFileSync(big24).subarray(0, 64 * 1024));
  for (let i = 0; i < 26; i++) fs.writeSync(fd, Buffer.alloc(MB, 0x5a));
  fs.closeSync(fd);
}, 120_000);
afterAll(async () => {
  await s3.close();
  await cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.FILE_STORE;
});

/** A passed unit assessment of the student's in a course of its own, assessed by `trainer`, judged on `on`. */
async function assessment(on = "2026-05-01"): Promise<string> {
  courseId = (await makeCourse(db)).id;
  const enrollment = await makeEnrollment(db, student.id, courseId);
  const id = crypto.randomUUID();
  await db
    .insertInto("assessments")
    .values({
      id,
      enrollment_id: enrollment.id,
      student_id: student.id,
      course_id: courseId,
      assessment_type: "Practical",
      status: "passed",
      score: null,
      max_score: null,
      assessment_date: `${on}T00:00:00.000Z`,
      feedback: null,
      assessed_by: trainer.id,
      created_at: new Date().toISOString(),
    })
    .execute();
  return id;
}

const auditCount = async (action: string) =>
  Number(
    (
      await db
        .selectFrom("audit_log")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("action", "=", action as never)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** How many things a store holds under a hash, however it lays them out (files or s3rver's objects). */
function storedUnder(root: string, hash: string): number {
  if (!fs.existsSync(root)) return 0;
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => path.basename(f).startsWith(hash) && !f.endsWith("metadata.json")).length;
}

const stores: [string, () => { url: string; root: string }][] = [
  ["file", () => ({ url: `file:${path.join(dir, "files")}`, root: path.join(dir, "files") })],
  ["s3", () => ({ url: `s3://${s3.bucket}/files`, root: s3.directory })],
];

describe.each(stores)("/api evidence (%s store)", (_kind, storeOf) => {
  let root: string;
  beforeAll(() => {
    const { url, root: r } = storeOf();
    root = r;
    process.env.FILE_STORE = url;
    process.env.S3_ENDPOINT = s3.endpoint;
    process.env.AWS_ACCESS_KEY_ID = "S3RVER";
    process.env.AWS_SECRET_ACCESS_KEY = "S3RVER";
  });

  it("the assessor uploads by multipart: types from bytes, GPS gone, one copy of a file sent twice; others get 404", async () => {
    const id = await assessment();
    const p = `/api/assessments/unit/${id}/evidence`;
    const params = { kind: "unit", id };
    const photo = await gpsPhoto(Math.floor(Math.random() * 250));
    expect(await exifr.gps(photo)).toMatchObject({ latitude: -33.85 });
    const upload = (who: Caller | null, files: NonNullable<CallOptions["multipart"]>) =>
      call(m(evidenceRoute), "POST", p, { token: who?.token, params, multipart: files });

    const first = (await conforms(
      await upload(trainer, {
        files: [
          { field: "files", name: "crane.jpg", bytes: photo, type: "image/jpeg" },
          { field: "files", name: "load-chart.pdf", bytes: await pngImage(), type: "application/pdf" },
        ],
      }),
      "/api/assessments/{kind}/{id}/evidence",
      "post",
    )) as Files;
    expect(first.files.map((f) => [f.original_name, f.media_type])).toEqual([
      ["crane.jpg", "image/jpeg"],
      ["load-chart.pdf", "image/png"],
    ]);
    const crane = first.files[0]!;
    const copies = storedUnder(root, crane.sha256);
    expect(copies).toBeGreaterThan(0);
    const again = (await bodyOf<Files>(await upload(trainer, { files: [{ field: "files", name: "crane-again.jpg", bytes: photo }] }))).files[0]!;
    expect(again.sha256).toBe(crane.sha256);
    expect(storedUnder(root, crane.sha256)).toBe(copies);

    // HTML named .jpg: refused by its bytes, and with it the whole upload
    const before = (await bodyOf<Files>(await call(m(evidenceRoute), "GET", p, { token: trainer.token, params }))).files.length;
    const html = await upload(trainer, {
      files: [
        { field: "files", name: "ok.jpg", bytes: await gpsPhoto(3) },
        { field: "files", name: "page.jpg", bytes: Buffer.from("<!DOCTYPE html><html><script>alert(1)</script></html>"), type: "image/jpeg" },
      ],
    });
    expect(html.status).toBe(422);
    expect(((await conforms(html, "/api/assessments/{kind}/{id}/evidence", "post")) as { errors: { files: string } }).errors.files).toContain(
      "page.jpg is not a JPEG, PNG, HEIC, PDF or MP4 file",
    );
    expect((await bodyOf<Files>(await call(m(evidenceRoute), "GET", p, { token: trainer.token, params }))).files).toHaveLength(before);

    // the photo as downloaded: an attachment, nosniff, its location gone; staff downloads audited
    const downloads = await auditCount("evidence.downloaded");
    const get = (who: Caller) => call(m(downloadRoute), "GET", crane.download, { token: who.token, params: { id: crane.id } });
    expect(crane.download).toBe(`/api/evidence/${crane.id}/download`);
    const byAdmin = await get(admin);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.headers.get("Content-Disposition")).toMatch(/^attachment; filename="crane.jpg"/);
    expect(byAdmin.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(byAdmin.headers.get("Content-Type")).toBe("image/jpeg");
    const kept = Buffer.from(await byAdmin.arrayBuffer());
    expect(kept.subarray(0, 2).toString("hex")).toBe("ffd8");
    expect(await exifr.gps(kept)).toBeUndefined();
    expect(await auditCount("evidence.downloaded")).toBe(downloads + 1);
    const byLearner = await get(student);
    expect(byLearner.status).toBe(200);
    await byLearner.arrayBuffer();
    expect(await auditCount("evidence.downloaded")).toBe(downloads + 1);

    // another trainer: the list, the file and an upload are all "not found"; an admin may not upload
    await conforms(await call(m(evidenceRoute), "GET", p, { token: otherTrainer.token, params }), "/api/assessments/{kind}/{id}/evidence", "get");
    const theirs = await get(otherTrainer);
    expect(theirs.status).toBe(404);
    expect(theirs.headers.get("Content-Disposition")).toBeNull();
    const intruder = await upload(otherTrainer, { files: [{ field: "files", name: "x.jpg", bytes: photo }] });
    expect(intruder.status).toBe(404);
    await conforms(intruder, "/api/assessments/{kind}/{id}/evidence", "post");
    expect((await upload(admin, { files: [{ field: "files", name: "x.jpg", bytes: photo }] })).status).toBe(403);
    expect((await upload(null, { files: [{ field: "files", name: "x.jpg", bytes: photo }] })).status).toBe(401);
    const notMultipart = await call(m(evidenceRoute), "POST", p, { token: trainer.token, params, json: { files: [] } });
    expect(notMultipart.status).toBe(415);
    await conforms(notMultipart, "/api/assessments/{kind}/{id}/evidence", "post");
    const none = await upload(trainer, { fields: { note: "no files" }, files: [] });
    expect(none.status).toBe(422);
    expect(await auditCount("evidence.downloaded")).toBe(downloads + 1);
  });

  it("a 24 MB photo streams in; a 26 MB one is refused and nothing is kept", async () => {
    const id = await assessment();
    const p = `/api/assessments/unit/${id}/evidence`;
    const params = { kind: "unit", id };
    const big = await call(m(evidenceRoute), "POST", p, {
      token: trainer.token,
      params,
      multipart: { files: [{ field: "files", name: "yard.jpg", path: big24 }] },
    });
    expect(big.status).toBe(201);
    const [stored] = (await bodyOf<Files>(big)).files;
    expect(stored!.media_type).toBe("image/jpeg");
    expect(storedUnder(root, stored!.sha256)).toBeGreaterThan(0);
    const tooBig = await call(m(evidenceRoute), "POST", p, {
      token: trainer.token,
      params,
      multipart: { files: [{ field: "files", name: "yard-big.jpg", path: big26 }] },
    });
    expect(tooBig.status).toBe(422);
    expect(((await bodyOf(tooBig)) as { errors: { files: string } }).errors.files).toBe("yard-big.jpg is larger than 25 MB.");
    expect((await bodyOf<Files>(await call(m(evidenceRoute), "GET", p, { token: trainer.token, params }))).files).toHaveLength(1);
  }, 120_000);

  it("retention: only evidence past its day is offered; approving destroys the bytes, keeps a tombstone and is audited", async () => {
    const id = await assessment("2020-01-01");
    const params = { kind: "unit", id };
    const uploaded = await call(m(evidenceRoute), "POST", `/api/assessments/unit/${id}/evidence`, {
      token: trainer.token,
      params,
      multipart: { files: [{ field: "files", name: "old.jpg", bytes: await gpsPhoto(Math.floor(Math.random() * 250), 80) }] },
    });
    const [file] = (await bodyOf<Files>(uploaded)).files;
    expect(storedUnder(root, file!.sha256)).toBeGreaterThan(0);
    const certificateId = crypto.randomUUID();
    const enrollment = await db
      .selectFrom("enrollments")
      .select("id")
      .where("student_id", "=", student.id)
      .where("course_id", "=", courseId)
      .executeTakeFirstOrThrow();
    await db
      .insertInto("certificates")
      .values({
        id: certificateId,
        enrollment_id: enrollment.id,
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

    const listed = (await conforms(await call(m(retentionRoute), "GET", "/api/admin/retention", { token: admin.token }), "/api/admin/retention", "get")) as {
      due: { id: string; record_type: string; keep_until: string }[];
    };
    expect(listed.due.find((d) => d.id === file!.id)?.keep_until).toBe("2020-07-01");
    expect(listed.due.every((d) => d.record_type === "assessment_evidence")).toBe(true);
    expect(listed.due.map((d) => d.id)).not.toContain(certificateId);

    const destroy = (json: unknown, token = admin.token) => call(m(destroyRoute), "POST", "/api/admin/retention/destroy", { token, json });
    expect((await destroy({ ids: [file!.id] })).status).toBe(422);
    const withCertificate = await destroy({ ids: [file!.id, certificateId], confirm: "yes" });
    expect(withCertificate.status).toBe(422);
    await conforms(withCertificate, "/api/admin/retention/destroy", "post");
    expect(await db.selectFrom("certificates").select("id").where("id", "=", certificateId).executeTakeFirst()).toBeDefined();
    expect(storedUnder(root, file!.sha256)).toBeGreaterThan(0);
    expect((await destroy({ ids: [file!.id], confirm: "yes" }, trainer.token)).status).toBe(403);

    const destroyedBefore = await auditCount("records.destroyed");
    const done = (await conforms(await destroy({ ids: [file!.id], confirm: "yes" }), "/api/admin/retention/destroy", "post")) as {
      destroyed: { record_id: string; subject_user_id: string; hashes: string[]; destroyed_by: { id: string } }[];
    };
    expect(done.destroyed).toEqual([
      expect.objectContaining({ record_id: file!.id, subject_user_id: student.id, destroyed_by: expect.objectContaining({ id: admin.id }) }),
    ]);
    expect(done.destroyed[0]!.hashes).toContain(file!.sha256);
    expect(storedUnder(root, file!.sha256)).toBe(0);
    expect(await auditCount("records.destroyed")).toBe(destroyedBefore + 1);
    expect(await db.selectFrom("destroyed_records").select("id").where("record_id", "=", file!.id).executeTakeFirst()).toBeDefined();
    // gone from the lists; a second approval destroys nothing
    expect((await bodyOf<Files>(await call(m(evidenceRoute), "GET", `/api/assessments/unit/${id}/evidence`, { token: admin.token, params }))).files).toEqual(
      [],
    );
    expect((await call(m(downloadRoute), "GET", file!.download, { token: admin.token, params: { id: file!.id } })).status).toBe(404);
    expect((await destroy({ ids: [file!.id], confirm: "yes" })).status).toBe(422);
  });
});

describe("/api checklists and declarations", () => {
  it("an admin creates, edits and reviews a checklist; the assessor marks it only once reviewed", async () => {
    const id = await assessment();
    const params = { kind: "unit", id };
    const body = {
      course_id: courseId,
      title: "Slewing crane observation",
      items: [
        { maps_to: "PC 1.1", text: "Checks the load chart for the radius", nai_part: "practical" },
        { maps_to: "PC 2.3", text: "Tests the limit switches" },
      ],
    };
    const created = (await conforms(
      await call(m(checklistsRoute), "POST", "/api/admin/checklists", { token: admin.token, json: body }),
      "/api/admin/checklists",
      "post",
    )) as { id: string; reviewed_at: string | null; items: { id: string; nai_part: string | null }[] };
    expect(created.reviewed_at).toBeNull();
    expect(created.items.map((i) => i.nai_part)).toEqual(["practical", null]);
    expect((await call(m(checklistsRoute), "POST", "/api/admin/checklists", { token: trainer.token, json: body })).status).toBe(403);
    await conforms(
      await call(m(checklistsRoute), "POST", "/api/admin/checklists", { token: admin.token, json: { ...body, course_id: crypto.randomUUID() } }),
      "/api/admin/checklists",
      "post",
    );
    const badItems = await call(m(checklistsRoute), "POST", "/api/admin/checklists", {
      token: admin.token,
      json: { ...body, items: [{ maps_to: "", text: "x" }] },
    });
    expect(badItems.status).toBe(422);
    await conforms(badItems, "/api/admin/checklists", "post");

    const mark = (json: unknown, who = trainer) => call(m(checklistRoute), "POST", `/api/assessments/unit/${id}/checklist`, { token: who.token, params, json });
    const marks = (items: { id: string }[]) => items.map((i) => ({ item_id: i.id, result: "satisfactory", comment: "Done on the day" }));
    const unreviewed = await mark({ checklist_id: created.id, marks: marks(created.items) });
    expect(unreviewed.status).toBe(422);
    expect(((await bodyOf(unreviewed)) as { detail: string }).detail).toMatch(/not been reviewed before use/);

    let edited = (await conforms(
      await call(m(checklistRouteById), "PUT", `/api/admin/checklists/${created.id}`, {
        token: admin.token,
        params: { id: created.id },
        json: { ...body, title: "Slewing crane observation v2" },
      }),
      "/api/admin/checklists/{id}",
      "put",
    )) as { title: string; items: { id: string }[] };
    expect(edited.title).toBe("Slewing crane observation v2");
    // PUT is partial: a new title alone keeps the course and the items' wording
    const retitled = (await conforms(
      await call(m(checklistRouteById), "PUT", `/api/admin/checklists/${created.id}`, {
        token: admin.token,
        params: { id: created.id },
        json: { title: "Slewing crane observation v3" },
      }),
      "/api/admin/checklists/{id}",
      "put",
    )) as { title: string; course: { id: string }; items: { id: string; text: string; maps_to: string; nai_part: string | null }[] };
    const wording = (items: { text: string; maps_to: string; nai_part: string | null }[]) =>
      items.map(({ text, maps_to, nai_part }) => ({ text, maps_to, nai_part }));
    expect(retitled.title).toBe("Slewing crane observation v3");
    expect(retitled.course.id).toBe(body.course_id);
    expect(wording(retitled.items)).toEqual(wording(edited.items as never));
    expect(retitled.items.length).toBe(body.items.length);
    // the items were written again (the review cleared): the marks below name the new ones
    edited = retitled;
    expect(
      (
        await call(m(checklistRouteById), "PUT", `/api/admin/checklists/${crypto.randomUUID()}`, {
          token: admin.token,
          params: { id: crypto.randomUUID() },
          json: body,
        })
      ).status,
    ).toBe(404);
    const reviewed = (await conforms(
      await call(m(reviewRoute), "POST", `/api/admin/checklists/${created.id}/review`, { token: admin.token, params: { id: created.id } }),
      "/api/admin/checklists/{id}/review",
      "post",
    )) as { reviewed_at: string | null; reviewed_by: string };
    expect(reviewed.reviewed_at).not.toBeNull();
    expect(reviewed.reviewed_by).toBe(admin.id);

    const half = await mark({ checklist_id: created.id, marks: marks(edited.items).slice(0, 1) });
    expect(half.status).toBe(422);
    expect(Object.keys(((await conforms(half, "/api/assessments/{kind}/{id}/checklist", "post")) as { errors: object }).errors)).toEqual([
      `result_${edited.items[1]!.id}`,
    ]);
    expect((await mark({ checklist_id: created.id, marks: marks(edited.items) }, otherTrainer)).status).toBe(404);
    const done = (await conforms(await mark({ checklist_id: created.id, marks: marks(edited.items) }), "/api/assessments/{kind}/{id}/checklist", "post")) as {
      marks: { result: string }[];
    }[];
    expect(done[0]!.marks.map((x) => x.result)).toEqual(["satisfactory", "satisfactory"]);
    const seen = (await conforms(
      await call(m(checklistRoute), "GET", `/api/assessments/unit/${id}/checklist`, { token: student.token, params }),
      "/api/assessments/{kind}/{id}/checklist",
      "get",
    )) as { checklist: { id: string }; marks: unknown[] }[];
    expect(seen.find((c) => c.checklist.id === created.id)?.marks).toHaveLength(2);
  });

  it("the candidate signs from their own login, the assessor as themselves; a wrong name or a second signature is refused", async () => {
    const id = await assessment();
    const params = { kind: "unit", id };
    const sign = (who: Caller, json: unknown) =>
      call(m(signaturesRoute), "POST", `/api/assessments/unit/${id}/signatures`, { token: who.token, params, json, headers: { "User-Agent": "Yard tablet" } });
    const wrong = await sign(student, { role: "candidate", full_name: "Somebody Else" });
    expect(wrong.status).toBe(422);
    await conforms(wrong, "/api/assessments/{kind}/{id}/signatures", "post");
    expect((await sign(student, { role: "assessor", full_name: "Tess Assessor" })).status).toBe(404);
    expect((await sign(otherTrainer, { role: "assessor", full_name: "Tess Assessor" })).status).toBe(404);
    expect((await sign(student, { role: "candidate", full_name: "Cal Candidate", extra: 1 })).status).toBe(422);
    const candidate = (await conforms(
      await sign(student, { role: "candidate", full_name: "  cal   candidate " }),
      "/api/assessments/{kind}/{id}/signatures",
      "post",
    )) as { full_name: string };
    expect(candidate.full_name).toBe("cal candidate");
    expect((await sign(trainer, { role: "candidate", full_name: "Cal Candidate" })).status).toBe(422);
    await conforms(await sign(trainer, { role: "assessor", full_name: "Tess Assessor" }), "/api/assessments/{kind}/{id}/signatures", "post");
    const rows = await db.selectFrom("assessment_signatures").select(["role", "client"]).where("assessment_id", "=", id).orderBy("role").execute();
    expect(rows).toEqual([
      { role: "assessor", client: "Yard tablet" },
      { role: "candidate", client: "Yard tablet" },
    ]);
  });
});
