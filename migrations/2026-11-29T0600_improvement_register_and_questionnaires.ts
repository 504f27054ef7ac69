import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The improvement register and the learner and employer questionnaires.
 *
 * - improvement_actions: one action of the register. source_type names where it came from
 *   (complaint, appeal, validation, questionnaire, audit, other) and source_id the record there,
 *   as given (the other registers may live elsewhere); source_label is the source's short
 *   description as it was when the action was raised. due_date is a day (YYYY-MM-DD) on the
 *   organisation's calendar; status open, in_progress or closed; a closed action carries what
 *   was done and its evidence (closed_at, closed_by).
 * - questionnaire_questions: the questions admins set per audience (learner, employer), kind
 *   rating (1 to 5) or text, in position order; a retired question is asked no more and stays
 *   in the reports.
 * - questionnaire_settings: per audience, the average under which a question is flagged as a
 *   low score, in tenths (30 = 3.0), so both dialects keep it as an integer.
 * - questionnaire_invitations: one per cause (cause_key unique: an enrolment's completion, an
 *   employer's booking); the link's token is kept only as its SHA-256. `used` is the only trace
 *   of an answer: no time and no link to the response, so answers stay anonymous.
 * - questionnaire_responses and questionnaire_answers: an answered questionnaire, with its
 *   audience and the organisation's day it came in, and nothing about who gave it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("improvement_actions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("source_type", "text", (c) => c.notNull())
    .addColumn("source_id", "text")
    .addColumn("source_label", "text")
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("owner_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("due_date", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("action_taken", "text")
    .addColumn("closure_evidence", "text")
    .addColumn("closed_at", "text")
    .addColumn("closed_by", "text", (c) => c.references("users.id"))
    .addColumn("created_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // the register's order (open first, by due day) and the dashboard's overdue count
  await db.schema.createIndex("improvement_actions_status_due").on("improvement_actions").columns(["status", "due_date"]).execute();
  await db.schema.createIndex("improvement_actions_source").on("improvement_actions").columns(["source_type", "source_id"]).execute();

  await db.schema
    .createTable("questionnaire_questions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("audience", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("prompt", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("retired_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("questionnaire_questions_audience").on("questionnaire_questions").columns(["audience", "position"]).execute();

  await db.schema
    .createTable("questionnaire_settings")
    .addColumn("audience", "text", (c) => c.primaryKey())
    .addColumn("low_average_tenths", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("questionnaire_invitations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("audience", "text", (c) => c.notNull())
    .addColumn("cause_key", "text", (c) => c.notNull().unique())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("recipient_id", "text", (c) => c.references("users.id"))
    .addColumn("used", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("questionnaire_responses")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("audience", "text", (c) => c.notNull())
    .addColumn("submitted_on", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("questionnaire_responses_day").on("questionnaire_responses").columns(["audience", "submitted_on"]).execute();

  await db.schema
    .createTable("questionnaire_answers")
    .addColumn("response_id", "text", (c) => c.notNull().references("questionnaire_responses.id"))
    .addColumn("question_id", "text", (c) => c.notNull().references("questionnaire_questions.id"))
    .addColumn("rating", "integer")
    .addColumn("text", "text")
    .addPrimaryKeyConstraint("questionnaire_answers_pk", ["response_id", "question_id"])
    .execute();
  await db.schema.createIndex("questionnaire_answers_question").on("questionnaire_answers").columns(["question_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["questionnaire_answers", "questionnaire_responses", "questionnaire_invitations", "questionnaire_settings", "questionnaire_questions", "improvement_actions"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
