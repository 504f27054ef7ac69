import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createSession, getSessionUser } from "~/auth/session.server";
import { issueApiToken, getTokenUser } from "~/api/auth.server";
import { signIn } from "~/auth/sign-in.server";
import { registerUser } from "./user.server";
import { sqlitePlan } from "../../tests/support/query-plan";
import { createTestDb, TEST_DIALECT } from "../../tests/support/test-db";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { approveAccount, listPendingAccounts, rejectAccount } from "./approval.server";
import { createCourse, getCourseDetail, listAllCourses, updateCourse } from "./course-admin.server";
import {
  createStudent,
  filteredStudents,
  getStudentDetail,
  listRecentStudents,
  searchStudents,
  STUDENT_COUNT_LIMIT,
  updateStudent,
  type StudentIssue,
} from "./student.server";
import { coursePatchSchema, courseCreateSchema } from "~/schemas/course";
import { studentCreateSchema } from "~/schemas/student";
import { newVerificationCode } from "./certificates/certificate-number.server";

const DAY = 864e5;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

let db: DB;
let cleanup: () => Promise<void>;
let adminId: string;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  adminId = (await makeUser(db, { role: "admin", email: "boss@test.example" })).id;
});
afterAll(() => cleanup());

async function events(type: string, entityId: string) {
  return db.selectFrom("events").selectAll().where("type", "=", type).where("entity_id", "=", entityId).execute();
}

