import crypto from "node:crypto";
import { sql, type Selectable, type SqlBool } from "kysely";
import { likePattern } from "#db/dialect";
import { writeTransaction, type DB } from "#db/connection";
import type { Role } from "#db/schema";
import type { TrainerCredentialsTable, TrainerUnitsTable } from "#db/schema-standards";
import { storeOneUpload, type FormUpload, type StoredFile } from "~/files/intake.server";
import type { TrainerActivityInput, TrainerUnitInput, TrainingCredentialInput } from "~/schemas/standards";
import {
  ACTIVITY_KINDS,
  CREDENTIAL_WARNING_DAYS,
  credentialLabel,
  CURRENCY_WINDOW_MONTHS,
  STANDARDS_MESSAGES,
  UNDER_DIRECTION,
  type ActivityKind,
  type CredentialChoice,
  type MatrixState,
  type UnitBasis,
} from "~/schemas/standards-text";
import { conflict, DomainError, invalid, notFound } from "~/utils/errors";
import { addDays, addMonths, organisationToday } from "~/utils/organisation-calendar";
import { recordAudit, recordAuditAlone, signedInActor, type SignedInActorRef } from "../audit.server";
import { keepStoredFiles } from "../stored-files.server";

/**
 * Trainer credentials and currency: who may train and assess which unit on which day. The one
 * rule, `credentialProblem`, is asked by every place that puts a trainer in front of a unit:
 * assigning a class (class.server.ts), recording a unit's result (assessment.server.ts) or a
 * high-risk work part (hrw-assessment.server.ts), and choosing validators (validation.server.ts).
 *
 * A trainer is credentialed for a unit on a day when, on that day, they
 * - hold a training and assessment credential outright, or work under the direction of a
 *   trainer who holds one outright on that day (direction does not chain), and
 * - hold the unit, or an equivalent competency, not expired.
 */

type CredentialRow = Pick<Selectable<TrainerCredentialsTable>, "id" | "trainer_id" | "credential" | "supervisor_id" | "issued_on" | "expires_on">;

const inForce = (row: { issued_on?: string; expires_on: string | null }, date: string) =>
  (!row.issued_on || row.issued_on <= date) && (!row.expires_on || row.expires_on >= date);
const heldOutright = (rows: CredentialRow[], date: string) => rows.find((c) => c.credential !== UNDER_DIRECTION && inForce(c, date)) ?? null;

/** Every credential of the trainers named and of their supervisors, by trainer. */
async function credentialsOf(db: DB, trainerIds: string[]): Promise<Map<string, CredentialRow[]>> {
  const byTrainer = new Map<string, CredentialRow[]>();
  if (!trainerIds.length) return byTrainer;
  const rows = await db
    .selectFrom("trainer_credentials")
    .select(["id", "trainer_id", "credential", "supervisor_id", "issued_on", "expires_on"])
    .where((eb) =>
      eb.or([
        eb("trainer_id", "in", trainerIds),
        eb(
          "trainer_id",
          "in",
          eb.selectFrom("trainer_credentials as d").select("d.supervisor_id").where("d.trainer_id", "in", trainerIds).where("d.supervisor_id", "is not", null),
        ),
      ]),
    )
    .orderBy("issued_on")
    .execute();
  for (const r of rows) byTrainer.set(r.trainer_id, [...(byTrainer.get(r.trainer_id) ?? []), r]);
  return byTrainer;
}

/**
 * Why the trainer may not deliver or assess a unit on a day, in words naming them, or null when
 * they may. The standing of the training credential comes first: it applies to every unit.
 */
