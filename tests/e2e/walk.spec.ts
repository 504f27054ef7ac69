import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import net from "node:net";
import path from "node:path";
import type { Browser, Page, Response } from "@playwright/test";
import { routeModuleFiles, routeSource } from "../support/route-files";
import { phoneCheck, type Misfit } from "./phone-fit";
import { e2eDb, insertAssessment, insertStaff, insertTrainer, userId } from "./e2e-db";
import { accessibilityViolations, authenticatorCode, expect, makeAdmin, startSignedIn, test, WALK_AXE_TAGS } from "./fixtures";

/**
 * The walk (CONTRACT 22): every page, as every role that may open it, on the demo's own records.
 * With JavaScript a page fails on any console error, page error (a hydration mismatch is one) or
 * 5xx answer, once loaded and once more when the router loads its data again (`.data`); without,
 * on any 5xx. Each page is held to a phone's widths with JavaScript and without (phoneCheck), and
 * read by axe once per template. On both, the document's bytes
 * must be valid UTF-8 with no NUL and exactly one doctype.
 *
 * The list of pages is the route files: a route module with a default export is a page, and each
 * needs an entry below (the first test fails on one without, or on an entry naming a file that no
 * longer exists), so a new page cannot be left out of the walk. Resource routes (no default
 * export: files, the /api, redirects) are walked over HTTP elsewhere.
 */

type Role = "visitor" | "student" | "trainer" | "admin" | "employer";
const ROLES: Role[] = ["visitor", "student", "trainer", "admin", "employer"];
const SIGNED_IN = ["student", "trainer", "admin", "employer"] as const;
const EMAIL: Record<Exclude<Role, "visitor">, string> = {
  student: "student@example.com",
  trainer: "trainer@example.com",
  admin: "admin@example.com",
  employer: "employer@example.com",
};

/** One visit: who, where, and the status the page answers (200 unless said). */
interface Visit {
  roles: readonly Role[];
  path: (ids: DemoIds) => string;
  status?: number;
}

/** A layout route: its pages are its children's entries. */
const LAYOUT = "layout" as const;

const everyone = ROLES;
const PUBLIC = (p: string, status = 200): Visit[] => [{ roles: everyone, path: () => p, status }];
const only = (role: Role, p: (ids: DemoIds) => string): Visit[] => [{ roles: [role], path: p }];
const admin = (p: (ids: DemoIds) => string) => only("admin", p);
const trainer = (p: (ids: DemoIds) => string) => only("trainer", p);
const student = (p: (ids: DemoIds) => string) => only("student", p);
const employer = (p: (ids: DemoIds) => string) => only("employer", p);
const visitor = (p: (ids: DemoIds) => string) => only("visitor", p);
const at = (p: string) => () => p;

