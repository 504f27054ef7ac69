import crypto from "node:crypto";
import { sql } from "kysely";
import { writeTransaction, type DB } from "#db/connection";
import { dialectSql } from "#db/dialect";
import {
  HRW_MESSAGES,
  HRW_STATE_CODES,
  hrwDate,
  IDENTITY_DOCUMENTS,
  type HrwState,
  IDENTITY_POINTS_NEEDED,
  identityPoints,
  MINIMUM_AGE,
  type IdentityDocument,
  type LicenceClass,
} from "~/schemas/hrw-codes";
import { DomainError, notFound } from "~/utils/errors";
import { recordAudit, signedInActor, type SignedInActorRef } from "../audit.server";
import { ageOn } from "./hrw-calendar.server";
import { ruleReader, stateRulesOn } from "./hrw-rules.server";
import { organisationDate, organisationToday } from "~/utils/organisation-calendar";

/**
 * The checks of a candidate before a high-risk work assessment, each recorded with who made
 * it and when; the latest of each kind (for prerequisites: of each class) counts. The identity
 * documents are only named with their points: the documents themselves are never stored.
 */

export interface CandidateChecks {
  candidate: { id: string; full_name: string; email: string };
  age: { date_of_birth: string; checked_by: string; checked_at: string } | null;
  identity: { documents: IdentityDocument[]; points: number; checked_by: string; checked_at: string } | null;
  prerequisites: Array<{ licence_class: LicenceClass; licence_number: string; expires_on: string; checked_by: string; checked_at: string }>;
  /** assessment enrolment numbers, the latest per state's regulator */
  aens: Array<{ state: HrwState; aen: string; checked_by: string; checked_at: string }>;
}

async function requireCandidate(db: DB, candidateId: string) {
  const candidate = await db
    .selectFrom("users")
    .select(["id", "full_name", "email"])
    .where("id", "=", candidateId)
    .where("role", "=", "student")
    .where("is_active", "=", 1)
    .executeTakeFirst();
  if (!candidate) throw notFound("Candidate");
  return candidate;
}

function detailOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function getCandidateChecks(db: DB, candidateId: string): Promise<CandidateChecks | null> {
  const candidate = await db
    .selectFrom("users")
    .select(["id", "full_name", "email"])
    .where("id", "=", candidateId)
    .where("role", "=", "student")
    .executeTakeFirst();
  if (!candidate) return null;
  const rows = await db
    .selectFrom("hrw_candidate_checks as c")
    .innerJoin("users as u", "u.id", "c.checked_by")
    .select(["c.kind", "c.licence_class", "c.detail", "c.checked_at", "u.full_name as checked_by"])
    .where("c.candidate_id", "=", candidateId)
    .orderBy("c.checked_at", "desc")
    .orderBy("c.id", "desc")
    .execute();
  const out: CandidateChecks = { candidate, age: null, identity: null, prerequisites: [], aens: [] };
  const seenClasses = new Set<string>();
  const seenStates = new Set<string>();
  for (const row of rows) {
    const detail = detailOf(row.detail);
    if (row.kind === "age" && !out.age) out.age = { date_of_birth: String(detail.date_of_birth ?? ""), checked_by: row.checked_by, checked_at: row.checked_at };
    else if (row.kind === "identity" && !out.identity) {
      const documents = (Array.isArray(detail.documents) ? detail.documents : []).filter(
        (d): d is IdentityDocument => typeof d === "string" && d in IDENTITY_DOCUMENTS,
      );
      out.identity = { documents, points: identityPoints(documents), checked_by: row.checked_by, checked_at: row.checked_at };
    } else if (row.kind === "aen" && row.licence_class === null && typeof detail.state === "string" && !seenStates.has(detail.state)) {
      seenStates.add(detail.state);
      out.aens.push({ state: detail.state as HrwState, aen: String(detail.aen ?? ""), checked_by: row.checked_by, checked_at: row.checked_at });
    } else if (row.kind === "prerequisite" && row.licence_class && !seenClasses.has(row.licence_class)) {
      seenClasses.add(row.licence_class);
      out.prerequisites.push({
        licence_class: row.licence_class as LicenceClass,
        licence_number: String(detail.licence_number ?? ""),
        expires_on: String(detail.expires_on ?? ""),
        checked_by: row.checked_by,
        checked_at: row.checked_at,
      });
    }
  }
  out.prerequisites.sort((a, b) => a.licence_class.localeCompare(b.licence_class));
  return out;
}

type CheckInput =
  | { kind: "age"; date_of_birth: string }
  | { kind: "identity"; documents: IdentityDocument[] }
  | { kind: "prerequisite"; licence_class: LicenceClass; licence_number: string; expires_on: string }
  | { kind: "aen"; state: HrwState; aen: string };

