import crypto from "node:crypto";
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "./connection";
import type { AssessmentStatus, EnrollmentStatus } from "./schema";
import { createTestDb, TEST_DIALECT } from "../tests/support/test-db";
import { makeCourse, makeUser } from "../tests/support/factories";
import { searchStudents } from "../app/models/student.server";
import { listTrainerStudents } from "../app/models/trainer-students.server";

/**
 * The review state of migration 2026-11-22T1800 and the enrolment counts of 2026-11-22T1900 are
 * kept by triggers. Whatever sequence of
 * writes happens (inserts, updates, deletes, in any order, through any code path), the stored
 * columns must equal the same facts computed from scratch, and the trigram search index must
 * find exactly the users a plain LIKE scan finds.
 */

const ASSESSMENT_STATUSES: AssessmentStatus[] = ["passed", "failed", "in_progress", "resubmission"];
const ENROLLMENT_STATUSES: EnrollmentStatus[] = ["enrolled", "in_progress", "completed", "withdrawn"];
const NAMES = ["Ann Smith", "Bob Smithers", "Chloé O'Neil", 'Dee "Q" Park', "Eve 50% Lee", "Fay_Lo", "Gus SMITH", "Hal Nguyen"];

type Op =
  | { kind: "enrol"; student: number; course: number; status: EnrollmentStatus }
  | { kind: "status"; enrollment: number; status: EnrollmentStatus }
  | { kind: "move"; enrollment: number; student: number }
  | { kind: "recourse"; enrollment: number; course: number }
  | { kind: "assess"; enrollment: number; status: AssessmentStatus; day: number; at: number }
  | { kind: "reassess"; assessment: number; status: AssessmentStatus; day: number }
  | { kind: "unassess"; assessment: number }
  | { kind: "certify"; enrollment: number }
  | { kind: "uncertify"; certificate: number }
  | { kind: "unenrol"; enrollment: number }
  | { kind: "rename"; student: number; name: number }
  | { kind: "deactivate"; student: number; active: boolean };

const index = fc.nat({ max: 30 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("enrol" as const), student: index, course: index, status: fc.constantFrom(...ENROLLMENT_STATUSES) }) },
  fc.record({ kind: fc.constant("status" as const), enrollment: index, status: fc.constantFrom(...ENROLLMENT_STATUSES) }),
  fc.record({ kind: fc.constant("move" as const), enrollment: index, student: index }),
  fc.record({ kind: fc.constant("recourse" as const), enrollment: index, course: index }),
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("assess" as const),
      enrollment: index,
      status: fc.constantFrom(...ASSESSMENT_STATUSES),
      day: fc.nat({ max: 5 }),
      at: fc.nat({ max: 5 }),
    }),
  },
  fc.record({ kind: fc.constant("reassess" as const), assessment: index, status: fc.constantFrom(...ASSESSMENT_STATUSES), day: fc.nat({ max: 5 }) }),
  fc.record({ kind: fc.constant("unassess" as const), assessment: index }),
  fc.record({ kind: fc.constant("certify" as const), enrollment: index }),
  fc.record({ kind: fc.constant("uncertify" as const), certificate: index }),
  fc.record({ kind: fc.constant("unenrol" as const), enrollment: index }),
  fc.record({ kind: fc.constant("rename" as const), student: index, name: fc.nat({ max: NAMES.length - 1 }) }),
  fc.record({ kind: fc.constant("deactivate" as const), student: index, active: fc.boolean() }),
);

const pick = <T>(list: T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined);
const day = (n: number) => `2026-0${1 + (n % 9)}-1${n % 10}`;
/**
 * When an assessment was recorded: `minute` decides most orderings, and a running count keeps
 * every time distinct, as real recording times are (two assessments of one enrolment on the same
 * day and instant would leave "latest" undefined).
 */
let recorded = 0;
const recordedAt = (minute: number) => new Date(Date.UTC(2026, 0, 1) + minute * 60_000 + ++recorded).toISOString();

