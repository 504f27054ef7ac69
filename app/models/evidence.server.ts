import crypto from "node:crypto";
import type { Selectable } from "kysely";
import { writeTransaction, type DB } from "#db/connection";
import type { Role } from "#db/schema";
import type { AssessmentSignaturesTable, EvidenceFilesTable } from "#db/schema-evidence";
import { FileRefused, sniffType, storeSpooled, type SpooledFile, type StoredFile } from "~/files/intake.server";
import type { FileStore } from "~/files/store.server";
import { EVIDENCE_MESSAGES } from "~/files/types";
import type { AssessmentRef, SignatureRole } from "~/schemas/evidence";
import { recognitionTitle } from "~/schemas/recognition";
import { invalid, notFound } from "~/utils/errors";
import { recordAudit, recordAuditAlone, signedInActor, type SignedInActorRef } from "./audit.server";
import { stampKeepUntil } from "./retention.server";
import { keepStoredFiles } from "./stored-files.server";

/**
 * Evidence on an assessment: files (photos, documents, video) a trainer attaches to a unit's
 * assessment or a high-risk work one. Who may see an assessment's evidence: the learner it is
 * about, the trainer who assesses it, and admins; anyone else is told it does not exist (404),
 * so ids cannot be probed. The bytes live in the file store (app/files/) under their SHA-256.
 */

/** An assessment as evidence, checklists and signatures see it. */
export interface EvidenceAssessment extends AssessmentRef {
  student: { id: string; full_name: string };
  assessor: { id: string; full_name: string } | null;
  course: { id: string; name: string; unit_code: string; licence_class: string | null };
  /** what it is: the unit's assessment type, or the licence class */
  title: string;
  /** the day of the judgement the retention period runs from; null while there is none */
  result_on: string | null;
}

export interface EvidenceViewer {
  id: string;
  role: Role;
}

/** The assessment, or null for an unknown one (whoever asks). */
export async function findEvidenceAssessment(db: DB, ref: AssessmentRef): Promise<EvidenceAssessment | null> {
  if (ref.kind === "unit") {
    const row = await db
      .selectFrom("assessments")
      .innerJoin("users as student", "student.id", "assessments.student_id")
      .innerJoin("courses", "courses.id", "assessments.course_id")
      .leftJoin("users as assessor", "assessor.id", "assessments.assessed_by")
      .select([
        "assessments.id",
        "assessments.assessment_type",
        "assessments.status",
        "assessments.assessment_date",
        "student.id as student_id",
        "student.full_name as student_name",
        "assessor.id as assessor_id",
        "assessor.full_name as assessor_name",
        "courses.id as course_id",
        "courses.name as course_name",
        "courses.unit_code",
        "courses.licence_class",
      ])
      .where("assessments.id", "=", ref.id)
      .executeTakeFirst();
    if (!row) return null;
    return {
      kind: "unit",
      id: row.id,
      student: { id: row.student_id, full_name: row.student_name },
      assessor: row.assessor_id ? { id: row.assessor_id, full_name: row.assessor_name! } : null,
      course: { id: row.course_id, name: row.course_name, unit_code: row.unit_code, licence_class: row.licence_class },
      title: row.assessment_type,
      // a judgement is a pass or a fail; work in progress or awaiting resubmission has none yet
      result_on: row.status === "passed" || row.status === "failed" ? row.assessment_date.slice(0, 10) : null,
    };
  }
  if (ref.kind === "recognition") return recognitionAsAssessment(db, ref.id);
  const row = await db
    .selectFrom("hrw_assessments as a")
    .innerJoin("users as student", "student.id", "a.candidate_id")
    .innerJoin("courses", "courses.id", "a.course_id")
    .innerJoin("users as assessor", "assessor.id", "a.assessor_id")
    .select((eb) => [
      "a.id",
      "a.licence_class as class",
      "student.id as student_id",
      "student.full_name as student_name",
      "assessor.id as assessor_id",
      "assessor.full_name as assessor_name",
      "courses.id as course_id",
      "courses.name as course_name",
      "courses.unit_code",
      "courses.licence_class",
      eb
        .selectFrom("hrw_assessment_parts")
        .select((p) => p.fn.max("assessed_on").as("d"))
        .whereRef("hrw_assessment_parts.assessment_id", "=", "a.id")
        .as("last_result_on"),
    ])
    .where("a.id", "=", ref.id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    kind: "hrw",
    id: row.id,
    student: { id: row.student_id, full_name: row.student_name },
    assessor: { id: row.assessor_id, full_name: row.assessor_name },
    course: { id: row.course_id, name: row.course_name, unit_code: row.unit_code, licence_class: row.licence_class ?? row.class },
    title: `${row.class} licence assessment`,
    result_on: row.last_result_on ?? null,
  };
}