function standingProblem(
  trainer: { id: string; full_name: string },
  credentials: Map<string, CredentialRow[]>,
  names: Map<string, string>,
  date: string,
): string | null {
  const own = credentials.get(trainer.id) ?? [];
  if (heldOutright(own, date)) return null;
  const directed = own.filter((c) => c.credential === UNDER_DIRECTION && c.supervisor_id && inForce(c, date));
  for (const d of directed) if (heldOutright(credentials.get(d.supervisor_id!) ?? [], date)) return null;
  if (directed.length)
    return STANDARDS_MESSAGES.supervisorNotCredentialed(trainer.full_name, names.get(directed[0]!.supervisor_id!) ?? "their supervisor", date);
  return STANDARDS_MESSAGES.noCredential(trainer.full_name, date);
}

/** Why `trainerId` may not deliver or assess `unitCode` on each of `dates` (the first problem), or null. */
export async function credentialProblem(db: DB, trainerId: string, unitCode: string, dates: string[]): Promise<string | null> {
  const trainer = await db.selectFrom("users").select(["id", "full_name"]).where("id", "=", trainerId).executeTakeFirst();
  if (!trainer) return STANDARDS_MESSAGES.notATrainer;
  const credentials = await credentialsOf(db, [trainerId]);
  const names = await namesOf(
    db,
    [...credentials.values()]
      .flat()
      .map((c) => c.supervisor_id)
      .filter((id): id is string => Boolean(id)),
  );
  const unit = await db
    .selectFrom("trainer_units")
    .select(["expires_on"])
    .where("trainer_id", "=", trainerId)
    .where("unit_code", "=", unitCode)
    .executeTakeFirst();
  for (const date of dates) {
    const problem = standingProblem(trainer, credentials, names, date);
    if (problem) return problem;
    if (!unit || !inForce(unit, date)) return STANDARDS_MESSAGES.noUnit(trainer.full_name, unitCode, date);
  }
  return null;
}

/** Refuses (409, beside `field`) a trainer not credentialed for the unit on every one of the days. */
export async function assertCredentialed(db: DB, trainerId: string, unitCode: string, dates: string[], field: string): Promise<void> {
  const problem = await credentialProblem(db, trainerId, unitCode, dates);
  if (problem) throw new DomainError(409, problem, { [field]: problem }, field);
}

async function namesOf(db: DB, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom("users")
    .select(["id", "full_name"])
    .where("id", "in", [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.full_name]));
}

async function requireStaff(db: DB, trainerId: string) {
  const trainer = await db
    .selectFrom("users")
    .select(["id", "full_name", "email", "role", "is_active"])
    .where("id", "=", trainerId)
    .where("role", "in", ["trainer", "admin"])
    .executeTakeFirst();
  if (!trainer) throw notFound("Trainer");
  return trainer;
}

export interface TrainingCredential {
  id: string;
  credential: CredentialChoice;
  label: string;
  supervisor: { id: string; full_name: string } | null;
  issued_on: string;
  expires_on: string | null;
  note: string | null;
  recorded_at: string;
}

export type TrainerUnit = Omit<Selectable<TrainerUnitsTable>, "trainer_id" | "recorded_by" | "basis"> & { basis: UnitBasis };

export interface TrainerActivity {
  id: string;
  kind: ActivityKind;
  kind_label: string;
  activity_date: string;
  hours: number;
  description: string;
  evidence: string | null;
  /** the evidence file's name, when one was uploaded (downloaded by the activity's id) */
  evidence_file: string | null;
  recorded_at: string;
  confirmed: { by: string; at: string } | null;
}

export interface TrainerProfile {
  trainer: { id: string; full_name: string; email: string };
  credentials: TrainingCredential[];
  units: TrainerUnit[];
  activities: TrainerActivity[];
  /** confirmed hours of each kind in the last 12 months */
  currency: { months: number; industry_hours: number; development_hours: number; unconfirmed: number };
  /** why the trainer may teach no unit today, or null */
  standing: string | null;
}

const hoursOf = (minutes: number) => Math.round((minutes / 60) * 100) / 100;

