import type { DB } from "#db/connection";
import { CURRENT_ENROLLMENT_STATUSES } from "#db/schema";
import { countPendingAssessments } from "./assessment.server";
import { countCompletedAwaitingCertificate } from "./certificates/certificate-due.server";
import { countStudying } from "./trainer-students.server";

/** The dashboard figures (GET /api/dashboard/stats), plus the enrolments under way for the overview card. */
export interface DashboardStats {
  total_students: number;
  active_courses: number;
  completed_courses: number;
  completion_rate: number;
  tier_1_completions: number;
  tier_2_completions: number;
  tier_3_completions: number;
  total_enrollments: number;
  active_enrollments: number;
}

/** A percentage as a whole number; 0 when there is nothing to divide by. */
export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 100) : 0;
}

/**
 * Enrolments counted per (course, status): the enrollment_counts table, which triggers keep
 * exact (migration 2026-11-22T1900), so no enrolment is read. Join the result to courses.
 */
export function enrollmentCountsByCourseAndStatus(db: DB) {
  return db.selectFrom("enrollment_counts").select(["enrollment_counts.course_id", "enrollment_counts.status", "enrollment_counts.n"]);
}

/**
 * The administrator dashboard figures, computed by the database in three aggregate queries
 * (no rows are loaded). completed_courses counts completed enrolments; completion_rate is
 * completed enrolments over all enrolments.
 */
export async function getDashboardStats(db: DB): Promise<DashboardStats> {
  const [students, courses, enrollments] = await Promise.all([
    // kept by triggers (user_counts): no user is read
    db
      .selectFrom("user_counts")
      .select((eb) => eb.fn.sum<number | string | null>("n").as("n"))
      .where("role", "=", "student")
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("courses")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("is_active", "=", 1)
      .executeTakeFirstOrThrow(),
    // Kept counts per (course, status), joined to the few courses: no enrolment is read.
    db
      .selectFrom(enrollmentCountsByCourseAndStatus(db).as("e"))
      .innerJoin("courses", "courses.id", "e.course_id")
      .select((eb) => {
        const completedIn = (tier: "tier_1" | "tier_2" | "tier_3") =>
          eb.fn.sum(
            eb
              .case()
              .when(eb.and([eb("e.status", "=", "completed"), eb("courses.tier", "=", tier)]))
              .then(eb.ref("e.n"))
              .else(0)
              .end(),
          );
        return [
          eb.fn.sum("e.n").as("total"),
          eb.fn.sum(eb.case().when("e.status", "=", "completed").then(eb.ref("e.n")).else(0).end()).as("completed"),
          eb.fn.sum(eb.case().when("e.status", "in", CURRENT_ENROLLMENT_STATUSES).then(eb.ref("e.n")).else(0).end()).as("active"),
          completedIn("tier_1").as("tier_1"),
          completedIn("tier_2").as("tier_2"),
          completedIn("tier_3").as("tier_3"),
        ];
      })
      .executeTakeFirstOrThrow(),
  ]);
  // SUM over no rows is NULL; PostgreSQL returns counts and sums as strings.
  const n = (v: unknown) => Number(v ?? 0);
  const total = n(enrollments.total);
  const completed = n(enrollments.completed);
  return {
    total_students: n(students.n),
    active_courses: n(courses.n),
    completed_courses: completed,
    completion_rate: percent(completed, total),
    tier_1_completions: n(enrollments.tier_1),
    tier_2_completions: n(enrollments.tier_2),
    tier_3_completions: n(enrollments.tier_3),
    total_enrollments: total,
    active_enrollments: n(enrollments.active),
  };
}

/** The trainer overview's figures, each computed by the database (see the functions named). */
export interface TrainerStats {
  /** active students with a current enrolment (myStudentsQuery, counted by triggers: countStudying) */
  my_students: number;
  /** see PENDING_ASSESSMENT_DEFINITION in assessment.server.ts */
  pending_assessments: number;
  /** every certificate on record */
  certificates_issued: number;
  /** completed enrolments without a certificate */
  awaiting_certificates: number;
  active_courses: number;
}

export async function getTrainerStats(db: DB): Promise<TrainerStats> {
  const [students, pending, certificates, awaiting, courses] = await Promise.all([
    countStudying(db),
    countPendingAssessments(db),
    // kept by triggers (certificate_count, migration 2026-12-05T1550)
    db.selectFrom("certificate_count").select("n").executeTakeFirstOrThrow(),
    countCompletedAwaitingCertificate(db),
    db
      .selectFrom("courses")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("is_active", "=", 1)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    my_students: students,
    pending_assessments: pending,
    certificates_issued: Number(certificates.n),
    awaiting_certificates: awaiting,
    active_courses: Number(courses.n),
  };
}
