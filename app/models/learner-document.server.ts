import crypto from "node:crypto";
import { writeTransaction, type DB } from "#db/connection";
import type { FileRow, Role } from "#db/schema";
import { storeOneUpload, type FormUpload } from "~/files/intake.server";
import { LEARNER_DOCUMENT_MESSAGES, type LearnerDocumentInput } from "~/schemas/learner-document";
import { invalid, notFound } from "~/utils/errors";
import { recordAudit, signedInActor, type SignedInActorRef } from "./audit.server";
import { keepStoredFiles } from "./stored-files.server";
import { recordStaffDownload } from "./evidence.server";

/**
 * A learner's documents: the White Card, photo ID or licence the office keeps on their record.
 * An administrator uploads one with a description on the Student Profile; its bytes go into the
 * evidence store (app/files/) under their SHA-256, typed from the bytes, a photo cleaned of its
 * location. The learner themself and administrators may download it; anyone else is told it
 * does not exist (404), so ids cannot be probed.
 */

/** A document as the portal shows it (db/schema.ts FilesTable, without who uploaded it: the audit trail says). */
export type LearnerDocument = Omit<FileRow, "uploaded_by">;

/** Where a document downloads from, for the learner and administrators alike (the page's link and the /api). */
export const learnerDocumentUrl = (id: string) => `/api/learner-documents/${id}`;

const COLUMNS = ["id", "student_id", "filename", "file_type", "upload_date", "description", "sha256", "size_bytes"] as const;

function toDocument(row: Omit<LearnerDocument, "size_bytes"> & { size_bytes: number | string | null }): LearnerDocument {
  return { ...row, size_bytes: row.size_bytes === null ? null : Number(row.size_bytes) };
}

/** A learner's documents, newest first. */
export async function listLearnerDocuments(db: DB, studentId: string): Promise<LearnerDocument[]> {
  const rows = await db.selectFrom("files").select(COLUMNS).where("student_id", "=", studentId).orderBy("upload_date", "desc").orderBy("id").execute();
  return rows.map(toDocument);
}

/**
 * Keeps an uploaded document on a learner's record, as an administrator (the route says who may):
 * exactly one file, accepted by its bytes (JPEG, PNG, HEIC, PDF or MP4, at most 25 MB), stored
 * once by its hash, recorded with its description and audited, in one transaction. A refused file
 * or a missing description changes nothing.
 */
export async function addLearnerDocument(
  db: DB,
  input: { studentId: string; document: LearnerDocumentInput; upload: FormUpload; actor: SignedInActorRef; now?: Date },
): Promise<LearnerDocument> {
  const actor = signedInActor(input.actor);
  const learner = await db.selectFrom("users").select("id").where("id", "=", input.studentId).where("role", "=", "student").executeTakeFirst();
  if (!learner) throw notFound("Student");
  const stored = await storeOneUpload(input.upload, "file", LEARNER_DOCUMENT_MESSAGES.oneFile);
  if (!stored) throw invalid(LEARNER_DOCUMENT_MESSAGES.oneFile, { file: LEARNER_DOCUMENT_MESSAGES.oneFile });
  const now = (input.now ?? new Date()).toISOString();
  const id = crypto.randomUUID();
  await writeTransaction(db, async (trx) => {
    await keepStoredFiles(trx, input.upload.store, [stored]);
    await trx
      .insertInto("files")
      .values({
        id,
        student_id: learner.id,
        filename: stored.name,
        file_type: stored.mediaType,
        upload_date: now,
        description: input.document.description,
        sha256: stored.sha256,
        size_bytes: stored.size,
        uploaded_by: actor.id,
      })
      .execute();
    await recordAudit(trx, {
      action: "learner_document.uploaded",
      actor,
      subject: { type: "learner_document", id, userId: learner.id },
      detail: `${stored.name} (${input.document.description})`,
      now,
    });
  });
  return (await learnerDocumentFor(db, { id: actor.id, role: "admin" }, id))!;
}

/** A document with bytes, if the viewer may have it (its learner, an administrator); null otherwise, as for an unknown id. */
export async function learnerDocumentFor(db: DB, viewer: { id: string; role: Role }, id: string): Promise<LearnerDocument | null> {
  if (viewer.role !== "admin" && viewer.role !== "student") return null;
  const row = await db.selectFrom("files").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  if (!row?.sha256 || (viewer.role === "student" && row.student_id !== viewer.id)) return null;
  return toDocument(row);
}

/** Each download by an administrator is audited (as evidence downloads are); the learner reading their own is not. */
export function recordLearnerDocumentDownload(
  db: DB,
  viewer: { id: string; role: Role; client?: string | null },
  document: LearnerDocument & { sha256: string },
): Promise<void> {
  return recordStaffDownload(db, viewer, {
    action: "learner_document.downloaded",
    type: "learner_document",
    id: document.id,
    student_id: document.student_id,
    sha256: document.sha256,
  });
}