/** One trainer's credentials, units, activities and standing today. */
export async function getTrainerProfile(db: DB, trainerId: string, today = organisationToday()): Promise<TrainerProfile> {
  const trainer = await requireStaff(db, trainerId);
  const [credentialRows, units, activities, credentials] = await Promise.all([
    db
      .selectFrom("trainer_credentials as c")
      .leftJoin("users as s", "s.id", "c.supervisor_id")
      .select(["c.id", "c.credential", "c.supervisor_id", "s.full_name as supervisor_name", "c.issued_on", "c.expires_on", "c.note", "c.recorded_at"])
      .where("c.trainer_id", "=", trainerId)
      .orderBy("c.issued_on", "desc")
      .orderBy("c.id")
      .execute(),
    db
      .selectFrom("trainer_units")
      .select(["id", "unit_code", "basis", "evidence", "expires_on", "recorded_at"])
      .where("trainer_id", "=", trainerId)
      .orderBy("unit_code")
      .execute(),
    db
      .selectFrom("trainer_activities as a")
      .leftJoin("users as c", "c.id", "a.confirmed_by")
      .select([
        "a.id",
        "a.kind",
        "a.activity_date",
        "a.minutes",
        "a.description",
        "a.evidence",
        "a.evidence_file_name",
        "a.recorded_at",
        "a.confirmed_at",
        "c.full_name as confirmed_by_name",
      ])
      .where("a.trainer_id", "=", trainerId)
      .orderBy("a.activity_date", "desc")
      .orderBy("a.id")
      .execute(),
    credentialsOf(db, [trainerId]),
  ]);
  const names = await namesOf(
    db,
    credentialRows.map((c) => c.supervisor_id).filter((id): id is string => Boolean(id)),
  );
  const since = addMonths(today, -CURRENCY_WINDOW_MONTHS);
  const recent = activities.filter((a) => a.activity_date >= since && a.activity_date <= today);
  const confirmedMinutes = (kind: ActivityKind) => recent.filter((a) => a.kind === kind && a.confirmed_at).reduce((n, a) => n + a.minutes, 0);
  return {
    trainer: { id: trainer.id, full_name: trainer.full_name, email: trainer.email },
    credentials: credentialRows.map((c) => ({
      id: c.id,
      credential: c.credential as CredentialChoice,
      label: credentialLabel(c.credential, c.supervisor_name),
      supervisor: c.supervisor_id && c.supervisor_name ? { id: c.supervisor_id, full_name: c.supervisor_name } : null,
      issued_on: c.issued_on,
      expires_on: c.expires_on,
      note: c.note,
      recorded_at: c.recorded_at,
    })),
    units: units.map((u) => ({ ...u, basis: u.basis as UnitBasis })),
    activities: activities.map((a) => ({
      id: a.id,
      kind: a.kind as ActivityKind,
      kind_label: ACTIVITY_KINDS[a.kind as ActivityKind] ?? a.kind,
      activity_date: a.activity_date,
      hours: hoursOf(a.minutes),
      description: a.description,
      evidence: a.evidence,
      evidence_file: a.evidence_file_name,
      recorded_at: a.recorded_at,
      confirmed: a.confirmed_at ? { by: a.confirmed_by_name ?? "", at: a.confirmed_at } : null,
    })),
    currency: {
      months: CURRENCY_WINDOW_MONTHS,
      industry_hours: hoursOf(confirmedMinutes("industry")),
      development_hours: hoursOf(confirmedMinutes("development")),
      unconfirmed: activities.filter((a) => !a.confirmed_at).length,
    },
    standing: standingProblem(trainer, credentials, names, today),
  };
}