/** Every page route file, by its path under app/routes. */
const PAGES: Record<string, Visit[] | typeof LAYOUT> = {
  "$.tsx": PUBLIC("/no-such-page", 404),
  "_landing+/_layout.tsx": LAYOUT,
  // signed in, the landing page sends each role to its overview
  "_landing+/_index.tsx": visitor(at("/")),
  "_landing+/forgot-password.tsx": visitor(at("/forgot-password")),
  "_auth+/account.security.tsx": [{ roles: SIGNED_IN, path: at("/account/security") }],
  "admin+/_layout.tsx": LAYOUT,
  "admin+/audit.tsx": admin(at("/admin/audit")),
  "admin+/checklists.tsx": admin(at("/admin/checklists")),
  "admin+/complaints._index.tsx": admin(at("/admin/complaints")),
  "admin+/complaints.$id.tsx": [
    { roles: ["admin"], path: (ids) => `/admin/complaints/${ids.complaint}` },
    { roles: ["admin"], path: (ids) => `/admin/complaints/${ids.appeal}` },
  ],
  "admin+/complaints.settings.tsx": admin(at("/admin/complaints/settings")),
  "admin+/recognition._index.tsx": admin(at("/admin/recognition")),
  "admin+/recognition.$id.tsx": admin((ids) => `/admin/recognition/${ids.recognition}`),
  "admin+/courses.tsx": admin(at("/admin/courses")),
  "admin+/courses.new.tsx": admin(at("/admin/courses/new")),
  "admin+/courses.$id.tsx": admin((ids) => `/admin/courses/${ids.course}`),
  "admin+/courses.$id_.edit.tsx": admin((ids) => `/admin/courses/${ids.course}/edit`),
  "admin+/courses.$id_.classes.new.tsx": admin((ids) => `/admin/courses/${ids.course}/classes/new`),
  "admin+/courses.$id_.classes.$classId.tsx": admin((ids) => `/admin/courses/${ids.course}/classes/${ids.class}`),
  "admin+/credentials.tsx": admin(at("/admin/credentials")),
  "admin+/credentials_.$id.tsx": admin((ids) => `/admin/credentials/${ids.trainer}`),
  "admin+/employers.tsx": admin(at("/admin/employers")),
  "admin+/employers_.$id.tsx": admin((ids) => `/admin/employers/${ids.employer}`),
  "admin+/evidence.$kind.$id.tsx": admin((ids) => `/admin/evidence/unit/${ids.evidenceAssessment}`),
  "admin+/enrollments.$id.tsx": admin((ids) => `/admin/enrollments/${ids.enrollment}`),
  "admin+/finance.tsx": admin(at("/admin/finance")),
  "admin+/finance_.$id.tsx": admin((ids) => `/admin/finance/${ids.invoice}`),
  "admin+/finance_.settings.tsx": admin(at("/admin/finance/settings")),
  "admin+/hrw.rules.tsx": admin(at("/admin/hrw/rules")),
  "admin+/improvements._index.tsx": admin(at("/admin/improvements")),
  "admin+/improvements.new.tsx": admin(at("/admin/improvements/new")),
  "admin+/improvements.$id.tsx": admin((ids) => `/admin/improvements/${ids.improvement}`),
  "admin+/locations.tsx": admin(at("/admin/locations")),
  "admin+/locations_.$id.tsx": admin((ids) => `/admin/locations/${ids.location}`),
  "admin+/mail.tsx": admin(at("/admin/mail")),
  "admin+/webhooks.tsx": admin(at("/admin/webhooks")),
  "admin+/webhooks_.$id.tsx": admin((ids) => `/admin/webhooks/${ids.webhookEndpoint}`),
  "admin+/overview.tsx": admin(at("/admin/overview")),
  "admin+/questionnaires._index.tsx": admin(at("/admin/questionnaires")),
  "admin+/questionnaires.report.tsx": admin(at("/admin/questionnaires/report")),
  "admin+/reports.tsx": admin(at("/admin/reports")),
  "admin+/reports_.hrw.tsx": admin(at("/admin/reports/hrw")),
  "admin+/retention.tsx": admin(at("/admin/retention")),
  "admin+/review-questions.tsx": admin(at("/admin/review-questions")),
  "admin+/staff.tsx": admin(at("/admin/staff")),
  "admin+/staff_.$id.hrw.tsx": admin((ids) => `/admin/staff/${ids.trainer}/hrw`),
  "admin+/students.tsx": admin(at("/admin/students")),
  "admin+/students.new.tsx": admin(at("/admin/students/new")),
  "admin+/students.$id.tsx": admin((ids) => `/admin/students/${ids.student}`),
  "admin+/students.$id_.edit.tsx": admin((ids) => `/admin/students/${ids.student}/edit`),
  "admin+/validations.tsx": admin(at("/admin/validations")),
  "admin+/validations_.$id.tsx": admin((ids) => `/admin/validations/${ids.validationPlan}`),
  "complaints+/_layout.tsx": LAYOUT,
  "complaints+/new.tsx": PUBLIC("/complaints/new"),
  "complaints+/policy.tsx": PUBLIC("/complaints/policy"),
  "courses.tsx": PUBLIC("/courses"),
  "courses_.$id.tsx": [{ roles: everyone, path: (ids) => `/courses/${ids.course}` }],
  "courses_.$id_.review.tsx": [{ roles: ["visitor", "student"], path: (ids) => `/courses/${ids.reviewCourse}/review` }],
  "_auth+/employer-invitation.$token.tsx": visitor((ids) => `/employer-invitation/${ids.employerInvitationToken}`),
  "employer+/_layout.tsx": LAYOUT,
  "employer+/overview.tsx": employer(at("/employer/overview")),
  "employer+/bookings.new.tsx": employer(at("/employer/bookings/new")),
  "employer+/invoices.tsx": employer(at("/employer/invoices")),
  "employer+/bookings.$id.tsx": employer((ids) => `/employer/bookings/${ids.booking}`),
  "employer+/workers.$id.tsx": employer((ids) => `/employer/workers/${ids.worker}`),
  "enroll.$courseId.tsx": student((ids) => `/enroll/${ids.course}`),
  "_auth+/invitation.$token.tsx": visitor((ids) => `/invitation/${ids.workerInvitationToken}`),
  "_auth+/login.tsx": visitor(at("/login")),
  "_auth+/login_.two-step.tsx": visitor(at("/login/two-step")),
  "policies.$slug.tsx": [...PUBLIC("/policies/terms"), ...PUBLIC("/policies/code-of-conduct"), ...PUBLIC("/policies/privacy")],
  "questionnaire.$token.tsx": visitor((ids) => `/questionnaire/${ids.questionnaireToken}`),
  "referee-report.$token.tsx": visitor((ids) => `/referee-report/${ids.refereeToken}`),
  "_auth+/register.tsx": visitor(at("/register")),
  "_auth+/reset-password.$token.tsx": [
    { roles: ["visitor"], path: (ids) => `/reset-password/${ids.resetToken}` },
    // a link that is not one: its own page, a way to ask again
    { roles: ["visitor"], path: () => "/reset-password/no-such-token", status: 404 },
  ],
  "student+/_layout.tsx": LAYOUT,
  "student+/appeals.tsx": student(at("/student/appeals")),
  "student+/recognition.tsx": student(at("/student/recognition")),
  "student+/recognition_.$id.tsx": student((ids) => `/student/recognition/${ids.recognition}`),
  "student+/appeals_.$kind.$id.tsx": [
    { roles: ["student"], path: (ids) => `/student/appeals/unit/${ids.studentAssessment}` },
    { roles: ["student"], path: (ids) => `/student/appeals/hrw/${ids.studentHrwAssessment}` },
  ],
  "student+/calendar.tsx": student(at("/student/calendar")),
  "student+/certificates.tsx": student(at("/student/certificates")),
  "student+/courses.tsx": student(at("/student/courses")),
  "student+/employers.tsx": student(at("/student/employers")),
  "student+/evidence.tsx": student(at("/student/evidence")),
  "student+/invoices.tsx": student(at("/student/invoices")),
  "student+/notifications.tsx": student(at("/student/notifications")),
  "student+/overview.tsx": student(at("/student/overview")),
  "student+/profile.tsx": student(at("/student/profile")),
  "student+/profile.edit.tsx": student(at("/student/profile/edit")),
  "student+/profile.enrollment.tsx": student(at("/student/profile/enrollment")),
  "trainer+/_layout.tsx": LAYOUT,
  "trainer+/appeals._index.tsx": trainer(at("/trainer/appeals")),
  "trainer+/recognition._index.tsx": trainer(at("/trainer/recognition")),
  "trainer+/recognition.$id.tsx": trainer((ids) => `/trainer/recognition/${ids.recognition}`),
  "trainer+/appeals.$id.tsx": trainer((ids) => `/trainer/appeals/${ids.deciderAppeal}`),
  "trainer+/assessments.tsx": trainer(at("/trainer/assessments")),
  "trainer+/assessments.new.tsx": trainer(at("/trainer/assessments/new")),
  "trainer+/calendar.tsx": trainer(at("/trainer/calendar")),
  "trainer+/certificates.tsx": trainer(at("/trainer/certificates")),
  "trainer+/classes._index.tsx": trainer(at("/trainer/classes")),
  "trainer+/classes.$id.tsx": trainer((ids) => `/trainer/classes/${ids.trainerClass}`),
  "trainer+/credentials.tsx": trainer(at("/trainer/credentials")),
  "trainer+/enrollments.$id.tsx": trainer((ids) => `/trainer/enrollments/${ids.trainerEnrollment}`),
  "trainer+/evidence.$kind.$id.tsx": [
    { roles: ["trainer"], path: (ids) => `/trainer/evidence/unit/${ids.evidenceAssessment}` },
    { roles: ["trainer"], path: (ids) => `/trainer/evidence/hrw/${ids.trainerHrwAssessment}` },
    { roles: ["trainer"], path: (ids) => `/trainer/evidence/recognition/${ids.recognition}` },
  ],
  "trainer+/hrw.tsx": trainer(at("/trainer/hrw")),
  "trainer+/hrw_.$id.tsx": trainer((ids) => `/trainer/hrw/${ids.hrwAssessment}`),
  "trainer+/hrw_.book.tsx": trainer(at("/trainer/hrw/book")),
  "trainer+/hrw_.candidates.$id.tsx": trainer((ids) => `/trainer/hrw/candidates/${ids.hrwCandidate}`),
  "trainer+/overview.tsx": trainer(at("/trainer/overview")),
  "trainer+/students.tsx": trainer(at("/trainer/students")),
  "trainer+/usi.$studentId.tsx": trainer((ids) => `/trainer/usi/${ids.student}`),
  "verify+/_layout.tsx": LAYOUT,
  "verify+/_index.tsx": PUBLIC("/verify"),
  "verify+/$code.tsx": [{ roles: everyone, path: (ids) => `/verify/${ids.verificationCode}` }],
};