/**
 * A credit transfer or RPL application as evidence, appeals and retention see it: its assessor
 * is the RPL assessor, or for a credit transfer whoever decided it; its result day the decision's.
 */
async function recognitionAsAssessment(db: DB, id: string): Promise<EvidenceAssessment | null> {
  const row = await db
    .selectFrom("recognition_applications as r")
    .innerJoin("users as student", "student.id", "r.student_id")
    .innerJoin("courses", "courses.id", "r.course_id")
    .leftJoin("users as assessor", (j) => j.on((eb) => eb("assessor.id", "=", eb.fn.coalesce("r.assessor_id", "r.decided_by"))))
    .select([
      "r.id",
      "r.kind",
      "r.status",
      "r.decided_on",
      "student.id as student_id",
      "student.full_name as student_name",
      "assessor.id as assessor_id",
      "assessor.full_name as assessor_name",
      "courses.id as course_id",
      "courses.name as course_name",
      "courses.unit_code",
      "courses.licence_class",
    ])
    .where("r.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    kind: "recognition",
    id: row.id,
    student: { id: row.student_id, full_name: row.student_name },
    assessor: row.assessor_id ? { id: row.assessor_id, full_name: row.assessor_name! } : null,
    course: { id: row.course_id, name: row.course_name, unit_code: row.unit_code, licence_class: row.licence_class },
    title: recognitionTitle(row.kind, row.unit_code),
    result_on: row.status === "applied" ? null : row.decided_on,
  };
}

/** Whether someone may see an assessment's evidence: its learner, its assessor, an admin. */
export function maySeeAssessment(viewer: EvidenceViewer, a: EvidenceAssessment): boolean {
  if (viewer.role === "admin") return true;
  if (viewer.role === "student") return a.student.id === viewer.id;
  return a.assessor?.id === viewer.id;
}

/** Whether someone may add evidence, mark the checklist and sign as assessor: the assessor (admins read). */
export function mayAssess(viewer: EvidenceViewer, a: EvidenceAssessment): boolean {
  return viewer.role === "trainer" && a.assessor?.id === viewer.id;
}

/** The assessment if the viewer may see it; otherwise "not found", as for an unknown one. */
export async function assessmentFor(db: DB, viewer: EvidenceViewer, ref: AssessmentRef): Promise<EvidenceAssessment> {
  const a = await findEvidenceAssessment(db, ref);
  if (!a || !maySeeAssessment(viewer, a)) throw notFound("Assessment");
  return a;
}

/** An evidence file's row, with who uploaded it named. */
export type EvidenceFile = Omit<Selectable<EvidenceFilesTable>, "uploaded_by"> & { uploaded_by: { id: string; full_name: string } };

const FILE_COLUMNS = [
  "evidence_files.id",
  "evidence_files.assessment_kind",
  "evidence_files.assessment_id",
  "evidence_files.student_id",
  "evidence_files.sha256",
  "evidence_files.thumbnail_sha256",
  "evidence_files.media_type",
  "evidence_files.size_bytes",
  "evidence_files.original_name",
  "evidence_files.uploaded_at",
  "evidence_files.keep_until",
  "uploader.id as uploader_id",
  "uploader.full_name as uploader_name",
] as const;

function filesQuery(db: DB) {
  return db.selectFrom("evidence_files").innerJoin("users as uploader", "uploader.id", "evidence_files.uploaded_by").select(FILE_COLUMNS);
}

type FileRow = Awaited<ReturnType<ReturnType<typeof filesQuery>["executeTakeFirstOrThrow"]>>;

function toFile({ uploader_id, uploader_name, ...r }: FileRow): EvidenceFile {
  return { ...r, size_bytes: Number(r.size_bytes), uploaded_by: { id: uploader_id, full_name: uploader_name } };
}

/** An assessment's files, oldest first. */
export async function listEvidence(db: DB, ref: AssessmentRef): Promise<EvidenceFile[]> {
  const rows = await filesQuery(db)
    .where("evidence_files.assessment_kind", "=", ref.kind)
    .where("evidence_files.assessment_id", "=", ref.id)
    .orderBy("evidence_files.uploaded_at")
    .orderBy("evidence_files.id")
    .execute();
  return rows.map(toFile);
}

