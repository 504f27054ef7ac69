import crypto from "node:crypto";
import { writeTransaction, type DB } from "#db/connection";
import type { CourseUpdate, EnrollmentRow } from "#db/schema";
import type { CourseInput, CoursePatch } from "~/schemas/course";
import { notFound } from "~/utils/errors";
import { getCourse, toCourse, type Course } from "./course.server";
import { actorOf, recordAudit, type ActorRef } from "./audit.server";
import { stampKeepUntil } from "./retention.server";
import { recordEvent } from "./event.server";

/** The catalogue as administrators manage it: create, edit, open or close, and inspect. */

/** Every course, active or not, by tier then name (Course Management). */
export async function listAllCourses(db: DB, options: { status?: "all" | "active" | "inactive" } = {}): Promise<Course[]> {
  let query = db.selectFrom("courses").selectAll();
  if (options.status === "active") query = query.where("is_active", "=", 1);
  if (options.status === "inactive") query = query.where("is_active", "=", 0);
  const rows = await query.orderBy("tier").orderBy("name").orderBy("id").execute();
  return rows.map(toCourse);
}

/** How many courses there are, active or not. */
export async function countAllCourses(db: DB): Promise<number> {
  const row = await db
    .selectFrom("courses")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const licencePrerequisitesColumn = (list: string[] | undefined) => (list?.length ? JSON.stringify([...new Set(list)]) : null);

function toColumns(input: CoursePatch): CourseUpdate {
  const columns: CourseUpdate = {};
  if (input.unit_code !== undefined) columns.unit_code = input.unit_code;
  if (input.name !== undefined) columns.name = input.name;
  if (input.description !== undefined) columns.description = input.description;
  if (input.tier !== undefined) columns.tier = input.tier;
  if (input.duration_hours !== undefined) columns.duration_hours = input.duration_hours;
  if (input.price !== undefined) columns.price_cents = Math.round(input.price * 100);
  if (input.rpl_fee !== undefined) columns.rpl_fee_cents = Math.round(input.rpl_fee * 100);
  if (input.gst_treatment !== undefined) columns.gst_treatment = input.gst_treatment;
  if (input.is_active !== undefined) columns.is_active = input.is_active ? 1 : 0;
  if (input.prerequisites !== undefined) columns.prerequisites = JSON.stringify(input.prerequisites);
  if (input.learning_outcomes !== undefined) columns.learning_outcomes = JSON.stringify(input.learning_outcomes);
  if (input.assessment_criteria !== undefined) columns.assessment_criteria = JSON.stringify(input.assessment_criteria);
  if (input.field_of_education !== undefined) columns.field_of_education = input.field_of_education;
  if (input.official_title !== undefined) columns.official_title = input.official_title;
  if (input.vet_flag !== undefined) columns.vet_flag = input.vet_flag ? 1 : 0;
  if (input.review_required !== undefined) columns.review_required = input.review_required ? 1 : 0;
  if (input.review_retake_days !== undefined) columns.review_retake_days = input.review_retake_days;
  if (input.licence_class !== undefined) columns.licence_class = input.licence_class;
  // an empty list, or a new class without its own list, means the class's default prerequisites
  if (input.licence_prerequisites !== undefined || input.licence_class !== undefined)
    columns.licence_prerequisites = licencePrerequisitesColumn(input.licence_prerequisites);
  return columns;
}

/**
 * Changes a course; fields left out stay as they are (the status toggle sends only
 * is_active). Returns the course as stored. An unknown id is a 404.
 */
export async function updateCourse(db: DB, id: string, input: CoursePatch, actorRef: ActorRef, now = new Date()): Promise<Course> {
  const at = now.toISOString();
  const actor = actorOf(actorRef);
  const actorId = actor.id;
  return writeTransaction(db, async (trx) => {
    const current = await trx.selectFrom("courses").select(["id", "name", "is_active"]).where("id", "=", id).executeTakeFirst();
    if (!current) throw notFound("Course");
    await trx
      .updateTable("courses")
      .set({ ...toColumns(input), updated_at: at })
      .where("id", "=", id)
      .execute();
    // a licence class's own retention rule may now apply to the course's evidence, or no longer
    if (input.licence_class !== undefined) await stampKeepUntil(trx, { courseId: id });
    const keys = Object.keys(input).filter((k) => input[k as keyof CoursePatch] !== undefined);
    const onlyStatus = keys.length === 1 && keys[0] === "is_active";
    const name = input.name ?? current.name;
    await recordAudit(trx, { action: "course.edited", actor, subject: { type: "course", id }, fields: keys, now: at });
    await recordEvent(trx, {
      actorId,
      subjectUserId: null,
      type: onlyStatus ? (input.is_active ? "course.activated" : "course.deactivated") : "course.updated",
      entityType: "course",
      entityId: id,
      message: onlyStatus ? `${name} was ${input.is_active ? "activated" : "deactivated"}` : `${name} was updated`,
      now: at,
    });
    return (await getCourse(trx, id))!;
  });
}

/** Add Course: a new course in the catalogue. */
export async function createCourse(db: DB, input: CourseInput, actorRef: ActorRef, now = new Date()): Promise<Course> {
  const at = now.toISOString();
  const id = crypto.randomUUID();
  const actor = actorOf(actorRef);
  const actorId = actor.id;
  return writeTransaction(db, async (trx) => {
    await trx
      .insertInto("courses")
      .values({
        id,
        unit_code: input.unit_code,
        name: input.name,
        description: input.description,
        tier: input.tier,
        duration_hours: input.duration_hours,
        price_cents: Math.round(input.price * 100),
        rpl_fee_cents: Math.round((input.rpl_fee ?? 0) * 100),
        gst_treatment: input.gst_treatment ?? "gst_free",
        is_active: input.is_active ? 1 : 0,
        prerequisites: JSON.stringify(input.prerequisites),
        learning_outcomes: JSON.stringify(input.learning_outcomes),
        assessment_criteria: JSON.stringify(input.assessment_criteria),
        field_of_education: input.field_of_education ?? null,
        official_title: input.official_title ?? null,
        vet_flag: input.vet_flag === false ? 0 : 1,
        review_required: input.review_required ? 1 : 0,
        review_retake_days: input.review_retake_days ?? 1,
        licence_class: input.licence_class ?? null,
        licence_prerequisites: licencePrerequisitesColumn(input.licence_prerequisites),
        created_at: at,
        updated_at: at,
      })
      .execute();
    await recordAudit(trx, { action: "course.created", actor, subject: { type: "course", id }, detail: input.unit_code, now: at });
    await recordEvent(trx, {
      actorId,
      subjectUserId: null,
      type: "course.created",
      entityType: "course",
      entityId: id,
      message: `${input.name} was added to the catalogue`,
      now: at,
    });
    return (await getCourse(trx, id))!;
  });
}

export type CourseEnrollmentRow = Pick<EnrollmentRow, "id" | "status" | "progress_percentage" | "enrollment_date"> & {
  student_name: string;
  student_email: string;
};

/** One course as Course Details and GET /api/admin/courses/{id} show it: the course and its figures. */
export interface CourseDetail {
  course: Course;
  statistics: { total_enrollments: number; completion_rate: number };
  recent_enrollments: CourseEnrollmentRow[];
}

/** A course with its figures (in SQL) and its 5 newest enrolments, or null. */
export async function getCourseDetail(db: DB, id: string, recent = 5): Promise<CourseDetail | null> {
  const course = await getCourse(db, id);
  if (!course) return null;
  const [stats, recentRows] = await Promise.all([
    db
      .selectFrom("enrollments")
      .select((eb) => [eb.fn.countAll().as("total"), eb.fn.sum(eb.case().when("status", "=", "completed").then(1).else(0).end()).as("completed")])
      .where("course_id", "=", id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("enrollments")
      .innerJoin("users", "users.id", "enrollments.student_id")
      .select([
        "enrollments.id",
        "users.full_name as student_name",
        "users.email as student_email",
        "enrollments.status",
        "enrollments.progress_percentage",
        "enrollments.enrollment_date",
      ])
      .where("enrollments.course_id", "=", id)
      .orderBy("enrollments.enrollment_date", "desc")
      .orderBy("enrollments.id")
      .limit(recent)
      .execute(),
  ]);
  const total = Number(stats.total);
  const completed = Number(stats.completed ?? 0);
  return {
    course,
    statistics: { total_enrollments: total, completion_rate: total === 0 ? 0 : Math.round((completed / total) * 100) },
    recent_enrollments: recentRows,
  };
}