/** The route files that render a page: a default export (their own or another route's) is what Remix renders. */
function pageRouteFiles(): string[] {
  return routeModuleFiles().filter((name) => /^export (default\b|\{[^}]*\bdefault\b[^}]*\} from )/m.test(routeSource(name)));
}

test("every page route has its entry in the walk", () => {
  const files = pageRouteFiles();
  expect(
    files.filter((f) => !(f in PAGES)),
    "page routes the walk does not open (add them to PAGES)",
  ).toEqual([]);
  expect(
    Object.keys(PAGES).filter((f) => !files.includes(f)),
    "entries naming no page route",
  ).toEqual([]);
});

/** The demo records each page opens, read from the e2e server's database, and tokens made for the token pages. */
type DemoIds = Awaited<ReturnType<typeof demoIds>>;

async function demoIds(role: Role) {
  const db = e2eDb();
  const one = async (statement: string, ...params: unknown[]): Promise<string> => {
    const row = await db.get<{ v: string }>(statement, ...params);
    if (!row?.v) throw new Error(`the demo data has no row for: ${statement}`);
    return String(row.v);
  };
  const user = (email: string) => one("select id as v from users where email = ?", email);
  const [studentId, trainerId, employerUserId] = await Promise.all([user(EMAIL.student), user(EMAIL.trainer), user(EMAIL.employer)]);
  // the demo course with the most classes: its page lists class dates, the text with multi-byte characters
  const course = await one("select course_id as v from classes group by course_id order by count(*) desc, course_id limit 1");
  const worker = await one(
    "select w.id as v from booking_workers w join group_bookings b on b.id = w.booking_id join users u on u.employer_id = b.employer_id and u.email = ? order by w.full_name limit 1",
    EMAIL.employer,
  );
  return {
    student: studentId,
    trainer: trainerId,
    course,
    class: await one("select id as v from classes where course_id = ? order by start_date limit 1", course),
    reviewCourse: await one("select id as v from courses where is_active = 1 order by review_required desc, name limit 1"),
    complaint: await one("select id as v from complaints where kind = 'complaint' order by received_at limit 1"),
    appeal: await one("select id as v from complaints where kind = 'appeal' order by received_at limit 1"),
    // the demo's trainer assessed every demo result, so no appeal is theirs to decide: one is made for the trainer's walk
    deciderAppeal: role === "trainer" ? await appealToDecide(trainerId, course) : "",
    // an application each role may open: the demo's refused one for an admin; one the walk makes for the learner and the assessor
    recognition:
      role === "student" || role === "trainer"
        ? await recognitionToWalk(role === "student" ? studentId : null, role === "trainer" ? trainerId : null)
        : role === "admin"
          ? await one("select id as v from recognition_applications order by applied_at limit 1")
          : "",
    employer: await one("select id as v from employers order by name limit 1"),
    enrollment: await one("select id as v from enrollments where student_id = ? order by enrollment_date limit 1", studentId),
    invoice: await one("select id as v from invoices order by id limit 1"),
    improvement: await one("select id as v from improvement_actions order by id limit 1"),
    location: await one("select id as v from delivery_locations order by name limit 1"),
    validationPlan: await one("select id as v from validation_plans order by id limit 1"),
    booking: await one("select b.id as v from group_bookings b join employers e on e.id = b.employer_id order by b.created_at limit 1"),
    worker,
    studentAssessment: await one("select id as v from assessments where student_id = ? order by assessment_date limit 1", studentId),
    trainerClass: await one("select id as v from classes where trainer_id = ? and cancelled_at is null order by start_date limit 1", trainerId),
    trainerEnrollment: await one(
      "select e.id as v from enrollments e join classes c on c.id = e.class_id where c.trainer_id = ? order by e.enrollment_date limit 1",
      trainerId,
    ),
    evidenceAssessment: await one("select id as v from assessments where assessed_by = ? order by assessment_date limit 1", trainerId),
    hrwAssessment: await one("select id as v from hrw_assessments order by assessment_date limit 1"),
    trainerHrwAssessment: await one("select id as v from hrw_assessments where assessor_id = ? order by assessment_date limit 1", trainerId),
    studentHrwAssessment: await one("select id as v from hrw_assessments where candidate_id = ? order by assessment_date limit 1", studentId),
    hrwCandidate: await one("select candidate_id as v from hrw_assessments order by assessment_date limit 1"),
    webhookEndpoint: role === "admin" ? await webhookEndpoint() : "",
    verificationCode: await one("select verification_code as v from certificates where revoked_at is null order by issue_date limit 1"),
    ...(role === "visitor"
      ? await tokens(studentId, employerUserId, worker)
      : { resetToken: "", workerInvitationToken: "", employerInvitationToken: "", questionnaireToken: "", refereeToken: "" }),
  };
}

