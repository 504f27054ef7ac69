import { defaultPlannedDates } from "~/rules/enrollment-rules";
import { seedImprovementDemo } from "./improvement-demo.server";
import { organisationDate, organisationYear } from "~/utils/organisation-calendar";
import crypto from "node:crypto";
import { hashPassword } from "~/security/password.server";
import { createCourse } from "~/models/course-admin.server";
import { recordEvent } from "~/models/event.server";
import { createLocation } from "~/models/location.server";
import { insertUser } from "~/models/user.server";
import { courseCreateSchema } from "~/schemas/course";
import { locationSchema } from "~/schemas/location";
import { USI_ALPHABET, usiFromBody } from "~/rules/usi";
import { writeTransaction, type DB } from "#db/connection";
import { DEMO_COURSES, DEMO_LOCATIONS, DEMO_PASSWORD, DEMO_STUDENTS, demoAvetmissDetails } from "./data";
import { demoLicenceClass, seedHrwAssessor, seedHrwDemo } from "./hrw.server";
import { updateCourse } from "~/models/course-admin.server";
import { updateStudent } from "~/models/student.server";
import type { EnrollmentStatus, Role } from "#db/schema";
import { seedDemoClasses, seedDemoStudentClasses } from "./classes.server";
import { createEnrollment, setPlannedDates, updateEnrollmentProgress } from "~/models/enrollment.server";
import { recordAssessment } from "~/models/assessment.server";
import type { ASSESSMENT_TYPES } from "~/schemas/assessment-text";
import { seedDemoInvoices } from "./invoices.server";
import { seedDemoEmployer } from "./employers.server";
import { seedDemoCredentials, seedDemoStandards } from "./standards.server";
import { seedDemoComplaints } from "./complaints.server";
import { seedDemoRecognition } from "./recognition.server";
import { seedDemoDocuments } from "./documents.server";
import { getFileStore, type FileStore } from "~/files/store.server";

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

/**
 * Demo students whose USI is recorded but not yet verified, so "Awaiting USI" has someone in it;
 * Noah Singh's completed enrolment waits for its certificate past the 30 days (overdue) for it.
 */
export const DEMO_UNVERIFIED_USI = new Set(["zoe.robinson@example.com", "noah.singh@example.com"]);

export async function isEmpty(db: DB): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n) === 0;
}

/**
 * Fills an empty database with the demo organisation (the README's demo logins and their records), the demo
 * student's documents in `store`. Does nothing when any user exists.
 */
