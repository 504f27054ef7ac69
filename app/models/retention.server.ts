import crypto from "node:crypto";
import { keepingPeriod } from "~/utils/format";
import type { Expression, ExpressionBuilder, Selectable } from "kysely";
import { writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import { dialectSql } from "#db/dialect";
import type { Database } from "#db/schema";
import type { DestroyedRecordsTable, RetentionRulesTable } from "#db/schema-evidence";
import type { FileStore } from "~/files/store.server";
import { EVIDENCE_MEDIA_TYPES, isEvidenceMediaType } from "~/files/types";
import { RECORD_TYPES, type RecordType } from "~/schemas/evidence-text";
import { invalid } from "~/utils/errors";
import { recordAudit, signedInActor, type SignedInActorRef } from "./audit.server";
import { removeUnreferenced } from "./stored-files.server";
import type { AssessmentRef } from "~/schemas/evidence";

/**
 * How long records are kept, and their destruction. Each record type has a keep-until rule,
 * edited by admins (the defaults and their sources are in the migration that made the table).
 * Only assessment evidence is ever destroyed, and only when an admin approves it: certification
 * records and the audit trail are never offered, whatever their rule says. A destroyed file
 * leaves a tombstone (what, whose, its hashes, by whom, when) and an audit entry.
 */

export const RETENTION_MESSAGES = {
  notEditable: "The audit trail is kept for ever; its rule cannot change.",
  tooShort: (months: number) => `Keep these records at least ${keepingPeriod(months)}.`,
  nothingChosen: "Choose at least one item to destroy.",
  notDue: "Some chosen items are not past their keep-until date (or were destroyed already); nothing was destroyed.",
  unconfirmed: "Tick the box to confirm the destruction.",
} as const;

/** The least an admin may set, from the same sources as the defaults. */
const MINIMUM_MONTHS: Record<RecordType, number> = { assessment_evidence: 6, certification_record: 360, audit_trail: 0 };

/** A rule's columns; the table keeps any text as record_type, the model reads it as one of RECORD_TYPES. */
export type RetentionRule = Pick<Selectable<RetentionRulesTable>, "licence_class" | "keep_months" | "source" | "updated_at"> & { record_type: RecordType };

export async function listRetentionRules(db: DB): Promise<RetentionRule[]> {
  const rows = await db
    .selectFrom("retention_rules")
    .select(["record_type", "licence_class", "keep_months", "source", "updated_at"])
    .orderBy("record_type")
    .orderBy("licence_class")
    .execute();
  return rows.map((r) => ({ ...r, record_type: r.record_type as RecordType, keep_months: r.keep_months === null ? null : Number(r.keep_months) }));
}

/** Sets (or adds, for a licence class) a rule. Evidence and certification rules only, never shorter than the minimum. */
export async function setRetentionRule(
  db: DB,
  input: { record_type: RecordType; licence_class: string; keep_months: number; source: string },
  actorRef: SignedInActorRef,
): Promise<void> {
  const actor = signedInActor(actorRef);
  if (!RECORD_TYPES[input.record_type].editable) throw invalid(RETENTION_MESSAGES.notEditable, { keep_months: RETENTION_MESSAGES.notEditable });
  const least = MINIMUM_MONTHS[input.record_type];
  if (input.keep_months < least) throw invalid(RETENTION_MESSAGES.tooShort(least), { keep_months: RETENTION_MESSAGES.tooShort(least) });
  const now = new Date().toISOString();
  await writeTransaction(db, async (trx) => {
    await trx
      .insertInto("retention_rules")
      .values({
        record_type: input.record_type,
        licence_class: input.licence_class,
        keep_months: input.keep_months,
        source: input.source,
        updated_by: actor.id,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(["record_type", "licence_class"])
          .doUpdateSet({ keep_months: input.keep_months, source: input.source, updated_by: actor.id, updated_at: now }),
      )
      .execute();
    // every file's day moves with the rule now, in this transaction
    await stampKeepUntil(trx, "all");
    await recordAudit(trx, {
      action: "retention.rule_changed",
      actor,
      subject: { type: "retention_rule", id: `${input.record_type}:${input.licence_class}` },
      detail: `${input.keep_months} months`,
      now,
    });
  });
}

/** Which evidence files to stamp: one assessment's, one course's, or every file. */
export type KeepUntilScope = { assessment: AssessmentRef } | { courseId: string } | "all";

/**
 * Stamps evidence files with the first day they may be destroyed: the day of their
 * assessment's judgement (a unit's pass or fail; a licence assessment's latest part result) plus
 * the months of its licence class's rule, else the general one; null while there is no
 * judgement. One statement, whatever the number of files, run in the transaction of every
 * change it depends on: evidence uploaded, a result recorded or changed on appeal, a rule
 * changed, a course's licence class edited. Only files whose day moves are written. Returns
 * how many moved.
 */
export async function stampKeepUntil(trx: WriteTransaction, scope: KeepUntilScope): Promise<number> {
  const { addMonths } = dialectSql(trx);
  const evidence = "assessment_evidence" satisfies RecordType;
  const rule = (eb: ExpressionBuilder<Database, "evidence_files">, licenceClass: Expression<string | null>) =>
    eb.fn.coalesce(
      eb.selectFrom("retention_rules").select("keep_months").where("record_type", "=", evidence).where("licence_class", "=", licenceClass),
      eb.selectFrom("retention_rules").select("keep_months").where("record_type", "=", evidence).where("licence_class", "=", ""),
    );
  const keepUntil = (eb: ExpressionBuilder<Database, "evidence_files">) =>
    eb
      .case("evidence_files.assessment_kind")
      .when("unit")
      .then(
        eb
          .selectFrom("assessments as a")
          .innerJoin("courses as c", "c.id", "a.course_id")
          // a judgement is a pass or a fail; work in progress or awaiting resubmission has none yet
          .select((s) => addMonths(s.fn("substr", ["a.assessment_date", s.lit(1), s.lit(10)]), rule(eb, s.ref("c.licence_class"))).as("day"))
          .whereRef("a.id", "=", "evidence_files.assessment_id")
          .where("a.status", "in", ["passed", "failed"]),
      )
      // a recognition application's evidence runs from its decision, like an assessment's
      .when("recognition")
      .then(
        eb
          .selectFrom("recognition_applications as r")
          .innerJoin("courses as c", "c.id", "r.course_id")
          .select((s) => addMonths(s.ref("r.decided_on"), rule(eb, s.ref("c.licence_class"))).as("day"))
          .whereRef("r.id", "=", "evidence_files.assessment_id"),
      )
      .else(
        eb
          .selectFrom("hrw_assessments as h")
          .innerJoin("courses as c", "c.id", "h.course_id")
          .select((s) =>
            addMonths(
              s
                .selectFrom("hrw_assessment_parts as p")
                .select((p) => p.fn.max("p.assessed_on").as("on"))
                .whereRef("p.assessment_id", "=", "h.id")
                .$asScalar(),
              rule(eb, s.fn.coalesce("c.licence_class", "h.licence_class")),
            ).as("day"),
          )
          .whereRef("h.id", "=", "evidence_files.assessment_id"),
      )
      .end();
  let query = trx
    .updateTable("evidence_files")
    .set((eb) => ({ keep_until: keepUntil(eb) }))
    .where((eb) => eb("evidence_files.keep_until", "is distinct from", keepUntil(eb)));
  if (scope !== "all" && "assessment" in scope) {
    query = query.where("evidence_files.assessment_kind", "=", scope.assessment.kind).where("evidence_files.assessment_id", "=", scope.assessment.id);
  } else if (scope !== "all") {
    query = query.where((eb) =>
      eb.or([
        eb.and([
          eb("evidence_files.assessment_kind", "=", "unit"),
          eb("evidence_files.assessment_id", "in", eb.selectFrom("assessments").select("id").where("course_id", "=", scope.courseId)),
        ]),
        eb.and([
          eb("evidence_files.assessment_kind", "=", "hrw"),
          eb("evidence_files.assessment_id", "in", eb.selectFrom("hrw_assessments").select("id").where("course_id", "=", scope.courseId)),
        ]),
      ]),
    );
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface DueItem {
  id: string;
  record_type: "assessment_evidence";
  /** what it is, whose, for the confirmation and the tombstone */
  description: string;
  student: { id: string; full_name: string };
  keep_until: string;
  hashes: string[];
}

/** What is past its keep-until day: evidence files only (nothing else is ever offered). */
export async function listDueForDestruction(db: DB, today: string, ids?: string[]): Promise<DueItem[]> {
  let query = db
    .selectFrom("evidence_files")
    .innerJoin("users as student", "student.id", "evidence_files.student_id")
    .select([
      "evidence_files.id",
      "evidence_files.original_name",
      "evidence_files.media_type",
      "evidence_files.sha256",
      "evidence_files.thumbnail_sha256",
      "evidence_files.keep_until",
      "evidence_files.assessment_kind",
      "evidence_files.assessment_id",
      "student.id as student_id",
      "student.full_name as student_name",
    ])
    .where("evidence_files.keep_until", "is not", null)
    .where("evidence_files.keep_until", "<=", today)
    .orderBy("evidence_files.keep_until")
    .orderBy("evidence_files.id")
    .limit(500);
  if (ids) query = query.where("evidence_files.id", "in", ids.length ? ids : [""]);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    record_type: "assessment_evidence",
    description: `${r.original_name} (${isEvidenceMediaType(r.media_type) ? EVIDENCE_MEDIA_TYPES[r.media_type].label : r.media_type}), evidence of ${r.student_name}'s ${r.assessment_kind === "hrw" ? "licence" : "unit"} assessment`,
    student: { id: r.student_id, full_name: r.student_name },
    keep_until: r.keep_until!,
    hashes: [r.sha256, ...(r.thumbnail_sha256 ? [r.thumbnail_sha256] : [])],
  }));
}

/** A destroyed record's row, its JSON list of hashes read, and who destroyed it named. */
export type Tombstone = Omit<Selectable<DestroyedRecordsTable>, "hashes" | "destroyed_by"> & {
  hashes: string[];
  destroyed_by: { id: string; full_name: string };
};

export async function listTombstones(db: DB, limit = 200): Promise<Tombstone[]> {
  const rows = await db
    .selectFrom("destroyed_records")
    .innerJoin("users as by", "by.id", "destroyed_records.destroyed_by")
    .select([
      "destroyed_records.id",
      "record_type",
      "record_id",
      "subject_user_id",
      "description",
      "hashes",
      "destroyed_at",
      "by.id as by_id",
      "by.full_name as by_name",
    ])
    .orderBy("destroyed_at", "desc")
    .limit(limit)
    .execute();
  return rows.map(({ by_id, by_name, hashes, ...r }) => ({ ...r, hashes: JSON.parse(hashes) as string[], destroyed_by: { id: by_id, full_name: by_name } }));
}

/**
 * Destroys the chosen evidence files, approved by an admin: each must still be past its day
 * (checked in the transaction that deletes it, so two admins cannot destroy one twice). Each
 * leaves a tombstone; one audit entry names how many. The bytes are removed from the store
 * afterwards, unless a row of any kind still names them (a file is stored once for all its uploads).
 */
export async function destroyRecords(db: DB, store: FileStore, input: { ids: string[]; today: string }, actorRef: SignedInActorRef): Promise<Tombstone[]> {
  const actor = signedInActor(actorRef);
  if (input.ids.length === 0) throw invalid(RETENTION_MESSAGES.nothingChosen, { ids: RETENTION_MESSAGES.nothingChosen });
  const ids = [...new Set(input.ids)];
  const now = new Date().toISOString();
  const removed = await writeTransaction(db, async (trx) => {
    const due = await listDueForDestruction(trx, input.today, ids);
    if (due.length !== ids.length) throw invalid(RETENTION_MESSAGES.notDue, { ids: RETENTION_MESSAGES.notDue });
    await trx
      .insertInto("destroyed_records")
      .values(
        due.map((d) => ({
          id: crypto.randomUUID(),
          record_type: "evidence_file",
          record_id: d.id,
          subject_user_id: d.student.id,
          description: d.description,
          hashes: JSON.stringify(d.hashes),
          destroyed_by: actor.id,
          destroyed_at: now,
        })),
      )
      .execute();
    await trx.deleteFrom("evidence_files").where("id", "in", ids).execute();
    await recordAudit(trx, {
      action: "records.destroyed",
      actor,
      subject: { type: "evidence_file", id: ids.length === 1 ? ids[0]! : null, userId: due.length === 1 ? due[0]!.student.id : null },
      detail: `${due.length} evidence file${due.length === 1 ? "" : "s"}`,
      now,
    });
    return due;
  });
  // the same bytes may be another upload's (a learner's White Card kept as evidence too): they stay
  await removeUnreferenced(
    db,
    store,
    removed.flatMap((d) => d.hashes),
  );
  return (await listTombstones(db, 1000)).filter((t) => removed.some((d) => d.id === t.record_id));
}