async function ids(db: DB, table: "users" | "courses" | "enrollments" | "assessments" | "certificates", where?: string) {
  const rows = await sql<{ id: string }>`select id from ${sql.table(table)} ${where ? sql.raw(`where ${where}`) : sql``} order by id`.execute(db);
  return rows.rows.map((r) => r.id);
}

/**
 * True when moving enrolment `id` to another student or course (`column` set to `value`) keeps
 * one enrolment per student and course; such a move is skipped, as UPDATE OR IGNORE would.
 */
function unique(column: "student_id" | "course_id", value: string, id: string) {
  const other = column === "student_id" ? "course_id" : "student_id";
  return sql`not exists (select 1 from enrollments d where d.${sql.raw(column)} = ${value}
    and d.${sql.raw(other)} = (select m.${sql.raw(other)} from enrollments m where m.id = ${id}) and d.id <> ${id})`;
}

async function apply(db: DB, o: Op) {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const students = await ids(db, "users", "role = 'student'");
  const enrollments = await ids(db, "enrollments");
  switch (o.kind) {
    case "enrol": {
      const student = pick(students, o.student);
      const course = pick(await ids(db, "courses"), o.course);
      if (!student || !course) return;
      await sql`insert into enrollments (id, student_id, course_id, status, progress_percentage, enrollment_date, updated_at)
        values (${id}, ${student}, ${course}, ${o.status}, 0, ${now}, ${now}) on conflict do nothing`.execute(db);
      return;
    }
    case "status": {
      const e = pick(enrollments, o.enrollment);
      if (e) await sql`update enrollments set status = ${o.status} where id = ${e}`.execute(db);
      return;
    }
    case "move": {
      const e = pick(enrollments, o.enrollment);
      const s = pick(students, o.student);
      if (e && s) await sql`update enrollments set student_id = ${s} where id = ${e} and ${unique("student_id", s, e)}`.execute(db);
      return;
    }
    case "recourse": {
      const e = pick(enrollments, o.enrollment);
      const c = pick(await ids(db, "courses"), o.course);
      if (e && c) await sql`update enrollments set course_id = ${c} where id = ${e} and ${unique("course_id", c, e)}`.execute(db);
      return;
    }
    case "assess": {
      const e = pick(enrollments, o.enrollment);
      if (!e) return;
      await sql`insert into assessments (id, enrollment_id, student_id, course_id, assessment_type, status, assessment_date, created_at)
        select ${id}, id, student_id, course_id, 'practical', ${o.status}, ${`${day(o.day)}T0${o.at}:00:00.000Z`}, ${recordedAt(o.at)}
        from enrollments where id = ${e}`.execute(db);
      return;
    }
    case "reassess": {
      const a = pick(await ids(db, "assessments"), o.assessment);
      if (a) await sql`update assessments set status = ${o.status}, assessment_date = ${`${day(o.day)}T12:00:00.000Z`} where id = ${a}`.execute(db);
      return;
    }
    case "unassess": {
      const a = pick(await ids(db, "assessments"), o.assessment);
      if (a) await sql`delete from assessments where id = ${a}`.execute(db);
      return;
    }
    case "certify": {
      const e = pick(enrollments, o.enrollment);
      if (!e) return;
      await sql`insert into certificates (id, certificate_number, verification_code, student_id, course_id, enrollment_id, tier_achieved, issue_date, created_at)
        select ${id}, ${`CERT-${id}`}, ${`V-${id}`}, student_id, course_id, id, 'tier_1', ${now}, ${now} from enrollments where id = ${e}
        on conflict do nothing`.execute(db);
      return;
    }
    case "uncertify": {
      const c = pick(await ids(db, "certificates"), o.certificate);
      if (c) await sql`delete from certificates where id = ${c}`.execute(db);
      return;
    }
    case "unenrol": {
      const e = pick(enrollments, o.enrollment);
      if (e) await sql`delete from enrollments where id = ${e}`.execute(db);
      return;
    }
    case "rename": {
      const s = pick(students, o.student);
      if (s) await sql`update users set full_name = ${NAMES[o.name]} where id = ${s}`.execute(db);
      return;
    }
    case "deactivate": {
      const s = pick(students, o.student);
      if (s) await sql`update users set is_active = ${o.active ? 1 : 0} where id = ${s}`.execute(db);
      return;
    }
  }
}

