import crypto from "node:crypto";
import { sealSecret } from "../../app/auth/secret-box.server";
import type { DB } from "../../db/connection";
import type { EnrollmentStatus, Role, Tier } from "../../db/schema";
import { hashPassword } from "../../app/security/password.server";
import { nextStudentNumber } from "../../app/models/student-number.server";
import { USI_ALPHABET, usiFromBody } from "../../app/rules/usi";

/** A well-formed USI no other test user holds (random body, correct check character). */
export function makeUsi(): string {
  let body = "";
  for (const byte of crypto.randomBytes(9)) body += USI_ALPHABET[byte & 31];
  return usiFromBody(body);
}

/** Inserts a user straight into the database (tests only); password defaults to password123. */
export async function makeUser(
  db: DB,
  overrides: Partial<{
    email: string;
    full_name: string;
    role: Role;
    is_active: boolean;
    approval_status: "approved" | "pending" | "rejected";
    password: string;
    phone: string | null;
    created_at: string | null;
    /** a student gets a fresh USI unless given one (null for none) */
    usi: string | null;
    /** a student's USI is verified unless this is false (issuing a certificate needs it) */
    usi_verified: boolean;
    /**
     * an authenticator secret in use: administrators get one unless this is false (outside the
     * demo an administrator without one can do nothing but set it up)
     */
    two_step: boolean;
    /**
     * a trainer holds a training and assessment credential (TAE40122 since 2000, no expiry) and
     * every unit of the courses on record (and TEST0001) unless this is false, so tests that
     * assign classes or record results need not set credentials up; makeCourse adds its unit
     */
    credentialed: boolean;
    /** a credentialed trainer's units instead of every course's */
    units: string[];
  }> = {},
) {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const email = overrides.email ?? `user-${id.slice(0, 8)}@test.example`;
  await db
    .insertInto("users")
    .values({
      id,
      email,
      full_name: overrides.full_name ?? "Test User",
      password_hash: await hashPassword(overrides.password ?? "password123"),
      role: overrides.role ?? "student",
      phone: overrides.phone === undefined ? "0400 000 000" : overrides.phone,
      address: null,
      date_of_birth: null,
      emergency_contact: null,
      license_number: null,
      ...studentUsi(overrides.role ?? "student", overrides.usi, overrides.usi_verified, now),
      student_number: (overrides.role ?? "student") === "student" ? await nextStudentNumber(db) : null,
      is_active: overrides.is_active === false ? 0 : 1,
      approval_status: overrides.approval_status ?? "approved",
      created_at: overrides.created_at === undefined ? now : overrides.created_at,
      updated_at: now,
      last_login: null,
    })
    .execute();
  if (overrides.role === "trainer" && overrides.credentialed !== false) {
    await db
      .insertInto("trainer_credentials")
      .values({
        id: crypto.randomUUID(),
        trainer_id: id,
        credential: "TAE40122",
        supervisor_id: null,
        issued_on: "2000-01-01",
        expires_on: null,
        note: null,
        recorded_by: id,
        recorded_at: now,
      })
      .execute();
    const units = overrides.units ?? [...new Set(["TEST0001", ...(await db.selectFrom("courses").select("unit_code").execute()).map((c) => c.unit_code)])];
    for (const unit of units) await grantUnit(db, id, unit, now);
  }
  if (overrides.two_step ?? overrides.role === "admin") {
    await db
      .insertInto("two_step")
      .values({ user_id: id, secret: sealSecret(TEST_TOTP_SECRET, id), created_at: now, confirmed_at: now, last_step: null })
      .execute();
  }
  return { id, email };
}

/** The authenticator secret of users made with two_step (base32, as an authenticator app stores it; encrypted in the database). */
export const TEST_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

function studentUsi(role: Role, usi: string | null | undefined, verified: boolean | undefined, now: string) {
  const value = usi === undefined ? (role === "student" ? makeUsi() : null) : usi;
  return { usi: value, usi_verified_at: value && verified !== false ? now : null };
}

/** A trainer's competency in a unit (held, no expiry), unless already recorded (tests make courses side by side, so one statement). */
export async function grantUnit(db: DB, trainerId: string, unitCode: string, now = new Date().toISOString()) {
  await db
    .insertInto("trainer_units")
    .values({
      id: crypto.randomUUID(),
      trainer_id: trainerId,
      unit_code: unitCode,
      basis: "held",
      evidence: null,
      expires_on: null,
      recorded_by: trainerId,
      recorded_at: now,
    })
    .onConflict((oc) => oc.columns(["trainer_id", "unit_code"]).doNothing())
    .execute();
}

export async function makeCourse(
  db: DB,
  overrides: Partial<{
    name: string;
    tier: Tier;
    is_active: boolean;
    price: number;
    learning_outcomes: string[];
    unit_code: string;
    /** the unit's title on the national register; none unless given, as for a course recorded before it was kept */
    official_title: string | null;
    /** every trainer holding a training credential gets the course's unit unless this is false */
    credit_trainers: boolean;
  }> = {},
) {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto("courses")
    .values({
      id,
      unit_code: overrides.unit_code ?? "TEST0001",
      name: overrides.name ?? `Course ${id.slice(0, 6)}`,
      official_title: overrides.official_title ?? null,
      description: "A test course",
      tier: overrides.tier ?? "tier_1",
      duration_hours: 40,
      price_cents: Math.round((overrides.price ?? 1200) * 100),
      is_active: overrides.is_active === false ? 0 : 1,
      prerequisites: "[]",
      learning_outcomes: JSON.stringify(overrides.learning_outcomes ?? ["Outcome one"]),
      assessment_criteria: JSON.stringify(["Criterion one"]),
      created_at: now,
      updated_at: now,
    })
    .execute();
  if (overrides.credit_trainers !== false) {
    const credentialed = await db.selectFrom("trainer_credentials").select("trainer_id").distinct().execute();
    for (const t of credentialed) await grantUnit(db, t.trainer_id, overrides.unit_code ?? "TEST0001", now);
  }
  return { id };
}

export async function makeEnrollment(
  db: DB,
  studentId: string,
  courseId: string,
  overrides: Partial<{ status: EnrollmentStatus; progress: number; enrollment_date: string; completion_date: string | null }> = {},
) {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto("enrollments")
    .values({
      id,
      student_id: studentId,
      course_id: courseId,
      status: overrides.status ?? "enrolled",
      progress_percentage: overrides.progress ?? 0,
      enrollment_date: overrides.enrollment_date ?? now,
      completion_date: overrides.completion_date ?? null,
      updated_at: now,
    })
    .execute();
  return { id };
}

/** A unit assessment of a learner in a fresh course, decided (passed or failed) by an assessor. */
export async function makeDecidedAssessment(db: DB, studentId: string, assessorId: string, status: "passed" | "failed" | "in_progress" = "failed") {
  const course = await makeCourse(db);
  const enrollment = await makeEnrollment(db, studentId, course.id);
  const id = crypto.randomUUID();
  await db
    .insertInto("assessments")
    .values({
      id,
      enrollment_id: enrollment.id,
      student_id: studentId,
      course_id: course.id,
      assessment_type: "Practical",
      status,
      score: null,
      max_score: null,
      assessment_date: "2026-05-01T00:00:00.000Z",
      feedback: null,
      assessed_by: assessorId,
      created_at: new Date().toISOString(),
    })
    .execute();
  return id;
}
