import { type Kysely, sql } from "kysely";
import { dialectSql } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

export async function up(db: Kysely<any>): Promise<void> {
  const { types, autoIncrementKey } = dialectSql(db);
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("full_name", "text", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('student','trainer','admin')`))
    .addColumn("phone", "text")
    .addColumn("address", "text")
    .addColumn("date_of_birth", "text")
    .addColumn("emergency_contact", "text")
    .addColumn("license_number", "text")
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("approval_status", "text", (c) =>
      c.notNull().defaultTo("approved").check(sql`approval_status in ('approved','pending','rejected')`),
    )
    .addColumn("created_at", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("last_login", "text")
    .execute();
  await db.schema.createIndex("users_role_created_idx").on("users").columns(["role", "created_at"]).execute();
  await db.schema
    .createIndex("users_role_active_created_idx")
    .on("users")
    .columns(["role", "is_active", "created_at"])
    .execute();
  await db.schema.createIndex("users_approval_idx").on("users").columns(["approval_status", "created_at"]).execute();

  await db.schema
    .createTable("courses")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("unit_code", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("tier", "text", (c) => c.notNull().check(sql`tier in ('tier_1','tier_2','tier_3')`))
    .addColumn("duration_hours", types.float, (c) => c.notNull().check(sql`duration_hours >= 0`))
    .addColumn("price_cents", "integer", (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("prerequisites", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("learning_outcomes", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("assessment_criteria", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("courses_active_tier_idx").on("courses").columns(["is_active", "tier", "name"]).execute();

  await db.schema
    .createTable("enrollments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("student_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("course_id", "text", (c) => c.notNull().references("courses.id").onDelete("restrict"))
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('enrolled','in_progress','completed','withdrawn')`),
    )
    .addColumn("progress_percentage", "integer", (c) =>
      c.notNull().defaultTo(0).check(sql`progress_percentage between 0 and 100`),
    )
    .addColumn("enrollment_date", "text", (c) => c.notNull())
    .addColumn("completion_date", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("enrollments_student_course_unique", ["student_id", "course_id"])
    .execute();
  await db.schema
    .createIndex("enrollments_student_date_idx")
    .on("enrollments")
    .columns(["student_id", "enrollment_date"])
    .execute();
  await db.schema
    .createIndex("enrollments_course_date_idx")
    .on("enrollments")
    .columns(["course_id", "enrollment_date"])
    .execute();
  await db.schema.createIndex("enrollments_status_idx").on("enrollments").columns(["status", "completion_date"]).execute();

  await db.schema
    .createTable("certificates")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("certificate_number", "text", (c) => c.notNull().unique())
    .addColumn("student_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("course_id", "text", (c) => c.notNull().references("courses.id").onDelete("restrict"))
    .addColumn("enrollment_id", "text", (c) => c.notNull().unique().references("enrollments.id").onDelete("cascade"))
    .addColumn("tier_achieved", "text", (c) => c.notNull().check(sql`tier_achieved in ('tier_1','tier_2','tier_3')`))
    .addColumn("issue_date", "text", (c) => c.notNull())
    .addColumn("issued_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("certificates_student_issue_idx")
    .on("certificates")
    .columns(["student_id", "issue_date"])
    .execute();
  await db.schema.createIndex("certificates_issue_idx").on("certificates").column("issue_date").execute();

  await db.schema
    .createTable("certificate_documents")
    .addColumn("certificate_id", "text", (c) => c.primaryKey().references("certificates.id").onDelete("cascade"))
    .addColumn("template_version", "text", (c) => c.notNull())
    .addColumn("pdf", types.bytes, (c) => c.notNull())
    .addColumn("byte_length", "integer", (c) => c.notNull())
    .addColumn("rendered_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("certificate_sequence")
    .addColumn("year", "integer", (c) => c.primaryKey())
    .addColumn("last_value", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("files")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("student_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("file_type", "text", (c) => c.notNull())
    .addColumn("upload_date", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .execute();
  await db.schema.createIndex("files_student_idx").on("files").columns(["student_id", "upload_date"]).execute();

  await db.schema
    .createTable("assessments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("enrollment_id", "text", (c) => c.notNull().references("enrollments.id").onDelete("cascade"))
    .addColumn("student_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("course_id", "text", (c) => c.notNull().references("courses.id").onDelete("restrict"))
    .addColumn("assessment_type", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('passed','failed','in_progress','resubmission')`),
    )
    .addColumn("score", "integer")
    .addColumn("max_score", "integer")
    .addColumn("assessment_date", "text", (c) => c.notNull())
    .addColumn("feedback", "text")
    .addColumn("assessed_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("assessments_student_date_idx")
    .on("assessments")
    .columns(["student_id", "assessment_date"])
    .execute();
  await db.schema
    .createIndex("assessments_enrollment_date_idx")
    .on("assessments")
    .columns(["enrollment_id", "assessment_date"])
    .execute();
  await db.schema.createIndex("assessments_status_idx").on("assessments").columns(["status", "assessment_date"]).execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("api_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema.createIndex("api_tokens_user_idx").on("api_tokens").column("user_id").execute();

  await db.schema
    .createTable("sign_in_attempts")
    .addColumn("id", "integer", autoIncrementKey)
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("client", "text", (c) => c.notNull())
    .addColumn("succeeded", "integer", (c) => c.notNull())
    .addColumn("attempted_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("sign_in_attempts_email_idx")
    .on("sign_in_attempts")
    .columns(["email", "attempted_at"])
    .execute();
  await db.schema
    .createIndex("sign_in_attempts_client_idx")
    .on("sign_in_attempts")
    .columns(["client", "attempted_at"])
    .execute();

  await db.schema
    .createTable("password_reset_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema
    .createIndex("password_reset_tokens_user_idx")
    .on("password_reset_tokens")
    .column("user_id")
    .execute();

  await db.schema
    .createTable("events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("actor_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("subject_user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("entity_type", "text", (c) => c.notNull())
    .addColumn("entity_id", "text")
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("events_subject_idx").on("events").columns(["subject_user_id", "created_at"]).execute();
  await db.schema.createIndex("events_entity_idx").on("events").columns(["entity_type", "entity_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "events",
    "password_reset_tokens",
    "sign_in_attempts",
    "api_tokens",
    "sessions",
    "assessments",
    "files",
    "certificate_sequence",
    "certificate_documents",
    "certificates",
    "enrollments",
    "courses",
    "users",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
