import { sql } from "kysely";
import { organisationTimestamp } from "~/utils/organisation-calendar";
import { type DB } from "#db/connection";
import { CURRENT_ENROLLMENT_STATUSES, ENROLLMENT_STATUSES, TIERS, type EnrollmentStatus, type Tier } from "#db/schema";
import { overdueCertificateEnrollments } from "./certificates/certificate-due.server";
import { enrollmentCountsByCourseAndStatus, percent } from "./stats.server";
import { CERTIFICATE_GRACE_DAYS, filteredStudents, ISSUE_LABELS, STUDENT_COUNT_LIMIT, undatedCompletions } from "./student.server";
import type { Role } from "#db/schema";
import { recordAuditAlone, type AuditActor } from "./audit.server";
import { roleReadsField } from "./personal-data.server";
import { afterKey, BATCH_ROWS, countUpTo, type CappedCount } from "./batches.server";

/** The ASQA compliance report: enrolment figures, record checks and the CSV export. */

export interface TierStatistics {
  tier: Tier;
  total: number;
  active: number;
  completed: number;
  withdrawn: number;
  /** completed over total, a whole percentage */
  completion_rate: number;
}

export interface EnrollmentStatistics {
  total: number;
  byStatus: Array<{ status: EnrollmentStatus; count: number }>;
  byTier: TierStatistics[];
}

/** Enrolments by status and by tier (GROUP BY in SQL); every status and tier is listed, zeros included. */
export async function getEnrollmentStatistics(db: DB): Promise<EnrollmentStatistics> {
  const [statusRows, tierRows] = await Promise.all([
    db
      .selectFrom(enrollmentCountsByCourseAndStatus(db).as("e"))
      .select((eb) => ["e.status", eb.fn.sum("e.n").as("n")])
      .groupBy("e.status")
      .execute(),
    db
      .selectFrom(enrollmentCountsByCourseAndStatus(db).as("e"))
      .innerJoin("courses", "courses.id", "e.course_id")
      .select((eb) => [
        "courses.tier",
        eb.fn.sum("e.n").as("total"),
        eb.fn.sum(eb.case().when("e.status", "in", CURRENT_ENROLLMENT_STATUSES).then(eb.ref("e.n")).else(0).end()).as("active"),
        eb.fn.sum(eb.case().when("e.status", "=", "completed").then(eb.ref("e.n")).else(0).end()).as("completed"),
        eb.fn.sum(eb.case().when("e.status", "=", "withdrawn").then(eb.ref("e.n")).else(0).end()).as("withdrawn"),
      ])
      .groupBy("courses.tier")
      .execute(),
  ]);
  const byStatus = ENROLLMENT_STATUSES.map((status) => ({
    status,
    count: Number(statusRows.find((r) => r.status === status)?.n ?? 0),
  }));
  const byTier = TIERS.map((tier) => {
    const r = tierRows.find((row) => row.tier === tier);
    const total = Number(r?.total ?? 0);
    const completed = Number(r?.completed ?? 0);
    return {
      tier,
      total,
      active: Number(r?.active ?? 0),
      completed,
      withdrawn: Number(r?.withdrawn ?? 0),
      completion_rate: percent(completed, total),
    };
  });
  return { total: byStatus.reduce((sum, s) => sum + s.count, 0), byStatus, byTier };
}

export interface ComplianceCheck {
  id: string;
  label: string;
  description: string;
  count: number;
  /** more than `count` match: the check counted no further (COMPLIANCE_COUNT_LIMIT) */
  countCapped: boolean;
  /** what `count` counts, singular and plural */
  unit: [string, string];
  ok: boolean;
  href: string;
}

/**
 * The counts behind the record checks, as queries (a test reads their plans: none may read a
 * table once per row of another). Each counts what the list its check links to shows: the
 * students list's own filters, and the enrolments those filters read.
 */
export function complianceCountQueries(db: DB, now = new Date()) {
  const one = sql.lit(1).as("one");
  return {
    // the trigger-kept flag, not a join to certificates: the join read every certificate for
    // each completed enrolment (71 s at 100k enrolments and 30k certificates)
    uncertified: overdueCertificateEnrollments(db, now).select(one),
    missingDob: filteredStudents(db, { issue: "missing-dob" }).select(one),
    missingContact: filteredStudents(db, { issue: "missing-contact" }).select(one),
    closedCourses: db
      .selectFrom("courses")
      .select(one)
      .where("courses.is_active", "=", 0)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("enrollments")
            .select("enrollments.id")
            .whereRef("enrollments.course_id", "=", "courses.id")
            .where("enrollments.status", "in", CURRENT_ENROLLMENT_STATUSES),
        ),
      ),
    undatedCompletions: undatedCompletions(db).select(one),
    usiClashes: filteredStudents(db, { issue: "usi-clash" }).select(one),
  };
}

