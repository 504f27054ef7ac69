import type { Role } from "#db/schema";
import { MINIMUM_AGE } from "~/schemas/hrw-codes";
import { ageOn } from "./hrw/hrw-calendar.server";
import type { CandidateChecks } from "./hrw/hrw-candidate.server";
import { type DB } from "#db/connection";
import { recordAuditAlone, type AuditActor } from "./audit.server";
import { searchStudents, type StudentDetail, type StudentSearch } from "./student.server";
import type { PublicUser } from "./user.server";
import type { EnrollmentReview } from "./review.server";
import { usiStatus, type UsiStatus } from "./usi.server";

/**
 * Which fields of a person's record each reader may see: the one place that decides it. Every
 * page, CSV and /api answer that shows another person's record to staff passes it through
 * here.
 *
 * - Contact fields (name, email, phone, student number, active, and the account's role and
 *   dates): the person, trainers and administrators.
 * - Sensitive fields (USI, date of birth, address, emergency contact, licence number, every
 *   AVETMISS detail): the person and administrators. A trainer sees where the USI stands
 *   (usi_status) instead, and the USI and date of birth only on the page where they verify the
 *   USI with the Registry (which matches it against name and date of birth), one student at a
 *   time, each view in the audit trail (USI_CHECK_FIELDS).
 */

export const CONTACT_FIELDS = ["id", "email", "full_name", "phone", "student_number", "is_active", "role", "created_at", "last_login"] as const;

/** The fields of PublicUser only the person and administrators read (the AVETMISS details are a record of their own). */
export const SENSITIVE_FIELDS = ["usi", "usi_verified_at", "usi_claimed", "date_of_birth", "address", "emergency_contact", "license_number"] as const;

export type ContactField = (typeof CONTACT_FIELDS)[number];
export type SensitiveField = (typeof SENSITIVE_FIELDS)[number];

/** A person as a trainer reads them. */
export type ContactView = Pick<PublicUser, ContactField> & { usi_status: UsiStatus };

export interface Reader {
  id: string;
  role: Role;
}

/** Whether `reader` may read the sensitive fields of `subjectId`'s record. */
export function readsSensitive(reader: Reader, subjectId: string): boolean {
  return reader.role === "admin" || reader.id === subjectId;
}

/** The contact fields of a record, with where its USI stands. */
export function contactView(user: PublicUser): ContactView {
  const view = Object.fromEntries(CONTACT_FIELDS.map((field) => [field, user[field]])) as Pick<PublicUser, ContactField>;
  return { ...view, usi_status: usiStatus(user) };
}

/** A person's record as `reader` may read it: whole for themselves and administrators, else the contact view. */
export function personFor(reader: Reader, user: PublicUser): PublicUser | ContactView {
  return readsSensitive(reader, user.id) ? user : contactView(user);
}

/** The sensitive fields a trainer reads on the USI check page: what the USI Registry matches. */
export const USI_CHECK_FIELDS = ["usi", "date_of_birth"] as const satisfies readonly SensitiveField[];

/**
 * A student's record as the USI check page shows it to a staff member verifying the USI: name,
 * email, USI, date of birth and when the USI was verified. Each view is an audit entry naming
 * the fields read. Null for an unknown id or an account that is not a student's.
 */
export async function usiCheckFor(
  db: DB,
  input: { studentId: string; viewer: AuditActor },
): Promise<{ id: string; full_name: string; email: string; usi: string | null; date_of_birth: string | null; usi_verified_at: string | null } | null> {
  const student = await db
    .selectFrom("users")
    .select(["id", "full_name", "email", ...USI_CHECK_FIELDS, "usi_verified_at"])
    .where("id", "=", input.studentId)
    .where("role", "=", "student")
    .executeTakeFirst();
  if (!student) return null;
  await recordAuditAlone(db, { action: "usi.viewed", actor: input.viewer, subject: { type: "user", id: student.id }, fields: [...USI_CHECK_FIELDS] });
  return student;
}

/** Whether a reader of this role may read a field of other people's records (lists and CSV columns). */
export function roleReadsField(role: Role, field: string): boolean {
  return role === "admin" || !(SENSITIVE_FIELDS as readonly string[]).includes(field);
}

/** A trainer's view of a student's record: contact fields, where the USI stands, and the training record. */
export type StudentDetailContactView = Omit<StudentDetail, "student" | "usi_held_by" | "avetmiss" | "files"> & { student: ContactView };

