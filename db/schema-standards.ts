import type { ColumnType } from "kysely";

/**
 * The tables of trainer credentials and currency and of course validation (migration
 * 2026-11-29T0500; docs/decisions/030-trainer-credentials-and-validation.md). Instants are ISO
 * 8601 text, days YYYY-MM-DD, like every table.
 */

type Optional = ColumnType<string | null, string | null | undefined, string | null>;
type OptionalNumber = ColumnType<number | null, number | null | undefined, number | null>;

export interface TrainerCredentialsTable {
  id: string;
  trainer_id: string;
  /** a code of TRAINING_CREDENTIALS (app/schemas/standards-text.ts), or `under_direction` */
  credential: string;
  /** under_direction: the credentialed trainer directing the work */
  supervisor_id: Optional;
  issued_on: string;
  /** null: no expiry */
  expires_on: Optional;
  note: Optional;
  recorded_by: string;
  recorded_at: string;
}

export interface TrainerUnitsTable {
  id: string;
  trainer_id: string;
  unit_code: string;
  /** held | equivalent */
  basis: string;
  /** what shows the equivalence (required for `equivalent`) */
  evidence: Optional;
  expires_on: Optional;
  recorded_by: string;
  recorded_at: string;
}

export interface TrainerActivitiesTable {
  id: string;
  trainer_id: string;
  /** industry | development */
  kind: string;
  activity_date: string;
  minutes: number;
  description: string;
  evidence: Optional;
  recorded_by: string;
  recorded_at: string;
  confirmed_by: Optional;
  confirmed_at: Optional;
  /** the evidence file in the evidence store (all four null without one) */
  evidence_sha256: Optional;
  evidence_media_type: Optional;
  evidence_size_bytes: OptionalNumber;
  evidence_file_name: Optional;
}

export interface CourseValidationsTable {
  course_id: string;
  /** low | medium | high */
  risk_rating: string;
  last_validated_on: Optional;
  next_due_on: string;
  updated_by: Optional;
  updated_at: string;
}

export interface ValidationPlansTable {
  id: string;
  course_id: string;
  planned_on: string;
  sample_size: number;
  /** the PRNG seed the sample was drawn from; null until drawn */
  seed: OptionalNumber;
  /** the instant the sample was drawn: only assessments recorded by then were in the population */
  sampled_at: Optional;
  /** how many assessments the sample was drawn from */
  population: OptionalNumber;
  /** JSON list of the ids drawn from (sorted), so anyone can rerun the draw from the seed */
  population_ids: Optional;
  completed_at: Optional;
  summary: Optional;
  created_by: string;
  created_at: string;
}

export interface ValidationValidatorsTable {
  plan_id: string;
  validator_id: string;
}

export interface ValidationSamplesTable {
  id: string;
  plan_id: string;
  assessment_id: string;
  position: number;
  /** meets | does_not_meet; null until the finding is recorded */
  outcome: Optional;
  finding: Optional;
  action: Optional;
  recorded_by: Optional;
  recorded_at: Optional;
}

export interface StandardsTables {
  trainer_credentials: TrainerCredentialsTable;
  trainer_units: TrainerUnitsTable;
  trainer_activities: TrainerActivitiesTable;
  course_validations: CourseValidationsTable;
  validation_plans: ValidationPlansTable;
  validation_validators: ValidationValidatorsTable;
  validation_samples: ValidationSamplesTable;
}