export async function seedDemoData(db: DB, now = new Date(), store: FileStore = getFileStore()): Promise<{ seeded: boolean }> {
  if (!(await isEmpty(db))) return { seeded: false };
  const iso = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY).toISOString();
  const random = rng(20261122);

  const staff: Array<{ email: string; full_name: string; role: Role; approval: "approved" | "pending"; daysAgo: number; phone: string }> = [
    { email: "admin@example.com", full_name: "Alex Morgan", role: "admin", approval: "approved", daysAgo: 400, phone: "02 9000 1000" },
    { email: "trainer@example.com", full_name: "Sam Whitfield", role: "trainer", approval: "approved", daysAgo: 380, phone: "0400 111 222" },
    { email: "dana.reyes@example.com", full_name: "Dana Reyes", role: "trainer", approval: "pending", daysAgo: 2, phone: "0400 333 444" },
  ];
  const hashes = await Promise.all(Array.from({ length: staff.length + DEMO_STUDENTS.length + 1 }, () => hashPassword(DEMO_PASSWORD)));

  await writeTransaction(db, async (trx) => {
    const users: Array<{ id: string; email: string; full_name: string }> = [];
    let h = 0;
    const signedIn = (id: string, daysAgo: number) =>
      trx
        .updateTable("users")
        .set({ last_login: iso(daysAgo) })
        .where("id", "=", id)
        .execute();
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
    // the demo student's five enrolments are numbered 0 to 4 (below), the cohort's from 5
    let enrollments = 5;
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

    /** A result a trainer records on an enrolment, so many days ago. */
    type Result = {
      type: (typeof ASSESSMENT_TYPES)[number];
      status: "passed" | "failed" | "in_progress";
      score: number | null;
      daysAgo: number;
      feedback: string;
    };

    // Each enrolment is made as the portal makes one, dated when it happened: the learner enrols
    // (createEnrollment; billed elsewhere, so no invoice of its own), staff set its planned dates,
    // the trainer records its results while it is current, then moves it on (completing it issues
    // the certificate when the learner's USI is verified, as a trainer's completion does).
    const enrol = async (
      student: { id: string; full_name: string },
      key: string,
      status: EnrollmentStatus,
      progress: number,
      enrolledDaysAgo: number,
      results: Result[] = [],
      options: { n?: number; classId?: string } = {},
    ) => {
      const course = courseByKey(key);
      const n = options.n ?? enrollments++;
      const enrolledAt = new Date(iso(enrolledDaysAgo));
      const made = await createEnrollment(trx, {
        studentId: student.id,
        courseId: course.id,
        classId: options.classId,
        billing: "none",
        now: enrolledAt,
        confirm: false,
      });
      // a class gives the enrolment its dates (and yard); one without is planned by the office
      if (!options.classId) {
        const planned = plannedDates(status, enrolledDaysAgo, course.duration_hours, n);
        await setPlannedDates(trx, { enrollmentId: made.id, start: planned.start, end: planned.end, actorId: adminId, now: enrolledAt });
      }
      for (const r of results) {
        const at = new Date(iso(r.daysAgo));
        await recordAssessment(trx, {
          enrollment_id: made.id,
          assessment_type: r.type,
          status: r.status,
          score: r.score,
          max_score: r.score === null ? null : 100,
          assessment_date: organisationDate(at.toISOString()),
          feedback: r.feedback,
          actorId: trainerId,
          now: at,
        });
      }
      const lastResult = Math.min(enrolledDaysAgo, ...results.map((r) => r.daysAgo));
      const completedDaysAgo = status === "completed" ? Math.max(1, enrolledDaysAgo - 21) : null;
      if (status !== "enrolled") {
        await updateEnrollmentProgress(trx, {
          enrollmentId: made.id,
          status,
          progress,
          actorId: trainerId,
          now: new Date(iso(completedDaysAgo ?? lastResult)),
        });
      }
      return { enrollmentId: made.id, course };
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
        const progress = status === "completed" ? 100 : status === "enrolled" ? 0 : Math.floor(10 + random() * 80);
        // a draw the generator still makes, so the values after it (and the demo they shape) stay the same
        random();
        const results: Result[] = [];
        if (status !== "enrolled") {
          const passed = status === "completed" || random() > 0.4;
          results.push({
            type: random() > 0.5 ? "Practical" : "Written",
            status: passed ? "passed" : "failed",
            score: passed ? 75 + Math.floor(random() * 25) : 40 + Math.floor(random() * 25),
            daysAgo: Math.max(1, enrolledDaysAgo - 10),
            feedback: passed ? "Competent." : "Not yet competent; resit required.",
          });
        }
        await enrol(student, key, status, progress, enrolledDaysAgo, results);
      }
    }
    // Two completed enrolments still without a certificate, so both states of the 30-day clock
    // show: each waits on its learner's unverified USI, one due soon and one overdue.
    const awaiting = async (email: string, completedDaysAgo: number) => {
      const { student, picks } = cohort.get(email)!;
      const key = activeKeys.find((k) => !picks.includes(k))!;
      await enrol(student, key, "completed", 100, completedDaysAgo + 21, [
        { type: "Practical", status: "passed", score: 86, daysAgo: completedDaysAgo + 1, feedback: "Competent." },
      ]);
    };
    await awaiting("zoe.robinson@example.com", 6);
    await awaiting("noah.singh@example.com", 41);

    // The demo student: every enrolment state, certificates, results and two documents. Their
    // classes come first, so enrolling seats them (createEnrollment), the class giving the
    // enrolment its dates and yard; numbered 0 to 4 so the planned dates stay as they were.
    const demoPlanned = (key: string, status: EnrollmentStatus, daysAgo: number, n: number) => ({
      key,
      status,
      daysAgo,
      n,
      ...plannedDates(status, daysAgo, courseByKey(key).duration_hours, n),
    });
    const demoClasses = await seedDemoStudentClasses(trx, {
      now,
      adminId,
      trainerId,
      courseIds,
      locationIds,
      dogging: demoPlanned("dogging", "completed", 280, 0),
      ri: demoPlanned("rigging-intermediate", "in_progress", 60, 3),
      tower: demoPlanned("tower-crane", "enrolled", 5, 4),
    });
    await enrol(
      demo,
      "dogging",
      "completed",
      100,
      280,
      [{ type: "Practical", status: "passed", score: 92, daysAgo: 262, feedback: "Confident hand signals; excellent gear inspection." }],
      { n: 0, classId: demoClasses.dogging.id },
    );
    await enrol(
      demo,
      "rigging-basic",
      "completed",
      100,
      220,
      [{ type: "Written", status: "passed", score: 88, daysAgo: 202, feedback: "Sound understanding of working load limits." }],
      { n: 1 },
    );
    await enrol(
      demo,
      "non-slewing",
      "completed",
      100,
      160,
      [{ type: "Practical", status: "passed", score: 90, daysAgo: 142, feedback: "Pick-and-carry set up and travelled by the book." }],
      { n: 2 },
    );
    await enrol(
      demo,
      "rigging-intermediate",
      "in_progress",
      65,
      60,
      [
        { type: "Written", status: "failed", score: 58, daysAgo: 30, feedback: "Tandem lift load-sharing calculation incorrect; resit booked." },
        { type: "Practical", status: "in_progress", score: null, daysAgo: 3, feedback: "Tilt-panel bracing task started." },
      ],
      { n: 3, classId: demoClasses.ri.id },
    );
    await enrol(demo, "tower-crane", "enrolled", 0, 5, [], { n: 4, classId: demoClasses.tower.id });
    await seedDemoDocuments(trx, store, { adminId, studentId: demo.id, at: new Date(iso(299)) });
    await seedHrwDemo(trx, { now, adminId, trainerId, priyaId, locationId: locationIds[0]! });

    // classes, a waitlist and attendance (classes.server.ts): two learners not taking the tower crane course wait for its full class
    const waiting = [...cohort.values()]
      .filter((c) => !c.picks.includes("tower-crane"))
      .slice(0, 3)
      .map((c) => c.student.id);
    await seedDemoClasses(trx, {
      now,
      adminId,
      trainerId,
      courseIds,
      locationIds,
      demoStudentId: demo.id,
      waitingStudentIds: waiting,
      studentClasses: demoClasses,
    });
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
    // recognition (recognition.server.ts): an RPL for a licence unit refused because licensing rules
    // win; on a unit without a licence class a credit transfer, an RPL granted, one not granted under appeal
    await seedDemoRecognition(trx, { now, demoStudentId: demo.id, adminId, trainerId, priyaId });

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
  await seedDemoEmployer(db, {
    now,
    adminId: (await db.selectFrom("users").select("id").where("email", "=", "admin@example.com").executeTakeFirstOrThrow()).id,
  });
  return { seeded: true };
}
