/// <reference types="vite/client" />
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DB } from "#db/connection";
import type { Role } from "#db/schema";
import { call, type RouteModule } from "../support/api-calls";
import { issueApiToken } from "~/api/auth.server";
import { createSession } from "~/auth/session.server";
import { makeCertifiedStudent } from "../support/pdf-fixtures";
import { createTestDb, useAsAppDb } from "../support/test-db";
import { makeCourse, makeEnrollment, makeUser } from "../support/factories";
import { routeModuleFiles, routeSource } from "../support/route-files";

/**
 * The access matrix: every page, form action and /api route (with and
 * without an id) tried by every kind of caller, each answer checked against who may do what.
 * Pages: no usable session → redirect to /login; wrong role → redirect to /dashboard.
 * /api: no usable credentials → 401; wrong role or inactive account → 403; not yours → 403/404.
 * PDF rendering is replaced by fixed bytes: this test is about who gets in, not what they get.
 */
vi.mock("~/pdf/certificate-pdf.server", async (importOriginal) => {
  const original = await importOriginal<Record<string, unknown>>();
  return {
    ...original,
    ensureCertificatePdf: async () => ({
      pdf: Buffer.from("%PDF-1.4 test"),
      byteLength: 13,
      etag: '"test"',
      templateVersion: "test",
      renderedAt: new Date().toISOString(),
      rendered: false,
    }),
    prepareCertificatePdf: () => {},
  };
});

type Who = "anonymous" | "owner" | "other student" | "trainer" | "admin" | "pending" | "deactivated";
const EVERYONE: Who[] = ["anonymous", "owner", "other student", "trainer", "admin", "pending", "deactivated"];
const NO_SESSION: Who[] = ["anonymous", "pending", "deactivated"];
const ROLE_OF: Record<Who, Role | null> = {
  anonymous: null,
  owner: "student",
  "other student": "student",
  trainer: "trainer",
  admin: "admin",
  pending: null,
  deactivated: null,
};

let db: DB;
let cleanup: () => Promise<void>;
const creds = {} as Record<Who, { cookie: string | null; token: string | null }>;
let ids: { course: string; freeCourse: string; owner: string; enrollment: string; certificate: string; unknown: string; class: string };

async function credentialsFor(userId: string) {
  return { cookie: (await createSession(db, userId)).split(";")[0]!, token: await issueApiToken(db, userId) };
}

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb({ seed: true }));
  useAsAppDb(db);
  const made = await makeCertifiedStudent(db, { fullName: "Owner Student" });
  const course = await makeCourse(db, { name: "Matrix course" });
  const enrollment = await makeEnrollment(db, made.student.id, course.id, { status: "in_progress", progress: 40 });
  const freeCourse = await makeCourse(db, { name: "Nobody's course" });
  // a class taught by someone outside the matrix: the matrix's trainer finds no roster there
  const classTrainer = await makeUser(db, { role: "trainer" });
  const { createClass } = await import("~/models/class.server");
  const cls = await createClass(
    db,
    freeCourse.id,
    {
      start_date: "2099-01-05",
      end_date: "2099-01-05",
      sessions: [{ date: "2099-01-05", starts_at: "07:30", ends_at: "15:30" }],
      trainer_id: classTrainer.id,
      seats: 100,
    },
    classTrainer.id,
  );
  ids = {
    class: cls.id,
    course: course.id,
    freeCourse: freeCourse.id,
    owner: made.student.id,
    enrollment: enrollment.id,
    certificate: made.certificate.id,
    unknown: "00000000-0000-4000-8000-000000000000",
  };
  const other = await makeUser(db, { role: "student" });
  const trainer = await makeUser(db, { role: "trainer" });
  const admin = await makeUser(db, { role: "admin" });
  // sessions and tokens issued while these accounts could sign in; then they lose the right
  const pending = await makeUser(db, { role: "trainer" });
  const deactivated = await makeUser(db, { role: "student" });
  creds.anonymous = { cookie: null, token: null };
  creds.owner = await credentialsFor(made.student.id);
  creds["other student"] = await credentialsFor(other.id);
  creds.trainer = await credentialsFor(trainer.id);
  creds.admin = await credentialsFor(admin.id);
  creds.pending = await credentialsFor(pending.id);
  creds.deactivated = await credentialsFor(deactivated.id);
  await db.updateTable("users").set({ approval_status: "pending" }).where("id", "=", pending.id).execute();
  await db.updateTable("users").set({ is_active: 0 }).where("id", "=", deactivated.id).execute();
});
afterAll(async () => cleanup());

const routeModules = import.meta.glob<RouteModule>(["../../app/routes/**/*.{ts,tsx}", "!../../app/routes/**/*.test.*", "!../../app/routes/**/*.server.ts"]);
const mod = (file: string) => routeModules[`../../app/routes/${file}`]!();

/**
 * Calls a route; a loader that returns plain data (not a Response) answered 200. Anything else it
 * throws is what Remix would answer with a server error: a 500 here, so the table names the route.
 */
async function answer(...args: Parameters<typeof call>): Promise<Response> {
  try {
    const result: unknown = await call(...args);
    return result instanceof Response ? result : new Response(JSON.stringify(result ?? null), { status: 200 });
  } catch (error) {
    if (error instanceof Response) return error;
    return Response.json({ detail: `threw ${error instanceof Error ? error.message : String(error)}` }, { status: 500 });
  }
}

interface PageCase {
  file: string;
  path: () => string;
  params?: () => Record<string, string>;
  /** who may (roles); "signed-in" for any signed-in user */
  may: Role[] | "signed-in";
  methods: Array<"GET" | "POST">;
}

