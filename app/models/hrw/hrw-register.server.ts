import crypto from "node:crypto";
import { writeTransaction, type DB } from "#db/connection";
import type { AccreditationInput, AssessorLicenceInput } from "~/schemas/hrw";
import { EXPIRY_WARNING_DAYS, HRW_MESSAGES, IMPLIED_CLASSES, type HrwState, type LicenceClass } from "~/schemas/hrw-codes";
import { stateRulesOn } from "./hrw-rules.server";
import { conflict, DomainError, notFound } from "~/utils/errors";
import { addDays, organisationToday } from "~/utils/organisation-calendar";
import { raiseAssessorStopped } from "./hrw-currency.server";
import { recordAudit, signedInActor, type SignedInActorRef } from "../audit.server";

/**
 * The assessor register (who the regulators accredited, for which classes, from when until
 * when). The register decides whether an assessor may assess a
 * class on a date: `coveringAccreditation`. Each accreditation row is one period; a renewal adds
 * a period and keeps the earlier one, so a lapse between them stays a lapse.
 */

export interface Accreditation {
  id: string;
  trainer_id: string;
  regulator: HrwState;
  number: string;
  classes: LicenceClass[];
  starts_on: string;
  expires_on: string;
  /** when the period was recorded */
  recorded_at: string;
}

export interface AssessorRegister {
  trainer: { id: string; full_name: string; email: string };
  licence_number: string | null;
  licence_expires_on: string | null;
  accreditations: Accreditation[];
}

function parseClasses(text: string): LicenceClass[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value.filter((v) => typeof v === "string") as LicenceClass[]) : [];
  } catch {
    return [];
  }
}

const ACCREDITATION_COLUMNS = ["id", "trainer_id", "regulator", "number", "classes", "starts_on", "expires_on", "created_at"] as const;

const toAccreditation = ({
  created_at,
  ...row
}: {
  id: string;
  trainer_id: string;
  regulator: string;
  number: string;
  classes: string;
  starts_on: string;
  expires_on: string;
  created_at: string;
}): Accreditation => ({
  ...row,
  regulator: row.regulator as HrwState,
  classes: parseClasses(row.classes),
  recorded_at: created_at,
});

const periodText = (a: { regulator: string; number: string; starts_on: string; expires_on: string }) =>
  `${a.regulator} ${a.number} from ${a.starts_on} to ${a.expires_on}`;

async function requireTrainer(db: DB, trainerId: string) {
  const trainer = await db
    .selectFrom("users")
    .select(["id", "full_name", "email"])
    .where("id", "=", trainerId)
    .where("role", "=", "trainer")
    .executeTakeFirst();
  if (!trainer) throw notFound("Trainer");
  return trainer;
}

export async function getAssessorRegister(db: DB, trainerId: string): Promise<AssessorRegister | null> {
  const trainer = await db
    .selectFrom("users")
    .select(["id", "full_name", "email"])
    .where("id", "=", trainerId)
    .where("role", "=", "trainer")
    .executeTakeFirst();
  if (!trainer) return null;
  const licence = await db.selectFrom("hrw_assessors").select(["licence_number", "licence_expires_on"]).where("trainer_id", "=", trainerId).executeTakeFirst();
  const accreditations = await db
    .selectFrom("hrw_accreditations")
    .select(ACCREDITATION_COLUMNS)
    .where("trainer_id", "=", trainerId)
    .orderBy("regulator")
    .orderBy("number")
    .orderBy("starts_on")
    .execute();
  return {
    trainer,
    licence_number: licence?.licence_number ?? null,
    licence_expires_on: licence?.licence_expires_on ?? null,
    accreditations: accreditations.map(toAccreditation),
  };
}

/** Every trainer's accreditation summary for the staff list, in one query. */
export async function listAccreditationsByTrainer(db: DB): Promise<Map<string, Accreditation[]>> {
  const rows = await db.selectFrom("hrw_accreditations").select(ACCREDITATION_COLUMNS).orderBy("regulator").orderBy("number").orderBy("starts_on").execute();
  const out = new Map<string, Accreditation[]>();
  for (const row of rows) out.set(row.trainer_id, [...(out.get(row.trainer_id) ?? []), toAccreditation(row)]);
  return out;
}

