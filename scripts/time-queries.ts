/**
 * npx tsx scripts/time-queries.ts [file:data/large.db] — times the main pages' model functions
 * on a (large) database and prints each SQL statement's query plan with SCAN lines, to find
 * full scans that matter. A diagnostic aid for the performance work (not part of npm test).
 */
import { Kysely, SqliteDialect, type LogEvent } from "kysely";
import type { Database } from "../db/schema";
import { sqlitePathFromUrl } from "../db/connection";
import SQLite from "../db/sqlite-driver";
import { getDashboardStats, getTrainerStats } from "../app/models/stats.server";
import { searchStudents, listRecentStudents } from "../app/models/student.server";
import { listCourses } from "../app/models/course.server";
import { listAllCourses } from "../app/models/course-admin.server";
import { getEnrollmentStatistics, getComplianceChecks } from "../app/models/report.server";
import { getStudentEnrollmentCounts, listEnrollmentsForStudent } from "../app/models/student-enrollments.server";
import { getReportCharts } from "../app/avetmiss/export.server";
import { listCurrentEnrollmentOptions, listTrainerStudents } from "../app/models/trainer-students.server";
import { countCertificatesForStudent, listCertificatesForStudent } from "../app/models/certificates/certificate.server";
import { listCompletedAwaitingCertificate } from "../app/models/certificates/certificate-due.server";
import { countUnreadNotifications } from "../app/models/notification.server";
import { listPendingAccounts } from "../app/models/approval.server";
import { countAssessmentsByStatus, countPendingAssessments, listAssessments, listPendingAssessments } from "../app/models/assessment.server";

const file = sqlitePathFromUrl(process.argv[2] || "file:./data/large.db");
const sqlite = new SQLite(file, { readonly: true });
const statements: Array<{ sql: string; params: readonly unknown[]; ms: number }> = [];
const db = new Kysely<Database>({
  dialect: new SqliteDialect({ database: sqlite }),
  log: (e: LogEvent) => {
    if (e.level === "query") statements.push({ sql: e.query.sql, params: e.query.parameters, ms: e.queryDurationMillis });
  },
});

async function time(name: string, fn: () => Promise<unknown>) {
  statements.length = 0;
  await fn(); // warm
  statements.length = 0;
  const t = performance.now();
  await fn();
  const ms = performance.now() - t;
  console.log(`\n${ms.toFixed(1).padStart(8)} ms  ${name}  (${statements.length} queries)`);
  for (const s of statements) {
    const plan = sqlite.prepare(`explain query plan ${s.sql}`).all(...(s.params as unknown[])) as Array<{ detail: string }>;
    const scans = plan.map((p) => p.detail).filter((d) => s.ms > 20 || /^SCAN|TEMP B-TREE/.test(d));
    if (s.ms > 2 || scans.length) {
      console.log(`   ${s.ms.toFixed(1).padStart(7)} ms ${s.sql.replace(/\s+/g, " ").slice(0, process.env.FULL ? 4000 : 220)}`);
      for (const d of scans) console.log(`             ${d}`);
    }
  }
}

const student = sqlite.prepare("select id from users where email='student@example.com'").get() as { id: string };
await time("student overview counts", () => Promise.all([getStudentEnrollmentCounts(db, student.id), countCertificatesForStudent(db, student.id)]));
await time("student layout", () =>
  Promise.all([listEnrollmentsForStudent(db, student.id), listCertificatesForStudent(db, student.id), countUnreadNotifications(db, student.id)]),
);
await time("getDashboardStats", () => getDashboardStats(db));
await time("admin overview rest", () => Promise.all([listRecentStudents(db, 5), listAllCourses(db), listPendingAccounts(db)]));
await time("searchStudents q=smith", () => searchStudents(db, { q: "smith" }));
await time("searchStudents q=zzz (no match)", () => searchStudents(db, { q: "zzzqq" }));
await time("searchStudents page 1", () => searchStudents(db, {}));
await time("getTrainerStats", () => getTrainerStats(db));
await time("trainer overview lists", () =>
  Promise.all([listTrainerStudents(db, { pageSize: 5 }), listPendingAssessments(db, { limit: 5 }), listCompletedAwaitingCertificate(db, { limit: 5 })]),
);
await time("listCourses active", () => listCourses(db, { activeOnly: true }));
await time("getEnrollmentStatistics", () => getEnrollmentStatistics(db));
await time("getComplianceChecks", () => getComplianceChecks(db));
await time("listCurrentEnrollmentOptions", () => listCurrentEnrollmentOptions(db));
await time("listCurrentEnrollmentOptions q=smith", () => listCurrentEnrollmentOptions(db, { search: "smith" }));
await time("trainer assessments page", () =>
  Promise.all([
    countAssessmentsByStatus(db),
    listAssessments(db, { page: 1, pageSize: 20 }),
    listPendingAssessments(db, { limit: 5 }),
    countPendingAssessments(db),
  ]),
);
for (const search of ["smith", "crane", "zzzqq", "jo"]) await time(`listAssessments q=${search}`, () => listAssessments(db, { search, page: 1, pageSize: 20 }));
await time("getReportCharts", () => getReportCharts(db, new Date().getUTCFullYear()));
await db.destroy();
