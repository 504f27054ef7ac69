import { sql, type Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Each NAI part result keeps the accreditation it was recorded under
 * (hrw_assessment_parts.accreditation_id). The assessment kept only one, overwritten by the
 * latest part, so parts recorded under two accreditation periods lost the earlier one, which
 * could then be removed from the register. Parts recorded before this keep the assessment's one
 * (the best the data still knows) when their recorder was its assessor; a result changed on
 * appeal was recorded under no accreditation and stays empty.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("hrw_assessment_parts")
    .addColumn("accreditation_id", "text", (c) => c.references("hrw_accreditations.id"))
    .execute();
  await sql`update hrw_assessment_parts set accreditation_id = (
    select a.accreditation_id from hrw_assessments a
    where a.id = hrw_assessment_parts.assessment_id and a.assessor_id = hrw_assessment_parts.recorded_by
  )`.execute(db);
  await db.schema.createIndex("hrw_assessment_parts_accreditation").on("hrw_assessment_parts").column("accreditation_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("hrw_assessment_parts_accreditation").execute();
  await db.schema.alterTable("hrw_assessment_parts").dropColumn("accreditation_id").execute();
}
