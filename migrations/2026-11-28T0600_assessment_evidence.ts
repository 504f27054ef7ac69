import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Assessment evidence and how long records are kept.
 *
 * - evidence_files: a file on an assessment, a unit's (`assessments`) or a high-risk work one's
 *   (`hrw_assessments`), named by assessment_kind and assessment_id. The bytes live in the file
 *   store under sha256 (and the thumbnail's under thumbnail_sha256); one stored file may back
 *   several rows. keep_until is the retention job's stamp: the day from which the file may be
 *   destroyed (null while the assessment has no result).
 * - observation_checklists and checklist_items: per course, set by admins; each item names the
 *   unit element or performance criterion it maps to, and for a licence course the NAI part. A
 *   checklist is used only once reviewed (reviewed_at); editing its items clears the review.
 * - checklist_marks: the assessor's mark of each item on one assessment (one row an item).
 * - assessment_signatures: the assessor's and the candidate's declarations on one assessment
 *   (typed full name, when, the client's user agent, the account that signed).
 * - retention_rules: how long each record type is kept, per licence class where one sets longer
 *   ('' for every class); keep_months null: for ever.
 * - destroyed_records: the tombstone of each destroyed item (what, whose, its hashes, by whom,
 *   when); never deleted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("evidence_files")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("assessment_kind", "text", (c) => c.notNull())
    .addColumn("assessment_id", "text", (c) => c.notNull())
    .addColumn("student_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("thumbnail_sha256", "text")
    .addColumn("media_type", "text", (c) => c.notNull())
    .addColumn("size_bytes", "integer", (c) => c.notNull())
    .addColumn("original_name", "text", (c) => c.notNull())
    .addColumn("uploaded_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("uploaded_at", "text", (c) => c.notNull())
    .addColumn("keep_until", "text")
    .execute();
  await db.schema.createIndex("evidence_files_assessment").on("evidence_files").columns(["assessment_kind", "assessment_id", "uploaded_at"]).execute();
  await db.schema.createIndex("evidence_files_student").on("evidence_files").columns(["student_id", "uploaded_at"]).execute();
  await db.schema.createIndex("evidence_files_sha256").on("evidence_files").columns(["sha256"]).execute();
  await db.schema.createIndex("evidence_files_keep_until").on("evidence_files").columns(["keep_until"]).execute();

  await db.schema
    .createTable("observation_checklists")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("course_id", "text", (c) => c.notNull().references("courses.id"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("reviewed_at", "text")
    .addColumn("reviewed_by", "text", (c) => c.references("users.id"))
    .addColumn("created_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("observation_checklists_course").on("observation_checklists").columns(["course_id"]).execute();
  await db.schema
    .createTable("checklist_items")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("checklist_id", "text", (c) => c.notNull().references("observation_checklists.id"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("maps_to", "text", (c) => c.notNull())
    .addColumn("nai_part", "text")
    .execute();
  await db.schema.createIndex("checklist_items_checklist").on("checklist_items").columns(["checklist_id", "position"]).execute();
  await db.schema
    .createTable("checklist_marks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("assessment_kind", "text", (c) => c.notNull())
    .addColumn("assessment_id", "text", (c) => c.notNull())
    .addColumn("item_id", "text", (c) => c.notNull().references("checklist_items.id"))
    .addColumn("result", "text", (c) => c.notNull())
    .addColumn("comment", "text")
    .addColumn("marked_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("marked_at", "text", (c) => c.notNull())
    .addUniqueConstraint("checklist_marks_one_per_item", ["assessment_kind", "assessment_id", "item_id"])
    .execute();

  await db.schema
    .createTable("assessment_signatures")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("assessment_kind", "text", (c) => c.notNull())
    .addColumn("assessment_id", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("full_name", "text", (c) => c.notNull())
    .addColumn("signed_at", "text", (c) => c.notNull())
    .addColumn("client", "text")
    .addColumn("signed_by", "text", (c) => c.notNull().references("users.id"))
    .addUniqueConstraint("assessment_signatures_one_per_role", ["assessment_kind", "assessment_id", "role"])
    .execute();

  await db.schema
    .createTable("retention_rules")
    .addColumn("record_type", "text", (c) => c.notNull())
    .addColumn("licence_class", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("keep_months", "integer")
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("updated_by", "text", (c) => c.references("users.id"))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("retention_rules_pk", ["record_type", "licence_class"])
    .execute();
  const now = "2026-11-28T06:00:00.000Z";
  await db
    .insertInto("retention_rules")
    .values([
      { record_type: "assessment_evidence", licence_class: "", keep_months: 6, source: "ASQA FAQs: completed assessment items at least 6 months after the judgement (Compliance Standards s10)", updated_at: now },
      { record_type: "certification_record", licence_class: "", keep_months: 360, source: "ASQA FAQs: AQF certification records 30 years (Compliance Standards s10)", updated_at: now },
      { record_type: "audit_trail", licence_class: "", keep_months: null, source: "The portal keeps its audit trail for ever", updated_at: now },
    ])
    .execute();

  await db.schema
    .createTable("destroyed_records")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("record_type", "text", (c) => c.notNull())
    .addColumn("record_id", "text", (c) => c.notNull())
    .addColumn("subject_user_id", "text", (c) => c.references("users.id"))
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("hashes", "text", (c) => c.notNull())
    .addColumn("destroyed_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("destroyed_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("destroyed_records_at").on("destroyed_records").columns(["destroyed_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["destroyed_records", "retention_rules", "assessment_signatures", "checklist_marks", "checklist_items", "observation_checklists", "evidence_files"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