/**
 * The demo has no webhook endpoint (its secret would be shown to no one), so the admin's walk makes
 * one: switched off and at a reserved name, so no event the walk causes is ever sent anywhere.
 */
async function webhookEndpoint(): Promise<string> {
  const db = e2eDb();
  const found = await db.get<{ v: string }>("select id as v from webhook_endpoints where url = ? limit 1", WALK_WEBHOOK_URL);
  if (found?.v) return String(found.v);
  const id = crypto.randomUUID();
  const at = new Date().toISOString();
  await db.run(
    "insert into webhook_endpoints (id, url, description, audience, events, secret, is_active, created_by, created_at, updated_at) values (?, ?, ?, 'admin', ?, ?, 0, null, ?, ?)",
    id,
    WALK_WEBHOOK_URL,
    "Walk: switched-off endpoint",
    JSON.stringify(["enrolment.created"]),
    `whsec_${crypto.randomBytes(24).toString("base64")}`,
    at,
    at,
  );
  return id;
}
const WALK_WEBHOOK_URL = "https://walk.example.invalid/hook";

/**
 * Links the portal mails hold a token for (only its hash is stored): made here as the models make
 * them, unused and unexpired, so each token page shows its form rather than "link expired".
 */
async function tokens(studentId: string, employerUserId: string, workerId: string) {
  const db = e2eDb();
  const now = new Date();
  const later = new Date(now.getTime() + 7 * 864e5).toISOString();
  const fresh = () => {
    const token = crypto.randomBytes(24).toString("base64url");
    return { token, hash: crypto.createHash("sha256").update(token).digest("hex") };
  };
  const reset = fresh();
  await db.run(
    "insert into password_reset_tokens (id, user_id, token_hash, created_at, expires_at, used_at) values (?, ?, ?, ?, ?, null)",
    crypto.randomUUID(),
    studentId,
    reset.hash,
    now.toISOString(),
    later,
  );
  const invitation = async (kind: "worker" | "employer_user", userId: string, worker: string | null) => {
    const { token, hash } = fresh();
    await db.run(
      "insert into invitations (id, token_hash, kind, user_id, worker_id, expires_at, used_at, created_at) values (?, ?, ?, ?, ?, ?, null, ?)",
      crypto.randomUUID(),
      hash,
      kind,
      userId,
      worker,
      later,
      now.toISOString(),
    );
    return token;
  };
  const workerUser = (await db.get<{ user_id: string }>("select user_id from booking_workers where id = ?", workerId))!.user_id;
  const workerToken = await invitation("worker", workerUser, workerId);
  const employerToken = await invitation("employer_user", employerUserId, null);
  const questionnaire = fresh();
  await db.run(
    "insert into questionnaire_invitations (id, audience, cause_key, token_hash, recipient_id, used, created_at) values (?, 'learner', ?, ?, ?, 0, ?)",
    crypto.randomUUID(),
    `walk:${crypto.randomUUID()}`,
    questionnaire.hash,
    studentId,
    now.toISOString(),
  );
  return {
    resetToken: reset.token,
    workerInvitationToken: workerToken,
    employerInvitationToken: employerToken,
    questionnaireToken: questionnaire.token,
    refereeToken: await refereeToken(fresh()),
  };
}

/** A referee's link on an RPL of a learner of its own that waits for its decision (the report's form shows only then). */
async function refereeToken(link: { token: string; hash: string }): Promise<string> {
  const db = e2eDb();
  const learner = await userId(await insertStaff("student", "Avery Referenced"));
  const courseId =
    (await db.get<{ id: string }>("select id from courses where licence_class is null order by unit_code limit 1"))?.id ??
    (await db.get<{ id: string }>("select id from courses order by unit_code limit 1"))!.id;
  const now = new Date();
  const at = now.toISOString();
  const enrollmentId = crypto.randomUUID();
  await db.run(
    "insert into enrollments (id, student_id, course_id, status, progress_percentage, enrollment_date, updated_at) values (?, ?, ?, 'enrolled', 0, ?, ?)",
    enrollmentId,
    learner,
    courseId,
    at,
    at,
  );
  const applicationId = crypto.randomUUID();
  await db.run(
    `insert into recognition_applications (id, enrollment_id, student_id, course_id, kind, status, statement, applied_by, applied_at, applied_on)
     values (?, ?, ?, ?, 'rpl', 'applied', 'Walk: waiting for a referee', ?, ?, ?)`,
    applicationId,
    enrollmentId,
    learner,
    courseId,
    learner,
    at,
    at.slice(0, 10),
  );
  await db.run(
    "insert into recognition_referee_requests (id, application_id, referee_name, referee_email, relationship, token_hash, requested_by, requested_at, expires_at) values (?, ?, 'Walk Referee', 'referee@walk.example', null, ?, ?, ?, ?)",
    crypto.randomUUID(),
    applicationId,
    link.hash,
    learner,
    at,
    new Date(now.getTime() + 7 * 864e5).toISOString(),
  );
  return link.token;
}