/**
 * How far a record check counts: as far as the students list it links to (its issue lists
 * count as far). Every learner of a national provider's seed lacked a contact detail, and
 * counting all 485,000 took 230-400 ms on each view of the reports page.
 */
export const COMPLIANCE_COUNT_LIMIT = STUDENT_COUNT_LIMIT;

/**
 * Record checks an auditor would run, computed from the data (not a static all-clear). Each
 * links to the list of the records it counts.
 */
export async function getComplianceChecks(db: DB, now = new Date()): Promise<ComplianceCheck[]> {
  const q = complianceCountQueries(db, now);
  const [uncertified, missingDob, missingContact, closedCourses, undatedCompletions, usiClashes] = await Promise.all(
    [q.uncertified, q.missingDob, q.missingContact, q.closedCourses, q.undatedCompletions, q.usiClashes].map((matches) =>
      countUpTo(db, matches, COMPLIANCE_COUNT_LIMIT),
    ),
  );
  const count = (c: CappedCount) => c.total;
  const check = (c: Omit<ComplianceCheck, "ok" | "countCapped">, counted: CappedCount): ComplianceCheck => ({
    ...c,
    countCapped: counted.totalCapped,
    ok: c.count === 0,
  });
  return [
    check(
      {
        id: "uncertified",
        label: "Certificates issued on completion",
        description: `Enrolments completed more than ${CERTIFICATE_GRACE_DAYS} days ago with no certificate issued.`,
        count: count(uncertified!),
        unit: ["enrolment", "enrolments"],
        href: "/admin/students?issue=uncertified",
      },
      uncertified!,
    ),
    check(
      {
        id: "missing-dob",
        label: "Date of birth recorded",
        description: `${ISSUE_LABELS["missing-dob"]} (required for AVETMISS reporting).`,
        count: count(missingDob!),
        unit: ["student", "students"],
        href: "/admin/students?issue=missing-dob",
      },
      missingDob!,
    ),
    check(
      {
        id: "missing-contact",
        label: "Contact details complete",
        description: `${ISSUE_LABELS["missing-contact"]}.`,
        count: count(missingContact!),
        unit: ["student", "students"],
        href: "/admin/students?issue=missing-contact",
      },
      missingContact!,
    ),
    check(
      {
        id: "inactive-courses",
        label: "Closed courses with learners still enrolled",
        description: "Inactive courses that still have enrolled or in-progress learners who need a completion or transfer plan.",
        count: count(closedCourses!),
        unit: ["course", "courses"],
        href: "/admin/courses?status=inactive",
      },
      closedCourses!,
    ),
    check(
      {
        id: "undated-completions",
        label: "Completion dates recorded",
        description: "Completed enrolments without a completion date.",
        count: count(undatedCompletions!),
        unit: ["enrolment", "enrolments"],
        href: "/admin/students?issue=undated-completion",
      },
      undatedCompletions!,
    ),
    check(
      {
        id: "usi-clash",
        label: "USIs belong to one person",
        description: `${ISSUE_LABELS["usi-clash"]}: check both with the USI Registry and record the right USI on each profile.`,
        count: count(usiClashes!),
        unit: ["student", "students"],
        href: "/admin/students?issue=usi-clash",
      },
      usiClashes!,
    ),
  ];
}

/** The columns of the students export, in order. */
export const EXPORT_COLUMNS = [
  "student_id",
  "full_name",
  "email",
  "phone",
  "date_of_birth",
  "address",
  "emergency_contact",
  "license_number",
  "account_status",
  "joined",
  "unit_code",
  "course_name",
  "tier",
  "enrollment_status",
  "progress_percentage",
  "enrollment_date",
  "completion_date",
] as const;

export type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string | number | null>;

/**
 * Every student with each of their enrolments (one row per enrolment; a row with blank course
 * columns for none), newest student first, read a batch of students at a time with their
 * enrolments in one query beside them: two queries per BATCH_ROWS students (one more where the
 * dated accounts end), whatever the size.
 */
