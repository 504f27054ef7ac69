import { learnerDocumentUrl, listLearnerDocuments, type LearnerDocument } from "./learner-document.server";
import { writeTransaction, type DB } from "#db/connection";
import { countUpTo, SEARCH_COUNT_LIMIT, type CappedCount } from "./batches.server";
import { dialectSql } from "#db/dialect";
import { sql } from "kysely";
import type { AssessmentStatus } from "#db/schema";
import { hashPassword } from "~/security/password.server";
import { assertAcceptablePassword } from "~/security/password-policy.server";
import type { StudentCreateInput, StudentIssue, StudentPatch, StudentStatusFilter } from "~/schemas/student";
import { notFound } from "~/utils/errors";
import { listCertificatesForStudent, type CertificateSummary } from "./certificates/certificate.server";
import { CERTIFICATE_GRACE_DAYS, overdueCertificateEnrollments } from "./certificates/certificate-due.server";
import { listEnrollmentsForStudent, type StudentEnrollment } from "./student-enrollments.server";
import { actorOf, recordAuditAlone, recordStudentEdit, type ActorRef, type AuditActor } from "./audit.server";
import { recordEvent } from "./event.server";
import { assertUsiFree, officeVerifiesUsi, recordUsiVerification, usiChange } from "./usi.server";
import { verifyUsiAndIssue } from "./usi-verification.server";
import { avetmissChanges, getAvetmissDetails, type AvetmissDetails } from "~/models/avetmiss-details.server";
import { AVETMISS_FIELDS } from "~/schemas/avetmiss-details";
import { assertEmailFree, getStudentById, getUserById, insertUser, publicUserColumns, revokeAllAccess, toPublicUser, type PublicUser } from "./user.server";

/**
 * The administrator's view of student records: search, the profile, edits and new accounts.
 * Only users with the student role are reached from here.
 */

export { ISSUE_LABELS, STUDENT_ISSUES, STUDENT_STATUSES, type StudentIssue, type StudentStatusFilter } from "~/schemas/student";

export { CERTIFICATE_GRACE_DAYS };

export interface StudentSearch {
  q?: string | null;
  status?: StudentStatusFilter | null;
  issue?: StudentIssue | null;
  page?: number;
  pageSize?: number;
  /** the clock for the 30-day rule; tests pin it */
  now?: Date;
}

export interface StudentPage {
  students: PublicUser[];
  /** the students matching, or STUDENT_COUNT_LIMIT when more match a search (see totalCapped) */
  total: number;
  /** more than `total` students match: a search or an issue list counts no further */
  totalCapped: boolean;
  page: number;
  pageSize: number;
  pageCount: number;
}

/** How far a search or an issue list of students counts its matches. */
export const STUDENT_COUNT_LIMIT = SEARCH_COUNT_LIMIT;

export const STUDENT_PAGE_SIZE = 20;

/** Completed enrolments with no completion date (the "undated-completion" list and the record check count them). */
export function undatedCompletions(db: DB) {
  return db.selectFrom("enrollments").where("enrollments.status", "=", "completed").where("enrollments.completion_date", "is", null);
}

/**
 * The students a search names, as a query: searchStudents counts and pages it, and the record
 * checks count the students of each issue with it, so a check and the list it links to agree.
 */