/** A learner's appeal against another assessor's result, assigned to `deciderId` to decide, as the office's assign form leaves it. */
async function appealToDecide(deciderId: string, courseId: string): Promise<string> {
  const assessor = await insertTrainer("Robin Walker");
  // a learner of its own: one enrolment per learner and course
  const studentId = await userId(await insertStaff("student", "Morgan Appellant"));
  const assessment = await insertAssessment(studentId, courseId, assessor, new Date(Date.now() - 5 * 864e5).toISOString().slice(0, 10), "failed");
  const id = crypto.randomUUID();
  const day = (offset: number) => new Date(Date.now() + offset * 864e5).toISOString().slice(0, 10);
  await e2eDb().run(
    `insert into complaints (id, kind, reference, status, lodged_by, details, assessment_kind, assessment_id, assessor_id, decider_id, received_at, acknowledge_by, resolve_by)
     values (?, 'appeal', ?, 'received', ?, 'The observer missed my tag line check.', 'unit', ?, ?, ?, ?, ?, ?)`,
    id,
    `A-WALK-${id.slice(0, 8).toUpperCase()}`,
    studentId,
    assessment,
    assessor,
    deciderId,
    new Date().toISOString(),
    day(2),
    day(30),
  );
  return id;
}

/**
 * A refused application (no outcome, so no AVETMISS figure moves) the walk's learner or assessor
 * may open: the demo student's own, on their first enrolment, or an RPL of a learner of its own
 * assigned to the demo trainer.
 */
async function recognitionToWalk(studentId: string | null, assessorId: string | null): Promise<string> {
  const db = e2eDb();
  const learner = studentId ?? (await userId(await insertStaff("student", "Casey Recogniser")));
  const existing = await db.get<{ v: string }>(
    "select id as v from recognition_applications where student_id = ? and statement = 'Walk: refused' limit 1",
    learner,
  );
  if (existing?.v) return String(existing.v);
  const enrollment = await db.get<{ id: string; course_id: string }>(
    "select id, course_id from enrollments where student_id = ? order by enrollment_date limit 1",
    learner,
  );
  const now = new Date().toISOString();
  let enrollmentId = enrollment?.id;
  let courseId = enrollment?.course_id;
  if (!enrollmentId) {
    courseId = (await db.get<{ id: string }>("select id from courses order by unit_code limit 1"))!.id;
    enrollmentId = crypto.randomUUID();
    await db.run(
      "insert into enrollments (id, student_id, course_id, status, progress_percentage, enrollment_date, updated_at) values (?, ?, ?, 'enrolled', 0, ?, ?)",
      enrollmentId,
      learner,
      courseId,
      now,
      now,
    );
  }
  const id = crypto.randomUUID();
  await db.run(
    `insert into recognition_applications (id, enrollment_id, student_id, course_id, kind, status, statement, applied_by, applied_at, applied_on, assessor_id, reasons, decided_on, decided_at)
     values (?, ?, ?, ?, 'rpl', 'refused', 'Walk: refused', ?, ?, ?, ?, 'Walk: applied in error', ?, ?)`,
    id,
    enrollmentId,
    learner,
    courseId,
    learner,
    now,
    now.slice(0, 10),
    assessorId,
    now.slice(0, 10),
    now,
  );
  // a file on it, so its pages show their evidence links (a page without one has none to measure)
  await db.run(
    `insert into evidence_files (id, assessment_kind, assessment_id, student_id, sha256, media_type, size_bytes, original_name, uploaded_by, uploaded_at)
     values (?, 'recognition', ?, ?, ?, 'application/pdf', 1024, 'walk-statement-of-attainment.pdf', ?, ?)`,
    crypto.randomUUID(),
    id,
    learner,
    crypto.randomBytes(32).toString("hex"),
    learner,
    now,
  );
  return id;
}

/**
 * Leaves `page` half-way through signing in as an account with an authenticator (a fresh
 * administrator who sets one up in a context of its own, as the security page does), so the
 * second step's page opens rather than sending the visitor back to /login.
 */
async function pendingSecondStep(page: Page, browser: Browser, headers: Record<string, string> | undefined) {
  const email = await makeAdmin();
  const owner = await browser.newContext({ baseURL: test.info().project.use.baseURL, extraHTTPHeaders: headers });
  try {
    const signedIn = await owner.request.post("/login", { form: { email, password: "password123" }, maxRedirects: 0 });
    expect(signedIn.status(), "the fresh administrator signs in").toBe(302);
    await owner.request.post("/account/security?intent=begin", { form: { intent: "begin" } });
    const secret = /data-testid="totp-secret"[^>]*>([A-Z2-7]+)</.exec(await (await owner.request.get("/account/security")).text())?.[1];
    if (!secret) throw new Error("the security page showed no setup key");
    const confirmed = await owner.request.post("/account/security?intent=confirm", {
      form: { intent: "confirm", code: authenticatorCode(secret, Date.now()), current_password: "password123" },
    });
    expect(confirmed.status(), "the authenticator is confirmed").toBe(200);
  } finally {
    await owner.close();
  }
  const started = await page.request.post("/login", { form: { email, password: "password123" }, maxRedirects: 0 });
  expect(started.headers()["location"], "a right password leads to the second step").toMatch(/^\/login\/two-step/);
}