/** Every stored fact that differs from the same fact computed from the base tables. */
async function drift(db: DB) {
  const enrollments = await sql<{
    id: string;
    status: EnrollmentStatus;
    latest_assessment_status: string | null;
    has_certificate: number;
    awaiting_assessor: number;
  }>`
    select id, status, latest_assessment_status, has_certificate, awaiting_assessor from enrollments`.execute(db);
  const assessments = await sql<{ enrollment_id: string; status: AssessmentStatus; assessment_date: string; created_at: string }>`
    select enrollment_id, status, assessment_date, created_at from assessments`.execute(db);
  const certified = new Set((await sql<{ enrollment_id: string }>`select enrollment_id from certificates`.execute(db)).rows.map((r) => r.enrollment_id));
  const problems: string[] = [];
  for (const e of enrollments.rows) {
    const mine = assessments.rows
      .filter((a) => a.enrollment_id === e.id)
      .sort((a, b) => b.assessment_date.slice(0, 10).localeCompare(a.assessment_date.slice(0, 10)) || b.created_at.localeCompare(a.created_at));
    const latest = mine[0]?.status ?? null;
    const current = e.status === "enrolled" || e.status === "in_progress";
    const awaiting = (e.status === "in_progress" && latest === null) || (current && (latest === "in_progress" || latest === "resubmission"));
    if (e.latest_assessment_status !== latest) problems.push(`${e.id} latest ${e.latest_assessment_status} != ${latest}`);
    if (e.has_certificate !== (certified.has(e.id) ? 1 : 0)) problems.push(`${e.id} has_certificate ${e.has_certificate}`);
    if (e.awaiting_assessor !== (awaiting ? 1 : 0)) problems.push(`${e.id} awaiting_assessor ${e.awaiting_assessor}`);
  }
  const users = await sql<{ id: string; current_enrollments: number; expected: number }>`
    select u.id, u.current_enrollments,
      (select count(*) from enrollments e where e.student_id = u.id and e.status in ('enrolled', 'in_progress')) as expected
    from users u`.execute(db);
  for (const u of users.rows) if (u.current_enrollments !== u.expected) problems.push(`${u.id} current_enrollments ${u.current_enrollments} != ${u.expected}`);
  const counts = await sql<{ course_id: string; status: string; kept: number; actual: number }>`
    select course_id, status, coalesce(k.n, 0) as kept, coalesce(a.n, 0) as actual
    from (select course_id, status from enrollment_counts union select course_id, status from enrollments) as pairs
    left join enrollment_counts k using (course_id, status)
    left join (select course_id, status, count(*) as n from enrollments group by course_id, status) a using (course_id, status)`.execute(db);
  for (const c of counts.rows) if (c.kept !== c.actual) problems.push(`${c.course_id}/${c.status} counted ${c.kept} != ${c.actual}`);
  // FTS5 checks its own index against the users table (PostgreSQL's GIN indexes need no such check).
  if (TEST_DIALECT === "sqlite") await sql`insert into users_search (users_search, rank) values ('integrity-check', 1)`.execute(db);
  return problems;
}

/** Empties the people (and, asked, the courses) the properties start from: the trainers' credential rows the factories add go first. */
async function clearPeople(db: DB, alsoCourses = false): Promise<void> {
  for (const table of ["trainer_activities", "trainer_units", "trainer_credentials", ...(alsoCourses ? ["course_validations"] : [])])
    await sql`delete from ${sql.table(table)}`.execute(db);
  await sql`delete from users`.execute(db);
  if (alsoCourses) await sql`delete from courses`.execute(db);
}