export function filteredStudents(db: DB, search: StudentSearch) {
  const term = search.q?.trim() ?? "";
  const dialect = dialectSql(db);
  const byIndex = dialect.isIndexedUserSearch(term);
  let query = db.selectFrom("users").where(dialect.unindexed("users.role", byIndex), "=", "student");
  if (search.status === "active") query = query.where(dialect.unindexed("users.is_active", byIndex), "=", 1);
  if (search.status === "inactive") query = query.where(dialect.unindexed("users.is_active", byIndex), "=", 0);
  if (term) query = query.where(dialect.userTextMatches(term, "users"));
  // The blank strings are written into the SQL, not bound: the partial indexes of these lists
  // (migration 2026-11-26T0820) are used only when the query states their condition word for word.
  const blank = sql.lit("");
  if (search.issue === "missing-dob") {
    query = query.where("users.is_active", "=", 1).where((eb) => eb.or([eb("users.date_of_birth", "is", null), eb("users.date_of_birth", "=", blank)]));
  } else if (search.issue === "missing-contact") {
    query = query
      .where("users.is_active", "=", 1)
      .where((eb) =>
        eb.or([
          eb("users.phone", "is", null),
          eb("users.phone", "=", blank),
          eb("users.emergency_contact", "is", null),
          eb("users.emergency_contact", "=", blank),
        ]),
      );
  } else if (search.issue === "uncertified") {
    // The students of a list read once, not a correlated EXISTS: SQLite ran that one per
    // student over every overdue enrolment (77 s at 20k students).
    query = query.where("users.id", "in", overdueCertificateEnrollments(db, search.now ?? new Date()).select("enrollments.student_id"));
  } else if (search.issue === "undated-completion") {
    query = query.where("users.id", "in", undatedCompletions(db).select("enrollments.student_id"));
  } else if (search.issue === "usi-clash") {
    query = query.where("users.usi_claimed", "is not", null);
  }
  return query;
}

/**
 * One page of students, newest first, filtered and paged in SQL (a count and a LIMIT/OFFSET
 * page), so the list stays fast with tens of thousands of records. A page past the end gives
 * the last page.
 */
export async function searchStudents(db: DB, search: StudentSearch = {}): Promise<StudentPage> {
  const pageSize = Math.min(100, Math.max(1, Math.floor(search.pageSize ?? STUDENT_PAGE_SIZE)));
  const { total, totalCapped } = await countStudents(db, search);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const requested = Number.isFinite(search.page) ? Math.floor(search.page!) : 1;
  const page = Math.min(pageCount, Math.max(1, requested));
  const rows = await filteredStudents(db, search)
    .select(publicUserColumns)
    // NULLS LAST spelled out: SQLite's default for DESC, where PostgreSQL's is NULLS FIRST.
    .orderBy("users.created_at", (o) => o.desc().nullsLast())
    .orderBy("users.id")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { students: rows.map(toPublicUser), total, totalCapped, page, pageSize, pageCount };
}

/**
 * The students a list shows: unsearched, from the kept per-role counts (user_counts), exact
 * and without reading a user; searched or narrowed to an issue, counted up to
 * STUDENT_COUNT_LIMIT and no further.
 */
async function countStudents(db: DB, search: StudentSearch): Promise<CappedCount> {
  if (!search.q?.trim() && !search.issue) {
    let query = db
      .selectFrom("user_counts")
      .select((eb) => eb.fn.sum<number | string | null>("n").as("n"))
      .where("role", "=", "student");
    if (search.status === "active") query = query.where("is_active", "=", 1);
    if (search.status === "inactive") query = query.where("is_active", "=", 0);
    const row = await query.executeTakeFirstOrThrow();
    return { total: Number(row.n ?? 0), totalCapped: false };
  }
  return countUpTo(db, filteredStudents(db, search).select("users.id"), STUDENT_COUNT_LIMIT);
}

/** A student's record for the office's edit form, which shows the USI: a staff view of it, audited. */
export async function getStudentForEdit(db: DB, id: string, shownTo: AuditActor): Promise<PublicUser | null> {
  const student = await getStudentById(db, id);
  if (student && (student.usi || student.usi_claimed))
    await recordAuditAlone(db, { action: "usi.viewed", actor: shownTo, subject: { type: "user", id }, detail: "edit form" });
  return student;
}

/** The newest students (the overview's Recent Students). */
export async function listRecentStudents(db: DB, limit = 5): Promise<PublicUser[]> {
  const rows = await db
    .selectFrom("users")
    .select(publicUserColumns)
    .where("users.role", "=", "student")
    // NULLS LAST spelled out: SQLite's default for DESC, where PostgreSQL's is NULLS FIRST.
    .orderBy("users.created_at", (o) => o.desc().nullsLast())
    .orderBy("users.id")
    .limit(limit)
    .execute();
  return rows.map(toPublicUser);
}

/** A learner's document as the profile lists it (models/learner-document.server.ts). */
export type StudentFile = Omit<LearnerDocument, "student_id" | "sha256"> & {
  /** where it downloads from; null for a document recorded without its bytes */
  download_url: string | null;
};