/** A file with its assessment, if the viewer may see it; null otherwise (and for an unknown id). */
export async function evidenceFileFor(db: DB, viewer: EvidenceViewer, id: string): Promise<{ file: EvidenceFile; assessment: EvidenceAssessment } | null> {
  const row = await filesQuery(db).where("evidence_files.id", "=", id).executeTakeFirst();
  if (!row) return null;
  const assessment = await findEvidenceAssessment(db, { kind: row.assessment_kind, id: row.assessment_id });
  if (!assessment || !maySeeAssessment(viewer, assessment)) return null;
  return { file: toFile(row), assessment };
}

/**
 * Adds files to an assessment as its assessor. Every file is checked before any is kept
 * (size while it streamed, type from its bytes): one refused file refuses the upload, with a
 * message naming each, and nothing is recorded. Then each is cleaned, stored once by its hash
 * and recorded, with one audit entry, in one transaction.
 */
export async function addEvidence(
  db: DB,
  store: FileStore,
  input: { assessment: EvidenceAssessment; actor: SignedInActorRef; files: SpooledFile[]; dir: string; tooMany?: boolean; mayUpload?: boolean },
): Promise<EvidenceFile[]> {
  const actor = signedInActor(input.actor);
  const { assessment } = input;
  // a recognition application's evidence comes from its learner too: its model says who may add
  if (!(input.mayUpload ?? assessment.assessor?.id === actor.id)) throw notFound("Assessment");
  if (input.tooMany) throw invalid(EVIDENCE_MESSAGES.tooMany, { files: EVIDENCE_MESSAGES.tooMany });
  if (input.files.length === 0) throw invalid(EVIDENCE_MESSAGES.none, { files: EVIDENCE_MESSAGES.none });
  const problems: string[] = [];
  for (const file of input.files) {
    if (file.refused) problems.push(file.refused);
    else if (!(await sniffType(file.path))) problems.push(EVIDENCE_MESSAGES.wrongType(file.name));
  }
  const stored: StoredFile[] = [];
  if (problems.length === 0) {
    for (const file of input.files) {
      try {
        stored.push(await storeSpooled(store, file, input.dir));
      } catch (error) {
        if (!(error instanceof FileRefused)) throw error;
        problems.push(error.message);
      }
    }
  }
  if (problems.length) throw invalid(problems.join(" "), { files: problems.join(" ") });
  const now = new Date().toISOString();
  const ids = stored.map(() => crypto.randomUUID());
  await writeTransaction(db, async (trx) => {
    await keepStoredFiles(trx, store, stored);
    await trx
      .insertInto("evidence_files")
      .values(
        stored.map((s, i) => ({
          id: ids[i]!,
          assessment_kind: assessment.kind,
          assessment_id: assessment.id,
          student_id: assessment.student.id,
          sha256: s.sha256,
          thumbnail_sha256: s.thumbnailSha256,
          media_type: s.mediaType,
          size_bytes: s.size,
          original_name: s.name,
          uploaded_by: actor.id,
          uploaded_at: now,
        })),
      )
      .execute();
    // on an assessment already judged, the files' keep-until day is known now
    await stampKeepUntil(trx, { assessment });
    await recordAudit(trx, {
      action: "evidence.uploaded",
      actor,
      subject: { type: `${assessment.kind}_assessment`, id: assessment.id, userId: assessment.student.id },
      detail: `${stored.length} file${stored.length === 1 ? "" : "s"}`,
      now,
    });
  });
  const rows = await filesQuery(db).where("evidence_files.id", "in", ids).orderBy("evidence_files.original_name").execute();
  return rows.map(toFile);
}

/**
 * A stored file's download by staff goes into the audit trail, naming its bytes (the hash); a
 * learner reading their own file is not audited. Evidence and a learner's documents alike.
 */
export async function recordStaffDownload(
  db: DB,
  viewer: EvidenceViewer & { client?: string | null },
  file: {
    action: "evidence.downloaded" | "evidence.thumbnail_downloaded" | "learner_document.downloaded";
    type: string;
    id: string;
    student_id: string;
    sha256: string;
  },
): Promise<void> {
  if (viewer.role === "student") return;
  await recordAuditAlone(db, {
    action: file.action,
    actor: { id: viewer.id, client: viewer.client },
    subject: { type: file.type, id: file.id, userId: file.student_id },
    detail: file.sha256,
  });
}

/**
 * Each download by staff is audited, the file's or its thumbnail's (a thumbnail shows the photo
 * too, so it is a look at the learner's evidence like any other); a learner reading their own
 * evidence is not.
 */
export function recordEvidenceDownload(db: DB, viewer: EvidenceViewer & { client?: string | null }, file: EvidenceFile, thumbnail = false): Promise<void> {
  if (thumbnail)
    return recordStaffDownload(db, viewer, {
      action: "evidence.thumbnail_downloaded",
      type: "evidence_file",
      id: file.id,
      student_id: file.student_id,
      sha256: file.thumbnail_sha256 ?? file.sha256,
    });
  return recordStaffDownload(db, viewer, {
    action: "evidence.downloaded",
    type: "evidence_file",
    id: file.id,
    student_id: file.student_id,
    sha256: file.sha256,
  });
}