/** What is wrong with a document's bytes: not UTF-8, a NUL, not exactly one doctype. */
function byteFaults(body: Buffer): string[] {
  const faults: string[] = [];
  let text = "";
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    faults.push("not valid UTF-8");
    text = body.toString("utf8");
  }
  const nul = text.indexOf("\0");
  if (nul >= 0) faults.push(`a NUL at character ${nul}: ${JSON.stringify(text.slice(Math.max(0, nul - 40), nul + 20))}`);
  const doctypes = text.match(/<!doctype html>/gi)?.length ?? 0;
  if (doctypes !== 1 || !/^<!doctype html>/i.test(text)) faults.push(`${doctypes} doctypes (one, first, expected)`);
  return faults;
}

/**
 * The Nu HTML checker (vnu-jar, the W3C's checker) as a service of this test worker: one Java
 * process, started when the worker's first walk has documents to check, reads every document of
 * the worker's walks. Java's start is most of what a run of the checker costs: a run per walk
 * (16 of them) took 150 s of CPU, most of the no-JavaScript walk's (decision 026). Compiled by
 * the JIT's first tier only, which a few hundred documents never outgrow; that tier's deeper
 * stack is what the checker's schema needs (`-Xss`).
 */
const vnuJar = path.resolve("node_modules/vnu-jar/build/dist/vnu.jar");

interface HtmlChecker {
  /** The checker's messages about one HTML document. */
  messages(body: Buffer): Promise<VnuMessage[]>;
}
interface VnuMessage {
  type: string;
  message: string;
  extract?: string;
  lastLine?: number;
  lastColumn?: number;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startHtmlChecker(): Promise<{ url: string; java: ChildProcess }> {
  const port = await freePort();
  const java = spawn(
    "java",
    [
      "-Xss4m",
      "-XX:TieredStopAtLevel=1",
      "-XX:+UseSerialGC",
      "-Dnu.validator.servlet.bind-address=127.0.0.1",
      `-Dnu.validator.servlet.max-file-size=${16 * 1024 * 1024}`,
      "-cp",
      vnuJar,
      "nu.validator.servlet.Main",
      String(port),
    ],
    { stdio: "ignore" },
  );
  const url = `http://127.0.0.1:${port}/`;
  for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
    if (java.exitCode !== null) break;
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, java };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  java.kill();
  throw new Error(`the Nu HTML checker did not start on port ${port}`);
}

const walkTest = test.extend<object, { htmlChecker: HtmlChecker }>({
  htmlChecker: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; it needs none
    async ({}, use) => {
      let service: Promise<{ url: string; java: ChildProcess }> | undefined;
      await use({
        async messages(body) {
          const { url } = await (service ??= startHtmlChecker());
          const answer = await fetch(`${url}?out=json`, {
            method: "POST",
            headers: { "Content-Type": "text/html; charset=utf-8" },
            body: new Uint8Array(body),
          });
          if (!answer.ok) throw new Error(`the Nu HTML checker answered ${answer.status}`);
          return ((await answer.json()) as { messages: VnuMessage[] }).messages;
        },
      });
      if (service) (await service).java.kill();
    },
    { scope: "worker" },
  ],
});

/**
 * What Remix writes after `</html>`, and nothing else: the page's loader data as inline scripts
 * inside React Suspense markers. Remix renders them beside the root route's `<html>`, not inside
 * it, so the checker calls the first a stray start tag and stops there; a browser puts them at
 * the end of the body, where the router reads them (docs/decisions/014, "Single fetch").
 */
const REMIX_STREAM_AFTER_HTML =
  /^(?:<!--\/?\$-->|<script(?: nonce="[^"]*")?>window\.__remixContext\.streamController\.(?:enqueue\("(?:[^"\\]|\\.)*"\)|close\(\));<\/script>)*$/;

/** Where a document's `</html>` ends when only Remix's data scripts follow it (line and column, from 1, as the checker counts). */
function remixStreamStart(text: string): { line: number; column: number } | null {
  const end = text.lastIndexOf("</html>");
  if (end < 0 || !REMIX_STREAM_AFTER_HTML.test(text.slice(end + "</html>".length))) return null;
  const before = text.slice(0, end + "</html>".length).split("\n");
  return { line: before.length, column: before[before.length - 1].length };
}

/** Whether the checker's error lies in what follows `</html>` (Remix's data scripts). */
function afterHtml(message: { lastLine?: number; lastColumn?: number }, start: { line: number; column: number } | null): boolean {
  if (!start || message.lastLine === undefined) return false;
  return message.lastLine > start.line || (message.lastLine === start.line && (message.lastColumn ?? 0) > start.column);
}

async function htmlErrors(checker: HtmlChecker, documents: { page: string; body: Buffer }[]): Promise<string[]> {
  const found = await Promise.all(
    documents.map(async ({ page, body }) => {
      const streamStart = remixStreamStart(body.toString("utf8"));
      return (await checker.messages(body))
        .filter((m) => m.type === "error")
        .flatMap((m) => {
          // the one error the framework forces (and the checker's note that it stops there): nothing else is let through
          if (afterHtml(m, streamStart) && /^(Stray start tag “script”\.|Cannot recover after last error\.)/.test(m.message)) return [];
          return [`${page}: HTML: ${m.message} (line ${m.lastLine}: ${JSON.stringify(m.extract ?? "")})`];
        });
    }),
  );
  return found.flat();
}