const pages: PageCase[] = [
  { file: "dashboard.tsx", path: () => "/dashboard", may: "signed-in", methods: ["GET"] },
  {
    file: "enroll.$courseId.tsx",
    path: () => `/enroll/${ids.freeCourse}`,
    params: () => ({ courseId: ids.freeCourse }),
    may: "signed-in",
    methods: ["GET", "POST"],
  },
  { file: "enroll.$courseId.tsx", path: () => `/enroll/${ids.unknown}`, params: () => ({ courseId: ids.unknown }), may: "signed-in", methods: ["GET"] },
  { file: "student+/_layout.tsx", path: () => "/student", may: ["student"], methods: ["GET"] },
  { file: "student+/_index.tsx", path: () => "/student", may: ["student"], methods: ["GET"] },
  { file: "student+/overview.tsx", path: () => "/student/overview", may: ["student"], methods: ["GET"] },
  { file: "student+/profile.tsx", path: () => "/student/profile", may: ["student"], methods: ["GET"] },
  { file: "student+/profile.edit.tsx", path: () => "/student/profile/edit", may: ["student"], methods: ["GET", "POST"] },
  { file: "student+/notifications.tsx", path: () => "/student/notifications", may: ["student"], methods: ["GET", "POST"] },
  { file: "trainer+/_layout.tsx", path: () => "/trainer", may: ["trainer"], methods: ["GET"] },
  { file: "trainer+/_index.tsx", path: () => "/trainer", may: ["trainer"], methods: ["GET"] },
  { file: "trainer+/overview.tsx", path: () => "/trainer/overview", may: ["trainer"], methods: ["GET"] },
  { file: "trainer+/students.tsx", path: () => "/trainer/students", may: ["trainer"], methods: ["GET"] },
  { file: "trainer+/assessments.tsx", path: () => "/trainer/assessments", may: ["trainer"], methods: ["GET"] },
  { file: "trainer+/certificates.tsx", path: () => "/trainer/certificates", may: ["trainer"], methods: ["GET", "POST"] },
  {
    file: "trainer+/usi.$studentId.tsx",
    path: () => `/trainer/usi/${ids.owner}`,
    params: () => ({ studentId: ids.owner }),
    may: ["trainer"],
    methods: ["GET"],
  },
  {
    file: "admin+/enrollments.$id.tsx",
    path: () => `/admin/enrollments/${ids.enrollment}`,
    params: () => ({ id: ids.enrollment }),
    may: ["admin"],
    methods: ["GET", "POST"],
  },
  {
    file: "trainer+/enrollments.$id.tsx",
    path: () => `/trainer/enrollments/${ids.enrollment}`,
    params: () => ({ id: ids.enrollment }),
    may: ["trainer"],
    methods: ["GET", "POST"],
  },
  { file: "trainer+/assessments.new.tsx", path: () => `/trainer/assessments/new?enrollment=${ids.enrollment}`, may: ["trainer"], methods: ["GET", "POST"] },
  { file: "admin+/_layout.tsx", path: () => "/admin", may: ["admin"], methods: ["GET"] },
  { file: "admin+/_index.tsx", path: () => "/admin", may: ["admin"], methods: ["GET"] },
  { file: "admin+/overview.tsx", path: () => "/admin/overview", may: ["admin"], methods: ["GET", "POST"] },
  { file: "admin+/students.tsx", path: () => "/admin/students", may: ["admin"], methods: ["GET"] },
  { file: "admin+/students.new.tsx", path: () => "/admin/students/new", may: ["admin"], methods: ["GET", "POST"] },
  { file: "admin+/students.$id.tsx", path: () => `/admin/students/${ids.owner}`, params: () => ({ id: ids.owner }), may: ["admin"], methods: ["GET", "POST"] },
  {
    file: "admin+/students.$id_.edit.tsx",
    path: () => `/admin/students/${ids.owner}/edit`,
    params: () => ({ id: ids.owner }),
    may: ["admin"],
    methods: ["GET", "POST"],
  },
  { file: "admin+/courses.tsx", path: () => "/admin/courses", may: ["admin"], methods: ["GET", "POST"] },
  { file: "admin+/staff.tsx", path: () => "/admin/staff", may: ["admin"], methods: ["GET", "POST"] },
  { file: "admin+/courses.new.tsx", path: () => "/admin/courses/new", may: ["admin"], methods: ["GET", "POST"] },
  { file: "admin+/courses.$id.tsx", path: () => `/admin/courses/${ids.course}`, params: () => ({ id: ids.course }), may: ["admin"], methods: ["GET"] },
  {
    file: "admin+/courses.$id_.edit.tsx",
    path: () => `/admin/courses/${ids.course}/edit`,
    params: () => ({ id: ids.course }),
    may: ["admin"],
    methods: ["GET", "POST"],
  },
  { file: "admin+/reports.tsx", path: () => "/admin/reports?year=2025", may: ["admin"], methods: ["GET"] },
  { file: "admin+/reports.avetmiss[.]zip.ts", path: () => "/admin/reports/avetmiss.zip?year=2025", may: ["admin"], methods: ["GET"] },
  {
    file: "admin+/reports.avetmiss.$file.ts",
    path: () => "/admin/reports/avetmiss/NAT00060.txt?year=2025",
    params: () => ({ file: "NAT00060.txt" }),
    may: ["admin"],
    methods: ["GET"],
  },
  { file: "admin+/locations.tsx", path: () => "/admin/locations", may: ["admin"], methods: ["GET", "POST"] },
  {
    file: "admin+/locations_.$id.tsx",
    path: () => `/admin/locations/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    may: ["admin"],
    methods: ["GET", "POST"],
  },
  { file: "student+/profile.enrollment.tsx", path: () => "/student/profile/enrollment", may: ["student"], methods: ["GET", "POST"] },
  { file: "admin+/export[.]csv.ts", path: () => "/admin/export.csv", may: ["admin"], methods: ["GET"] },
  // classes (docs/decisions/013-classes.md)
  {
    file: "admin+/courses.$id_.classes.new.tsx",
    path: () => `/admin/courses/${ids.freeCourse}/classes/new`,
    params: () => ({ id: ids.freeCourse }),
    may: ["admin"],
    methods: ["GET", "POST"],
  },
  {
    file: "admin+/courses.$id_.classes.$classId.tsx",
    path: () => `/admin/courses/${ids.freeCourse}/classes/${ids.class}`,
    params: () => ({ id: ids.freeCourse, classId: ids.class }),
    may: ["admin"],
    methods: ["GET", "POST"],
  },
  { file: "trainer+/classes._index.tsx", path: () => "/trainer/classes", may: ["trainer"], methods: ["GET"] },
  {
    file: "trainer+/classes.$id.tsx",
    path: () => `/trainer/classes/${ids.class}`,
    params: () => ({ id: ids.class }),
    may: ["trainer"],
    methods: ["GET", "POST"],
  },
  { file: "student+/courses.tsx", path: () => "/student/courses", may: ["student"], methods: ["GET"] },
  { file: "student+/calendar.tsx", path: () => "/student/calendar", may: ["student"], methods: ["GET", "POST"] },
  { file: "trainer+/calendar.tsx", path: () => "/trainer/calendar", may: ["trainer"], methods: ["GET", "POST"] },
  { file: "admin+/audit.tsx", path: () => "/admin/audit", may: ["admin"], methods: ["GET"] },
  { file: "admin+/mail.tsx", path: () => "/admin/mail", may: ["admin"], methods: ["GET", "POST"] },
  { file: "admin+/webhooks.tsx", path: () => "/admin/webhooks", may: ["admin"], methods: ["GET", "POST"] },
  {
    file: "admin+/webhooks_.$id.tsx",
    path: () => `/admin/webhooks/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    may: ["admin"],
    methods: ["GET", "POST"],
  },
  { file: "admin+/audit[.]csv.ts", path: () => "/admin/audit.csv", may: ["admin"], methods: ["GET"] },
  { file: "admin+/reports_.hrw.tsx", path: () => "/admin/reports/hrw?from=2026-01-01", may: ["admin"], methods: ["GET"] },
  { file: "admin+/reports_.hrw[.]csv.ts", path: () => "/admin/reports/hrw.csv", may: ["admin"], methods: ["GET"] },
  { file: "admin+/reports_.hrw[.]zip.ts", path: () => "/admin/reports/hrw.zip?state=VIC&year=2025", may: ["admin"], methods: ["GET"] },
  { file: "admin+/hrw-states.tsx", path: () => "/admin/hrw-states", may: ["admin"], methods: ["GET", "POST"] },
  { file: "admin+/hrw.rules.tsx", path: () => "/admin/hrw/rules", may: ["admin"], methods: ["GET", "POST"] },
  {
    file: "admin+/staff_.$id.hrw.tsx",
    path: () => `/admin/staff/${ids.unknown}/hrw`,
    params: () => ({ id: ids.unknown }),
    may: ["admin"],
    methods: ["GET", "POST"],
  },
  { file: "trainer+/hrw.tsx", path: () => "/trainer/hrw", may: ["trainer"], methods: ["GET"] },
  { file: "trainer+/hrw_.book.tsx", path: () => `/trainer/hrw/book?candidate=${ids.owner}`, may: ["trainer"], methods: ["GET", "POST"] },
  { file: "trainer+/hrw_.$id.tsx", path: () => `/trainer/hrw/${ids.unknown}`, params: () => ({ id: ids.unknown }), may: ["trainer"], methods: ["GET", "POST"] },
  // assessment evidence, checklists and retention
  {
    file: "trainer+/evidence.$kind.$id.tsx",
    path: () => `/trainer/evidence/unit/${ids.unknown}`,
    params: () => ({ kind: "unit", id: ids.unknown }),
    may: ["trainer", "admin"],
    methods: ["GET", "POST"],
  },
  {
    file: "trainer+/evidence.$kind.$id_.upload.ts",
    path: () => `/trainer/evidence/unit/${ids.unknown}/upload`,
    params: () => ({ kind: "unit", id: ids.unknown }),
    may: ["trainer"],
    methods: ["POST"],
  },
  {
    file: "evidence.$id.download.ts",
    path: () => `/evidence/${ids.unknown}/download`,
    params: () => ({ id: ids.unknown }),
    may: ["student", "trainer", "admin"],
    methods: ["GET"],
  },
  {
    file: "certificates.$id.download.ts",
    path: () => `/certificates/${ids.unknown}/download`,
    params: () => ({ id: ids.unknown }),
    may: "signed-in",
    methods: ["GET"],
  },
  {
    file: "trainer-activities.$id.evidence.ts",
    path: () => `/trainer-activities/${ids.unknown}/evidence`,
    params: () => ({ id: ids.unknown }),
    may: ["trainer", "admin"],
    methods: ["GET"],
  },
  { file: "student+/evidence.tsx", path: () => "/student/evidence", may: ["student"], methods: ["GET", "POST"] },
  { file: "admin+/checklists.tsx", path: () => "/admin/checklists", may: ["admin"], methods: ["GET", "POST"] },
  { file: "admin+/retention.tsx", path: () => "/admin/retention", may: ["admin"], methods: ["GET", "POST"] },
  {
    file: "trainer+/hrw_.candidates.$id.tsx",
    path: () => `/trainer/hrw/candidates/${ids.owner}`,
    params: () => ({ id: ids.owner }),
    may: ["trainer"],
    methods: ["GET", "POST"],
  },
  // complaints and appeals, improvements, questionnaires, credentials, validation, finance, employers;
  // a trainer reaches the complaint pages for the appeals given them to decide (trainer.appeals re-exports them)
  { file: "admin+/complaints._index.tsx", path: () => `/admin/complaints`, may: ["admin", "trainer"], methods: ["GET"] },
  {
    file: "admin+/complaints.$id.tsx",
    path: () => `/admin/complaints/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    may: ["admin", "trainer"],
    methods: ["GET", "POST"],
  },
  { file: "admin+/complaints.settings.tsx", path: () => `/admin/complaints/settings`, may: ["admin"], methods: ["GET", "POST"] },
  { file: "admin+/complaints[.]csv.ts", path: () => `/admin/complaints.csv`, may: ["admin"], methods: ["GET"] },
  { file: "admin+/credentials.tsx", path: () => `/admin/credentials`, may: ["admin"], methods: ["GET"] },
  {
    file: "admin+/credentials_.$id.tsx",
    path: () => `/admin/credentials/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    may: ["admin"],
    methods: ["GET", "POST"],
  },
  { file: "admin+/employers.tsx", path: () => `/admin/employers`, may: ["admin"], methods: ["GET", "POST"] },
  {
    file: "admin+/employers_.$id.tsx",
    path: () => `/admin/employers/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    may: ["admin"],
    methods: ["GET", "POST"],
  },
  { file: "admin+/finance.tsx", path: () => `/admin/finance`, may: ["admin"], methods: ["GET"] },
  { file: "admin+/finance_.settings.tsx", path: () => `/admin/finance/settings`, may: ["admin"], methods: ["GET", "POST"] },
  {
    file: "admin+/finance_.$id.tsx",
    path: () => `/admin/finance/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    may: ["admin"],
    methods: ["GET", "POST"],
  },
  {
    file: "admin+/finance_.$id.pdf.ts",
    path: () => `/admin/finance/${ids.unknown}/pdf`,
    params: () => ({ id: ids.unknown }),
    may: ["admin"],
    methods: ["GET"],
  },
  {
    file: "admin+/finance_.credit-notes.$id.pdf.ts",
    path: () => `/admin/finance/credit-notes/${ids.unknown}/pdf`,
    params: () => ({ id: ids.unknown }),
    may: ["admin"],
    methods: ["GET"],
  },
  { file: "admin+/finance_.xero[.]csv.ts", path: () => `/admin/finance/xero.csv?from=2026-11-01&to=2026-11-30`, may: ["admin"], methods: ["GET"] },
  { file: "admin+/review-questions.tsx", path: () => `/admin/review-questions`, may: ["admin"], methods: ["GET", "POST"] },
  { file: "admin+/improvements._index.tsx", path: () => `/admin/improvements`, may: ["admin"], methods: ["GET"] },
  { file: "admin+/improvements.new.tsx", path: () => `/admin/improvements/new?source_type=complaint&source_id=x`, may: ["admin"], methods: ["GET", "POST"] },
  {
    file: "admin+/improvements.$id.tsx",
    path: () => `/admin/improvements/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    may: ["admin"],
    methods: ["GET", "POST"],
  },
  { file: "admin+/improvements[.]csv.ts", path: () => `/admin/improvements.csv`, may: ["admin"], methods: ["GET"] },
  { file: "admin+/questionnaires._index.tsx", path: () => `/admin/questionnaires`, may: ["admin"], methods: ["GET", "POST"] },
  { file: "admin+/questionnaires.report.tsx", path: () => `/admin/questionnaires/report`, may: ["admin"], methods: ["GET"] },
  { file: "admin+/questionnaires.annual[.]csv.ts", path: () => `/admin/questionnaires/annual.csv?year=2026`, may: ["admin"], methods: ["GET"] },
  { file: "admin+/validations.tsx", path: () => `/admin/validations`, may: ["admin"], methods: ["GET", "POST"] },
  {
    file: "admin+/validations_.$id.tsx",
    path: () => `/admin/validations/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    may: ["admin"],
    methods: ["GET", "POST"],
  },
  {
    file: "employer+/bookings.$id.tsx",
    path: () => `/employer/bookings/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    may: ["employer"],
    methods: ["GET", "POST"],
  },
  {
    file: "employer+/workers.$id.tsx",
    path: () => `/employer/workers/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    may: ["employer"],
    methods: ["GET"],
  },
  { file: "student+/appeals.tsx", path: () => `/student/appeals`, may: ["student"], methods: ["GET"] },
  {
    file: "student+/appeals_.$kind.$id.tsx",
    path: () => `/student/appeals/unit/${ids.unknown}`,
    params: () => ({ kind: "unit", id: ids.unknown }),
    may: ["student"],
    methods: ["GET", "POST"],
  },
  { file: "student+/invoices.tsx", path: () => `/student/invoices`, may: ["student"], methods: ["GET"] },
  { file: "employer+/invoices.tsx", path: () => `/employer/invoices`, may: ["employer"], methods: ["GET"] },
  {
    file: "employer+/invoices_.$id.pdf.ts",
    path: () => `/employer/invoices/${ids.unknown}/pdf`,
    params: () => ({ id: ids.unknown }),
    may: ["employer"],
    methods: ["GET"],
  },
  {
    file: "employer+/credit-notes.$id.pdf.ts",
    path: () => `/employer/credit-notes/${ids.unknown}/pdf`,
    params: () => ({ id: ids.unknown }),
    may: ["employer"],
    methods: ["GET"],
  },
  {
    file: "student+/credit-notes.$id.pdf.ts",
    path: () => `/student/credit-notes/${ids.unknown}/pdf`,
    params: () => ({ id: ids.unknown }),
    may: ["student"],
    methods: ["GET"],
  },
  { file: "student+/certificates.tsx", path: () => `/student/certificates`, may: ["student"], methods: ["GET"] },
  { file: "student+/employers.tsx", path: () => `/student/employers`, may: ["student"], methods: ["GET", "POST"] },
  {
    file: "student+/invoices_.$id.pdf.ts",
    path: () => `/student/invoices/${ids.unknown}/pdf`,
    params: () => ({ id: ids.unknown }),
    may: ["student"],
    methods: ["GET"],
  },
  { file: "trainer+/credentials.tsx", path: () => `/trainer/credentials`, may: ["trainer"], methods: ["GET", "POST"] },
  // credit transfer and RPL (docs/decisions/037-recognition.md): a trainer reaches the staff pages for the RPLs they assess (trainer.recognition re-exports them)
  { file: "student+/recognition.tsx", path: () => `/student/recognition`, may: ["student"], methods: ["GET", "POST"] },
  {
    file: "student+/recognition_.$id.tsx",
    path: () => `/student/recognition/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    may: ["student"],
    methods: ["GET", "POST"],
  },
  { file: "admin+/recognition._index.tsx", path: () => `/admin/recognition`, may: ["admin", "trainer"], methods: ["GET"] },
  {
    file: "admin+/recognition.$id.tsx",
    path: () => `/admin/recognition/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    may: ["admin", "trainer"],
    methods: ["GET", "POST"],
  },
  { file: "trainer+/recognition._index.tsx", path: () => `/trainer/recognition`, may: ["admin", "trainer"], methods: ["GET"] },
  {
    file: "trainer+/recognition.$id.tsx",
    path: () => `/trainer/recognition/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    may: ["admin", "trainer"],
    methods: ["GET", "POST"],
  },
  { file: "recognition[.]csv.ts", path: () => `/recognition.csv`, may: ["student", "trainer", "admin"], methods: ["GET"] },
];

interface ApiCase {
  file: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: () => string;
  params?: () => Record<string, string>;
  json?: () => unknown;
  /** expected status for each caller who gets in (others: 401 without credentials, 403 otherwise) */
  allowed: Partial<Record<Who, number[]>>;
  /** callers with a session who are turned away with 403 or 404 (not theirs) */
  notTheirs?: Who[];
}

const ADMIN_ONLY = (ok: number[]) => ({ admin: ok });
const api: ApiCase[] = [
  {
    file: "api+/admin.students.$id.ts",
    method: "GET",
    path: () => `/api/admin/students/${ids.owner}`,
    params: () => ({ id: ids.owner }),
    allowed: { trainer: [200], admin: [200] },
  },
  {
    file: "api+/admin.students.$id.ts",
    method: "GET",
    path: () => `/api/admin/students/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    allowed: { trainer: [404], admin: [404] },
  },
  {
    file: "api+/admin.students.$id.ts",
    method: "PUT",
    path: () => `/api/admin/students/${ids.owner}`,
    params: () => ({ id: ids.owner }),
    json: () => ({}),
    allowed: ADMIN_ONLY([200]),
  },
  {
    file: "api+/admin.students.$id.ts",
    method: "PUT",
    path: () => `/api/admin/students/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    json: () => ({}),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/admin.courses.$id.ts",
    method: "GET",
    path: () => `/api/admin/courses/${ids.course}`,
    params: () => ({ id: ids.course }),
    allowed: ADMIN_ONLY([200]),
  },
  {
    file: "api+/admin.courses.$id.ts",
    method: "GET",
    path: () => `/api/admin/courses/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/admin.courses.$id.ts",
    method: "PUT",
    path: () => `/api/admin/courses/${ids.course}`,
    params: () => ({ id: ids.course }),
    json: () => ({}),
    allowed: ADMIN_ONLY([200]),
  },
  {
    file: "api+/admin.courses.$id.ts",
    method: "PUT",
    path: () => `/api/admin/courses/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    json: () => ({}),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/admin.staff.$id.ts",
    method: "PUT",
    path: () => `/api/admin/staff/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ is_active: true }),
    allowed: ADMIN_ONLY([404]),
  },
  { file: "api+/admin.students.ts", method: "GET", path: () => "/api/admin/students", allowed: { trainer: [200], admin: [200] } },
  // the year of the enrolment made above (a year with no activity is a 404 saying so)
  { file: "api+/admin.avetmiss.ts", method: "GET", path: () => `/api/admin/avetmiss?year=${new Date().getFullYear()}`, allowed: ADMIN_ONLY([200]) },
  { file: "api+/admin.audit.ts", method: "GET", path: () => "/api/admin/audit", allowed: ADMIN_ONLY([200]) },
  { file: "api+/admin.mail.ts", method: "GET", path: () => "/api/admin/mail", allowed: ADMIN_ONLY([200]) },
  { file: "api+/admin.sign-in-settings.ts", method: "GET", path: () => "/api/admin/sign-in-settings", allowed: ADMIN_ONLY([200]) },
  {
    file: "api+/admin.sign-in-settings.ts",
    method: "PUT",
    path: () => "/api/admin/sign-in-settings",
    json: () => ({ require_sso_for_staff: false }),
    allowed: ADMIN_ONLY([200]),
  },
  { file: "api+/admin.webhooks.ts", method: "GET", path: () => "/api/admin/webhooks", allowed: ADMIN_ONLY([200]) },
  { file: "api+/admin.webhooks.ts", method: "POST", path: () => "/api/admin/webhooks", json: () => ({}), allowed: ADMIN_ONLY([422]) },
  {
    file: "api+/admin.webhooks.$id.ts",
    method: "GET",
    path: () => `/api/admin/webhooks/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/admin.webhooks.$id.ts",
    method: "POST",
    path: () => `/api/admin/webhooks/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ intent: "rotate" }),
    allowed: ADMIN_ONLY([404]),
  },
  { file: "api+/dashboard.stats.ts", method: "GET", path: () => "/api/dashboard/stats", allowed: { trainer: [200], admin: [200] } },
  {
    file: "api+/certificates.$id.download.ts",
    method: "GET",
    path: () => `/api/certificates/${ids.certificate}/download`,
    params: () => ({ id: ids.certificate }),
    allowed: { owner: [200], trainer: [200], admin: [200] },
    notTheirs: ["other student"],
  },
  {
    file: "api+/certificates.$id.download.ts",
    method: "GET",
    path: () => `/api/certificates/${ids.unknown}/download`,
    params: () => ({ id: ids.unknown }),
    allowed: { owner: [404], trainer: [404], admin: [404], "other student": [404] },
  },
  {
    file: "api+/enrollments.ts",
    method: "POST",
    path: () => "/api/enrollments",
    json: () => ({ course_id: ids.course }),
    // the owner is already enrolled; everyone else enrols (again on the second pass: 409)
    allowed: { owner: [409], "other student": [201, 409], trainer: [201, 409], admin: [201, 409] },
  },
  // the trainer's workflow, aimed at records that do not exist so nothing changes: who gets in sees 404
  {
    file: "api+/assessments.ts",
    method: "POST",
    path: () => "/api/assessments",
    json: () => ({ enrollment_id: ids.unknown, assessment_type: "Practical", status: "in_progress", assessment_date: "2026-01-05" }),
    allowed: { trainer: [404], admin: [404] },
  },
  {
    file: "api+/enrollments.$id.ts",
    method: "PUT",
    path: () => `/api/enrollments/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ status: "in_progress" }),
    allowed: { trainer: [404], admin: [404] },
  },
  {
    file: "api+/certificates.ts",
    method: "POST",
    path: () => "/api/certificates",
    json: () => ({ enrollment_id: ids.unknown }),
    allowed: { trainer: [404], admin: [404] },
  },
  {
    file: "api+/admin.certificates.$id.revoke.ts",
    method: "POST",
    path: () => `/api/admin/certificates/${ids.unknown}/revoke`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ reason: "x" }),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/admin.certificates.$id.reissue.ts",
    method: "POST",
    path: () => `/api/admin/certificates/${ids.unknown}/reissue`,
    params: () => ({ id: ids.unknown }),
    allowed: ADMIN_ONLY([404]),
  },
  { file: "api+/auth.me.ts", method: "GET", path: () => "/api/auth/me", allowed: { owner: [200], "other student": [200], trainer: [200], admin: [200] } },
  {
    file: "api+/enrollments.my.ts",
    method: "GET",
    path: () => "/api/enrollments/my",
    allowed: { owner: [200], "other student": [200], trainer: [200, 403], admin: [200, 403] },
  },
  { file: "api+/admin.hrw-assessments.ts", method: "GET", path: () => "/api/admin/hrw-assessments?from=2026-01-01", allowed: ADMIN_ONLY([200]) },
  { file: "api+/hrw.assessments.my.ts", method: "GET", path: () => "/api/hrw/assessments/my", allowed: { owner: [200], "other student": [200] } },
  { file: "api+/hrw.assessments.ts", method: "POST", path: () => "/api/hrw/assessments", json: () => ({}), allowed: { trainer: [422] } },
  { file: "api+/admin.hrw.rules.ts", method: "GET", path: () => "/api/admin/hrw/rules", allowed: ADMIN_ONLY([200]) },
  { file: "api+/hrw.currency.ts", method: "GET", path: () => "/api/hrw/currency", allowed: { trainer: [200] } },
  {
    file: "api+/hrw.candidates.$id.aen.ts",
    method: "POST",
    path: () => `/api/hrw/candidates/${ids.unknown}/aen`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ state: "NSW", aen: "AEN1234567" }),
    allowed: { trainer: [404] },
  },
  ...(["results", "notice", "nsa", "reschedule"] as const).map((step) => ({
    file: `api+/hrw.assessments.$id.${step}.ts`,
    method: "POST" as const,
    path: () => `/api/hrw/assessments/${ids.unknown}/${step}`,
    params: () => ({ id: ids.unknown }),
    json: () => ({
      part: "knowledge",
      result: "satisfactory",
      assessed_on: "2026-01-01",
      notice_reference: "N1",
      nsa_number: "X1",
      nsa_date: "2026-01-01",
      assessment_date: "2030-01-01",
      start_time: "08:00",
    }),
    allowed: { trainer: [404, 422] },
  })),
  // assessment evidence: every signed-in role may ask; an assessment not theirs is "not found" (app/api/openapi.test.ts shows whose is listed)
  {
    file: "api+/assessments.$kind.$id.evidence.ts",
    method: "GET",
    path: () => `/api/assessments/unit/${ids.unknown}/evidence`,
    params: () => ({ kind: "unit", id: ids.unknown }),
    allowed: { owner: [404], "other student": [404], trainer: [404], admin: [404] },
  },
  { file: "api+/admin.checklists.ts", method: "GET", path: () => "/api/admin/checklists", allowed: ADMIN_ONLY([200]) },
  { file: "api+/admin.retention.ts", method: "GET", path: () => "/api/admin/retention", allowed: ADMIN_ONLY([200]) },
  {
    file: "api+/certificates.my.ts",
    method: "GET",
    path: () => "/api/certificates/my",
    allowed: { owner: [200], "other student": [200], trainer: [200, 403], admin: [200, 403] },
  },
  // classes (docs/decisions/013-classes.md), aimed so nothing changes: an invalid body or an unknown id
  {
    file: "api+/admin.courses.$id.classes.ts",
    method: "POST",
    path: () => `/api/admin/courses/${ids.freeCourse}/classes`,
    params: () => ({ id: ids.freeCourse }),
    json: () => ({}),
    allowed: ADMIN_ONLY([422]),
  },
  {
    file: "api+/admin.classes.$id.ts",
    method: "PUT",
    path: () => `/api/admin/classes/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ seats: 5 }),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/admin.classes.$id.ts",
    method: "DELETE",
    path: () => `/api/admin/classes/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/classes.$id.roster.ts",
    method: "GET",
    path: () => `/api/classes/${ids.class}/roster`,
    params: () => ({ id: ids.class }),
    allowed: { trainer: [404], admin: [200] },
  },
  {
    file: "api+/classes.$id.roster.ts",
    method: "POST",
    path: () => `/api/classes/${ids.class}/roster`,
    params: () => ({ id: ids.class }),
    json: () => ({}),
    allowed: { trainer: [422], admin: [422] },
  },
  ...(["GET", "POST", "DELETE"] as const).map((method) => ({
    file: "api+/classes.$id.waitlist.ts",
    method,
    path: () => `/api/classes/${ids.unknown}/waitlist`,
    params: () => ({ id: ids.unknown }),
    allowed: { owner: [404], "other student": [404], trainer: [404], admin: [404] },
  })),
  {
    file: "api+/classes.$id.accept.ts",
    method: "POST",
    path: () => `/api/classes/${ids.unknown}/accept`,
    params: () => ({ id: ids.unknown }),
    // no such class: not found, as its waitlist is
    allowed: { owner: [404], "other student": [404], trainer: [404], admin: [404] },
  },
  // employers, their bookings and workers (employers' users only: every other role is a 403), invoices
  { file: "api+/admin.employers.ts", method: "GET", path: () => "/api/admin/employers", allowed: ADMIN_ONLY([200]) },
  {
    file: "api+/admin.employers.$id.ts",
    method: "GET",
    path: () => `/api/admin/employers/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/admin.employers.$id.ts",
    method: "PUT",
    path: () => `/api/admin/employers/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    json: () => ({}),
    allowed: ADMIN_ONLY([404]),
  },
  { file: "api+/employer.bookings.ts", method: "GET", path: () => "/api/employer/bookings", allowed: {} },
  {
    file: "api+/employer.bookings.$id.ts",
    method: "GET",
    path: () => `/api/employer/bookings/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    allowed: {},
  },
  {
    file: "api+/employer.bookings.$id.workers.ts",
    method: "POST",
    path: () => `/api/employer/bookings/${ids.unknown}/workers`,
    params: () => ({ id: ids.unknown }),
    json: () => ({}),
    allowed: {},
  },
  { file: "api+/employer.workers.$id.ts", method: "GET", path: () => `/api/employer/workers/${ids.unknown}`, params: () => ({ id: ids.unknown }), allowed: {} },
  { file: "api+/admin.invoices.ts", method: "GET", path: () => "/api/admin/invoices", allowed: ADMIN_ONLY([200]) },
  {
    file: "api+/admin.invoices.$id.ts",
    method: "GET",
    path: () => `/api/admin/invoices/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/admin.invoices.$id.payments.ts",
    method: "POST",
    path: () => `/api/admin/invoices/${ids.unknown}/payments`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ method: "card", reference: "R1", received_on: "2026-01-05", amount: "10.00" }),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/admin.invoices.$id.credit-notes.ts",
    method: "POST",
    path: () => `/api/admin/invoices/${ids.unknown}/credit-notes`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ amount: "10.00", reason: "Refund" }),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/admin.checklists.$id.ts",
    method: "PUT",
    path: () => `/api/admin/checklists/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    json: () => ({}),
    allowed: ADMIN_ONLY([404, 422]),
  },
  {
    file: "api+/admin.checklists.$id.review.ts",
    method: "POST",
    path: () => `/api/admin/checklists/${ids.unknown}/review`,
    params: () => ({ id: ids.unknown }),
    json: () => ({}),
    allowed: ADMIN_ONLY([404, 422]),
  },
  {
    file: "api+/admin.enrollments.$id.review.ts",
    method: "POST",
    path: () => `/api/admin/enrollments/${ids.unknown}/review`,
    params: () => ({ id: ids.unknown }),
    json: () => ({}),
    allowed: ADMIN_ONLY([404, 422]),
  },
  {
    file: "api+/admin.improvements.$id.ts",
    method: "GET",
    path: () => `/api/admin/improvements/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/admin.improvements.$id.ts",
    method: "PUT",
    path: () => `/api/admin/improvements/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    json: () => ({}),
    allowed: ADMIN_ONLY([404, 422]),
  },
  {
    file: "api+/admin.improvements.$id.close.ts",
    method: "POST",
    path: () => `/api/admin/improvements/${ids.unknown}/close`,
    params: () => ({ id: ids.unknown }),
    json: () => ({}),
    allowed: ADMIN_ONLY([404, 422]),
  },
  {
    file: "api+/admin.questionnaires.questions.$id.ts",
    method: "PUT",
    path: () => `/api/admin/questionnaires/questions/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    json: () => ({}),
    allowed: ADMIN_ONLY([404, 422]),
  },
  {
    file: "api+/admin.review-questions.$id.ts",
    method: "DELETE",
    path: () => `/api/admin/review-questions/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/assessments.$kind.$id.checklist.ts",
    method: "GET",
    path: () => `/api/assessments/unit/${ids.unknown}/checklist`,
    params: () => ({ kind: "unit", id: ids.unknown }),
    allowed: { trainer: [404], admin: [404] },
    notTheirs: ["owner", "other student"],
  },
  {
    file: "api+/assessments.$kind.$id.checklist.ts",
    method: "POST",
    path: () => `/api/assessments/unit/${ids.unknown}/checklist`,
    params: () => ({ kind: "unit", id: ids.unknown }),
    json: () => ({}),
    allowed: { trainer: [404, 422] },
    notTheirs: ["owner", "other student"],
  },
  {
    file: "api+/assessments.$kind.$id.signatures.ts",
    method: "POST",
    path: () => `/api/assessments/unit/${ids.unknown}/signatures`,
    params: () => ({ kind: "unit", id: ids.unknown }),
    json: () => ({}),
    allowed: { owner: [404, 422], "other student": [404, 422], trainer: [404, 422] },
  },
  {
    file: "api+/courses.$id.review.ts",
    method: "POST",
    path: () => `/api/courses/${ids.unknown}/review`,
    params: () => ({ id: ids.unknown }),
    json: () => ({}),
    allowed: { owner: [404, 422], "other student": [404, 422], trainer: [404, 422], admin: [404, 422] },
  },
  {
    file: "api+/enrollments.$id.review.ts",
    method: "GET",
    path: () => `/api/enrollments/${ids.enrollment}/review`,
    params: () => ({ id: ids.enrollment }),
    allowed: { owner: [200, 404], trainer: [200, 404], admin: [200, 404] },
    notTheirs: ["other student"],
  },
  // complaints and appeals (docs/decisions/029-complaints-and-appeals.md), aimed at an unknown item or an invalid body so nothing changes
  {
    file: "api+/appeals.ts",
    method: "POST",
    path: () => "/api/appeals",
    json: () => ({ assessment_kind: "unit", assessment_id: ids.unknown, details: "x" }),
    allowed: { owner: [404], "other student": [404] },
  },
  {
    file: "api+/admin.complaints.$id.ts",
    method: "GET",
    path: () => `/api/admin/complaints/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    allowed: { trainer: [404], admin: [404] },
  },
  ...(["acknowledge", "resolve"] as const).map((step) => ({
    file: `api+/admin.complaints.$id.${step}.ts`,
    method: "POST" as const,
    path: () => `/api/admin/complaints/${ids.unknown}/${step}`,
    params: () => ({ id: ids.unknown }),
    json: () => (step === "resolve" ? { outcome: "dismissed", reasons: "x" } : {}),
    allowed: { trainer: [404], admin: [404] },
  })),
  {
    file: "api+/admin.complaints.$id.assign.ts",
    method: "POST",
    path: () => `/api/admin/complaints/${ids.unknown}/assign`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ decider_id: ids.unknown }),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/admin.complaints.$id.improvements.ts",
    method: "POST",
    path: () => `/api/admin/complaints/${ids.unknown}/improvements`,
    params: () => ({ id: ids.unknown }),
    json: () => ({}),
    allowed: ADMIN_ONLY([422]),
  },
  // credit transfer and RPL, aimed at an unknown application or an invalid body so nothing changes
  {
    file: "api+/recognition.ts",
    method: "GET",
    path: () => "/api/recognition",
    allowed: { owner: [200], "other student": [200], trainer: [200], admin: [200] },
  },
  {
    file: "api+/recognition.ts",
    method: "POST",
    path: () => "/api/recognition",
    json: () => ({ enrollment_id: ids.unknown, kind: "rpl", statement: "x" }),
    allowed: { owner: [404], "other student": [404], admin: [404] },
  },
  {
    file: "api+/recognition.$id.ts",
    method: "GET",
    path: () => `/api/recognition/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    allowed: { owner: [404], "other student": [404], trainer: [404], admin: [404] },
  },
  {
    file: "api+/recognition.$id.authenticate.ts",
    method: "POST",
    path: () => `/api/recognition/${ids.unknown}/authenticate`,
    params: () => ({ id: ids.unknown }),
    json: () => ({}),
    allowed: ADMIN_ONLY([422]),
  },
  {
    file: "api+/recognition.$id.assessor.ts",
    method: "POST",
    path: () => `/api/recognition/${ids.unknown}/assessor`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ assessor_id: ids.unknown }),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/recognition.$id.decision.ts",
    method: "POST",
    path: () => `/api/recognition/${ids.unknown}/decision`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ decision: "refused", reasons: "x" }),
    allowed: { trainer: [404], admin: [404] },
  },
  {
    file: "api+/recognition.$id.evidence.ts",
    method: "GET",
    path: () => `/api/recognition/${ids.unknown}/evidence`,
    params: () => ({ id: ids.unknown }),
    allowed: { owner: [404], "other student": [404], trainer: [404], admin: [404] },
  },
  {
    file: "api+/recognition.$id.evidence.ts",
    method: "POST",
    path: () => `/api/recognition/${ids.unknown}/evidence`,
    params: () => ({ id: ids.unknown }),
    allowed: { owner: [404], "other student": [404], trainer: [404], admin: [404] },
  },
  {
    file: "api+/recognition.$id.referee-requests.ts",
    method: "GET",
    path: () => `/api/recognition/${ids.unknown}/referee-requests`,
    params: () => ({ id: ids.unknown }),
    allowed: { owner: [404], "other student": [404], trainer: [404], admin: [404] },
  },
  {
    file: "api+/recognition.$id.referee-requests.ts",
    method: "POST",
    path: () => `/api/recognition/${ids.unknown}/referee-requests`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ referee_name: "Sam", referee_email: "sam@example.com" }),
    allowed: { trainer: [404], admin: [404] },
  },
  {
    file: "api+/recognition.$id.sessions.ts",
    method: "GET",
    path: () => `/api/recognition/${ids.unknown}/sessions`,
    params: () => ({ id: ids.unknown }),
    allowed: { owner: [404], "other student": [404], trainer: [404], admin: [404] },
  },
  {
    file: "api+/recognition.$id.sessions.ts",
    method: "POST",
    path: () => `/api/recognition/${ids.unknown}/sessions`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ kind: "conversation", session_date: "2099-01-05", starts_at: "09:00", duration_minutes: 60, location_id: ids.unknown }),
    allowed: { trainer: [404], admin: [404] },
  },
  {
    file: "api+/recognition.$id.sessions.reschedule.ts",
    method: "POST",
    path: () => `/api/recognition/${ids.unknown}/sessions/reschedule`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ session_id: ids.unknown, session_date: "2099-01-05", starts_at: "09:00", duration_minutes: 60, location_id: ids.unknown }),
    allowed: { trainer: [404], admin: [404] },
  },
  {
    file: "api+/recognition.$id.sessions.cancel.ts",
    method: "POST",
    path: () => `/api/recognition/${ids.unknown}/sessions/cancel`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ session_id: ids.unknown, cancel_reason: "Assessor unwell" }),
    allowed: { trainer: [404], admin: [404] },
  },
  {
    file: "api+/evidence.$id.download.ts",
    method: "GET",
    path: () => `/api/evidence/${ids.unknown}/download`,
    params: () => ({ id: ids.unknown }),
    allowed: { owner: [404], "other student": [404], trainer: [404], admin: [404] },
  },
  // trainer credentials and course validation (docs/decisions/030-trainer-credentials-and-validation.md), aimed at records that do not exist
  {
    file: "api+/admin.trainers.$id.credentials.ts",
    method: "GET",
    path: () => `/api/admin/trainers/${ids.unknown}/credentials`,
    params: () => ({ id: ids.unknown }),
    allowed: ADMIN_ONLY([404]),
  },
  ...(["credentials", "units", "activities"] as const).map((what) => ({
    file: `api+/admin.trainers.$id.${what}.ts`,
    method: "POST" as const,
    path: () => `/api/admin/trainers/${ids.unknown}/${what}`,
    params: () => ({ id: ids.unknown }),
    json: () => ({}),
    allowed: ADMIN_ONLY([404, 422]),
  })),
  {
    file: "api+/admin.trainer-activities.$id.confirm.ts",
    method: "POST",
    path: () => `/api/admin/trainer-activities/${ids.unknown}/confirm`,
    params: () => ({ id: ids.unknown }),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/learner-documents.$id.ts",
    method: "GET",
    path: () => `/api/learner-documents/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    allowed: { owner: [404], "other student": [404], admin: [404] },
  },
  {
    file: "api+/trainer-activities.$id.evidence.ts",
    method: "GET",
    path: () => `/api/trainer-activities/${ids.unknown}/evidence`,
    params: () => ({ id: ids.unknown }),
    allowed: { trainer: [404], admin: [404] },
  },
  {
    file: "api+/trainer-activities.$id.evidence.ts",
    method: "POST",
    path: () => `/api/trainer-activities/${ids.unknown}/evidence`,
    params: () => ({ id: ids.unknown }),
    allowed: { trainer: [404], admin: [404] },
  },
  { file: "api+/credentials.my.ts", method: "GET", path: () => "/api/credentials/my", allowed: { trainer: [200] } },
  { file: "api+/credentials.my.activities.ts", method: "POST", path: () => "/api/credentials/my/activities", json: () => ({}), allowed: { trainer: [422] } },
  { file: "api+/admin.course-validations.ts", method: "GET", path: () => "/api/admin/course-validations", allowed: ADMIN_ONLY([200]) },
  {
    file: "api+/admin.course-validations.$id.ts",
    method: "PUT",
    path: () => `/api/admin/course-validations/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ risk_rating: "low" }),
    allowed: ADMIN_ONLY([404]),
  },
  {
    file: "api+/admin.validation-plans.$id.ts",
    method: "GET",
    path: () => `/api/admin/validation-plans/${ids.unknown}`,
    params: () => ({ id: ids.unknown }),
    allowed: ADMIN_ONLY([404]),
  },
  ...(["sample", "findings", "complete"] as const).map((step) => ({
    file: `api+/admin.validation-plans.$id.${step}.ts`,
    method: "POST" as const,
    path: () => `/api/admin/validation-plans/${ids.unknown}/${step}`,
    params: () => ({ id: ids.unknown }),
    json: () => ({ sample_id: ids.unknown, outcome: "meets" }),
    allowed: ADMIN_ONLY([404, 422]),
  })),
];