/** Records a training and assessment credential, or work under a named credentialed trainer's direction. */
export async function addTrainingCredential(
  db: DB,
  trainerId: string,
  input: TrainingCredentialInput,
  actorRef: SignedInActorRef,
  now = new Date(),
): Promise<{ id: string }> {
  const actor = signedInActor(actorRef);
  return writeTransaction(db, async (trx) => {
    const trainer = await requireStaff(trx, trainerId);
    if (input.credential === UNDER_DIRECTION) {
      if (input.supervisor_id === trainerId) throw invalid(STANDARDS_MESSAGES.supervisorSelf, { supervisor_id: STANDARDS_MESSAGES.supervisorSelf });
      const supervisor = await trx
        .selectFrom("users")
        .select("id")
        .where("id", "=", input.supervisor_id!)
        .where("role", "in", ["trainer", "admin"])
        .where("is_active", "=", 1)
        .executeTakeFirst();
      const holds = supervisor
        ? await trx
            .selectFrom("trainer_credentials")
            .select("id")
            .where("trainer_id", "=", supervisor.id)
            .where("credential", "!=", UNDER_DIRECTION)
            .executeTakeFirst()
        : null;
      if (!holds) throw invalid(STANDARDS_MESSAGES.supervisorNotHolder, { supervisor_id: STANDARDS_MESSAGES.supervisorNotHolder });
    }
    const id = crypto.randomUUID();
    const at = now.toISOString();
    await trx
      .insertInto("trainer_credentials")
      .values({
        id,
        trainer_id: trainer.id,
        credential: input.credential,
        supervisor_id: input.supervisor_id,
        issued_on: input.issued_on,
        expires_on: input.expires_on,
        note: input.note,
        recorded_by: actor.id,
        recorded_at: at,
      })
      .execute();
    await recordAudit(trx, {
      action: "credential.added",
      actor,
      subject: { type: "user", id: trainer.id },
      detail: `${input.credential} from ${input.issued_on}${input.expires_on ? ` to ${input.expires_on}` : ""}`,
      now: at,
    });
    return { id };
  });
}

export async function removeTrainingCredential(db: DB, trainerId: string, credentialId: string, actorRef: SignedInActorRef, now = new Date()): Promise<void> {
  const actor = signedInActor(actorRef);
  await writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("trainer_credentials")
      .select(["id", "credential", "issued_on"])
      .where("id", "=", credentialId)
      .where("trainer_id", "=", trainerId)
      .executeTakeFirst();
    if (!row) throw notFound("Credential");
    await trx.deleteFrom("trainer_credentials").where("id", "=", row.id).execute();
    await recordAudit(trx, {
      action: "credential.removed",
      actor,
      subject: { type: "user", id: trainerId },
      detail: `${row.credential} from ${row.issued_on}`,
      now,
    });
  });
}

/** Records (or replaces) the trainer's competency in one unit. */
export async function recordTrainerUnit(
  db: DB,
  trainerId: string,
  input: TrainerUnitInput,
  actorRef: SignedInActorRef,
  now = new Date(),
): Promise<{ id: string }> {
  const actor = signedInActor(actorRef);
  return writeTransaction(db, async (trx) => {
    const trainer = await requireStaff(trx, trainerId);
    const at = now.toISOString();
    const existing = await trx
      .selectFrom("trainer_units")
      .select("id")
      .where("trainer_id", "=", trainer.id)
      .where("unit_code", "=", input.unit_code)
      .executeTakeFirst();
    const values = { basis: input.basis, evidence: input.evidence, expires_on: input.expires_on, recorded_by: actor.id, recorded_at: at };
    const id = existing?.id ?? crypto.randomUUID();
    if (existing) await trx.updateTable("trainer_units").set(values).where("id", "=", existing.id).execute();
    else
      await trx
        .insertInto("trainer_units")
        .values({ id, trainer_id: trainer.id, unit_code: input.unit_code, ...values })
        .execute();
    await recordAudit(trx, {
      action: "credential.unit_recorded",
      actor,
      subject: { type: "user", id: trainer.id },
      detail: `${input.unit_code}: ${input.basis}${input.expires_on ? ` to ${input.expires_on}` : ""}`,
      now: at,
    });
    return { id };
  });
}

