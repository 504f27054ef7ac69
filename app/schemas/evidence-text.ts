/**
 * An observation checklist item's result and its words on the page, without zod
 * (app/schemas/evidence.ts validates them): the evidence page shows them in the browser.
 */
export const CHECKLIST_RESULTS = { satisfactory: "Satisfactory", not_yet: "Not yet satisfactory" } as const;
export type ChecklistResult = keyof typeof CHECKLIST_RESULTS;
