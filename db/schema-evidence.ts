import type { ColumnType } from "kysely";

/**
 * The tables of assessment evidence, observation checklists, signatures and retention
 * (migration 2026-11-28T0600). Instants are ISO 8601 text, days YYYY-MM-DD, like every table.
 */

type Optional = ColumnType<string | null, string | null | undefined, string | null>;

/** Which assessment a row belongs to: a unit's (`assessments`) or a high-risk work one's (`hrw_assessments`). */
export type AssessmentKind = "unit" | "hrw" | "recognition";

export interface EvidenceFilesTable {
  id: string;
  assessment_kind: AssessmentKind;
  assessment_id: string;
  student_id: string;
  sha256: string;
  thumbnail_sha256: Optional;
  media_type: string;
  size_bytes: number;
  original_name: string;
  uploaded_by: string;
  uploaded_at: string;
  /** the first day it may be destroyed (the retention job's stamp); null: no result yet */
  keep_until: Optional;
}

export interface ObservationChecklistsTable {
  id: string;
  course_id: string;
  title: string;
  reviewed_at: Optional;
  reviewed_by: Optional;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface ChecklistItemsTable {
  id: string;
  checklist_id: string;
  position: number;
  text: string;
  /** the unit element or performance criterion, e.g. "PC 2.3" */
  maps_to: string;
  /** for a licence course: the NAI part it belongs to */
  nai_part: Optional;
}

export interface ChecklistMarksTable {
  id: string;
  assessment_kind: AssessmentKind;
  assessment_id: string;
  item_id: string;
  result: "satisfactory" | "not_yet";
  comment: Optional;
  marked_by: string;
  marked_at: string;
}

export interface AssessmentSignaturesTable {
  id: string;
  assessment_kind: AssessmentKind;
  assessment_id: string;
  role: "assessor" | "candidate";
  full_name: string;
  signed_at: string;
  /** the signing browser's user agent */
  client: Optional;
  signed_by: string;
}

export interface RetentionRulesTable {
  record_type: string;
  /** '' for every class; a licence class that keeps its evidence longer */
  licence_class: ColumnType<string, string | undefined, string>;
  /** null: for ever */
  keep_months: number | null;
  source: string;
  updated_by: Optional;
  updated_at: string;
}

export interface DestroyedRecordsTable {
  id: string;
  record_type: string;
  record_id: string;
  subject_user_id: Optional;
  description: string;
  /** JSON list of the SHA-256 hashes of the destroyed bytes */
  hashes: string;
  destroyed_by: string;
  destroyed_at: string;
}

export interface EvidenceTables {
  evidence_files: EvidenceFilesTable;
  observation_checklists: ObservationChecklistsTable;
  checklist_items: ChecklistItemsTable;
  checklist_marks: ChecklistMarksTable;
  assessment_signatures: AssessmentSignaturesTable;
  retention_rules: RetentionRulesTable;
  destroyed_records: DestroyedRecordsTable;
}