export async function removeTrainerUnit(db: DB, trainerId: string, unitId: string, actorRef: SignedInActorRef, now = new Date()): Promise<void> {
  const actor = signedInActor(actorRef);
  await writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("trainer_units")
      .select(["id", "unit_code"])
      .where("id", "=", unitId)
      .where("trainer_id", "=", trainerId)
      .executeTakeFirst();
    if (!row) throw notFound("Unit");
    await trx.deleteFrom("trainer_units").where("id", "=", row.id).execute();
    await recordAudit(trx, { action: "credential.unit_removed", actor, subject: { type: "user", id: trainerId }, detail: row.unit_code, now });
  });
}

/** An activity's evidence file as read from the upload (parts named `evidence_file`, at most one). */
export type ActivityUpload = FormUpload;

/** The upload's one file taken into the evidence store (typed from its bytes, a photo cleaned), or null without one. */
function storeActivityFile(upload: ActivityUpload | null): Promise<StoredFile | null> {
  return storeOneUpload(upload, "evidence_file", STANDARDS_MESSAGES.oneEvidenceFile);
}

/**
 * An industry currency or professional development activity, with its evidence file if one is
 * uploaded. A trainer records their own (it waits for an administrator's confirmation); an
 * administrator's entry is confirmed as made.
 */
export async function addActivity(
  db: DB,
  trainerId: string,
  input: TrainerActivityInput,
  actorRef: { id: string; client?: string | null; role: "trainer" | "admin" },
  now = new Date(),
  upload: ActivityUpload | null = null,
): Promise<{ id: string }> {
  const actor = { id: actorRef.id, client: actorRef.client };
  if (input.activity_date > organisationToday(now)) throw invalid(STANDARDS_MESSAGES.activityInFuture, { activity_date: STANDARDS_MESSAGES.activityInFuture });
  await requireStaff(db, trainerId);
  const file = await storeActivityFile(upload);
  return writeTransaction(db, async (trx) => {
    if (file && upload) await keepStoredFiles(trx, upload.store, [file]);
    const trainer = await requireStaff(trx, trainerId);
    const byAdmin = actorRef.role === "admin";
    const id = crypto.randomUUID();
    const at = now.toISOString();
    await trx
      .insertInto("trainer_activities")
      .values({
        id,
        trainer_id: trainer.id,
        kind: input.kind,
        activity_date: input.activity_date,
        minutes: Math.round(input.hours * 60),
        description: input.description,
        evidence: input.evidence,
        evidence_sha256: file?.sha256 ?? null,
        evidence_media_type: file?.mediaType ?? null,
        evidence_size_bytes: file?.size ?? null,
        evidence_file_name: file?.name ?? null,
        recorded_by: actor.id,
        recorded_at: at,
        confirmed_by: byAdmin ? actor.id : null,
        confirmed_at: byAdmin ? at : null,
      })
      .execute();
    await recordAudit(trx, {
      action: "credential.activity_added",
      actor,
      subject: { type: "user", id: trainer.id },
      detail: `${input.kind} ${input.activity_date} ${input.hours} h${file ? ", with a file" : ""}`,
      now: at,
    });
    return { id };
  });
}

/** The activity whose evidence the actor may attach (settled before an upload is read), else 404 or 409. */
export async function activityForEvidence(db: DB, activityId: string, actor: { id: string; role: Role }) {
  const row = await db.selectFrom("trainer_activities").select(["id", "trainer_id", "confirmed_at"]).where("id", "=", activityId).executeTakeFirst();
  if (!row || (actor.role !== "admin" && row.trainer_id !== actor.id)) throw notFound("Activity");
  if (row.confirmed_at && actor.role !== "admin") throw conflict(STANDARDS_MESSAGES.confirmedKeepsEvidence);
  return row;
}

/**
 * Attaches (or replaces) an activity's evidence file: its own trainer while it waits for
 * confirmation (a confirmed activity keeps what was confirmed), or an administrator at any time.
 */