export interface StudentAssessment {
  id: string;
  course_name: string;
  assessment_type: string;
  status: AssessmentStatus;
  score: number | null;
  max_score: number | null;
  assessment_date: string;
  feedback: string | null;
}

/** One student's record as the admin profile and GET /api/admin/students/{id} show it. */
export interface StudentDetail {
  student: PublicUser;
  /** who holds the USI this student gave (student.usi_claimed), for the office to settle */
  usi_held_by: { id: string; full_name: string; student_number: string | null } | null;
  /** the learner's AVETMISS details (codes; null is not stated) */
  avetmiss: AvetmissDetails;
  enrollments: StudentEnrollment[];
  certificates: CertificateSummary[];
  files: StudentFile[];
  assessments: StudentAssessment[];
  summary: { total_enrollments: number; completed_courses: number; total_certificates: number; avg_progress: number };
}

/** Everything the Student Profile shows, or null when no student has this id. */
export async function getStudentDetail(db: DB, id: string, shownTo?: AuditActor): Promise<StudentDetail | null> {
  const row = await db.selectFrom("users").select(publicUserColumns).where("users.id", "=", id).where("users.role", "=", "student").executeTakeFirst();
  if (!row) return null;
  const [usiHolder, avetmiss, enrollments, certificates, files, assessments, summary] = await Promise.all([
    row.usi_claimed
      ? db.selectFrom("users").select(["id", "full_name", "student_number"]).where("usi", "=", row.usi_claimed).where("id", "!=", id).executeTakeFirst()
      : undefined,
    getAvetmissDetails(db, id),
    listEnrollmentsForStudent(db, id),
    listCertificatesForStudent(db, id),
    listLearnerDocuments(db, id).then((documents) =>
      documents.map(({ sha256, student_id: _student, ...d }): StudentFile => ({ ...d, download_url: sha256 ? learnerDocumentUrl(d.id) : null })),
    ),
    db
      .selectFrom("assessments")
      .innerJoin("courses", "courses.id", "assessments.course_id")
      .select([
        "assessments.id",
        "courses.name as course_name",
        "assessments.assessment_type",
        "assessments.status",
        "assessments.score",
        "assessments.max_score",
        "assessments.assessment_date",
        "assessments.feedback",
      ])
      .where("assessments.student_id", "=", id)
      .orderBy("assessments.assessment_date", "desc")
      .orderBy("assessments.id")
      .execute(),
    db
      .selectFrom("enrollments")
      .select((eb) => [
        eb.fn.countAll().as("total"),
        eb.fn.sum(eb.case().when("status", "=", "completed").then(1).else(0).end()).as("completed"),
        eb.fn.avg("progress_percentage").as("avg_progress"),
        eb
          .selectFrom("certificates")
          .select((c) => c.fn.countAll().as("n"))
          .where("certificates.student_id", "=", id)
          .as("certificates"),
      ])
      .where("student_id", "=", id)
      .executeTakeFirstOrThrow(),
  ]);
  // an administrator reading the record reads the USI: staff views of a USI are audited
  if (shownTo && (row.usi || row.usi_claimed)) await recordAuditAlone(db, { action: "usi.viewed", actor: shownTo, subject: { type: "user", id } });
  return {
    student: toPublicUser(row),
    usi_held_by: usiHolder ?? null,
    avetmiss: avetmiss!,
    enrollments,
    certificates,
    files,
    assessments,
    summary: {
      total_enrollments: Number(summary.total),
      completed_courses: Number(summary.completed ?? 0),
      total_certificates: Number(summary.certificates ?? 0),
      avg_progress: Math.round(Number(summary.avg_progress ?? 0)),
    },
  };
}

/**
 * An administrator's change to a student record; fields left out stay as they are. A taken
 * email or USI is a 409; a changed USI loses its verification, and `usi_verified` (or an
 * exemption code as the USI: officeVerifiesUsi) records the administrator's verification of
 * the USI as it stands after the change. Deactivating ends
 * every session and API token of the student in the same transaction, so their very next
 * request is signed out.
 */