/** A student's record as `reader` may read it: whole for administrators, without the personal details for trainers. */
export function studentDetailFor(reader: Reader, detail: StudentDetail): StudentDetail | StudentDetailContactView {
  if (readsSensitive(reader, detail.student.id)) return detail;
  const { student, usi_held_by: _holder, avetmiss: _avetmiss, files: _files, ...record } = detail;
  return { ...record, student: contactView(student) };
}

/**
 * A person's own record as they see it: a USI they gave that someone else holds shows as theirs,
 * not yet verified, exactly as any new USI does, so their own pages tell them nothing about
 * another person (the training office sees the clash).
 */
export function ownRecord(user: PublicUser): PublicUser {
  if (!user.usi_claimed) return user;
  return { ...user, usi: user.usi_claimed, usi_verified_at: null, usi_claimed: null };
}

/**
 * A high-risk work candidate's checks as a trainer reads them: that the date of birth was
 * sighted and whether the candidate is MINIMUM_AGE or older on `today` (a yes or no worked out
 * here, never the date), and each prerequisite licence's class and expiry without its number.
 * The booking itself checks the age on the assessment date on the server (missingChecks).
 */
export interface CandidateChecksContactView extends Omit<CandidateChecks, "age" | "prerequisites"> {
  age: { adult: boolean; checked_by: string; checked_at: string } | null;
  prerequisites: Array<Omit<CandidateChecks["prerequisites"][number], "licence_number">>;
}

/** A candidate's checks as `reader` may read them: whole for administrators and the candidate, else the contact view. */
export function candidateChecksFor(reader: Reader, checks: CandidateChecks, today: string): CandidateChecks | CandidateChecksContactView {
  if (readsSensitive(reader, checks.candidate.id)) return checks;
  const { age, prerequisites, ...rest } = checks;
  return {
    ...rest,
    age: age && { adult: ageOn(age.date_of_birth, today) >= MINIMUM_AGE, checked_by: age.checked_by, checked_at: age.checked_at },
    prerequisites: prerequisites.map(({ licence_number: _number, ...licence }) => licence),
  };
}

/**
 * A page of students as `reader` may read them (GET /api/admin/students): whole records for
 * administrators, the contact view for trainers. A page that carries sensitive fields (USIs,
 * dates of birth, addresses) is a bulk read of personal data and goes into the audit trail,
 * naming the fields, never a value; the search text (a name, an email) is not kept either.
 */
export async function studentPageFor(db: DB, reader: AuditActor & { id: string; role: Role }, search: StudentSearch) {
  const page = await searchStudents(db, search);
  const students = page.students.map((student) => personFor(reader, student));
  if (page.students.some((student) => readsSensitive(reader, student.id))) {
    await recordAuditAlone(db, {
      action: "students.listed",
      actor: { id: reader.id, client: reader.client },
      subject: { type: "students", id: null },
      fields: SENSITIVE_FIELDS,
      detail: `${students.length} of ${page.total} students, page ${page.page}`,
    });
  }
  return { ...page, students };
}

/**
 * The pre-enrolment review is personal: the learner and administrators read all of it (each
 * attempt's answers and scores, the advice shown, who overrode the outcome and why). A trainer
 * reads what they plan support from: where the enrolment stands, the outcome and the groups
 * needing support (the class roster shows no more).
 */
export const REVIEW_TRAINER_FIELDS = ["enrollment_id", "student_id", "course_id", "status", "outcome", "support"] as const;
export type ReviewTrainerView = Pick<EnrollmentReview, (typeof REVIEW_TRAINER_FIELDS)[number]>;

export function enrollmentReviewFor(reader: Reader, review: EnrollmentReview): EnrollmentReview | ReviewTrainerView {
  if (readsSensitive(reader, review.student_id)) return review;
  return Object.fromEntries(REVIEW_TRAINER_FIELDS.map((f) => [f, review[f]])) as ReviewTrainerView;
}

/**
 * Complaints and appeals are personal: what a person wrote and how to reach them. Admins read
 * every item whole; the person who lodged one reads it whole. A trainer reads only the appeals
 * assigned to them to decide (the query's scope, complaint.server.ts), and of those what deciding
 * needs: the learner's name, the assessment and what they wrote, never the contact details.
 */
export interface ComplaintReader {
  id: string;
  role: Role;
}

/** The contact fields of a complaint only admins and the person who lodged it read. */
export const COMPLAINT_CONTACT_FIELDS = ["email", "phone"] as const;

export function complaintFieldsFor<T extends { lodged_by: string | null; email: string | null; phone: string | null }>(reader: ComplaintReader, item: T): T {
  if (reader.role === "admin" || item.lodged_by === reader.id) return item;
  return { ...item, email: null, phone: null };
}