/** The part of Remix's router the walk drives (window.__remixRouter). */
interface WalkRouter {
  revalidate(): unknown;
  state: { revalidation: string; navigation: { state: string } };
}

/**
 * Waits for the router to start and the hydration render to finish (the page idle), then has
 * the router load the page's data again as a client navigation does (its `.data` request) and
 * render it, so a loader that fails only there, or data that renders only from the server's
 * copy, fails the walk too.
 */
async function hydratedAndRevalidated(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
  const idle = () => page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 3_000 })));
  await idle();
  await page.evaluate(() => void (window as unknown as { __remixRouter: WalkRouter }).__remixRouter.revalidate());
  await page.waitForFunction(() => {
    const { state } = (window as unknown as { __remixRouter: WalkRouter }).__remixRouter;
    return state.revalidation === "idle" && state.navigation.state === "idle";
  });
  await idle();
}

/**
 * The phone check: the no-JavaScript walk runs at a 360 x 740 screen, and on every page the
 * content (<main>) starts within its first quarter, nothing is wider than the screen, and every
 * visible control is at least 44 px high (and a time field wide enough for its whole time). A
 * checkbox or radio is measured by its <label> (what a thumb taps). The one exemption is a link
 * inside running text: an <a> with a word right before or after it. Then, at 360 and 390 px, with JavaScript too (the hydrated page),
 * what tests/e2e/phone-fit.ts measures: no control outside the screen, a sideways-scrolling box
 * labelled and focusable, no button or field under 44 px either way.
 */
const PHONE = { width: 360, height: 740 };
/** The screen the JavaScript walk loads pages at (Playwright's own), where axe reads them. */
const DESKTOP = { width: 1280, height: 720 };
/** Where each role's portal opens: its frame is read by axe at phone width with the Menu open. */
const LANDING: Record<Role, string> = {
  visitor: "/",
  student: "/student/overview",
  trainer: "/trainer/overview",
  admin: "/admin/overview",
  employer: "/employer/overview",
};

/** A phone check's findings as the walk's failure lines. */
function phoneFailures(current: string, found: Misfit[]): string[] {
  return found.flatMap(({ width, problems }) => problems.map((problem) => `${current}: ${width ? `at ${width} px` : "at 390 px, the Menu open"}: ${problem}`));
}
const CONTENT_START = PHONE.height / 4;
const TAP = 44;
/** A time field's least width: its "07:00 AM" and its picker at 16 px. */
const TIME_WIDTH = 136;

function phoneFaults(limits: { tap: number; contentStart: number; width: number; timeWidth: number }): string[] {
  const faults: string[] = [];
  const main = document.querySelector("main");
  const top = main ? main.getBoundingClientRect().top + window.scrollY : Infinity;
  if (top > limits.contentStart) faults.push(`content starts at ${Math.round(top)} px (at most ${limits.contentStart})`);
  const width = document.documentElement.scrollWidth;
  if (width > limits.width) faults.push(`${width} px wide (at most ${limits.width})`);
  const name = (el: Element) =>
    `<${el.tagName.toLowerCase()}${el.getAttribute("type") ? ` type=${el.getAttribute("type")}` : ""}> "${(el.textContent || el.getAttribute("aria-label") || el.getAttribute("name") || "").trim().replace(/\s+/g, " ").slice(0, 40)}"`;
  // A link among the words of a sentence is exempt: its height is the line's. It is among them when
  // a word stands right before or after it; a link beside other parts of a row (a name, a badge, a
  // date, each in its own element) is that row's control and measured like a button, and so is a
  // link to a file (a download), whatever the row says of the file.
  // (The server's markup puts a comment between two pieces of text it rendered apart, and a space
  // may be a piece of its own: neither is what stands beside the link.)
  const beside = (node: ChildNode | null, step: "previousSibling" | "nextSibling") => {
    let at = node;
    while (at && (at.nodeType === Node.COMMENT_NODE || (at.nodeType === Node.TEXT_NODE && !(at.textContent ?? "").trim()))) at = at[step];
    return at;
  };
  const wordsAt = (node: ChildNode | null) => node?.nodeType === Node.TEXT_NODE && /[\p{L}\p{N}]/u.test(node.textContent ?? "");
  const inRunningText = (el: Element) => {
    if (el.tagName !== "A" || /\/download(\?|$)/.test(el.getAttribute("href") ?? "")) return false;
    return wordsAt(beside(el.previousSibling, "previousSibling")) || wordsAt(beside(el.nextSibling, "nextSibling"));
  };
  for (const el of document.querySelectorAll("a, button, input:not([type=hidden]), select, textarea, summary")) {
    let box = el.getBoundingClientRect();
    // not shown (a closed menu, a `hidden` part) or visually hidden until focused (the skip link)
    if (box.width <= 1 || box.height <= 1 || getComputedStyle(el).visibility === "hidden") continue;
    if (inRunningText(el)) continue;
    const type = el.getAttribute("type");
    if (el.tagName === "INPUT" && (type === "checkbox" || type === "radio")) {
      const label = el.closest("label") ?? (el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null);
      if (label) box = label.getBoundingClientRect();
    }
    if (box.height < limits.tap - 0.5) faults.push(`${name(el)} is ${Math.round(box.height)} px high`);
    // a time field narrower than its "07:00 AM" and its picker cuts the time ("07:00 A")
    if (type === "time" && box.width < limits.timeWidth) faults.push(`${name(el)} is ${Math.round(box.width)} px wide (at least ${limits.timeWidth})`);
  }
  return faults;
}

/**
 * A role's pages, walked in parts of at most this many, each part its own test signed in afresh,
 * so the parts of the longest walk (the administrator's) run side by side.
 */
const PART = 12;

