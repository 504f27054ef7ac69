import type { DB } from "#db/connection";
import type { Role, Tier } from "#db/schema";

/** A certificate as the portals and /api show it (spec section 3, plus its course). */
export interface CertificateSummary {
  id: string;
  certificate_number: string;
  tier_achieved: Tier;
  issue_date: string;
  course: { id: string; name: string; unit_code: string };
}

function certificateQuery(db: DB) {
  return db
    .selectFrom("certificates")
    .innerJoin("courses", "courses.id", "certificates.course_id")
    .select([
      "certificates.id",
      "certificates.certificate_number",
      "certificates.tier_achieved",
      "certificates.issue_date",
      "certificates.student_id",
      "courses.id as course_id",
      "courses.name as course_name",
      "courses.unit_code",
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof certificateQuery>["execute"]>>[number];

function toSummary(r: Row): CertificateSummary {
  return {
    id: r.id,
    certificate_number: r.certificate_number,
    tier_achieved: r.tier_achieved,
    issue_date: r.issue_date,
    course: { id: r.course_id, name: r.course_name, unit_code: r.unit_code },
  };
}

/** A student's certificates, newest first; `limit` for dashboards. */
export async function listCertificatesForStudent(
  db: DB,
  studentId: string,
  options: { limit?: number } = {},
): Promise<CertificateSummary[]> {
  let query = certificateQuery(db)
    .where("certificates.student_id", "=", studentId)
    .orderBy("certificates.issue_date", "desc")
    .orderBy("certificates.id");
  if (options.limit) query = query.limit(options.limit);
  return (await query.execute()).map(toSummary);
}

/**
 * One certificate as a given viewer may see it: its owner, any trainer or admin. Anyone else
 * gets null, exactly as for an unknown id, so ids cannot be probed.
 */
export async function getCertificateForViewer(
  db: DB,
  id: string,
  viewer: { id: string; role: Role },
): Promise<(CertificateSummary & { student_id: string }) | null> {
  let query = certificateQuery(db).where("certificates.id", "=", id);
  if (viewer.role === "student") query = query.where("certificates.student_id", "=", viewer.id);
  const row = await query.executeTakeFirst();
  return row ? { ...toSummary(row), student_id: row.student_id } : null;
}

export async function countCertificatesForStudent(db: DB, studentId: string): Promise<number> {
  const row = await db
    .selectFrom("certificates")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("student_id", "=", studentId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
