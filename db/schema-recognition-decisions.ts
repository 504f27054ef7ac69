import type { ColumnType } from "kysely";
import type { RecognitionOutcome, RecognitionStatus } from "./schema-recognition";

/**
 * Every decision on a recognition application, kept when an upheld appeal reopens it
 * (migration 2026-12-04T2201). The application's own columns hold the current decision.
 */

type Optional = ColumnType<string | null, string | null | undefined, string | null>;

export interface RecognitionDecisionsTable {
  id: string;
  application_id: string;
  status: Exclude<RecognitionStatus, "applied">;
  outcome_code: ColumnType<RecognitionOutcome | null, RecognitionOutcome | null | undefined, RecognitionOutcome | null>;
  reasons: string;
  /** the RPL's assessor when it was decided */
  assessor_id: Optional;
  /** null for the refusal of a licence unit on application (the portal's rule, nobody's judgement) */
  decided_by: Optional;
  decided_on: string;
  decided_at: string;
  /** set when an upheld appeal set the decision aside */
  overturned_at: Optional;
  overturned_by_appeal: Optional;
}

export interface RecognitionDecisionTables {
  recognition_decisions: RecognitionDecisionsTable;
}
