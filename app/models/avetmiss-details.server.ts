import { writeTransaction, type DB } from "#db/connection";
import type { UserRow } from "#db/schema";
import { AVETMISS_FIELDS, type AvetmissInput, type EnrollmentDetailsInput } from "~/schemas/avetmiss-details";
import { invalid, notFound } from "~/utils/errors";
import { recordStudentEdit } from "~/models/audit.server";

/** A learner's AVETMISS details as screens, the /api and the NAT files read them. */
export interface AvetmissDetails {
  sex: string | null;
  address_building: string | null;
  address_unit: string | null;
  address_street_number: string | null;
  address_street_name: string | null;
  suburb: string | null;
  postcode: string | null;
  state: string | null;
  country_of_birth: string | null;
  language_at_home: string | null;
  indigenous_status: string | null;
  labour_force_status: string | null;
  highest_school_level: string | null;
  at_school: string | null;
  disability: string | null;
  disability_types: string[];
  prior_education: string | null;
  prior_education_types: string[];
  survey_contact_status: string | null;
}

export const avetmissColumns = [
  "users.sex",
  "users.address_building",
  "users.address_unit",
  "users.address_street_number",
  "users.address_street_name",
  "users.suburb",
  "users.postcode",
  "users.state",
  "users.country_of_birth",
  "users.language_at_home",
  "users.indigenous_status",
  "users.labour_force_status",
  "users.highest_school_level",
  "users.at_school",
  "users.disability",
  "users.disability_types",
  "users.prior_education",
  "users.prior_education_types",
  "users.survey_contact_status",
] as const;

type AvetmissRow = Pick<UserRow, (typeof avetmissColumns)[number] extends `users.${infer C}` ? C & keyof UserRow : never>;

function codeList(text: string | null): string[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

export function toAvetmissDetails(row: AvetmissRow): AvetmissDetails {
  return { ...row, disability_types: codeList(row.disability_types), prior_education_types: codeList(row.prior_education_types) };
}

export async function getAvetmissDetails(db: DB, userId: string): Promise<AvetmissDetails | null> {
  const row = await db.selectFrom("users").select(avetmissColumns).where("users.id", "=", userId).executeTakeFirst();
  return row ? toAvetmissDetails(row) : null;
}

export const PRIOR_EDUCATION_TYPES_REQUIRED = "Tick each qualification you have completed";

/**
 * The columns a change to the details writes; fields left out stay as stored. The type lists
 * follow their flags: without a Yes they are emptied; a disability with no type ticked is
 * recorded as "not specified" (99), while a Yes to completed qualifications needs at least one.
 */
export function avetmissChanges(input: Partial<AvetmissInput>, current: AvetmissDetails): Partial<Record<keyof AvetmissRow, string | null>> {
  const out: Partial<Record<keyof AvetmissRow, string | null>> = {};
  for (const key of AVETMISS_FIELDS) {
    const value = input[key];
    if (value === undefined || key === "disability_types" || key === "prior_education_types") continue;
    out[key] = value as string | null;
  }
  const disability = input.disability === undefined ? current.disability : input.disability;
  let disabilityTypes = input.disability_types ?? current.disability_types;
  if (disability !== "Y") disabilityTypes = [];
  else if (disabilityTypes.length === 0) disabilityTypes = ["99"];
  const prior = input.prior_education === undefined ? current.prior_education : input.prior_education;
  let priorTypes = input.prior_education_types ?? current.prior_education_types;
  if (prior !== "Y") priorTypes = [];
  else if (priorTypes.length === 0) {
    throw invalid(PRIOR_EDUCATION_TYPES_REQUIRED, { prior_education_types: PRIOR_EDUCATION_TYPES_REQUIRED });
  }
  out.disability_types = disabilityTypes.length ? JSON.stringify(disabilityTypes) : null;
  out.prior_education_types = priorTypes.length ? JSON.stringify(priorTypes) : null;
  return out;
}

/** The student's own "My enrolment details": their AVETMISS details and date of birth. */
export async function updateEnrollmentDetails(
  db: DB,
  userId: string,
  input: EnrollmentDetailsInput,
  now = new Date(),
  client: string | null = null,
): Promise<void> {
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const current = await getAvetmissDetails(trx, userId);
    if (!current) throw notFound("User");
    const { date_of_birth, ...details } = input;
    const written = { ...avetmissChanges(details, current), date_of_birth };
    const before = await trx.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
    await trx
      .updateTable("users")
      .set({ ...written, updated_at: at })
      .where("id", "=", userId)
      .execute();
    await recordStudentEdit(trx, { current: before, written, actor: { id: userId, client }, now: at });
  });
}