describe("searchStudents", () => {
  beforeAll(async () => {
    await makeUser(db, { full_name: "Alice Walker", email: "alice@search.example", created_at: ago(1) });
    await makeUser(db, { full_name: "Bob ALICEson", email: "bob@search.example", created_at: ago(2) });
    await makeUser(db, { full_name: "Carol 50% Off", email: "carol_x@search.example", created_at: ago(3), is_active: false });
    await makeUser(db, { full_name: "Dan Other", email: "dan@search.example", created_at: ago(4) });
    await makeUser(db, { full_name: "Alice Trainer", email: "alice.trainer@search.example", role: "trainer" });
  });

  it("finds a case-insensitive substring of the name or the email, students only", async () => {
    const result = await searchStudents(db, { q: "aLiCe" });
    expect(result.students.map((s) => s.full_name)).toEqual(["Alice Walker", "Bob ALICEson"]);
    expect(result.total).toBe(2);
    const byEmail = await searchStudents(db, { q: "DAN@SEARCH" });
    expect(byEmail.students.map((s) => s.email)).toEqual(["dan@search.example"]);
  });

  it("treats % and _ as plain characters, not wildcards", async () => {
    expect((await searchStudents(db, { q: "50%" })).students.map((s) => s.full_name)).toEqual(["Carol 50% Off"]);
    expect((await searchStudents(db, { q: "%" })).students.map((s) => s.full_name)).toEqual(["Carol 50% Off"]);
    expect((await searchStudents(db, { q: "carol_x" })).total).toBe(1);
    // "_" would match any one character as a wildcard: "l_c" is not in any name or email
    expect((await searchStudents(db, { q: "l_c" })).total).toBe(0);
  });

  it("filters by status", async () => {
    const inactive = await searchStudents(db, { q: "search.example", status: "inactive" });
    expect(inactive.students.map((s) => s.full_name)).toEqual(["Carol 50% Off"]);
    const active = await searchStudents(db, { q: "search.example", status: "active" });
    expect(active.students.map((s) => s.full_name)).toEqual(["Alice Walker", "Bob ALICEson", "Dan Other"]);
    expect((await searchStudents(db, { q: "search.example", status: "all" })).total).toBe(4);
  });

  it("pages in SQL with a total, newest first, clamping the page", async () => {
    const p1 = await searchStudents(db, { q: "search.example", pageSize: 3, page: 1 });
    expect(p1).toMatchObject({ total: 4, page: 1, pageSize: 3, pageCount: 2 });
    expect(p1.students.map((s) => s.full_name)).toEqual(["Alice Walker", "Bob ALICEson", "Carol 50% Off"]);
    const p2 = await searchStudents(db, { q: "search.example", pageSize: 3, page: 2 });
    expect(p2.students.map((s) => s.full_name)).toEqual(["Dan Other"]);
    expect((await searchStudents(db, { q: "search.example", pageSize: 3, page: 99 })).page).toBe(2);
    expect((await searchStudents(db, { q: "search.example", pageSize: 3, page: -5 })).page).toBe(1);
    const none = await searchStudents(db, { q: "no-such-person-anywhere" });
    expect(none).toMatchObject({ students: [], total: 0, page: 1, pageCount: 1 });
  });

  it("counts an unsearched list from the kept per-role counts, exact through every kind of write", async () => {
    const byHand = async (active?: number) => {
      let q = db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("role", "=", "student");
      if (active !== undefined) q = q.where("is_active", "=", active);
      return Number((await q.executeTakeFirstOrThrow()).n);
    };
    const check = async () => {
      expect((await searchStudents(db, {})).total).toBe(await byHand());
      expect((await searchStudents(db, { status: "active" })).total).toBe(await byHand(1));
      expect((await searchStudents(db, { status: "inactive" })).total).toBe(await byHand(0));
      expect((await searchStudents(db, {})).totalCapped).toBe(false);
    };
    await check();
    const moved = await makeUser(db, { email: "counts-moved@counts.example" });
    await check();
    await db.updateTable("users").set({ is_active: 0 }).where("id", "=", moved.id).execute();
    await check();
    await db.updateTable("users").set({ role: "trainer", is_active: 1 }).where("id", "=", moved.id).execute();
    await check();
    await db.updateTable("users").set({ role: "student" }).where("id", "=", moved.id).execute();
    await check();
    await db.deleteFrom("users").where("id", "=", moved.id).execute();
    await check();
  });

  it("counts a search no further than STUDENT_COUNT_LIMIT and says so", async () => {
    const at = ago(400);
    const many = Array.from({ length: STUDENT_COUNT_LIMIT + 5 }, (_, i) => ({
      id: crypto.randomUUID(),
      email: `crowd${i}@crowd.example`,
      full_name: `Crowd Member ${i}`,
      password_hash: "x",
      role: "student" as const,
      is_active: 1,
      approval_status: "approved" as const,
      created_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < many.length; i += 200)
      await db
        .insertInto("users")
        .values(many.slice(i, i + 200))
        .execute();
    const capped = await searchStudents(db, { q: "crowd.example", pageSize: 20 });
    expect(capped).toMatchObject({ total: STUDENT_COUNT_LIMIT, totalCapped: true, pageCount: STUDENT_COUNT_LIMIT / 20 });
    expect(capped.students).toHaveLength(20);
    // the last page counted is still a full page of real matches
    const last = await searchStudents(db, { q: "crowd.example", pageSize: 20, page: 9_999 });
    expect(last).toMatchObject({ page: STUDENT_COUNT_LIMIT / 20, totalCapped: true });
    expect(last.students).toHaveLength(20);
    // narrowed, the count is exact again
    const narrowed = await searchStudents(db, { q: "crowd member 100" });
    expect(narrowed).toMatchObject({ total: 6, totalCapped: false });
    // the unsearched list still counts every student exactly
    expect((await searchStudents(db, {})).totalCapped).toBe(false);
    await db.deleteFrom("users").where("email", "like", "%@crowd.example").execute();
  });

  it("finds the records behind each compliance check", async () => {
    const noDob = await makeUser(db, { full_name: "Issue NoDob", email: "issue-dob@issues.example" });
    const noPhone = await makeUser(db, { full_name: "Issue NoPhone", email: "issue-phone@issues.example", phone: null });
    await db.updateTable("users").set({ date_of_birth: "1990-01-01", emergency_contact: "Kim, 0400 000 000" }).where("id", "=", noPhone.id).execute();
    const course = await makeCourse(db);
    const late = await makeUser(db, { full_name: "Issue Late", email: "issue-late@issues.example" });
    await makeEnrollment(db, late.id, course.id, { status: "completed", progress: 100, completion_date: ago(45) });
    const recent = await makeUser(db, { full_name: "Issue Recent", email: "issue-recent@issues.example" });
    await makeEnrollment(db, recent.id, course.id, { status: "completed", progress: 100, completion_date: ago(5) });
    const undated = await makeUser(db, { full_name: "Issue Undated", email: "issue-undated@issues.example" });
    await makeEnrollment(db, undated.id, course.id, { status: "completed", progress: 100, completion_date: null });

    const names = async (issue: StudentIssue) =>
      (await searchStudents(db, { q: "issues.example", issue, pageSize: 100 })).students.map((s) => s.full_name).sort();
    expect(await names("missing-dob")).toContain("Issue NoDob");
    expect(await names("missing-dob")).not.toContain("Issue NoPhone");
    expect(await names("missing-contact")).toContain("Issue NoPhone");
    expect(await names("uncertified")).toEqual(["Issue Late"]);
    expect(await names("undated-completion")).toEqual(["Issue Undated"]);
    expect(noDob.id).toBeTruthy();
  });

  // SQLite's plans only: PostgreSQL plans from table statistics an empty test database lacks.
  it.runIf(TEST_DIALECT === "sqlite")("reads the enrolments behind an issue filter once, not once per student", async () => {
    for (const issue of ["uncertified", "undated-completion"] as const) {
      const steps = await sqlitePlan(db, filteredStudents(db, { issue }).select("users.id"));
      // a LIST SUBQUERY is read once; an EXISTS or CORRELATED step on enrollments runs for each student
      expect(
        steps.some((step) => step.startsWith("LIST SUBQUERY")),
        `${issue}: ${steps.join(" | ")}`,
      ).toBe(true);
      expect(
        steps.filter((step) => /EXISTS|CORRELATED/.test(step)),
        `${issue}: ${steps.join(" | ")}`,
      ).toEqual([]);
    }
  });
});

describe("listRecentStudents", () => {
  it("gives the newest students only, at most the limit", async () => {
    const { db: fresh, cleanup: done } = await createTestDb();
    try {
      for (let i = 1; i <= 7; i++) await makeUser(fresh, { full_name: `S${i}`, created_at: ago(10 - i) });
      await makeUser(fresh, { full_name: "Newest trainer", role: "trainer", created_at: ago(0) });
      await makeUser(fresh, { full_name: "No date", created_at: null });
      const recent = await listRecentStudents(fresh, 5);
      expect(recent.map((s) => s.full_name)).toEqual(["S7", "S6", "S5", "S4", "S3"]);
    } finally {
      await done();
    }
  });
});

describe("getStudentDetail", () => {
  it("returns the record, its lists and a summary computed in SQL", async () => {
    const s = await makeUser(db, { full_name: "Detail Student" });
    const c1 = await makeCourse(db, { tier: "tier_1", name: "Detail C1" });
    const c2 = await makeCourse(db, { tier: "tier_2", name: "Detail C2" });
    const c3 = await makeCourse(db, { tier: "tier_3", name: "Detail C3" });
    const e1 = await makeEnrollment(db, s.id, c1.id, { status: "completed", progress: 100 });
    await makeEnrollment(db, s.id, c2.id, { status: "in_progress", progress: 45 });
    await makeEnrollment(db, s.id, c3.id, { status: "enrolled", progress: 0 });
    await db
      .insertInto("certificates")
      .values({
        id: crypto.randomUUID(),
        certificate_number: "SCR-TEST-0001",
        student_id: s.id,
        course_id: c1.id,
        enrollment_id: e1.id,
        tier_achieved: "tier_1",
        issue_date: ago(1),
        issued_by: null,
        verification_code: newVerificationCode(),
        created_at: ago(1),
      })
      .execute();
    await db
      .insertInto("files")
      .values({ id: crypto.randomUUID(), student_id: s.id, filename: "id.pdf", file_type: "application/pdf", upload_date: ago(2), description: "ID" })
      .execute();
    await db
      .insertInto("assessments")
      .values({
        id: crypto.randomUUID(),
        enrollment_id: e1.id,
        student_id: s.id,
        course_id: c1.id,
        assessment_type: "Practical",
        status: "passed",
        score: 90,
        max_score: 100,
        assessment_date: ago(3),
        feedback: "Good",
        assessed_by: null,
        created_at: ago(3),
      })
      .execute();

    const detail = await getStudentDetail(db, s.id);
    expect(detail).not.toBeNull();
    expect(detail!.student.full_name).toBe("Detail Student");
    expect(detail!.enrollments).toHaveLength(3);
    expect(detail!.certificates.map((c) => c.certificate_number)).toEqual(["SCR-TEST-0001"]);
    expect(detail!.files.map((f) => f.filename)).toEqual(["id.pdf"]);
    expect(detail!.assessments).toEqual([expect.objectContaining({ course_name: "Detail C1", status: "passed", score: 90 })]);
    // (100 + 45 + 0) / 3 = 48.33 -> 48
    expect(detail!.summary).toEqual({ total_enrollments: 3, completed_courses: 1, total_certificates: 1, avg_progress: 48 });
    expect(JSON.stringify(detail)).not.toContain("password");
  });

  it("gives empty lists and zeros for a new student, and null for an unknown id or a non-student", async () => {
    const s = await makeUser(db);
    const detail = await getStudentDetail(db, s.id);
    expect(detail).toMatchObject({ enrollments: [], certificates: [], files: [], assessments: [] });
    expect(detail!.summary).toEqual({ total_enrollments: 0, completed_courses: 0, total_certificates: 0, avg_progress: 0 });
    expect(await getStudentDetail(db, crypto.randomUUID())).toBeNull();
    expect(await getStudentDetail(db, adminId)).toBeNull();
  });
});

describe("updateStudent", () => {
  it("changes the record, keeps fields left out, and records an event", async () => {
    const s = await makeUser(db, { full_name: "Before Name", phone: "0400 111 111" });
    const updated = await updateStudent(db, s.id, { full_name: "After Name", license_number: "HRW-1" }, adminId);
    expect(updated).toMatchObject({ full_name: "After Name", license_number: "HRW-1", phone: "0400 111 111", is_active: true });
    expect(await events("student.updated", s.id)).toHaveLength(1);
  });

  it("refuses an email another account has, with 409 and nothing changed", async () => {
    const s = await makeUser(db, { full_name: "Dup Tester" });
    await expect(updateStudent(db, s.id, { email: "boss@test.example", full_name: "Changed" }, adminId)).rejects.toMatchObject({
      status: 409,
      message: "An account with this email already exists",
    });
    const row = await db.selectFrom("users").select(["email", "full_name"]).where("id", "=", s.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ email: s.email, full_name: "Dup Tester" });
    // keeping one's own email is fine
    await expect(updateStudent(db, s.id, { email: s.email }, adminId)).resolves.toMatchObject({ email: s.email });
  });

  it("deactivating ends every session and API token of the student at once", async () => {
    const s = await makeUser(db);
    const cookie = await createSession(db, s.id);
    const request = new Request("http://localhost/student", { headers: { Cookie: cookie.split(";")[0]! } });
    const token = await issueApiToken(db, s.id);
    expect(await getSessionUser(db, request)).toMatchObject({ id: s.id });
    expect(await getTokenUser(db, token)).toMatchObject({ id: s.id });

    const updated = await updateStudent(db, s.id, { is_active: false }, adminId);
    expect(updated.is_active).toBe(false);
    expect(await getSessionUser(db, request)).toBeNull();
    expect(await getTokenUser(db, token)).toBeNull();
    expect(await db.selectFrom("sessions").select("id").where("user_id", "=", s.id).execute()).toEqual([]);
    expect(await db.selectFrom("api_tokens").select("id").where("user_id", "=", s.id).execute()).toEqual([]);
    expect(await events("student.deactivated", s.id)).toHaveLength(1);

    const again = await updateStudent(db, s.id, { is_active: true }, adminId);
    expect(again.is_active).toBe(true);
    expect(await events("student.reactivated", s.id)).toHaveLength(1);
  });

  it("is a 404 for an unknown id or a non-student", async () => {
    await expect(updateStudent(db, crypto.randomUUID(), { full_name: "X" }, adminId)).rejects.toMatchObject({ status: 404 });
    await expect(updateStudent(db, adminId, { full_name: "X" }, adminId)).rejects.toMatchObject({ status: 404 });
  });
});

describe("createStudent", () => {
  it("creates an active student who can sign in with the password set", async () => {
    const input = studentCreateSchema.parse({
      full_name: "Office Made",
      email: "Office.Made@Test.example",
      password: "Rigging-Kestrel-42",
      phone: "0400 222 333",
      address: "",
      date_of_birth: "1990-05-06",
      emergency_contact: "",
      license_number: "",
      is_active: true,
    });
    const student = await createStudent(db, input, adminId);
    expect(student).toMatchObject({ role: "student", email: "office.made@test.example", is_active: true, date_of_birth: "1990-05-06", address: null });
    const signedIn = await signIn(db, { email: "office.made@test.example", password: "Rigging-Kestrel-42", client: "test" });
    expect(signedIn.id).toBe(student.id);
    expect(await events("account.created", student.id)).toHaveLength(1);
    await expect(createStudent(db, input, adminId)).rejects.toMatchObject({ status: 409 });
  });
});

describe("pending accounts", () => {
  it("lists trainer and admin self-registrations; approving lets them sign in", async () => {
    const { user } = await registerUser(db, {
      full_name: "Pending Trainer",
      email: "pending.trainer@test.example",
      password: "Rigging-Kestrel-42",
      phone: null,
      role: "trainer",
      address: null,
      date_of_birth: null,
      emergency_contact: null,
    });
    expect((await listPendingAccounts(db)).map((a) => a.email)).toContain("pending.trainer@test.example");
    await expect(signIn(db, { email: user.email, password: "Rigging-Kestrel-42", client: "t" })).rejects.toMatchObject({ status: 403 });

    await approveAccount(db, user.id, adminId);
    expect((await listPendingAccounts(db)).map((a) => a.id)).not.toContain(user.id);
    await expect(signIn(db, { email: user.email, password: "Rigging-Kestrel-42", client: "t" })).resolves.toMatchObject({ id: user.id });
    expect(await events("account.approved", user.id)).toHaveLength(1);
    // a decided account is no longer pending
    await expect(approveAccount(db, user.id, adminId)).rejects.toMatchObject({ status: 404 });
    await expect(rejectAccount(db, user.id, adminId)).rejects.toMatchObject({ status: 404 });
  });

  it("rejecting keeps the account from ever signing in", async () => {
    const { user } = await registerUser(db, {
      full_name: "Rejected Admin",
      email: "rejected.admin@test.example",
      password: "Rigging-Kestrel-42",
      phone: null,
      role: "admin",
      address: null,
      date_of_birth: null,
      emergency_contact: null,
    });
    await rejectAccount(db, user.id, adminId);
    expect((await listPendingAccounts(db)).map((a) => a.id)).not.toContain(user.id);
    await expect(signIn(db, { email: user.email, password: "Rigging-Kestrel-42", client: "t" })).rejects.toMatchObject({ status: 403 });
    expect(await events("account.rejected", user.id)).toHaveLength(1);
    await expect(approveAccount(db, crypto.randomUUID(), adminId)).rejects.toMatchObject({ status: 404 });
  });
});

describe("course administration", () => {
  const base = {
    unit_code: "cpcclrg4001",
    name: "Advanced rigging",
    description: "Rigging at the advanced level",
    tier: "tier_3",
    duration_hours: "80.5",
    price: "2500.50",
    is_active: true,
    prerequisites: ["RI licence", "  "],
    learning_outcomes: ["Rig suspended scaffolds", "", "  Rig gin poles  "],
    assessment_criteria: ["Written", "   "],
  };

  it("creates a course with decimals parsed and blank list entries dropped", async () => {
    const course = await createCourse(db, courseCreateSchema.parse(base), adminId);
    expect(course).toMatchObject({
      unit_code: "CPCCLRG4001",
      tier: "tier_3",
      duration_hours: 80.5,
      price: 2500.5,
      is_active: true,
      prerequisites: ["RI licence"],
      learning_outcomes: ["Rig suspended scaffolds", "Rig gin poles"],
      assessment_criteria: ["Written"],
    });
    expect(await events("course.created", course.id)).toHaveLength(1);
    expect((await listAllCourses(db)).map((c) => c.id)).toContain(course.id);
  });

  it("toggles with only is_active and leaves everything else alone", async () => {
    const { id } = await makeCourse(db, { name: "Toggle me", learning_outcomes: ["Keep me"] });
    const off = await updateCourse(db, id, coursePatchSchema.parse({ is_active: false }), adminId);
    expect(off).toMatchObject({ is_active: false, name: "Toggle me", learning_outcomes: ["Keep me"], price: 1200 });
    expect(await events("course.deactivated", id)).toHaveLength(1);
    expect((await listAllCourses(db, { status: "inactive" })).map((c) => c.id)).toContain(id);
    expect((await listAllCourses(db, { status: "active" })).map((c) => c.id)).not.toContain(id);
    const on = await updateCourse(db, id, { is_active: true }, adminId);
    expect(on.is_active).toBe(true);
    expect(await events("course.activated", id)).toHaveLength(1);
  });

  it("edits fields and lists, dropping blank entries", async () => {
    const { id } = await makeCourse(db, { name: "Edit me" });
    const updated = await updateCourse(
      db,
      id,
      coursePatchSchema.parse({
        name: "Edited",
        price: "0",
        duration_hours: "12.25",
        learning_outcomes: ["One", " ", "Two"],
        assessment_criteria: [],
        official_title: " Licence to perform dogging ",
      }),
      adminId,
    );
    expect(updated).toMatchObject({
      name: "Edited",
      price: 0,
      duration_hours: 12.25,
      learning_outcomes: ["One", "Two"],
      assessment_criteria: [],
      official_title: "Licence to perform dogging",
    });
    expect(await events("course.updated", id)).toHaveLength(1);
    await expect(updateCourse(db, crypto.randomUUID(), { is_active: false }, adminId)).rejects.toMatchObject({ status: 404 });
  });

  it("gives course statistics and the 5 newest enrolments", async () => {
    const { id } = await makeCourse(db, { name: "Stats course" });
    const statuses = ["completed", "completed", "in_progress", "enrolled", "withdrawn", "completed", "in_progress"] as const;
    for (const [i, status] of statuses.entries()) {
      const s = await makeUser(db, { full_name: `Learner ${i}` });
      await makeEnrollment(db, s.id, id, { status, enrollment_date: ago(20 - i) });
    }
    const detail = await getCourseDetail(db, id);
    // 3 of 7 completed = 42.9% -> 43
    expect(detail!.statistics).toEqual({ total_enrollments: 7, completion_rate: 43 });
    expect(detail!.recent_enrollments.map((e) => e.student_name)).toEqual(["Learner 6", "Learner 5", "Learner 4", "Learner 3", "Learner 2"]);
    expect(detail!.recent_enrollments[0]).toEqual({
      id: expect.any(String),
      student_name: "Learner 6",
      student_email: expect.stringContaining("@"),
      status: "in_progress",
      progress_percentage: 0,
      enrollment_date: expect.any(String),
    });
    const empty = await makeCourse(db);
    expect((await getCourseDetail(db, empty.id))!.statistics).toEqual({ total_enrollments: 0, completion_rate: 0 });
    expect(await getCourseDetail(db, crypto.randomUUID())).toBeNull();
  });
});