export async function attachActivityEvidence(
  db: DB,
  activityId: string,
  actorRef: { id: string; client?: string | null; role: Role },
  upload: ActivityUpload,
  now = new Date(),
): Promise<{ trainer_id: string }> {
  const row = await activityForEvidence(db, activityId, actorRef);
  if (upload.files.length === 0) throw invalid(STANDARDS_MESSAGES.oneEvidenceFile, { evidence_file: STANDARDS_MESSAGES.oneEvidenceFile });
  const file = (await storeActivityFile(upload))!;
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    await keepStoredFiles(trx, upload.store, [file]);
    await trx
      .updateTable("trainer_activities")
      .set({ evidence_sha256: file.sha256, evidence_media_type: file.mediaType, evidence_size_bytes: file.size, evidence_file_name: file.name })
      .where("id", "=", row.id)
      .execute();
    await recordAudit(trx, {
      action: "credential.evidence_attached",
      actor: { id: actorRef.id, client: actorRef.client },
      subject: { type: "trainer_activity", id: row.id, userId: row.trainer_id },
      detail: file.sha256,
      now: at,
    });
  });
  return { trainer_id: row.trainer_id };
}

/** An activity's evidence file, for its own trainer or an administrator; null for anyone else, an unknown id or an activity without one. */
export async function activityEvidenceFor(db: DB, viewer: { id: string; role: Role }, activityId: string) {
  if (viewer.role !== "admin" && viewer.role !== "trainer") return null;
  const row = await db
    .selectFrom("trainer_activities")
    .select(["id", "trainer_id", "evidence_sha256", "evidence_media_type", "evidence_size_bytes", "evidence_file_name"])
    .where("id", "=", activityId)
    .executeTakeFirst();
  if (!row?.evidence_sha256 || (viewer.role !== "admin" && row.trainer_id !== viewer.id)) return null;
  return {
    id: row.id,
    trainer_id: row.trainer_id,
    sha256: row.evidence_sha256,
    media_type: row.evidence_media_type ?? "",
    size_bytes: row.evidence_size_bytes ?? 0,
    original_name: row.evidence_file_name ?? "evidence",
  };
}

/** Every download of an activity's evidence is by staff (its trainer or an administrator), so each is audited. */
export async function recordActivityEvidenceDownload(
  db: DB,
  viewer: { id: string; client?: string | null },
  file: { id: string; trainer_id: string; sha256: string },
): Promise<void> {
  await recordAuditAlone(db, {
    action: "credential.evidence_downloaded",
    actor: { id: viewer.id, client: viewer.client },
    subject: { type: "trainer_activity", id: file.id, userId: file.trainer_id },
    detail: file.sha256,
  });
}

/** An administrator confirms a trainer's activity (once). */
export async function confirmActivity(db: DB, activityId: string, actorRef: SignedInActorRef, now = new Date()): Promise<{ trainer_id: string }> {
  const actor = signedInActor(actorRef);
  return writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("trainer_activities")
      .select(["id", "trainer_id", "kind", "activity_date", "confirmed_at"])
      .where("id", "=", activityId)
      .executeTakeFirst();
    if (!row) throw notFound("Activity");
    if (row.confirmed_at) throw conflict(STANDARDS_MESSAGES.alreadyConfirmed);
    const at = now.toISOString();
    await trx
      .updateTable("trainer_activities")
      .set({ confirmed_by: actor.id, confirmed_at: at })
      .where("id", "=", row.id)
      .where("confirmed_at", "is", null)
      .execute();
    await recordAudit(trx, {
      action: "credential.activity_confirmed",
      actor,
      subject: { type: "user", id: row.trainer_id },
      detail: `${row.kind} ${row.activity_date}`,
      now: at,
    });
    return { trainer_id: row.trainer_id };
  });
}

/** Active, approved trainers (the matrix's columns, validators, supervisors, class trainers). */
/** Trainers who may be given work: active and approved. */
function activeTrainers(db: DB) {
  return db.selectFrom("users").where("role", "=", "trainer").where("is_active", "=", 1).where("approval_status", "=", "approved");
}

export async function listActiveTrainers(db: DB): Promise<Array<{ id: string; full_name: string }>> {
  return activeTrainers(db).select(["id", "full_name"]).orderBy("full_name").orderBy("id").execute();
}