/**
 * axe reads each page template once (decision 022, "axe once per page"): the route file's first
 * visit, as the first role it names and, on a page visitors open too, as the first signed-in
 * role (the site's header shows a signed-in person other links). Another portal role or another
 * record shows the same markup in the same colours; what a role changes is the portal's frame
 * around it, which axe reads on that role's own pages. A policy is read as the terms.
 */
const readByAxe = (entry: Visit[], visit: Visit, role: Role) =>
  visit === entry[0] && (role === visit.roles[0] || role === visit.roles.find((r) => r !== "visitor"));

const walks = ROLES.flatMap((role) => {
  const visits = Object.entries(PAGES).flatMap(([file, entry]) =>
    entry === LAYOUT ? [] : entry.filter((v) => v.roles.includes(role)).map((v) => ({ file, ...v, axe: readByAxe(entry, v, role) })),
  );
  const parts = Math.ceil(visits.length / PART);
  return Array.from({ length: parts }, (_, i) => ({ role, part: `${i + 1} of ${parts}`, visits: visits.slice(i * PART, (i + 1) * PART) }));
});

for (const { role, part, visits } of walks) {
  walkTest(`${role}: every page opens clean (part ${part})`, async ({ page, js, browser, clientHeaders, htmlChecker }) => {
    test.setTimeout(180_000);
    const ids = await demoIds(role);
    // the no-JavaScript walk is the phone walk (its HTML check does not depend on the width)
    if (!js) await page.setViewportSize(PHONE);
    // signed in with no page loaded: each page load below is a visit
    if (role !== "visitor") await startSignedIn(page, EMAIL[role]);
    else await pendingSecondStep(page, browser, clientHeaders);

    // what went wrong on the page being walked, with JavaScript: console errors, page errors, 5xx
    let current = "";
    let expectedStatus = 200;
    const failures: string[] = [];
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      // the browser reports the document's own expected error status (the 404 page) as a console error
      if (expectedStatus >= 400 && message.text().includes(`status of ${expectedStatus}`)) return;
      failures.push(`${current}: console error: ${message.text()}`);
    });
    page.on("pageerror", (error) => failures.push(`${current}: page error: ${error.message}`));
    let dataRequests = 0;
    page.on("response", (response: Response) => {
      if (new URL(response.url()).pathname.endsWith(".data")) dataRequests += 1;
      if (response.status() >= 500) failures.push(`${current}: ${response.status()} from ${new URL(response.url()).pathname}${new URL(response.url()).search}`);
    });

    const documents: { page: string; body: Buffer }[] = [];
    for (const visit of visits) {
      current = `${visit.path(ids)} (${visit.file})`;
      expectedStatus = visit.status ?? 200;
      const response = await page.goto(visit.path(ids), { waitUntil: "load" });
      if (!response) {
        failures.push(`${current}: no response`);
        continue;
      }
      if (response.status() !== expectedStatus) failures.push(`${current}: answered ${response.status()}, expected ${expectedStatus}`);
      // a page the role may not open sends it elsewhere: the entry names a role it should not
      const landed = new URL(page.url()).pathname;
      if (landed !== new URL(visit.path(ids), page.url()).pathname) failures.push(`${current}: sent on to ${landed}`);
      const body = await response.body();
      for (const fault of byteFaults(body)) failures.push(`${current}: ${fault}`);
      // what a search result or a shared link shows of the page
      const descriptions = [...body.toString("utf8").matchAll(/<meta name="description" content="([^"]*)"/g)].map((m) => m[1]);
      if (descriptions.length !== 1 || !descriptions[0].trim())
        failures.push(`${current}: ${descriptions.length} meta descriptions (one, not empty, expected)`);
      // one contentinfo landmark: the site footer or the root's policy strip, never both (a page
      // that draws the site footer says so with its route handle `siteFooter`)
      const footers = body.toString("utf8").match(/<footer[\s>]/g)?.length ?? 0;
      if (footers > 1) failures.push(`${current}: ${footers} footers (one expected: the route handle siteFooter leaves out the root's)`);
      if (js) {
        const before = dataRequests;
        await hydratedAndRevalidated(page);
        if (dataRequests === before) failures.push(`${current}: the router loaded no data again`);
        // axe reads the rendered page, the same from either database's demo data: checked once,
        // in the js project; the postgres project proves the loaders and the hydration
        if (test.info().project.name === "js") {
          for (const violation of visit.axe ? await accessibilityViolations(page, WALK_AXE_TAGS) : []) failures.push(`${current}: axe: ${violation}`);
          // the hydrated page on a phone, and axe there with the Menu open on what a phone shows
          // differently: the portal's frame (the role's landing page) and a table that stacks
          // into blocks (docs/decisions/022-phones.md, "axe once per page")
          const menuAxe = landed === LANDING[role] || (visit.axe && (await page.locator(".table-stack").count()) > 0);
          failures.push(...phoneFailures(current, await phoneCheck(page, true, menuAxe)));
          await page.setViewportSize(DESKTOP);
        }
      } else {
        documents.push({ page: current, body });
        for (const fault of await page.evaluate(phoneFaults, { tap: TAP, contentStart: CONTENT_START, width: PHONE.width, timeWidth: TIME_WIDTH }))
          failures.push(`${current}: at 360 px: ${fault}`);
        failures.push(...phoneFailures(current, await phoneCheck(page, false, false)));
        await page.setViewportSize(PHONE);
      }
    }
    if (js) await page.waitForLoadState("networkidle");
    // the server's HTML is the same with JavaScript or without: checked once, in the no-JS project
    else failures.push(...(await htmlErrors(htmlChecker, documents)));
    expect(failures, `${role}: ${visits.length} pages`).toEqual([]);
  });
}
