import { z } from "zod";
import type { AssessmentKind } from "#db/schema-evidence";
import { uuid } from "./fields";

export const ASSESSMENT_KINDS = ["unit", "hrw"] as const satisfies readonly AssessmentKind[];
export const SIGNATURE_ROLES = ["assessor", "candidate"] as const;
export type SignatureRole = (typeof SIGNATURE_ROLES)[number];

/** An assessment named in a URL: /trainer/evidence/:kind/:id, /api/assessments/:kind/:id/evidence. */
export const assessmentRefSchema = z.object({ kind: z.enum(ASSESSMENT_KINDS), id: uuid });

export const signatureSchema = z.object({
  role: z.enum(SIGNATURE_ROLES, { message: "Choose whose declaration this is" }),
  full_name: z.string({ message: "Type the full name" }).trim().min(2, "Type the full name").max(200, "At most 200 characters"),
});

/** An admin's edit of a retention rule (the audit trail's is not editable: the model refuses it). */
export const retentionRuleSchema = z.object({
  record_type: z.enum(["assessment_evidence", "certification_record", "audit_trail"], { message: "Choose a record type" }),
  licence_class: z.string().trim().max(10, "At most 10 characters").default(""),
  keep_months: z.coerce.number({ message: "Enter a number of months" }).int("Whole months").min(1, "At least 1 month").max(1200, "At most 1200 months"),
  source: z.string().trim().min(3, "Say where the period comes from").max(300, "At most 300 characters"),
});

/** The admin's approval of destruction: the chosen items and the confirmation. */
export const destroySchema = z.object({
  ids: z.array(uuid).min(1, "Choose at least one item to destroy"),
  confirm: z.literal("yes", { message: "Tick the box to confirm the destruction" }),
});