export async function updateStudent(db: DB, id: string, input: StudentPatch, actorRef: ActorRef, now = new Date()): Promise<PublicUser> {
  const at = now.toISOString();
  const actor = actorOf(actorRef);
  const actorId = actor.id;
  return writeTransaction(db, async (trx) => {
    const current = await trx.selectFrom("users").selectAll().where("id", "=", id).where("role", "=", "student").executeTakeFirst();
    if (!current) throw notFound("Student");
    if (input.email !== undefined) await assertEmailFree(trx, input.email, id);
    await assertUsiFree(trx, input.usi, id);
    // the office's USI settles any USI the learner gave that someone else holds
    const usiColumns = input.usi === undefined ? {} : { ...usiChange(current, input.usi), usi_claimed: null };
    const details = AVETMISS_FIELDS.some((f) => input[f] !== undefined) ? avetmissChanges(input, (await getAvetmissDetails(trx, id))!) : {};
    const changes = Object.fromEntries(
      Object.entries({
        full_name: input.full_name,
        email: input.email,
        phone: input.phone,
        address: input.address,
        date_of_birth: input.date_of_birth,
        emergency_contact: input.emergency_contact,
        license_number: input.license_number,
        is_active: input.is_active === undefined ? undefined : input.is_active ? 1 : 0,
      }).filter(([, v]) => v !== undefined),
    );
    await trx
      .updateTable("users")
      .set({ ...changes, ...details, ...usiColumns, updated_at: at })
      .where("id", "=", id)
      .execute();
    await recordStudentEdit(trx, { current, written: { ...changes, ...details, ...usiColumns }, actor, now: at });
    const verifiedAfter = "usi" in usiColumns ? false : current.usi_verified_at !== null;
    if (officeVerifiesUsi(input) && !verifiedAfter) {
      // verified by the office: the learner's waiting certificates are issued at once, as a trainer's check issues them
      await verifyUsiAndIssue(trx, { studentId: id, actor: { id: actorId ?? "", role: "admin", client: actor.client }, now });
    }
    const deactivated = current.is_active === 1 && input.is_active === false;
    const reactivated = current.is_active === 0 && input.is_active === true;
    if (deactivated) await revokeAllAccess(trx, id);
    const name = input.full_name ?? current.full_name;
    await recordEvent(trx, {
      actorId,
      subjectUserId: id,
      type: deactivated ? "student.deactivated" : reactivated ? "student.reactivated" : "student.updated",
      entityType: "user",
      entityId: id,
      message: deactivated
        ? `${name}'s account was deactivated`
        : reactivated
          ? `${name}'s account was reactivated`
          : `${name}'s record was updated by the training office`,
      now: at,
    });
    return (await getUserById(trx, id))!;
  });
}

const EMPTY_DETAILS = Object.fromEntries(
  AVETMISS_FIELDS.map((f) => [f, f === "disability_types" || f === "prior_education_types" ? [] : null]),
) as unknown as AvetmissDetails;

/** Add Student: an active, approved student account with the password the office sets. */
export async function createStudent(db: DB, input: StudentCreateInput, actorId: string | null, now = new Date()): Promise<PublicUser> {
  const at = now.toISOString();
  await assertAcceptablePassword(input.password, "student");
  const password_hash = await hashPassword(input.password);
  return writeTransaction(db, async (trx) => {
    await assertEmailFree(trx, input.email);
    await assertUsiFree(trx, input.usi, null);
    const id = await insertUser(
      trx,
      {
        email: input.email,
        full_name: input.full_name,
        password_hash,
        role: "student",
        phone: input.phone,
        address: input.address,
        date_of_birth: input.date_of_birth,
        emergency_contact: input.emergency_contact,
        license_number: input.license_number,
        usi: input.usi,
        ...avetmissChanges(input, EMPTY_DETAILS),
        is_active: input.is_active ? 1 : 0,
        approval_status: "approved",
      },
      at,
    );
    await recordEvent(trx, {
      actorId,
      subjectUserId: id,
      type: "account.created",
      entityType: "user",
      entityId: id,
      message: `Student account created for ${input.full_name} by the training office`,
      now: at,
    });
    if (officeVerifiesUsi(input)) await recordUsiVerification(trx, { studentId: id, actor: { id: actorId ?? "", role: "admin" }, now });
    return (await getUserById(trx, id))!;
  });
}