describe("access matrix", () => {
  it("every page, action and /api route answers every kind of caller as its access rule says", async () => {
    const failures: string[] = [];
    let cases = 0;

    for (const page of pages) {
      const route = await mod(page.file);
      for (const method of page.methods) {
        for (const who of EVERYONE) {
          cases++;
          const response = await answer(route, method, page.path(), {
            cookie: creds[who].cookie,
            params: page.params?.() ?? {},
            body: method === "POST" ? "" : undefined,
            contentType: method === "POST" ? "application/x-www-form-urlencoded" : undefined,
          });
          const location = response.headers.get("Location") ?? "";
          const label = `${method} ${page.path()} as ${who}: ${response.status} ${location}`;
          const role = ROLE_OF[who];
          if (NO_SESSION.includes(who)) {
            if (!(response.status === 302 && location.startsWith("/login"))) failures.push(`${label} (expected a redirect to /login)`);
          } else if (page.may !== "signed-in" && !page.may.includes(role!)) {
            if (!(response.status === 302 && location === "/dashboard")) failures.push(`${label} (expected a redirect to /dashboard)`);
          } else {
            const refused = response.status === 302 && (location.startsWith("/login") || location === "/dashboard");
            const ok = method === "GET" ? response.status < 400 || response.status === 404 : response.status < 500;
            if (refused || !ok) failures.push(`${label} (expected to get in)`);
          }
        }
      }
    }

    for (const c of api) {
      const route = await mod(c.file);
      for (const who of EVERYONE) {
        const ways: Array<"token" | "cookie"> = who === "anonymous" ? ["token"] : ["token", "cookie"];
        for (const way of ways) {
          cases++;
          const headers: Record<string, string> = way === "cookie" && c.method !== "GET" ? { Origin: "http://localhost" } : {};
          const response = await answer(route, c.method, c.path(), {
            token: way === "token" ? creds[who].token : null,
            cookie: way === "cookie" ? creds[who].cookie : null,
            params: c.params?.() ?? {},
            json: c.json?.(),
            headers,
          });
          const label = `${c.method} ${c.path()} as ${who} (${way}): ${response.status}`;
          let expected: number[];
          if (who === "anonymous") expected = [401];
          else if (who === "pending" || who === "deactivated") expected = way === "token" ? [403] : [401, 403];
          else if (c.allowed[who]) expected = c.allowed[who]!;
          else if (c.notTheirs?.includes(who)) expected = [403, 404];
          else expected = [403];
          if (!expected.includes(response.status)) failures.push(`${label} (expected ${expected.join(" or ")})`);
          if (response.status >= 400) {
            const body = (await response.json()) as { detail?: unknown };
            if (typeof body.detail !== "string") failures.push(`${label} (no JSON detail)`);
          }
        }
      }
    }

    console.log(`access matrix: ${cases} cases checked`);
    expect(failures).toEqual([]);
    expect(cases).toBeGreaterThan(300);
    // near 2,000 calls: PostgreSQL on a loaded machine passes the default 30 s
  }, 90_000);

  it("the table covers every route file that guards a page or an id", () => {
    const covered = new Set([...pages.map((p) => p.file), ...api.map((a) => a.file)]);
    const portal = routeModuleFiles()
      .filter((f) => /^(student|trainer|admin|enroll|dashboard)|\$/.test(f))
      .filter((f) => /export (async function|const) (loader|action)/.test(routeSource(f)))
      // a reset token or a certificate's verification code is not a record id (open to anyone by
      // design); api.$ and $ are the JSON and page 404s for unknown paths, the same for everyone
      // a calendar feed's token is its own credential, and a course's page and classes are public like the catalogue
      .filter((f) => !f.startsWith("_auth+/reset-password") && f !== "verify+/$code.tsx" && f !== "api+/verify.$code.ts" && f !== "api+/$.ts" && f !== "$.tsx")
      .filter((f) => f !== "calendar.$token.ts" && f !== "api+/courses.$id.classes.ts" && f !== "courses_.$id.tsx")
      // the pre-enrolment review may be taken before signing up (like the course page); an
      // invitation, a questionnaire or a referee's report link is its own one-use credential (like a reset token)
      .filter(
        (f) =>
          f !== "courses_.$id_.review.tsx" &&
          f !== "_auth+/invitation.$token.tsx" &&
          f !== "_auth+/employer-invitation.$token.tsx" &&
          f !== "questionnaire.$token.tsx" &&
          f !== "referee-report.$token.tsx",
      )
      // a policy's slug names a public document, not a record (the next test opens each as everyone)
      .filter((f) => f !== "policies.$slug.tsx");
    expect(portal.filter((f) => !covered.has(f))).toEqual([]);
  });

  it("the policies a learner agrees to open to everyone, signed in or not; an unknown one is 404; none takes a POST", async () => {
    const route = await mod("policies.$slug.tsx");
    expect((route as { action?: unknown }).action).toBeUndefined();
    const failures: string[] = [];
    for (const slug of ["terms", "code-of-conduct", "privacy", "no-such-policy"]) {
      for (const who of EVERYONE) {
        const response = await answer(route, "GET", `/policies/${slug}`, { cookie: creds[who].cookie, params: { slug } });
        const expected = slug === "no-such-policy" ? 404 : 200;
        if (response.status !== expected) failures.push(`GET /policies/${slug} as ${who}: ${response.status} (expected ${expected})`);
      }
    }
    expect(failures).toEqual([]);
  });
});
