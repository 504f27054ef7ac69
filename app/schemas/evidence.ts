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