describe("review state kept by triggers", () => {
  let db: DB;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await createTestDb());
  });
  afterAll(() => cleanup());

  it("equals the facts recomputed from scratch after any sequence of writes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
        await clearPeople(db, true);
        for (let i = 0; i < 4; i++) await makeUser(db, { full_name: NAMES[i], email: `s${i}@test.example` });
        await makeUser(db, { role: "trainer", full_name: "Tess Smith" });
        for (let i = 0; i < 3; i++) await makeCourse(db, { name: `Crane ${i}` });
        for (const o of ops) await apply(db, o);
        expect(await drift(db)).toEqual([]);
      }),
      { numRuns: 120, seed: 20261122 },
    );
  }, 120_000);

  it("finds through the trigram index exactly what a LIKE scan finds, wildcards and quotes literal", async () => {
    await clearPeople(db);
    for (const [i, name] of NAMES.entries()) await makeUser(db, { full_name: name, email: `${name.split(" ")[0]!.toLowerCase()}.${i}@test.example` });
    await makeUser(db, { role: "trainer", full_name: "Tess Smith" }); // never a student result
    await makeUser(db, { full_name: "Ina Smith", is_active: false });
    const everyone = await db.selectFrom("users").select(["id", "full_name", "email", "is_active"]).where("role", "=", "student").execute();
    const scan = async (term: string, status?: "active" | "inactive") => {
      const has = (text: string) => text.toLowerCase().includes(term.toLowerCase());
      return everyone
        .filter((u) => (status ? u.is_active === (status === "active" ? 1 : 0) : true) && (has(u.full_name) || has(u.email)))
        .map((r) => r.id)
        .sort();
    };
    for (const term of ["smith", "SMITH", "Smi", "sm", "s", "50%", "_", "fay_", '"q"', "o'neil", "@test.example", "nobody", "th Sm"]) {
      for (const status of [undefined, "active", "inactive"] as const) {
        const found = await searchStudents(db, { q: term, status, pageSize: 100 });
        expect(found.students.map((s) => s.id).sort(), `${term} ${status}`).toEqual(await scan(term, status));
        expect(found.total).toBe(found.students.length);
      }
    }
    // renaming moves a user in and out of the index at once
    const ann = (await searchStudents(db, { q: "Ann Smith" })).students[0]!;
    await sql`update users set full_name = 'Ann Jones' where id = ${ann.id}`.execute(db);
    expect((await searchStudents(db, { q: "Ann Smith" })).total).toBe(0);
    expect((await searchStudents(db, { q: "ann jones" })).students.map((s) => s.id)).toEqual([ann.id]);
  });

  it("searches the trainer's students by name, e-mail or a current course through the indexes", async () => {
    await clearPeople(db, true);
    const course = await makeCourse(db, { name: "Tower crane operation", unit_code: "TLILIC0005" });
    const a = await makeUser(db, { full_name: "Ann Smith" });
    const b = await makeUser(db, { full_name: "Bob Jones" });
    await makeUser(db, { full_name: "Cat Smith" }); // no current enrolment: not a trainer's student
    const now = new Date().toISOString();
    for (const [student, status] of [
      [a.id, "enrolled"],
      [b.id, "in_progress"],
    ] as const) {
      await sql`insert into enrollments (id, student_id, course_id, status, progress_percentage, enrollment_date, updated_at)
        values (${crypto.randomUUID()}, ${student}, ${course.id}, ${status}, 0, ${now}, ${now})`.execute(db);
    }
    const names = async (search: string) => (await listTrainerStudents(db, { search })).students.map((s) => s.full_name);
    expect(await names("smith")).toEqual(["Ann Smith"]);
    expect(await names("tower")).toEqual(["Ann Smith", "Bob Jones"]);
    expect(await names("LIC0005")).toEqual(["Ann Smith", "Bob Jones"]);
    expect(await names("jo")).toEqual(["Bob Jones"]);
  });
});