export interface MatrixCell {
  state: MatrixState;
  /** why missing or expiring, in words */
  reason: string | null;
  basis: UnitBasis | null;
  /** the first expiry that ends the trainer's standing in this unit */
  expires_on: string | null;
}

export interface CredentialMatrix {
  today: string;
  courses: Array<{ id: string; name: string; unit_code: string }>;
  trainers: Array<{ id: string; full_name: string; credential: string | null; standing: string | null }>;
  /** cells[trainerId][courseId] */
  cells: Record<string, Record<string, MatrixCell>>;
}

/**
 * Active courses (rows) by active trainers (columns): held, expiring within
 * CREDENTIAL_WARNING_DAYS, or missing, from the same rule as the refusals.
 */
/** How many trainers one page of the matrix shows: each is a column of every active course. */
export const MATRIX_TRAINERS_PER_PAGE = 20;

function activeCourses(db: DB) {
  return db.selectFrom("courses").select(["id", "name", "unit_code"]).where("is_active", "=", 1).orderBy("unit_code").orderBy("name").orderBy("id").execute();
}

/** The matrix of active courses by every active trainer (the /api answer). */
export async function credentialMatrix(db: DB, today = organisationToday()): Promise<CredentialMatrix> {
  const [courses, trainers] = await Promise.all([activeCourses(db), listActiveTrainers(db)]);
  return matrixOf(db, today, courses, trainers);
}

export interface CredentialMatrixPage {
  matrix: CredentialMatrix;
  page: number;
  pageCount: number;
  /** active trainers in all */
  trainerCount: number;
}

/**
 * One page of the matrix: MATRIX_TRAINERS_PER_PAGE trainers, those whose name holds `search`
 * when one is given, chosen and counted in SQL (a page past the last shows the last). At 200
 * trainers the whole matrix was 12,000 cells, a 2.5 MB page that took 0.6-1.3 s.
 */
