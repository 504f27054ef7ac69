import { defaultPlannedDates } from "~/models/enrollment-rules";
import { seedImprovementDemo } from "./improvement-demo.server";
import { organisationDate, organisationYear } from "~/utils/organisation-calendar";
import crypto from "node:crypto";
import { hashPassword } from "~/auth/password.server";
import { issueCertificate } from "~/models/certificate-issue.server";
import { createCourse } from "~/models/course-admin.server";
import { recordEvent } from "~/models/event.server";
import { createLocation } from "~/models/location.server";
import { insertUser } from "~/models/user.server";
import { courseCreateSchema } from "~/schemas/course";
import { locationSchema } from "~/schemas/location";
import { USI_ALPHABET, usiFromBody } from "~/models/usi";
import { writeTransaction, type DB } from "#db/connection";
import { DEMO_COURSES, DEMO_LOCATIONS, DEMO_PASSWORD, DEMO_STUDENTS, demoAvetmissDetails } from "./data";
import { demoLicenceClass, seedHrwAssessor, seedHrwDemo } from "./hrw.server";
import { updateCourse } from "~/models/course-admin.server";
import { updateStudent } from "~/models/student.server";
import type { EnrollmentStatus, Role } from "#db/schema";
import { seedDemoClasses } from "./classes.server";
import { seedDemoInvoices } from "./invoices.server";
import { seedDemoEmployer } from "./employers.server";
import { seedDemoCredentials, seedDemoStandards } from "./standards.server";
import { seedDemoComplaints } from "./complaints.server";

const DAY = 864e5;

/** A small deterministic generator so the demo looks the same on every machine. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

/**
 * A demo student's USI: nine characters drawn from a hash of their email plus the check
 * character, so it is well-formed, the same on every machine, and not a real person's.
 */
export function demoUsi(email: string): string {
  const digest = crypto.createHash("sha256").update(`demo-usi:${email}`).digest();
  let body = "";
  for (let i = 0; i < 9; i++) body += USI_ALPHABET[digest[i]! & 31];
  return usiFromBody(body);
}

/** Demo students whose USI is recorded but not yet verified, so "Awaiting USI" has someone in it. */
export const DEMO_UNVERIFIED_USI = new Set(["zoe.robinson@example.com"]);

export async function isEmpty(db: DB): Promise<boolean> {
  const row = await db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n) === 0;
}

/**
 * Fills an empty database with the demo organisation (the README's demo logins and their records). Does nothing
 * when any user exists.
 */
