/**
 * The national volume's seeder (scripts/seed-national.ts) at 2,000 learners on PostgreSQL: the
 * same rows on every run, everything in CONTRACT 23's proportions, the values triggers keep
 * computed as they would be, the audit chain intact and the demo logins kept. Skipped without
 * TEST_DATABASE_URL (the seeder is PostgreSQL's only).
 */
import { describe, expect, it } from "vitest";
import pg from "pg";
import { createDatabase, databaseUrl, dropDatabase, uniqueDatabaseName } from "../tests/support/postgres-test-server";
import { openDatabase } from "../db/connection";
import { verifyAuditChain } from "../app/models/audit-chain.server";
import { PER_LEARNER, seedNational } from "./seed-national";

const LEARNERS = 2_000;
const TODAY = "2026-12-04";

/**
 * A digest of every bulk row, ids to demo rows (random on every run) named by the demo row's
 * email, and the columns no run can repeat left out: the shared password hash (scrypt salts it)
 * and the audit hashes (their chain follows the demo's own entries).
 */
const DIGESTS = {
  users: `select md5(string_agg(concat_ws('|', id, email, full_name, role, phone, address, date_of_birth, usi, student_number, sex, postcode, current_enrollments, created_at, last_login), ',' order by id)) from users where email like '%@students.example.com' or email like '%@staff.example.com'`,
  enrollments: `select md5(string_agg(concat_ws('|', e.id, student_id, course_id, status, progress_percentage, enrollment_date, completion_date, latest_assessment_status, has_certificate, class_id, planned_start_date), ',' order by e.id)) from enrollments e join users u on u.id = e.student_id where u.email like '%@students.example.com'`,
  certificates: `select md5(string_agg(concat_ws('|', c.id, certificate_number, verification_code, enrollment_id, issue_date, coalesce(t.email, c.issued_by)), ',' order by c.id)) from certificates c join users u on u.id = c.student_id left join users t on t.id = c.issued_by where u.email like '%@students.example.com'`,
  assessments: `select md5(string_agg(concat_ws('|', a.id, enrollment_id, status, score, assessment_date, coalesce(t.email, a.assessed_by)), ',' order by a.id)) from assessments a join users u on u.id = a.student_id left join users t on t.id = a.assessed_by where u.email like '%@students.example.com'`,
  classes: `select md5(string_agg(concat_ws('|', c.id, course_id, start_date, end_date, coalesce(t.email, c.trainer_id)), ',' order by c.id)) from classes c left join users t on t.id = c.trainer_id join courses k on k.id = c.course_id where k.unit_code like 'CPCHRW%'`,
  audit: `select md5(string_agg(concat_ws('|', at, action, actor_email, coalesce(u.email, subject_id), client, fields), ',' order by a.id)) from audit_log a left join users u on u.id = a.subject_id where client like '203.0.113.%'`,
  invoices: `select md5(string_agg(concat_ws('|', number, buyer_id, source_id, issue_date, total_cents, paid_cents), ',' order by number)) from invoices where buyer_email like '%@students.example.com'`,
};

