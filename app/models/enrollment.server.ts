import { nextStudentNumber } from "./student-number.server";
import { formatDate } from "~/utils/format";
import { usiCleared } from "~/rules/usi";
import crypto from "node:crypto";
import { sendWritesAtCommit, takeWritesTurn, writeLater, writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import { isUniqueViolation } from "#db/dialect";
import type { CourseRow, EnrollmentRow, EnrollmentStatus } from "#db/schema";
import { conflict, DomainError, invalid, notFound } from "~/utils/errors";
import { inviteLearnerAfterCompletion } from "./standards/questionnaire.server";
import { issueCertificate } from "./certificates/certificate-issue.server";
import { latestAssessmentOrder } from "./assessment.server";
import { defaultPlannedDates, progressInStatus } from "~/rules/enrollment-rules";
import { defaultLocationId } from "./location.server";
import { recordEvent } from "./event.server";
import { getEnrollmentForTrainer, type TrainerEnrollmentDetail } from "./trainer-students.server";
import { ALREADY_ENROLLED } from "~/schemas/enrollment";
import { organisationInstant } from "~/utils/class-time";
import { organisationDate, organisationToday } from "~/utils/organisation-calendar";
import { assertSeatFree, offerFreeSeats, placeInClass, type Placement } from "./class-seats.server";
import { reviewForNewEnrollment } from "./review.server";
import { billSelfEnrollment, invoiceSelfEnrollment } from "./finance/enrollment-invoice.server";
import { refundPolicyInForce } from "./finance/refund-policy.server";
import { courseScope, learnerScope } from "./write-scopes.server";
import { queueEnrollmentConfirmation, readConfirmationSetting } from "./enrollment-confirmation.server";
import { readWebhookEndpoints } from "./webhook-events.server";
import { changeEnrollmentLater, changeEnrollments, enrollmentCreated } from "./enrollment-change.server";

export { ALREADY_ENROLLED };

/** Whether a user already holds an enrollment in a course (any status). */
export async function isEnrolled(db: DB, studentId: string, courseId: string): Promise<boolean> {
  const row = await db.selectFrom("enrollments").select("id").where("student_id", "=", studentId).where("course_id", "=", courseId).executeTakeFirst();
  return row !== undefined;
}

/** A learner's enrolment in a course as its page reads it: none, one still to choose a class (awaitsClass), or one settled. */
export async function enrollmentState(db: DB, studentId: string, courseId: string): Promise<"none" | "choose-class" | "enrolled"> {
  const row = await db
    .selectFrom("enrollments")
    .select(["class_id", "status"])
    .where("student_id", "=", studentId)
    .where("course_id", "=", courseId)
    .executeTakeFirst();
  if (!row) return "none";
  return awaitsClass(row) ? "choose-class" : "enrolled";
}

/** What an enrolment is made from: createEnrollment's input, which both of its paths read. */
type EnrollmentInput = {
  studentId: string;
  courseId: string;
  classId?: string | null;
  actorId?: string | null;
  now?: Date;
  reviewClaim?: string | null;
  /** a worker taking a seat their employer's booking holds: that class, no seat counted again */
  groupBooking?: { id: string; classId: string };
  /** "self" (the default): the learner pays, by the enrolment page's card payment, and is invoiced; "none": someone else bills it (an employer's booking) */
  billing?: "self" | "none";
  /** false: no confirmation mail (the demo seed, whose learners enrolled long before it is made) */
  confirm?: boolean;
};

/** The enrolment createEnrollment made or settled, as its callers read it. */
type EnrollmentMade = Pick<EnrollmentRow, "id" | "course_id" | "class_id" | "status" | "progress_percentage" | "enrollment_date"> &
  Partial<Pick<EnrollmentRow, "review_status">>;

/** The course an enrolment is made in, as createEnrollment's shared checks read it. */
type EnrollingCourse = Pick<CourseRow, "id" | "name" | "duration_hours" | "unit_code" | "price_cents">;

/**
 * Enrols a user in an active course: status enrolled, progress 0. An unknown or inactive
 * course is a 404 'Course not found'; a second enrollment in the same course is a 409 and
 * creates nothing. The UNIQUE(student_id, course_id) constraint is the last word, so two
 * submissions racing each other still make one row.
 */
export async function createEnrollment(db: DB, input: EnrollmentInput): Promise<EnrollmentMade> {
  const nowDate = input.now ?? new Date();
  const id = crypto.randomUUID();
  // A course's seats are a scope only where it has classes: enrolments in a course without any
  // read and write beside each other. A class added meanwhile (an unscoped write, done before
  // this one begins) makes the enrolment start again with the course's scope.
  const seated =
    Boolean(input.classId) || (await db.selectFrom("classes").select("id").where("course_id", "=", input.courseId).limit(1).executeTakeFirst()) !== undefined;
  const attempt = (bySeats: boolean) =>
    writeTransaction(
      db,
      async (trx) => {
        const course = await trx
          .selectFrom("courses")
          .select(["id", "name", "duration_hours", "unit_code", "price_cents"])
          .where("id", "=", input.courseId)
          .where("is_active", "=", 1)
          .executeTakeFirst();
        if (!course) throw notFound("Course");
        const held = await trx
          .selectFrom("enrollments")
          .select(["id", "class_id", "status"])
          .where("student_id", "=", input.studentId)
          .where("course_id", "=", course.id)
          .executeTakeFirst();
        if (held && !awaitsClass(held)) throw conflict(ALREADY_ENROLLED);
        // A course with classes: a seat in one (this transaction is the seat rule's turn).
        const placement = input.groupBooking
          ? await trx
              .selectFrom("classes")
              .select(["id", "start_date", "end_date", "location_id"])
              .where("id", "=", input.groupBooking.classId)
              .executeTakeFirstOrThrow()
          : await placeInClass(trx, { courseId: course.id, studentId: input.studentId, classId: input.classId, now: nowDate });
        if (placement && !bySeats && !input.groupBooking) throw new ClassAppeared();
        if (held && input.groupBooking) throw conflict(ALREADY_ENROLLED);
        if (held) {
          // an enrolment whose class was cancelled takes a seat in the class chosen; it stays the same enrolment
          if (!placement) throw conflict(ALREADY_ENROLLED);
          return seatHeldEnrollment(trx, input, { enrollmentId: held.id, course, placement, nowDate });
        }
        return writeNewEnrollment(trx, input, { id, course, placement, nowDate });
      },
      { scopes: bySeats ? [learnerScope(input.studentId), courseScope(input.courseId)] : [learnerScope(input.studentId)] },
    );
  try {
    try {
      return await attempt(seated);
    } catch (error) {
      if (error instanceof ClassAppeared) return await attempt(true);
      throw error;
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(ALREADY_ENROLLED);
    throw error;
  }
}

/**
 * The first of createEnrollment's paths: an enrolment held without a class (its class was
 * cancelled) takes a seat in the class chosen. It stays the same row, so its status, progress
 * and enrolment date stay as they were and are read back; its invoice, review and student number
 * were settled when it was made.
 */
async function seatHeldEnrollment(
  trx: WriteTransaction,
  input: EnrollmentInput,
  { enrollmentId, course, placement, nowDate }: { enrollmentId: string; course: EnrollingCourse; placement: Placement; nowDate: Date },
): Promise<EnrollmentMade> {
  const now = nowDate.toISOString();
  await takeWritesTurn(trx, [input.actorId ?? input.studentId]);
  await changeEnrollments(trx, {
    set: { class_id: placement.id, location_id: placement.location_id ?? (await defaultLocationId(trx)), updated_at: now },
    where: (u) => u.where("id", "=", enrollmentId),
    now,
  });
  await takeClass(trx, {
    enrollmentId,
    studentId: input.studentId,
    courseId: course.id,
    placement,
    actorId: input.actorId ?? input.studentId,
    now: nowDate,
  });
  await recordEvent(trx, {
    actorId: input.actorId ?? input.studentId,
    subjectUserId: input.studentId,
    type: "enrollment.class_chosen",
    entityType: "enrollment",
    entityId: enrollmentId,
    message: `${course.name}: class of ${formatDate(placement.start_date)} chosen`,
    now,
  });
  if (input.confirm !== false) await queueEnrollmentConfirmation(trx, { enrollmentId, now: nowDate });
  const kept = await trx
    .selectFrom("enrollments")
    .select(["status", "progress_percentage", "enrollment_date"])
    .where("id", "=", enrollmentId)
    .executeTakeFirstOrThrow();
  return {
    id: enrollmentId,
    course_id: course.id,
    class_id: placement.id,
    status: kept.status,
    progress_percentage: Number(kept.progress_percentage),
    enrollment_date: kept.enrollment_date,
  };
}

/**
 * The second of createEnrollment's paths: a learner without an enrolment in the course gets one,
 * in the class placed (or none, in a course without classes). Everything its writes need is read
 * first, then it takes its turn to write, so the writes wait on no other transaction's reads; the
 * insert and what follows it go to the database with the commit.
 */
async function writeNewEnrollment(
  trx: WriteTransaction,
  input: EnrollmentInput,
  { id, course, placement, nowDate }: { id: string; course: EnrollingCourse; placement: Placement | null; nowDate: Date },
): Promise<EnrollmentMade> {
  const now = nowDate.toISOString();
  // Whoever enrols is a learner: a trainer or administrator taking a course gets a student
  // number (the AVETMISS client identifier) like anyone else, and is reported as one.
  const learner = await trx.selectFrom("users").select("student_number").where("id", "=", input.studentId).executeTakeFirst();
  const planned = defaultPlannedDates(now, Number(course.duration_hours));
  // a course asking for the pre-enrolment review: the seat is taken here, in this transaction,
  // and the enrolment is confirmed by the review (held meanwhile)
  const review = await reviewForNewEnrollment(trx, { courseId: course.id, studentId: input.studentId, claimToken: input.reviewClaim, now });
  const locationId = placement?.location_id ?? (await defaultLocationId(trx));
  const refundPolicyVersion = await refundPolicyInForce(trx, organisationToday(nowDate));
  const actorId = input.actorId ?? input.studentId;
  // what the writes below need that reading takes a round trip for, read before the turn:
  // the invoice's buyer and prices, the confirmation's sessions and place, the webhooks
  const bill =
    (input.billing ?? "self") === "self"
      ? await billSelfEnrollment(trx, {
          enrollmentId: id,
          studentId: input.studentId,
          course: { ...course, price_cents: Number(course.price_cents) },
          classStart: placement?.start_date ?? null,
          actorId,
          now: nowDate,
        })
      : null;
  const setting =
    input.confirm !== false
      ? await readConfirmationSetting(trx, { classId: placement?.id ?? null, locationId, groupBookingId: input.groupBooking?.id ?? null })
      : null;
  await readWebhookEndpoints(trx);
  // every check above, here and in createEnrollment, read this learner's records, this course's
  // seats or what only unscoped writes change (the scopes createEnrollment takes): from here this
  // write writes, in its turn
  await takeWritesTurn(trx, [actorId]);
  if (learner && !learner.student_number) {
    await trx
      .updateTable("users")
      .set({ student_number: await nextStudentNumber(trx) })
      .where("id", "=", input.studentId)
      .execute();
  }
  // nothing below reads what it writes (the next invoice number is its own row): the writes
  // go to the database with the commit, one round trip where each took one in the turn
  sendWritesAtCommit(trx);
  await writeLater(
    trx,
    trx.insertInto("enrollments").values({
      id,
      student_id: input.studentId,
      course_id: course.id,
      status: "enrolled",
      progress_percentage: 0,
      enrollment_date: now,
      completion_date: null,
      updated_at: now,
      location_id: locationId,
      planned_start_date: planned.start,
      planned_end_date: planned.end,
      class_id: placement?.id ?? null,
      ...review,
      group_booking_id: input.groupBooking?.id ?? null,
      refund_policy_version: refundPolicyVersion,
    }),
  );
  await enrollmentCreated(trx, { id, now });
  await recordEvent(trx, {
    actorId: input.actorId ?? input.studentId,
    subjectUserId: input.studentId,
    type: "enrollment.created",
    entityType: "enrollment",
    entityId: id,
    message: `Enrolled in ${course.name}`,
    now,
  });
  if (placement) {
    const written = { student_id: input.studentId, planned_start_date: planned.start, planned_end_date: planned.end, name: course.name };
    await takeClass(trx, {
      enrollmentId: id,
      studentId: input.studentId,
      courseId: course.id,
      placement,
      actorId: input.actorId ?? input.studentId,
      now: nowDate,
      written,
    });
  }
  const invoice = bill ? await invoiceSelfEnrollment(trx, bill) : null;
  // told once its seat is taken (a course with classes) or at once (one without)
  if (setting) {
    const enrollment = {
      id,
      student_id: input.studentId,
      class_id: placement?.id ?? null,
      review_status: review.review_status ?? null,
      course: course.name,
      unit_code: course.unit_code,
      start_date: placement?.start_date ?? null,
      end_date: placement?.end_date ?? null,
    };
    await queueEnrollmentConfirmation(trx, {
      enrollmentId: id,
      now: nowDate,
      known: {
        enrollment: enrollment,
        setting,
        invoice: invoice && { number: invoice.number, total_cents: invoice.total_cents, paid_cents: invoice.total_cents },
      },
    });
  }
  return {
    id,
    course_id: course.id,
    class_id: placement?.id ?? null,
    status: "enrolled" as const,
    progress_percentage: 0,
    enrollment_date: now,
    review_status: review.review_status ?? null,
  };
}

/** A class of the course appeared after an enrolment chose its scopes without the course's seats. */
class ClassAppeared extends Error {}

/**
 * An enrolment still to choose a class: held (enrolled or in progress) with none, as cancelling
 * a class leaves its learners (class.server.ts cancelClass). The course page offers its classes.
 */
export function awaitsClass(enrollment: { class_id: string | null; status: EnrollmentStatus }): boolean {
  return enrollment.class_id === null && (enrollment.status === "enrolled" || enrollment.status === "in_progress");
}

/**
 * After an enrolment takes its seat in a class: the class's dates become its planned dates, and
 * the learner's waitlist places on the course are settled. `written`: the enrolment as this
 * transaction just made it, not read back (its row may still be waiting for the commit).
 */
async function takeClass(
  trx: WriteTransaction,
  input: {
    enrollmentId: string;
    studentId: string;
    courseId: string;
    placement: { id: string; start_date: string; end_date: string };
    actorId: string;
    now: Date;
    written?: PlannedDatesHeld;
  },
): Promise<void> {
  const { placement } = input;
  const dates = { enrollmentId: input.enrollmentId, start: placement.start_date, end: placement.end_date, actorId: input.actorId, now: input.now };
  if (input.written) await writePlannedDates(trx, dates, input.written);
  else await setPlannedDates(trx, dates);
  // a waitlist offer it held is taken
  await writeLater(
    trx,
    trx
      .updateTable("class_waitlist")
      .set({ status: "accepted" })
      .where("class_id", "=", placement.id)
      .where("student_id", "=", input.studentId)
      .where("status", "in", ["waiting", "offered"]),
  );
  // in a class of the course: their places on its other classes' waitlists are given up
  await writeLater(
    trx,
    trx
      .updateTable("class_waitlist")
      .set({ status: "left" })
      .where("student_id", "=", input.studentId)
      .where("status", "in", ["waiting", "offered"])
      .where("class_id", "in", trx.selectFrom("classes").select("id").where("course_id", "=", input.courseId)),
  );
}

export const ENROLLMENT_COMPLETED_LOCKED = "This enrolment is completed and cannot be reopened: its certificate stands.";
export const ENROLLMENT_WITHDRAWN_LOCKED = "This enrolment is withdrawn. To reinstate it, tick \u201cReopen this withdrawn enrolment\u201d and save again.";
export const ENROLLMENT_WITHDRAWN_PROGRESS = "A withdrawn enrolment keeps the progress it had; reopen it to change progress.";
export const COMPLETION_NEEDS_PASS = "Record a passed assessment before completing this enrolment: a certificate needs evidence of competency.";

export interface EnrollmentUpdateResult {
  enrollment: TrainerEnrollmentDetail;
  changed: boolean;
  /** the certificate issued by this update (completing), or null */
  issuedCertificate: { id: string; certificate_number: string } | null;
  /** completed, but the certificate waits until the student's USI is verified */
  awaitingUsi: boolean;
}

const STATUS_WORDS: Record<EnrollmentStatus, string> = {
  enrolled: "enrolled",
  in_progress: "in progress",
  completed: "completed",
  withdrawn: "withdrawn",
};

/**
 * A trainer's change to an enrollment's progress and status, with the transition rules:
 * - a completed enrollment is never reopened or changed (its certificate stands);
 * - a withdrawn enrollment is only reinstated with `reopen` (never silently), and its progress
 *   stays as it was while it is withdrawn;
 * - "enrolled" means not started, so it needs progress 0;
 * - completing needs the enrollment's latest assessment to be passed; it sets progress to 100
 *   and the completion date, and issues the certificate, all in one transaction, so a double
 *   submit completes once and certifies once; while the student's USI is not verified the
 *   enrolment still completes, and its certificate waits under "Awaiting USI";
 * - leaving completed is impossible, so completion_date is only ever set here.
 * Every change is recorded as an event about the student, with the actor and time.
 */
export async function updateEnrollmentProgress(
  db: DB,
  input: { enrollmentId: string; progress: number; status: EnrollmentStatus; reopen?: boolean; actorId: string; now?: Date },
): Promise<EnrollmentUpdateResult> {
  const nowDate = input.now ?? new Date();
  const now = nowDate.toISOString();
  if (!Number.isInteger(input.progress) || input.progress < 0 || input.progress > 100) {
    throw invalid("Progress must be a whole number between 0 and 100", { progress: "Progress must be a whole number between 0 and 100" });
  }
  return writeTransaction(db, async (trx) => {
    const current = await getEnrollmentForTrainer(trx, input.enrollmentId);
    if (!current) throw notFound("Enrolment");
    const target = input.status;
    const rule = progressInStatus(target, input.progress);
    const progress = rule.ok ? rule.progress : input.progress;

    if (current.status === "completed") {
      if (target === "completed") return { enrollment: current, changed: false, issuedCertificate: null, awaitingUsi: false };
      throw conflict409(ENROLLMENT_COMPLETED_LOCKED, { status: ENROLLMENT_COMPLETED_LOCKED });
    }
    if (current.status === "withdrawn") {
      if (target !== "withdrawn" && !input.reopen) {
        throw conflict409(ENROLLMENT_WITHDRAWN_LOCKED, { reopen: ENROLLMENT_WITHDRAWN_LOCKED });
      }
      if (target === "withdrawn" && progress !== current.progress_percentage) {
        throw invalid(ENROLLMENT_WITHDRAWN_PROGRESS, { progress: ENROLLMENT_WITHDRAWN_PROGRESS });
      }
    }
    if (!rule.ok) throw invalid(rule.message, { [rule.field]: rule.message });
    if (target === current.status && progress === current.progress_percentage) {
      return { enrollment: current, changed: false, issuedCertificate: null, awaitingUsi: false };
    }

    let completedAt: string | null = null;
    if (target === "completed") {
      const latest = await trx
        .selectFrom("assessments")
        .select(["status", "assessment_date"])
        .where("enrollment_id", "=", current.id)
        .orderBy(latestAssessmentOrder[0])
        .orderBy(latestAssessmentOrder[1])
        .limit(1)
        .executeTakeFirst();
      if (latest?.status !== "passed") throw invalid(COMPLETION_NEEDS_PASS, { status: COMPLETION_NEEDS_PASS });
      // completed on the day the passing result is dated, not the day it is marked complete:
      // a result entered after the fact keeps the day the learner was assessed competent
      const passedOn = organisationDate(latest.assessment_date);
      completedAt = passedOn === organisationToday(nowDate) ? now : organisationInstant(passedOn, "00:00").toISOString();
    }

    // a withdrawn learner coming back needs their class to have a seat again
    if (current.status === "withdrawn" && target !== "withdrawn") {
      const held = await trx.selectFrom("enrollments").select("class_id").where("id", "=", current.id).executeTakeFirst();
      if (held?.class_id) await assertSeatFree(trx, held.class_id, current.student.id, nowDate);
    }

    // The status guard makes the write conditional on what was read, so a racing writer on
    // another server can never have this reopen a row it completed meanwhile.
    const changed = await changeEnrollments(trx, {
      set: { status: target, progress_percentage: progress, completion_date: completedAt, updated_at: now },
      where: (u) => u.where("id", "=", current.id).where("status", "=", current.status),
      now,
    });
    if (changed.length === 0) throw conflict409("This enrolment was changed by someone else; please reload and try again.", {});
    // withdrawing frees a class seat, which goes to the first learner on its waitlist
    if (target === "withdrawn" && current.status !== "withdrawn") {
      const held = await trx.selectFrom("enrollments").select("class_id").where("id", "=", current.id).executeTakeFirst();
      if (held?.class_id) await offerFreeSeats(trx, held.class_id, nowDate, input.actorId);
    }

    const parts: string[] = [];
    if (target !== current.status) parts.push(`status ${STATUS_WORDS[current.status]} \u2192 ${STATUS_WORDS[target]}`);
    if (progress !== current.progress_percentage) parts.push(`progress ${current.progress_percentage}% \u2192 ${progress}%`);
    const reopened = current.status === "withdrawn" && target !== "withdrawn";
    await recordEvent(trx, {
      actorId: input.actorId,
      subjectUserId: current.student.id,
      type:
        target === "completed"
          ? "enrollment.completed"
          : reopened
            ? "enrollment.reopened"
            : target !== current.status
              ? "enrollment.status"
              : "enrollment.progress",
      entityType: "enrollment",
      entityId: current.id,
      message: `${current.course.name}: ${parts.join(", ")}`,
      now,
    });

    // the learner questionnaire follows every completion, certificate or not (one per enrolment)
    if (target === "completed")
      await inviteLearnerAfterCompletion(trx, { enrollmentId: current.id, studentId: current.student.id, course: current.course.name, now: nowDate });

    let issuedCertificate: EnrollmentUpdateResult["issuedCertificate"] = null;
    const awaitingUsi = target === "completed" && !usiCleared(current.student.usi_status);
    if (target === "completed" && !awaitingUsi) {
      const issued = await issueCertificate(trx, { enrollmentId: current.id, actorId: input.actorId, now: nowDate });
      issuedCertificate = issued.created ? { id: issued.certificate.id, certificate_number: issued.certificate.certificate_number } : null;
    }
    const enrollment = (await getEnrollmentForTrainer(trx, current.id))!;
    return { enrollment, changed: true, issuedCertificate, awaitingUsi };
  });
}

function conflict409(message: string, fieldErrors: Record<string, string>) {
  return new DomainError(409, message, fieldErrors);
}

export const PLANNED_DATES_UPDATED = "Planned dates saved";

/**
 * The one place an enrolment's planned start and end are set: by staff on the enrolment (form
 * and /api), and by a class when enrolments get one. The schema has checked that the end is
 * not before the start. updated_at is left alone: a withdrawn enrolment's last change is its
 * withdrawal date, which NAT00120 reports. Recorded as an event about the student.
 */
export async function setPlannedDates(
  db: DB,
  input: { enrollmentId: string; start: string; end: string; actorId: string; now?: Date },
): Promise<{ changed: boolean }> {
  return writeTransaction(db, async (trx) => {
    const current = await trx
      .selectFrom("enrollments")
      .innerJoin("courses", "courses.id", "enrollments.course_id")
      .select(["enrollments.student_id", "enrollments.planned_start_date", "enrollments.planned_end_date", "courses.name"])
      .where("enrollments.id", "=", input.enrollmentId)
      .executeTakeFirst();
    if (!current) throw notFound("Enrolment");
    return writePlannedDates(trx, input, current);
  });
}

/** An enrolment's planned dates as they stand, with its learner and course name. */
interface PlannedDatesHeld {
  student_id: string;
  planned_start_date: string | null;
  planned_end_date: string | null;
  name: string;
}

/** setPlannedDates's writes, given the enrolment as it stands. */
async function writePlannedDates(
  trx: WriteTransaction,
  input: { enrollmentId: string; start: string; end: string; actorId: string; now?: Date },
  current: PlannedDatesHeld,
): Promise<{ changed: boolean }> {
  const at = (input.now ?? new Date()).toISOString();
  if (current.planned_start_date === input.start && current.planned_end_date === input.end) return { changed: false };
  await changeEnrollmentLater(trx, { id: input.enrollmentId, set: { planned_start_date: input.start, planned_end_date: input.end }, now: at });
  await recordEvent(trx, {
    actorId: input.actorId,
    subjectUserId: current.student_id,
    type: "enrollment.planned",
    entityType: "enrollment",
    entityId: input.enrollmentId,
    message: `${current.name}: planned ${formatDate(input.start)} to ${formatDate(input.end)}`,
    now: at,
  });
  return { changed: true };
}