export async function setAssessorLicence(db: DB, trainerId: string, input: AssessorLicenceInput, actorRef: SignedInActorRef, now = new Date()): Promise<void> {
  const at = now.toISOString();
  const actor = signedInActor(actorRef);
  await writeTransaction(db, async (trx) => {
    await requireTrainer(trx, trainerId);
    const current = await trx
      .selectFrom("hrw_assessors")
      .select(["licence_number", "licence_expires_on"])
      .where("trainer_id", "=", trainerId)
      .executeTakeFirst();
    await trx
      .insertInto("hrw_assessors")
      .values({ trainer_id: trainerId, ...input, updated_at: at, updated_by: actor.id })
      .onConflict((oc) => oc.column("trainer_id").doUpdateSet({ ...input, updated_at: at, updated_by: actor.id }))
      .execute();
    const fields = (["licence_number", "licence_expires_on"] as const).filter((k) => (current?.[k] ?? null) !== input[k]);
    if (fields.length) await recordAudit(trx, { action: "assessor_licence.changed", actor, subject: { type: "user", id: trainerId }, fields, now: at });
  });
}

/**
 * Records a period of an accreditation. A number the regulator lists for another trainer is
 * refused; the same number again with a new start is a renewal: a period of its own, the
 * earlier one kept, so the days between a lapse and a late renewal stay uncovered.
 */
export async function addAccreditation(
  db: DB,
  trainerId: string,
  input: AccreditationInput,
  actorRef: SignedInActorRef,
  now = new Date(),
): Promise<Accreditation> {
  const at = now.toISOString();
  const id = crypto.randomUUID();
  const actor = signedInActor(actorRef);
  return writeTransaction(db, async (trx) => {
    await requireTrainer(trx, trainerId);
    const periods = await trx
      .selectFrom("hrw_accreditations")
      .select(["trainer_id", "starts_on"])
      .where("regulator", "=", input.regulator)
      .where("number", "=", input.number)
      .execute();
    if (periods.some((p) => p.trainer_id !== trainerId)) throw conflict(HRW_MESSAGES.accreditationTaken, "number");
    if (periods.some((p) => p.starts_on === input.starts_on)) throw conflict(HRW_MESSAGES.periodTaken(input.starts_on), "starts_on");
    const classes = [...new Set(input.classes)];
    await trx
      .insertInto("hrw_accreditations")
      .values({
        id,
        trainer_id: trainerId,
        regulator: input.regulator,
        number: input.number,
        classes: JSON.stringify(classes),
        starts_on: input.starts_on,
        expires_on: input.expires_on,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const accreditation: Accreditation = {
      id,
      trainer_id: trainerId,
      regulator: input.regulator,
      number: input.number,
      classes,
      starts_on: input.starts_on,
      expires_on: input.expires_on,
      recorded_at: at,
    };
    await recordAudit(trx, {
      action: periods.length ? "accreditation.changed" : "accreditation.added",
      actor,
      subject: { type: "user", id: trainerId },
      detail: `${periods.length ? "renewed: " : ""}${periodText(accreditation)} for ${classes.join(" ")}`,
      now: at,
    });
    return accreditation;
  });
}

/** Removes an accreditation period entered in error; one an assessment was recorded under stays (the audit needs it). */
export async function removeAccreditation(db: DB, trainerId: string, accreditationId: string, actorRef: SignedInActorRef, now = new Date()): Promise<void> {
  const actor = signedInActor(actorRef);
  await writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("hrw_accreditations")
      .select(["id", "regulator", "number", "starts_on", "expires_on"])
      .where("id", "=", accreditationId)
      .where("trainer_id", "=", trainerId)
      .executeTakeFirst();
    if (!row) throw notFound("Accreditation");
    // any part recorded under it, not only an assessment's latest, keeps it in the register
    const used =
      (await trx.selectFrom("hrw_assessments").select("id").where("accreditation_id", "=", accreditationId).executeTakeFirst()) ??
      (await trx.selectFrom("hrw_assessment_parts").select("id").where("accreditation_id", "=", accreditationId).executeTakeFirst());
    if (used) throw new DomainError(409, "Results were recorded under this accreditation: it stays in the register");
    await trx.deleteFrom("hrw_accreditations").where("id", "=", accreditationId).execute();
    await recordAudit(trx, { action: "accreditation.removed", actor, subject: { type: "user", id: trainerId }, detail: periodText(row), now });
    const today = organisationToday(now);
    if (row.expires_on >= today)
      await raiseAssessorStopped(trx, { trainerId, states: [row.regulator], what: `Accreditation ${row.number} removed`, today, actor, at: now.toISOString() });
  });
}