describe.skipIf(!process.env.TEST_DATABASE_URL)("seed:large on PostgreSQL (the national volume)", () => {
  it("seeds the same rows twice, in proportion, with the trigger-kept values and the audit chain right", { timeout: 120_000 }, async () => {
    const names = [uniqueDatabaseName("national_a"), uniqueDatabaseName("national_b")];
    for (const name of names) await createDatabase(name);
    try {
      const digests: Array<Record<string, string>> = [];
      for (const name of names) {
        const summary = await seedNational(databaseUrl(name), { learners: LEARNERS, today: TODAY, log: () => {} });
        expect(summary.skipped).toBeFalsy();
        const client = new pg.Client({ connectionString: databaseUrl(name) });
        await client.connect();
        try {
          const digest: Record<string, string> = {};
          for (const [table, query] of Object.entries(DIGESTS)) digest[table] = (await client.query(query)).rows[0].md5;
          digests.push(digest);
        } finally {
          await client.end();
        }
      }
      expect(digests[1]).toEqual(digests[0]);

      const url = databaseUrl(names[0]!);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const one = async (q: string) => Number(Object.values((await client.query(q)).rows[0])[0]);
        const bulk = "(select id from users where email like '%@students.example.com')";
        expect(await one(`select count(*) from users where email like '%@students.example.com'`)).toBe(LEARNERS);
        const near = (actual: number, expected: number, within = 0.05) => expect(Math.abs(actual - expected) / expected).toBeLessThan(within);
        near(await one(`select count(*) from enrollments where student_id in ${bulk}`), LEARNERS * PER_LEARNER.enrollments, 0.01);
        near(await one(`select count(*) from certificates where student_id in ${bulk}`), LEARNERS * PER_LEARNER.certificates);
        near(await one(`select count(*) from assessments where student_id in ${bulk}`), LEARNERS * PER_LEARNER.assessments);
        near(await one(`select count(*) from outbox_messages where state = 'sent'`), LEARNERS * PER_LEARNER.mails);
        expect(await one(`select count(*) from audit_log where client like '203.0.113.%'`)).toBe(LEARNERS * PER_LEARNER.audit);
        // what the triggers keep, as they would have kept it
        expect(
          await one(
            `select count(*) from users u where current_enrollments <> (select count(*) from enrollments e where e.student_id = u.id and e.status in ('enrolled', 'in_progress'))`,
          ),
        ).toBe(0);
        expect(
          await one(`select count(*) from enrollments e where has_certificate <> (exists (select 1 from certificates c where c.enrollment_id = e.id))::int`),
        ).toBe(0);
        expect(
          await one(
            `select count(*) from enrollments e where latest_assessment_status is distinct from (select a.status from assessments a where a.enrollment_id = e.id order by substr(a.assessment_date, 1, 10) desc, a.created_at desc limit 1)`,
          ),
        ).toBe(0);
        expect(
          await one(
            `select count(*) from (select course_id, status, count(*) n from enrollments group by 1, 2) x full join enrollment_counts c using (course_id, status) where coalesce(x.n, 0) <> coalesce(c.n, 0)`,
          ),
        ).toBe(0);
        expect(
          await one(
            `select count(*) from (select substr(enrollment_date, 1, 13) as hour, count(*) n from enrollments group by 1) x full join (select hour, sum(enrolled) n from enrollment_hours group by 1) h using (hour) where coalesce(x.n, 0) <> coalesce(h.n, 0)`,
          ),
        ).toBe(0);
        expect(await one(`select count(*) from enrollments where status = 'completed' and completion_date is not null`)).toBe(
          await one(`select sum(completed) from enrollment_hours`),
        );
        expect(
          await one(
            `select count(*) from (select issue_date, count(*) n, sum(total_cents) t, sum(paid_cents) p, sum(credited_cents) c from invoices group by 1) x full join (select issue_date, sum(n) n, sum(total_cents) t, sum(paid_cents) p, sum(credited_cents) c from invoice_sums group by 1) s using (issue_date) where (x.n, x.t, x.p, x.c) is distinct from (s.n, s.t, s.p, s.c)`,
          ),
        ).toBe(0);
        expect(await one(`select n from awaiting_assessor_count`)).toBe(await one(`select count(*) from enrollments where awaiting_assessor = 1`));
        expect(await one(`select n from certificate_count`)).toBe(await one(`select count(*) from certificates`));
        expect(await one(`select n from studying_count`)).toBe(
          await one(`select count(*) from users where role = 'student' and is_active = 1 and current_enrollments > 0`),
        );
        // the demo logins are there
        expect(
          await one(`select count(*) from users where email in ('admin@example.com', 'trainer@example.com', 'student@example.com', 'employer@example.com')`),
        ).toBe(4);
      } finally {
        await client.end();
      }
      const db = openDatabase(url, { log: () => {} });
      try {
        const check = await verifyAuditChain(db, {});
        expect(check.intact).toBe(true);
      } finally {
        await db.destroy();
      }
    } finally {
      for (const name of names) await dropDatabase(name);
    }
  });
});