export async function credentialMatrixPage(db: DB, today: string, options: { page: number; search?: string }): Promise<CredentialMatrixPage> {
  const term = options.search?.trim();
  const trainersShown = () => (term ? activeTrainers(db).where(sql<SqlBool>`lower(full_name) like ${likePattern(term)} escape '\\'`) : activeTrainers(db));
  const [courses, counted] = await Promise.all([
    activeCourses(db),
    trainersShown()
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  const trainerCount = Number(counted.n);
  const pageCount = Math.max(1, Math.ceil(trainerCount / MATRIX_TRAINERS_PER_PAGE));
  const shown = Math.min(Math.max(1, Math.floor(options.page) || 1), pageCount);
  const trainers = await trainersShown()
    .select(["id", "full_name"])
    .orderBy("full_name")
    .orderBy("id")
    .limit(MATRIX_TRAINERS_PER_PAGE)
    .offset((shown - 1) * MATRIX_TRAINERS_PER_PAGE)
    .execute();
  return { matrix: await matrixOf(db, today, courses, trainers), page: shown, pageCount, trainerCount };
}

async function matrixOf(
  db: DB,
  today: string,
  courses: CredentialMatrix["courses"],
  trainers: Array<{ id: string; full_name: string }>,
): Promise<CredentialMatrix> {
  const ids = trainers.map((t) => t.id);
  const [credentials, units] = await Promise.all([
    credentialsOf(db, ids),
    ids.length
      ? db.selectFrom("trainer_units").select(["trainer_id", "unit_code", "basis", "expires_on"]).where("trainer_id", "in", ids).execute()
      : Promise.resolve([]),
  ]);
  const names = await namesOf(
    db,
    [...credentials.values()]
      .flat()
      .map((c) => c.supervisor_id)
      .filter((id): id is string => Boolean(id)),
  );
  // each cell looks its unit up by trainer and code: a search of every trainer's units per cell
  // was 12,000 cells by 6,000 units (a second) at 200 trainers
  const unitOf = new Map(units.map((u) => [`${u.trainer_id}\u0000${u.unit_code}`, u]));
  const horizon = addDays(today, CREDENTIAL_WARNING_DAYS);
  const cells: CredentialMatrix["cells"] = {};
  const columns = trainers.map((t) => {
    const standing = standingProblem(t, credentials, names, today);
    const later = standingProblem(t, credentials, names, horizon);
    const own = credentials.get(t.id) ?? [];
    const current = heldOutright(own, today) ?? own.find((c) => c.credential === UNDER_DIRECTION && inForce(c, today)) ?? null;
    const credentialEnds = current?.expires_on ?? null;
    cells[t.id] = {};
    for (const course of courses) {
      const unit = unitOf.get(`${t.id}\u0000${course.unit_code}`);
      const basis = (unit?.basis as UnitBasis | undefined) ?? null;
      let cell: MatrixCell;
      if (standing) cell = { state: "missing", reason: standing, basis, expires_on: null };
      else if (!unit || !inForce(unit, today))
        cell = { state: "missing", reason: STANDARDS_MESSAGES.noUnit(t.full_name, course.unit_code, today), basis, expires_on: unit?.expires_on ?? null };
      else {
        const ends = [unit.expires_on, credentialEnds].filter((d): d is string => Boolean(d)).sort()[0] ?? null;
        const expiring = Boolean(later) || (unit.expires_on !== null && unit.expires_on < horizon);
        cell = {
          state: expiring ? "expiring" : "held",
          reason: expiring ? (later ?? STANDARDS_MESSAGES.noUnit(t.full_name, course.unit_code, horizon)) : null,
          basis,
          expires_on: ends,
        };
      }
      cells[t.id]![course.id] = cell;
    }
    return {
      id: t.id,
      full_name: t.full_name,
      credential: current ? credentialLabel(current.credential, current.supervisor_id ? names.get(current.supervisor_id) : null) : null,
      standing,
    };
  });
  return { today, courses, trainers: columns, cells };
}

export interface ExpiringCredential {
  trainer: { id: string; full_name: string };
  what: string;
  expires_on: string;
}

/** Credentials and units of active trainers that expire within the warning window, or have expired (soonest first). */
export async function expiringCredentials(db: DB, today = organisationToday()): Promise<ExpiringCredential[]> {
  const horizon = addDays(today, CREDENTIAL_WARNING_DAYS);
  const since = addDays(today, -CREDENTIAL_WARNING_DAYS);
  const [credentials, units] = await Promise.all([
    db
      .selectFrom("trainer_credentials as c")
      .innerJoin("users as u", "u.id", "c.trainer_id")
      .leftJoin("users as s", "s.id", "c.supervisor_id")
      .select(["u.id", "u.full_name", "c.credential", "s.full_name as supervisor_name", "c.expires_on"])
      .where("u.is_active", "=", 1)
      .where("c.expires_on", "is not", null)
      .where("c.expires_on", "<=", horizon)
      .where("c.expires_on", ">=", since)
      .execute(),
    db
      .selectFrom("trainer_units as t")
      .innerJoin("users as u", "u.id", "t.trainer_id")
      .select(["u.id", "u.full_name", "t.unit_code", "t.expires_on"])
      .where("u.is_active", "=", 1)
      .where("t.expires_on", "is not", null)
      .where("t.expires_on", "<=", horizon)
      .where("t.expires_on", ">=", since)
      .execute(),
  ]);
  return [
    ...credentials.map((c) => ({
      trainer: { id: c.id, full_name: c.full_name },
      what: credentialLabel(c.credential, c.supervisor_name),
      expires_on: c.expires_on!,
    })),
    ...units.map((u) => ({ trainer: { id: u.id, full_name: u.full_name }, what: `Unit ${u.unit_code}`, expires_on: u.expires_on! })),
  ].sort((a, b) => a.expires_on.localeCompare(b.expires_on) || a.trainer.full_name.localeCompare(b.trainer.full_name));
}