/** Whether an accreditation listing `classes` covers `licenceClass`: exactly, or with the lower classes each implies. */
export function coversClass(classes: readonly LicenceClass[], licenceClass: string, exact: boolean): boolean {
  if ((classes as readonly string[]).includes(licenceClass)) return true;
  return !exact && classes.some((c) => (IMPLIED_CLASSES[c] as string[] | undefined)?.includes(licenceClass));
}

/**
 * The accreditation under which `trainerId` may assess `licenceClass` in `state` on `date`:
 * the regulator's, covering the class (exactly, where the state's rule on that date says so), a period that includes the date, and recorded by
 * `recordedBy` (the moment the result is recorded): a period added afterwards never makes an
 * earlier result count. Null when there is none.
 */
export async function coveringAccreditation(
  db: DB,
  input: { trainerId: string; state: HrwState; licenceClass: string; date: string; recordedBy: string },
): Promise<Accreditation | null> {
  const rows = await db
    .selectFrom("hrw_accreditations")
    .select(ACCREDITATION_COLUMNS)
    .where("trainer_id", "=", input.trainerId)
    .where("regulator", "=", input.state)
    .where("starts_on", "<=", input.date)
    .where("expires_on", ">=", input.date)
    .where("created_at", "<=", input.recordedBy)
    .orderBy("expires_on", "desc")
    .execute();
  const exact = (await stateRulesOn(db, input.state, input.date)).flag("accreditation_exact_classes");
  return rows.map(toAccreditation).find((a) => coversClass(a.classes, input.licenceClass, exact)) ?? null;
}

export interface ExpiryWarning {
  trainer_id: string;
  trainer_name: string;
  what: "accreditation" | "licence";
  label: string;
  expires_on: string;
  expired: boolean;
}

/**
 * Accreditations and assessors' own licences expiring within EXPIRY_WARNING_DAYS of `today`
 * (or already expired in the last year): one trainer's for their dashboard, everyone's for the
 * administrators'.
 */
export async function expiryWarnings(db: DB, today: string, trainerId?: string): Promise<ExpiryWarning[]> {
  const until = addDays(today, EXPIRY_WARNING_DAYS);
  const since = addDays(today, -365);
  let accreditations = db
    .selectFrom("hrw_accreditations as a")
    .innerJoin("users as u", "u.id", "a.trainer_id")
    .select(["a.trainer_id", "u.full_name", "a.regulator", "a.number", "a.expires_on"])
    .where("a.expires_on", "<=", until)
    .where("a.expires_on", ">=", since)
    .where("u.is_active", "=", 1)
    // a period renewed (the same number recorded again, lasting longer) no longer warns
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("hrw_accreditations as later")
            .select("later.id")
            .whereRef("later.trainer_id", "=", "a.trainer_id")
            .whereRef("later.regulator", "=", "a.regulator")
            .whereRef("later.number", "=", "a.number")
            .whereRef("later.expires_on", ">", "a.expires_on"),
        ),
      ),
    );
  let licences = db
    .selectFrom("hrw_assessors as h")
    .innerJoin("users as u", "u.id", "h.trainer_id")
    .select(["h.trainer_id", "u.full_name", "h.licence_number", "h.licence_expires_on"])
    .where("h.licence_expires_on", "<=", until)
    .where("h.licence_expires_on", ">=", since)
    .where("u.is_active", "=", 1);
  if (trainerId) {
    accreditations = accreditations.where("a.trainer_id", "=", trainerId);
    licences = licences.where("h.trainer_id", "=", trainerId);
  }
  const out: ExpiryWarning[] = [
    ...(await accreditations.execute()).map((a) => ({
      trainer_id: a.trainer_id,
      trainer_name: a.full_name,
      what: "accreditation" as const,
      label: `${a.regulator} accreditation ${a.number}`,
      expires_on: a.expires_on,
      expired: a.expires_on < today,
    })),
    ...(await licences.execute()).map((l) => ({
      trainer_id: l.trainer_id,
      trainer_name: l.full_name,
      what: "licence" as const,
      label: `High-risk work licence ${l.licence_number ?? ""}`.trim(),
      expires_on: l.licence_expires_on!,
      expired: l.licence_expires_on! < today,
    })),
  ];
  return out.sort((a, b) => a.expires_on.localeCompare(b.expires_on) || a.trainer_name.localeCompare(b.trainer_name));
}