/** The evidence a learner sees: their own assessments' files, newest first. */
export async function listOwnEvidence(db: DB, studentId: string): Promise<EvidenceFile[]> {
  const rows = await filesQuery(db).where("evidence_files.student_id", "=", studentId).orderBy("evidence_files.uploaded_at", "desc").limit(500).execute();
  return rows.map(toFile);
}

export type Signature = Pick<Selectable<AssessmentSignaturesTable>, "role" | "full_name" | "signed_at" | "client">;

export const SIGNATURE_MESSAGES = {
  nameMismatch: (role: SignatureRole) => `Type the ${role === "assessor" ? "assessor's" : "candidate's"} full name exactly as it is on their record.`,
  signedAlready: (role: SignatureRole) => `The ${role}'s declaration is signed already.`,
} as const;

/** The declarations signed on an assessment. */
export async function listSignatures(db: DB, ref: AssessmentRef): Promise<Signature[]> {
  const rows = await db
    .selectFrom("assessment_signatures")
    .select(["role", "full_name", "signed_at", "client"])
    .where("assessment_kind", "=", ref.kind)
    .where("assessment_id", "=", ref.id)
    .orderBy("signed_at")
    .execute();
  return rows;
}

const normalName = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * Signs a declaration on an assessment: the assessor as themselves; the candidate from their
 * own login, or on the assessor's device (the assessor signed in, the candidate typing). The
 * typed name must be the signer's name on record; the time and the browser are kept with it.
 * Each declaration is signed once (a unique key refuses a second).
 */
export async function signAssessment(
  db: DB,
  input: { assessment: EvidenceAssessment; role: SignatureRole; full_name: string; userAgent: string | null; actor: SignedInActorRef },
): Promise<void> {
  const actor = signedInActor(input.actor);
  const { assessment, role } = input;
  const byAssessor = assessment.assessor?.id === actor.id;
  const allowed = role === "assessor" ? byAssessor : byAssessor || assessment.student.id === actor.id;
  if (!allowed) throw notFound("Assessment");
  const expected = role === "assessor" ? assessment.assessor!.full_name : assessment.student.full_name;
  if (normalName(input.full_name) !== normalName(expected))
    throw invalid(SIGNATURE_MESSAGES.nameMismatch(role), { full_name: SIGNATURE_MESSAGES.nameMismatch(role) });
  const now = new Date().toISOString();
  await writeTransaction(db, async (trx) => {
    const existing = await trx
      .selectFrom("assessment_signatures")
      .select("id")
      .where("assessment_kind", "=", assessment.kind)
      .where("assessment_id", "=", assessment.id)
      .where("role", "=", role)
      .executeTakeFirst();
    if (existing) throw invalid(SIGNATURE_MESSAGES.signedAlready(role), { full_name: SIGNATURE_MESSAGES.signedAlready(role) });
    await trx
      .insertInto("assessment_signatures")
      .values({
        id: crypto.randomUUID(),
        assessment_kind: assessment.kind,
        assessment_id: assessment.id,
        role,
        full_name: input.full_name.trim().replace(/\s+/g, " "),
        signed_at: now,
        client: input.userAgent?.slice(0, 300) ?? null,
        signed_by: actor.id,
      })
      .execute();
    await recordAudit(trx, {
      action: "assessment.signed",
      actor,
      subject: { type: `${assessment.kind}_assessment`, id: assessment.id, userId: assessment.student.id },
      detail: role,
      now,
    });
  });
}

/** A learner's assessments that have evidence, each with its files and declarations, newest first. */
export async function ownEvidenceByAssessment(
  db: DB,
  studentId: string,
): Promise<{ assessment: EvidenceAssessment; files: EvidenceFile[]; signatures: Signature[] }[]> {
  const files = await listOwnEvidence(db, studentId);
  const groups = new Map<string, EvidenceFile[]>();
  for (const f of files) {
    const key = `${f.assessment_kind}:${f.assessment_id}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const out = [];
  for (const group of groups.values()) {
    const ref = { kind: group[0]!.assessment_kind, id: group[0]!.assessment_id };
    const assessment = await findEvidenceAssessment(db, ref);
    if (!assessment || assessment.student.id !== studentId) continue;
    out.push({ assessment, files: group.reverse(), signatures: await listSignatures(db, ref) });
  }
  return out;
}
