import crypto from "node:crypto";
import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Every recognition decision, kept: an upheld appeal reopens the application for a new decision
 * (docs/decisions/037-recognition.md), and the decision it overturned must stay on record.
 *
 * - recognition_decisions: one row per decision on an application (granted | not_granted |
 *   refused, the national outcome if any, the reasons, who decided, the assessor at the time,
 *   the organisation's day and the instant). `overturned_at` and `overturned_by_appeal` say the
 *   decision was set aside by an upheld appeal (complaints.id).
 * - recognition_applications keeps the current decision in its own columns (what the AVETMISS
 *   export, the certificates and the register read); reopening clears them back to `applied`
 *   once the decision is here.
 * - Applications already decided are copied in, so the history starts complete.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("recognition_decisions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("application_id", "text", (c) => c.notNull().references("recognition_applications.id"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("outcome_code", "text")
    .addColumn("reasons", "text", (c) => c.notNull())
    .addColumn("assessor_id", "text", (c) => c.references("users.id"))
    .addColumn("decided_by", "text", (c) => c.references("users.id"))
    .addColumn("decided_on", "text", (c) => c.notNull())
    .addColumn("decided_at", "text", (c) => c.notNull())
    .addColumn("overturned_at", "text")
    .addColumn("overturned_by_appeal", "text", (c) => c.references("complaints.id"))
    .execute();
  await db.schema.createIndex("recognition_decisions_application").on("recognition_decisions").columns(["application_id", "decided_at"]).execute();
  const decided = await db
    .selectFrom("recognition_applications")
    .select(["id", "status", "outcome_code", "reasons", "assessor_id", "decided_by", "decided_on", "decided_at"])
    .where("status", "<>", "applied")
    .where("decided_on", "is not", null)
    .where("decided_at", "is not", null)
    .execute();
  for (const r of decided) {
    await db
      .insertInto("recognition_decisions")
      .values({ id: crypto.randomUUID(), application_id: r.id, status: r.status, outcome_code: r.outcome_code, reasons: r.reasons ?? "", assessor_id: r.assessor_id, decided_by: r.decided_by, decided_on: r.decided_on, decided_at: r.decided_at })
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("recognition_decisions").execute();
}