export async function* studentExportRows(db: DB, batch = BATCH_ROWS): AsyncGenerator<ExportRow, void, undefined> {
  const studentsQuery = () =>
    db
      .selectFrom("users")
      .select(["id", "full_name", "email", "phone", "date_of_birth", "address", "emergency_contact", "license_number", "is_active", "created_at"])
      .where("role", "=", "student");
  const undated = (afterId: string | null, limit: number) => {
    const query = studentsQuery().where("created_at", "is", null);
    return (afterId === null ? query : query.where("id", ">", afterId)).orderBy("id").limit(limit).execute();
  };
  // newest first with undated accounts last (SQLite's default for DESC, spelled out for
  // PostgreSQL's index): the dated accounts by keyset, then the undated by id, each a range of
  // the (role, created_at desc nulls last, id) index. One condition joining the two with OR was
  // read from the index's start on every batch, a second a batch at 500,000 learners.
  const studentBatch = async (after: { id: string; created_at: string | null } | null, limit: number) => {
    if (after && !after.created_at) return undated(after.id, limit);
    let dated = studentsQuery().where("created_at", "is not", null);
    if (after)
      dated = dated.where(
        afterKey([
          ["created_at", "desc", after.created_at!],
          ["id", "asc", after.id],
        ]),
      );
    // nulls last as the index has it, though none is null here: otherwise PostgreSQL sorts
    const rows = await dated
      .orderBy("created_at", (o) => o.desc().nullsLast())
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.length === limit ? rows : [...rows, ...(await undated(null, limit - rows.length))];
  };
  let students: Awaited<ReturnType<typeof studentBatch>> = [];
  const enrollments = async (ids: string[]) => {
    const rows = await db
      .selectFrom("enrollments")
      .innerJoin("courses", "courses.id", "enrollments.course_id")
      .select([
        "enrollments.student_id",
        "courses.unit_code",
        "courses.name as course_name",
        "courses.tier",
        "enrollments.status",
        "enrollments.progress_percentage",
        "enrollments.enrollment_date",
        "enrollments.completion_date",
      ])
      .where("enrollments.student_id", "in", ids)
      .orderBy("enrollments.student_id")
      .orderBy("enrollments.enrollment_date")
      .orderBy("enrollments.id")
      .execute();
    const byStudent = new Map<string, typeof rows>();
    for (const row of rows) byStudent.set(row.student_id, [...(byStudent.get(row.student_id) ?? []), row]);
    return byStudent;
  };
  let after: (typeof students)[number] | null = null;
  do {
    students = await studentBatch(after, batch);
    if (students.length === 0) return;
    const taken = await enrollments(students.map((s) => s.id));
    for (const s of students) {
      const person = {
        student_id: s.id,
        full_name: s.full_name,
        email: s.email,
        phone: s.phone,
        date_of_birth: s.date_of_birth,
        address: s.address,
        emergency_contact: s.emergency_contact,
        license_number: s.license_number,
        account_status: s.is_active === 1 ? "active" : "inactive",
        // instants as the organisation's local time with their UTC offset, so each day shown is its day
        joined: s.created_at ? organisationTimestamp(s.created_at) : null,
      };
      const blank = {
        unit_code: null,
        course_name: null,
        tier: null,
        enrollment_status: null,
        progress_percentage: null,
        enrollment_date: null,
        completion_date: null,
      };
      const rows = taken.get(s.id);
      if (!rows) yield { ...person, ...blank };
      else
        for (const e of rows)
          yield {
            ...person,
            unit_code: e.unit_code,
            course_name: e.course_name,
            tier: e.tier,
            enrollment_status: e.status,
            progress_percentage: e.progress_percentage,
            enrollment_date: e.enrollment_date ? organisationTimestamp(e.enrollment_date) : null,
            completion_date: e.completion_date ? organisationTimestamp(e.completion_date) : null,
          };
    }
    after = students[students.length - 1]!;
  } while (students.length === batch);
}

/**
 * The students export (Export Data) as the reader may read it: its columns and its rows as a
 * batched reader. The bulk read is recorded in the audit trail before the first row leaves, with
 * how many students it holds (one count by an index: the rows stream after, and a download cut
 * short was still asked for; counting the rows too would join every enrolment before the first byte).
 */
export async function exportStudents(
  db: DB,
  reader: AuditActor & { id: string; role: Role },
): Promise<{ columns: Array<(typeof EXPORT_COLUMNS)[number]>; rows: AsyncGenerator<ExportRow, void, undefined> }> {
  const columns = EXPORT_COLUMNS.filter((column) => roleReadsField(reader.role, column));
  const students = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("role", "=", "student")
    .executeTakeFirstOrThrow();
  await recordAuditAlone(db, {
    action: "students.exported",
    actor: { id: reader.id, client: reader.client },
    subject: { type: "students", id: null },
    fields: columns,
    detail: `${Number(students.n)} students`,
  });
  return { columns, rows: studentExportRows(db) };
}