export async function seedDemoData(db: DB, now = new Date()): Promise<{ seeded: boolean }> {
  if (!(await isEmpty(db))) return { seeded: false };
  const iso = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY).toISOString();
  const random = rng(20261122);

  const staff: Array<{ email: string; full_name: string; role: Role; approval: "approved" | "pending"; daysAgo: number; phone: string }> = [
    { email: "admin@example.com", full_name: "Alex Morgan", role: "admin", approval: "approved", daysAgo: 400, phone: "02 9000 1000" },
    { email: "trainer@example.com", full_name: "Sam Whitfield", role: "trainer", approval: "approved", daysAgo: 380, phone: "0400 111 222" },
    { email: "dana.reyes@example.com", full_name: "Dana Reyes", role: "trainer", approval: "pending", daysAgo: 2, phone: "0400 333 444" },
  ];
  const hashes = await Promise.all(
    Array.from({ length: staff.length + DEMO_STUDENTS.length + 1 }, () => hashPassword(DEMO_PASSWORD)),
  );

  await writeTransaction(db, async (trx) => {
    const users: Array<{ id: string; email: string; full_name: string }> = [];
    let h = 0;
    const signedIn = (id: string, daysAgo: number) => trx.updateTable("users").set({ last_login: iso(daysAgo) }).where("id", "=", id).execute();
    for (const s of staff) {
      const id = await insertUser(
        trx,
        {
          email: s.email,
          full_name: s.full_name,
          password_hash: hashes[h++]!,
          role: s.role,
          phone: s.phone,
          address: null,
          date_of_birth: null,
          emergency_contact: null,
          license_number: null,
          is_active: 1,
          approval_status: s.approval,
        },
        iso(s.daysAgo),
      );
      // an account starts without a sign-in; the demo's approved staff signed in yesterday
      if (s.approval === "approved") await signedIn(id, 1);
      users.push({ id, email: s.email, full_name: s.full_name });
    }
    const adminId = users[0]!.id;
    const trainerId = users[1]!.id;

    // the catalogue and the yards as an administrator adds them (the same checks, audit entries
    // and events), dated when the demo organisation started out
    const courseIds = new Map<string, string>();
    for (const c of DEMO_COURSES) {
      const course = await createCourse(trx, courseCreateSchema.parse({ ...c, licence_class: demoLicenceClass(c.name) }), adminId, new Date(iso(420)));
      courseIds.set(c.key, course.id);
    }
    const locationIds: string[] = [];
    for (const [i, l] of DEMO_LOCATIONS.entries()) {
      // created a second apart, so the first location (every enrolment's default) is well defined
      const location = await createLocation(trx, locationSchema.parse(l), adminId, new Date(now.getTime() - 420 * DAY + i * 1000));
      locationIds.push(location.id);
    }
    // the second assessor, and the trainers' credentials that every class, result and HRW part below needs
    const priyaId = await seedHrwAssessor(trx, { now, passwordHash: hashes[1]! });
    await seedDemoCredentials(trx, { now, adminId, trainerId, priyaId });
    let enrollments = 0;
    const courseByKey = (key: string) => {
      const c = DEMO_COURSES.find((d) => d.key === key)!;
      return { ...c, id: courseIds.get(key)! };
    };

    /**
     * Planned dates that fit what the AVETMISS report says of each enrolment: a finished one ran
     * from its enrolment date for the unit's duration; one under way is a part-time evening
     * course planned to finish in the new year (a continuing activity); one not yet started is
     * booked into a class starting in the next weeks.
     */
    const plannedDates = (status: EnrollmentStatus, enrolledDaysAgo: number, hours: number, n: number) => {
      const enrolledOn = organisationDate(iso(enrolledDaysAgo));
      // one on purpose planned to end within this year: the readiness list asks for its outcome
      if (status === "in_progress" && n === 20) return { start: enrolledOn, end: `${organisationYear(now)}-12-05` };
      if (status === "in_progress") return { start: enrolledOn, end: `${organisationYear(now) + 1}-01-${String(12 + (n % 15)).padStart(2, "0")}` };
      if (status === "enrolled") {
        const start = organisationDate(iso(-(7 + (n % 21))));
        return { start, end: defaultPlannedDates(start, hours).end };
      }
      return defaultPlannedDates(enrolledOn, hours);
    };

    // Enrolments and assessments are still written here in their final state, dated months back,
    // because part of what the demo shows is a state the portal cannot reach: an enrolment's
    // yard comes only from its class (createEnrollment), yet every third one here is at the
    // second yard without one; and completing an enrolment of a learner whose USI is verified
    // issues its certificate at once (updateEnrollmentProgress, as verifying a USI issues the
    // waiting ones), yet some completions here wait for theirs with a verified USI (Noah Singh's
    // overdue one among them). Making them through the model means first changing what the demo
    // shows (classes for those enrolments; the overdue certificate's learner unverified);
    // recordAssessment also takes a result only on a current enrolment. Certificates go through
    // issueCertificate (certify, below); HRW, classes and attendance through their models.
    const enrol = async (
      student: { id: string; full_name: string },
      key: string,
      status: EnrollmentStatus,
      progress: number,
      enrolledDaysAgo: number,
    ) => {
      const course = courseByKey(key);
      const enrollmentId = crypto.randomUUID();
      const completedDaysAgo = status === "completed" ? Math.max(1, enrolledDaysAgo - 21) : null;
      const planned = plannedDates(status, enrolledDaysAgo, course.duration_hours, enrollments);
      await trx
        .insertInto("enrollments")
        .values({
          id: enrollmentId,
          student_id: student.id,
          course_id: course.id,
          status,
          progress_percentage: progress,
          enrollment_date: iso(enrolledDaysAgo),
          completion_date: completedDaysAgo === null ? null : iso(completedDaysAgo),
          updated_at: iso(completedDaysAgo ?? enrolledDaysAgo),
          // most training is at the main yard; every third enrolment at the second
          location_id: locationIds[enrollments++ % 3 === 2 ? 1 : 0],
          planned_start_date: planned.start,
          planned_end_date: planned.end,
        })
        .execute();
      await recordEvent(trx, {
        actorId: student.id,
        subjectUserId: student.id,
        type: "enrollment.created",
        entityType: "enrollment",
        entityId: enrollmentId,
        message: `Enrolled in ${course.name}`,
        now: iso(enrolledDaysAgo),
      });
      return { enrollmentId, course, completedDaysAgo };
    };

    const certify = async (student: { id: string }, e: Awaited<ReturnType<typeof enrol>>, withCertificate: boolean) => {
      if (e.completedDaysAgo === null) return;
      await recordEvent(trx, {
        actorId: trainerId,
        subjectUserId: student.id,
        type: "enrollment.status",
        entityType: "enrollment",
        entityId: e.enrollmentId,
        message: `${e.course.name} marked completed`,
        now: iso(e.completedDaysAgo),
      });
      if (!withCertificate) return;
      // issued as a trainer issues one, two days after completion: the number from the sequence,
      // the USI gate, the audit entry, the event and the learner's mail (queued, so the demo's
      // first start delivers these few to data/outbox/ like any other)
      const issued = new Date(now.getTime() - Math.max(0, e.completedDaysAgo - 2) * DAY);
      await issueCertificate(trx, { enrollmentId: e.enrollmentId, actorId: trainerId, now: issued });
    };

    // The demo student: every enrolment state, certificates, a file and assessments.
    const demoId = await insertUser(
      trx,
      {
        email: "student@example.com",
        full_name: "Jordan Mitchell",
        password_hash: hashes[h++]!,
        role: "student",
        phone: "0412 000 111",
        address: "42 Harbour Rd, Newcastle NSW 2300",
        date_of_birth: "1996-04-18",
        emergency_contact: "Casey Mitchell, 0412 999 888",
        license_number: "HRW-NSW-1234567",
        usi: demoUsi("student@example.com"),
        usi_verified_at: iso(295),
        usi_verified_by: trainerId,
        ...demoAvetmissDetails({ sex: "M", address: "42 Harbour Rd, Newcastle NSW 2300", priorEducation: ["514"] }),
        is_active: 1,
        approval_status: "approved",
      },
      iso(300),
    );
    await signedIn(demoId, 2);
    const demo = { id: demoId, full_name: "Jordan Mitchell" };
    const demoCompleted = [
      await enrol(demo, "dogging", "completed", 100, 280),
      await enrol(demo, "rigging-basic", "completed", 100, 220),
      await enrol(demo, "non-slewing", "completed", 100, 160),
    ];
    for (const e of demoCompleted) await certify(demo, e, true);
    const demoRi = await enrol(demo, "rigging-intermediate", "in_progress", 65, 60);
    await enrol(demo, "tower-crane", "enrolled", 0, 5);

    const assessment = async (
      studentId: string,
      e: Awaited<ReturnType<typeof enrol>>,
      type: string,
      status: "passed" | "failed" | "in_progress",
      score: number | null,
      daysAgo: number,
      feedback: string,
    ) => {
      await trx
        .insertInto("assessments")
        .values({
          id: crypto.randomUUID(),
          enrollment_id: e.enrollmentId,
          student_id: studentId,
          course_id: e.course.id,
          assessment_type: type,
          status,
          score,
          max_score: score === null ? null : 100,
          assessment_date: iso(daysAgo),
          feedback,
          assessed_by: trainerId,
          created_at: iso(daysAgo),
        })
        .execute();
    };
    await assessment(demo.id, demoCompleted[0]!, "Practical", "passed", 92, 262, "Confident hand signals; excellent gear inspection.");
    await assessment(demo.id, demoCompleted[1]!, "Written", "passed", 88, 202, "Sound understanding of working load limits.");
    await assessment(demo.id, demoRi, "Written", "failed", 58, 30, "Tandem lift load-sharing calculation incorrect; resit booked.");
    await assessment(demo.id, demoRi, "Practical", "in_progress", null, 3, "Tilt-panel bracing task started.");
    // The Student Profile lists a learner's files; the portal has no upload for them (evidence
    // is uploaded against an assessment, app/files), so these two rows are written here.
    await trx
      .insertInto("files")
      .values([
        {
          id: crypto.randomUUID(),
          student_id: demo.id,
          filename: "white-card.pdf",
          file_type: "application/pdf",
          upload_date: iso(299),
          description: "General construction induction (White Card)",
        },
        {
          id: crypto.randomUUID(),
          student_id: demo.id,
          filename: "photo-id.jpg",
          file_type: "image/jpeg",
          upload_date: iso(299),
          description: "Driver licence, front",
        },
      ])
      .execute();

    // The rest of the cohort.
    const cohort = new Map<string, { student: { id: string; full_name: string }; picks: string[] }>();
    const activeKeys = DEMO_COURSES.filter((c) => c.is_active).map((c) => c.key);
    for (const s of DEMO_STUDENTS) {
      const joinedDaysAgo = s.months_ago * 30 + Math.floor(random() * 20) + 3;
      const studentId = await insertUser(
        trx,
        {
          email: s.email,
          full_name: s.full_name,
          password_hash: hashes[h++]!,
          role: "student",
          phone: s.phone,
          address: s.address,
          date_of_birth: s.date_of_birth,
          emergency_contact: null,
          license_number: null,
          usi: demoUsi(s.email),
          usi_verified_at: DEMO_UNVERIFIED_USI.has(s.email) ? null : iso(joinedDaysAgo - 1),
          usi_verified_by: DEMO_UNVERIFIED_USI.has(s.email) ? null : trainerId,
          ...demoAvetmissDetails({ sex: s.sex, address: s.address }),
          // every learner starts active, as the portal makes them; those shown inactive are
          // deactivated by the office once their records stand (below)
          is_active: 1,
          approval_status: "approved",
        },
        iso(joinedDaysAgo),
      );
      if (random() > 0.3) await signedIn(studentId, Math.floor(random() * 20) + 1);
      const student = { id: studentId, full_name: s.full_name };
      const count = 1 + Math.floor(random() * 3);
      const picks = [...activeKeys].sort(() => random() - 0.5).slice(0, count);
      cohort.set(s.email, { student, picks });
      for (const key of picks) {
        const enrolledDaysAgo = Math.max(1, Math.floor(joinedDaysAgo * (0.4 + random() * 0.6)));
        const roll = random();
        const status: EnrollmentStatus =
          enrolledDaysAgo > 40 && roll < 0.55 ? "completed" : roll < 0.8 ? "in_progress" : roll < 0.93 ? "enrolled" : "withdrawn";
        const progress =
          status === "completed" ? 100 : status === "enrolled" ? 0 : Math.floor(10 + random() * 80);
        const e = await enrol(student, key, status, progress, enrolledDaysAgo);
        await certify(student, e, random() > 0.2);
        if (status !== "enrolled") {
          const passed = status === "completed" || random() > 0.4;
          await assessment(
            student.id,
            e,
            random() > 0.5 ? "Practical" : "Written",
            passed ? "passed" : "failed",
            passed ? 75 + Math.floor(random() * 25) : 40 + Math.floor(random() * 25),
            Math.max(1, enrolledDaysAgo - 10),
            passed ? "Competent." : "Not yet competent; resit required.",
          );
        }
      }
    }
    // Two completed enrolments still without a certificate, so both states of the 30-day clock
    // show: one waits on its student's unverified USI (due soon), one is overdue.
    const awaiting = async (email: string, completedDaysAgo: number) => {
      const { student, picks } = cohort.get(email)!;
      const key = activeKeys.find((k) => !picks.includes(k))!;
      const e = await enrol(student, key, "completed", 100, completedDaysAgo + 21);
      await assessment(student.id, e, "Practical", "passed", 86, completedDaysAgo + 1, "Competent.");
      await certify(student, e, false);
    };
    await awaiting("zoe.robinson@example.com", 6);
    await awaiting("noah.singh@example.com", 41);
    await seedHrwDemo(trx, { now, adminId, trainerId, priyaId, locationId: locationIds[0]! });

    // classes, a waitlist and attendance (classes.server.ts): two learners not taking the tower crane course wait for its full class
    const waiting = [...cohort.values()].filter((c) => !c.picks.includes("tower-crane")).slice(0, 3).map((c) => c.student.id);
    await seedDemoClasses(trx, { now, adminId, trainerId, courseIds, locationIds, demoStudentId: demo.id, waitingStudentIds: waiting });
    // the improvement register and the questionnaires: an overdue action, a few anonymous responses
    await seedImprovementDemo(trx, { now, adminId, trainerId });

    // the licence courses ask for the pre-enrolment review from now on (docs/decisions/028): the
    // enrolments above predate it and stand; a new enrolment is confirmed by the review
    for (const c of await trx.selectFrom("courses").select("id").where("licence_class", "is not", null).execute()) {
      await updateCourse(trx, c.id, { review_required: true }, adminId, now);
    }
    // the learners the demo shows inactive, deactivated by the office a week ago
    for (const s of DEMO_STUDENTS.filter((d) => !d.is_active)) {
      await updateStudent(trx, cohort.get(s.email)!.student.id, { is_active: false }, adminId, new Date(iso(7)));
    }
    // complaints, appeals and the demo learner's pre-enrolment review (complaints.server.ts)
    await seedDemoComplaints(trx, { now, adminId, trainerId, demoStudentId: demo.id });
    // trainer credentials and course validation (standards.server.ts)
    await seedDemoStandards(trx, { now, adminId, trainerId, courseIds });

    await recordEvent(trx, {
      actorId: adminId,
      subjectUserId: null,
      type: "seed",
      entityType: "system",
      entityId: null,
      message: "Demo data seeded",
      now: now.toISOString(),
    });
  });
  // invoices in each state the office sees (paid, part-paid, overdue, refunded by a credit note)
  await seedDemoInvoices(db, now);
  // an employer with its demo login and a booking of 3 workers (employers.server.ts)
  await seedDemoEmployer(db, { now, adminId: (await db.selectFrom("users").select("id").where("email", "=", "admin@example.com").executeTakeFirstOrThrow()).id });
  return { seeded: true };
}
