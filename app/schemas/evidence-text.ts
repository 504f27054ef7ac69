/**
 * An observation checklist item's result and its words on the page, without zod
 * (app/schemas/evidence.ts validates them): the evidence page shows them in the browser.
 */
export const CHECKLIST_RESULTS = { satisfactory: "Satisfactory", not_yet: "Not yet satisfactory" } as const;
export type ChecklistResult = keyof typeof CHECKLIST_RESULTS;

/**
 * The record types a retention rule is for, their words on the Retention page and what may be
 * done with them (app/models/retention.server.ts enforces it): only assessment evidence is ever
 * destroyed; the audit trail's rule cannot change. Without zod and outside a .server module,
 * because the page shows these words in the browser too.
 */
export const RECORD_TYPES = {
  assessment_evidence: { label: "Completed assessment evidence", destructible: true, editable: true },
  certification_record: { label: "Certification records", destructible: false, editable: true },
  audit_trail: { label: "The audit trail", destructible: false, editable: false },
} as const;
export type RecordType = keyof typeof RECORD_TYPES;
export const RECORD_TYPE_NAMES = Object.keys(RECORD_TYPES) as [RecordType, ...RecordType[]];
