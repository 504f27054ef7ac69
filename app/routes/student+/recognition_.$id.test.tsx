import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import * as recognitionPage from "~/routes/student+/recognition_.$id";
import { applyForRecognition } from "~/models/recognition/recognition.server";
import { BAD_UPLOAD_MESSAGE } from "~/files/upload.server";
import { recognitionApplyInput } from "~/schemas/recognition";
import { createTestDb, useAsAppDb } from "../../../tests/support/test-db";
import { makeCourse, makeEnrollment, makeUser } from "../../../tests/support/factories";
import { pngImage } from "../../../tests/support/evidence-files";
import { bodyOf, call, sessionCookie, type RouteModule } from "../../../tests/support/api-calls";

/**
 * A learner's evidence upload on their application (answerRecognitionUpload, through
 * answerUploadForm): every refusal carries values.intent "upload", by which the page shows it at
 * the upload, with the message beside the file field, an unreadable body's included.
 */
let db: DB;
let cleanup: () => Promise<void>;
let cookie: string;
let id: string;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  const student = await makeUser(db, { role: "student" });
  cookie = await sessionCookie(db, student.id);
  const course = await makeCourse(db, { unit_code: "RPLU0001" });
  const enrollment = await makeEnrollment(db, student.id, course.id);
  const viewer = { id: student.id, role: "student" as const };
  const input = recognitionApplyInput.parse({ enrollment_id: enrollment.id, kind: "credit_transfer", statement: "I hold this unit from another RTO" });
  ({ id } = await applyForRecognition(db, viewer, input, student.id));
});
afterAll(() => cleanup());

const upload = (files: { field: string; name: string; bytes: Buffer; type?: string }[]) =>
  call(recognitionPage as unknown as RouteModule, "POST", `/student/recognition/${id}`, { cookie, params: { id }, multipart: { files } });

describe("a learner adds evidence to their application", () => {
  it("adds a photo and goes back to the application", async () => {
    const answer = await upload([{ field: "files", name: "licence.png", bytes: await pngImage(), type: "image/png" }]);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe(`/student/recognition/${id}`);
  });

  it("refuses a file it cannot keep beside the file field, at the upload form", async () => {
    const answer = await upload([{ field: "files", name: "notes.txt", bytes: Buffer.from("not a document"), type: "text/plain" }]);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    const body = await bodyOf<{ error: string; fieldErrors: Record<string, string>; values: Record<string, string> }>(answer);
    expect(body.fieldErrors.files).toBeTruthy();
    expect(body.values).toEqual({ intent: "upload" });
  });

  it("answers a body that is not a complete multipart form at the upload form too", async () => {
    const answer = await call(recognitionPage as unknown as RouteModule, "POST", `/student/recognition/${id}`, {
      cookie,
      params: { id },
      body: "not multipart",
      contentType: "multipart/form-data",
    });
    expect(answer.status).toBe(400);
    expect(await bodyOf(answer)).toMatchObject({ error: BAD_UPLOAD_MESSAGE, values: { intent: "upload" }, toast: { message: BAD_UPLOAD_MESSAGE } });
  });
});