/** Records one check by `actorId`. Identity evidence must reach 100 points (422 otherwise). */
export async function recordCandidateCheck(db: DB, candidateId: string, input: CheckInput, actorRef: SignedInActorRef, now = new Date()): Promise<void> {
  const actor = signedInActor(actorRef);
  const actorId = actor.id;
  let detail: Record<string, unknown>;
  let licenceClass: string | null = null;
  if (input.kind === "identity") {
    const documents = [...new Set(input.documents)];
    const points = identityPoints(documents);
    if (points < IDENTITY_POINTS_NEEDED) {
      const message = `The documents sighted add up to ${points} points; ${IDENTITY_POINTS_NEEDED} are needed`;
      throw new DomainError(422, message, { documents: message });
    }
    detail = { documents, points };
  } else if (input.kind === "age") detail = { date_of_birth: input.date_of_birth };
  else if (input.kind === "aen") detail = { state: input.state, aen: input.aen };
  else {
    licenceClass = input.licence_class;
    detail = { licence_number: input.licence_number, expires_on: input.expires_on };
  }
  await writeTransaction(db, async (trx) => {
    await requireCandidate(trx, candidateId);
    if (input.kind === "aen") await checkAenFormat(trx, input.state, input.aen, now);
    await trx
      .insertInto("hrw_candidate_checks")
      .values({
        id: crypto.randomUUID(),
        candidate_id: candidateId,
        kind: input.kind,
        licence_class: licenceClass,
        detail: JSON.stringify(detail),
        checked_by: actorId,
        checked_at: now.toISOString(),
      })
      .execute();
    // the names of what was sighted, never the date of birth or licence number itself
    await recordAudit(trx, {
      action: "hrw.check_recorded",
      actor,
      subject: { type: "user", id: candidateId },
      fields: Object.keys(detail),
      detail: licenceClass ? `${input.kind} (${licenceClass})` : input.kind === "aen" ? `aen (${input.state})` : input.kind,
      now,
    });
  });
}

/** Refuses (422 on the field) an AEN for a state that asks for none, or not in its format. */
async function checkAenFormat(trx: DB, state: HrwState, aen: string, now: Date) {
  const rules = await stateRulesOn(trx, state, organisationToday(now));
  if (!rules.flag("aen_required")) throw new DomainError(422, HRW_MESSAGES.aenNotAsked, { state: HRW_MESSAGES.aenNotAsked });
  const pattern = rules.text("aen_format");
  if (pattern && !new RegExp(pattern).test(aen)) throw new DomainError(422, HRW_MESSAGES.aenFormat, { aen: HRW_MESSAGES.aenFormat });
}

/**
 * The first day (the organisation's) an assessment enrolment number for a state's regulator was
 * recorded for the candidate, or null when none is: the regulator needs the number before the
 * assessment, so a part assessed before that day cannot count.
 */
export async function aenFirstRecordedOn(db: DB, candidateId: string, state: string): Promise<string | null> {
  const rows = await db
    .selectFrom("hrw_candidate_checks")
    .select(["detail", "checked_at"])
    .where("candidate_id", "=", candidateId)
    .where("kind", "=", "aen")
    .where("licence_class", "is", null)
    .orderBy("checked_at")
    .orderBy("id")
    .execute();
  const first = rows.find((r) => detailOf(r.detail).state === state);
  return first ? organisationDate(first.checked_at) : null;
}

/** The candidate's latest assessment enrolment number for a state's regulator, or null. */
export async function latestAen(db: DB, candidateId: string, state: string): Promise<string | null> {
  const checks = await getCandidateChecks(db, candidateId);
  return checks?.aens.find((a) => a.state === state)?.aen ?? null;
}

/** The states whose regulator asks for an AEN on `date` (the checks page offers them). */
export async function statesAskingAen(db: DB, date: string): Promise<HrwState[]> {
  const rulesOn = await ruleReader(db);
  return HRW_STATE_CODES.filter((state) => rulesOn(state, date).flag("aen_required"));
}

/**
 * What stops `candidateId` from being assessed for a class needing `prerequisites` on `date`,
 * in words for the booking page; empty when every check is complete.
 */
export async function missingChecks(db: DB, candidateId: string, input: { date: string; prerequisites: readonly string[] }): Promise<string[]> {
  const checks = await getCandidateChecks(db, candidateId);
  if (!checks) return ["the candidate is not a student"];
  const missing: string[] = [];
  if (!checks.age) missing.push("age (date of birth) not checked");
  else if (ageOn(checks.age.date_of_birth, input.date) < MINIMUM_AGE) missing.push(`not ${MINIMUM_AGE} or older on ${hrwDate(input.date)}`);
  if (!checks.identity) missing.push("evidence of identity not sighted");
  else if (checks.identity.points < IDENTITY_POINTS_NEEDED)
    missing.push(`evidence of identity reaches ${checks.identity.points} of ${IDENTITY_POINTS_NEEDED} points`);
  for (const cls of input.prerequisites) {
    const held = checks.prerequisites.find((p) => p.licence_class === cls);
    if (!held) missing.push(`${cls} licence not recorded`);
    else if (held.expires_on < input.date) missing.push(`${cls} licence expires before ${hrwDate(input.date)}`);
  }
  return missing;
}

export const CANDIDATE_OPTION_LIMIT = 20;

/** Active students whose name or e-mail matches `search` (the booking page's candidate finder). */
export async function searchCandidates(db: DB, search: string): Promise<Array<{ id: string; full_name: string; email: string }>> {
  let query = db
    .selectFrom("users")
    .select(["id", "full_name", "email"])
    .where("role", "=", "student")
    .where("is_active", "=", 1)
    .orderBy(sql`lower(full_name)`)
    .orderBy("id")
    .limit(CANDIDATE_OPTION_LIMIT);
  if (search.trim()) query = query.where(dialectSql(db).userTextMatches(search.trim(), "users"));
  return query.execute();
}
