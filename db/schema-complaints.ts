import type { ColumnType } from "kysely";
import type { AssessmentKind } from "./schema-evidence";

/**
 * The tables of complaints and appeals (migration 2026-11-29T0400). Instants are ISO 8601 text,
 * days YYYY-MM-DD on the organisation's calendar, like every table.
 */

type Optional = ColumnType<string | null, string | null | undefined, string | null>;

export type ComplaintKind = "complaint" | "appeal";
export type ComplaintStatus = "received" | "acknowledged" | "resolved";
export type ComplaintOutcome = "upheld" | "dismissed" | "partly";

export interface ComplaintsTable {
  id: string;
  kind: ComplaintKind;
  /** C-2026-0001 or A-2026-0001: unique, never reused */
  reference: string;
  status: ComplaintStatus;
  /** the account that lodged it; null for a visitor */
  lodged_by: Optional;
  name: Optional;
  email: Optional;
  phone: Optional;
  details: string;
  /** an appeal's assessment: "unit" (assessments) or "hrw" (hrw_assessments) */
  assessment_kind: ColumnType<AssessmentKind | null, AssessmentKind | null | undefined, AssessmentKind | null>;
  assessment_id: Optional;
  /** whose decision an appeal is about */
  assessor_id: Optional;
  /** who an admin assigned to decide an appeal */
  decider_id: Optional;
  received_at: string;
  acknowledge_by: string;
  resolve_by: string;
  acknowledged_at: Optional;
  acknowledged_by: Optional;
  resolved_at: Optional;
  resolved_by: Optional;
  outcome: ColumnType<ComplaintOutcome | null, ComplaintOutcome | null | undefined, ComplaintOutcome | null>;
  reasons: Optional;
  /** JSON of the result an upheld appeal set, as applied to the assessment */
  changed_result: Optional;
}

export interface ComplaintSequenceTable {
  /** prefix and year, e.g. "C-2026" */
  series: string;
  last_value: number;
}

export interface ComplaintSettingsTable {
  key: string;
  value: string;
  updated_by: Optional;
  updated_at: string;
}

export interface ComplaintTables {
  complaints: ComplaintsTable;
  complaint_sequence: ComplaintSequenceTable;
  complaint_settings: ComplaintSettingsTable;
}
