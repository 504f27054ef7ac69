import type { ColumnType } from "kysely";

/**
 * The tables of high-risk work licence assessments (migration 2026-11-26T0600); the value
 * lists they hold live in app/schemas/hrw-codes.ts. Dates are YYYY-MM-DD text, instants ISO
 * 8601, lists JSON text, like every other table (see schema.ts).
 */

type Optional = ColumnType<string | null, string | null | undefined, string | null>;

/**
 * One state's rule as it came into force on a date (null: before any date the portal records);
 * an edit is a new row with its reason, earlier rows stay (app/models/hrw/hrw-rules.server.ts).
 */
export interface HrwRulesTable {
  id: string;
  state: string;
  /** a name from HRW_RULES (app/schemas/hrw-codes.ts) */
  rule: string;
  value: string;
  unit: string;
  source: string;
  /** 1: from an RTO's or consultant's copy of the rule, a default to confirm */
  secondary: number;
  in_force_from: string | null;
  reason: Optional;
  recorded_at: string;
  recorded_by: Optional;
}

/** A notice given to the regulator for one day of an assessment. */
export interface HrwNoticesTable {
  id: string;
  assessment_id: string;
  /** the assessment day the notice is for */
  held_on: string;
  reference: string;
  /** the day it was given to the regulator */
  sent_on: string;
  recorded_at: string;
  recorded_by: Optional;
}

/** Something to tell a regulator by a date; open until done. */
export interface HrwRegulatorTasksTable {
  id: string;
  state: string;
  trainer_id: string;
  what: string;
  raised_on: string;
  due_on: string;
  done_reference: Optional;
  done_at: Optional;
  done_by: Optional;
  created_at: string;
}

/** A trainer's own high-risk work licence (the assessor must hold one). */
export interface HrwAssessorsTable {
  trainer_id: string;
  licence_number: Optional;
  licence_expires_on: Optional;
  updated_at: string;
  updated_by: Optional;
}

/**
 * One period of a regulator's accreditation of a trainer as an assessor: which classes, from
 * when until when. A renewal is another row with the same number (the earlier period stays).
 */
export interface HrwAccreditationsTable {
  id: string;
  trainer_id: string;
  /** the state whose regulator accredited the assessor */
  regulator: string;
  number: string;
  /** JSON list of licence classes */
  classes: string;
  /** the first and last days the period covers (YYYY-MM-DD) */
  starts_on: string;
  expires_on: string;
  /** when the period was recorded: only results recorded after it count under it */
  created_at: string;
  updated_at: string;
}

/** One check of a candidate before assessment; the latest of each kind (and class) counts. */
export interface HrwCandidateChecksTable {
  id: string;
  candidate_id: string;
  kind: "age" | "identity" | "prerequisite" | "aen";
  /** for a prerequisite licence: its class */
  licence_class: Optional;
  /** JSON: age {date_of_birth}; identity {documents, points}; prerequisite {number, expires_on}; aen {aen} */
  detail: string;
  checked_by: string;
  checked_at: string;
}

export interface HrwAssessmentsTable {
  id: string;
  candidate_id: string;
  course_id: string;
  licence_class: string;
  state: string;
  assessment_date: string;
  start_time: string;
  location_id: string;
  assessor_id: string;
  plant_description: string;
  plant_registration: string;
  /** the last day to notify the regulator; null when the state asks for no notice */
  notice_due_on: Optional;
  /** hours booked (assessor currency); null when not given */
  hours: ColumnType<number | null, number | null | undefined, number | null>;
  /** the accreditation the assessor assessed under (set with the first result) */
  accreditation_id: Optional;
  nsa_number: Optional;
  nsa_date: Optional;
  nsa_recorded_by: Optional;
  booked_by: string;
  created_at: string;
  updated_at: string;
}

/** Every result of an NAI part, reassessments included; the latest per part counts. */
export interface HrwAssessmentPartsTable {
  id: string;
  assessment_id: string;
  part: "knowledge" | "calculations" | "practical";
  result: "satisfactory" | "not_yet_satisfactory";
  assessed_on: string;
  recorded_by: string;
  recorded_at: string;
  /** the accreditation the result was recorded under; null for a result changed on appeal */
  accreditation_id: string | null;
}

/** A licence-application reminder: the row is the claim, so each goes out once. */
export interface HrwRemindersTable {
  assessment_id: string;
  days_before: number;
  claimed_at: string;
  sent_at: Optional;
}

export interface HrwTables {
  hrw_rules: HrwRulesTable;
  hrw_notices: HrwNoticesTable;
  hrw_regulator_tasks: HrwRegulatorTasksTable;
  hrw_assessors: HrwAssessorsTable;
  hrw_accreditations: HrwAccreditationsTable;
  hrw_candidate_checks: HrwCandidateChecksTable;
  hrw_assessments: HrwAssessmentsTable;
  hrw_assessment_parts: HrwAssessmentPartsTable;
  hrw_reminders: HrwRemindersTable;
}
