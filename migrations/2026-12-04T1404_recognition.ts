import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Recognition: credit transfer and recognition of prior learning (RPL), one application per
 * enrolment (a unit-only enrolment is one unit).
 *
 * - recognition_applications: kind credit_transfer | rpl; status applied -> granted |
 *   not_granted | refused. A credit transfer keeps how the other RTO's document was
 *   authenticated (issuing RTO code, document number, how and when it was checked, by whom) and
 *   the equivalence (same | equivalent | superseding, with the unit held and the mapping). An RPL
 *   names its assessor. A decision keeps its national outcome (60 credit transfer, 51 RPL
 *   granted, 52 RPL not granted; none for a refusal), the organisation's day it was decided, who
 *   decided and the reasons. fee_invoice_id is the RPL fee's invoice, credit_note_id the credit a
 *   granted credit transfer gave against the enrolment's invoice. Evidence files live in
 *   evidence_files (assessment_kind 'recognition', assessment_id the application).
 * - courses.rpl_fee_cents: the course's RPL fee per unit, invoiced on application (0: none).
 * - The AVETMISS export reads the applications (their outcomes and dates, and whether a credit
 *   transfer is authenticated and an RPL has its assessor), so every write to them moves the
 *   `avetmiss` version, as 2026-11-26T0400's triggers do for the other tables it reads.
 */
const BUMP = "update change_counters set version = version + 1 where topic = 'avetmiss';";
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("recognition_applications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("enrollment_id", "text", (c) => c.notNull().references("enrollments.id"))
    .addColumn("student_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("course_id", "text", (c) => c.notNull().references("courses.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("statement", "text", (c) => c.notNull())
    .addColumn("applied_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("applied_at", "text", (c) => c.notNull())
    .addColumn("applied_on", "text", (c) => c.notNull())
    .addColumn("issuing_rto_code", "text")
    .addColumn("document_number", "text")
    .addColumn("checked_how", "text")
    .addColumn("checked_on", "text")
    .addColumn("checked_by", "text", (c) => c.references("users.id"))
    .addColumn("equivalence", "text")
    .addColumn("held_unit_code", "text")
    .addColumn("mapping", "text")
    .addColumn("assessor_id", "text", (c) => c.references("users.id"))
    .addColumn("outcome_code", "text")
    .addColumn("decided_on", "text")
    .addColumn("decided_at", "text")
    .addColumn("decided_by", "text", (c) => c.references("users.id"))
    .addColumn("reasons", "text")
    .addColumn("fee_invoice_id", "text", (c) => c.references("invoices.id"))
    .addColumn("credit_note_id", "text", (c) => c.references("credit_notes.id"))
    .execute();
  await db.schema.createIndex("recognition_applications_enrollment").on("recognition_applications").columns(["enrollment_id", "applied_at"]).execute();
  await db.schema.createIndex("recognition_applications_student").on("recognition_applications").columns(["student_id", "applied_at"]).execute();
  // the certificate queue leaves out credited units: the credited enrolments come from this index alone
  await db.schema.createIndex("recognition_applications_outcome").on("recognition_applications").columns(["outcome_code", "enrollment_id"]).execute();
  await db.schema.createIndex("recognition_applications_status").on("recognition_applications").columns(["status", "applied_at"]).execute();
  await db.schema.alterTable("courses").addColumn("rpl_fee_cents", "integer", (c) => c.notNull().defaultTo(0)).execute();
  if (dialectOf(db) === "postgres") {
    await sql
      .raw("create trigger avetmiss_version_recognition after insert or update or delete on recognition_applications for each statement execute function avetmiss_version_bump()")
      .execute(db);
  } else {
    for (const [suffix, on] of [["ai", "insert"], ["au", "update"], ["ad", "delete"]] as const) {
      await sql.raw(`create trigger avetmiss_version_recognition_${suffix} after ${on} on recognition_applications begin ${BUMP} end`).execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") await sql.raw("drop trigger if exists avetmiss_version_recognition on recognition_applications").execute(db);
  else for (const suffix of ["ai", "au", "ad"]) await sql.raw(`drop trigger if exists avetmiss_version_recognition_${suffix}`).execute(db);
  await db.schema.alterTable("courses").dropColumn("rpl_fee_cents").execute();
  await db.schema.dropTable("recognition_applications").execute();
}
