import { z } from "zod";
import { EQUIVALENCES, RECOGNITION_KINDS, RECOGNITION_STATUSES } from "#db/schema-recognition";
import { RECOGNITION_MESSAGES } from "./recognition-text";
import { chosenId, optionalText, pastCalendarDate, requiredText } from "./fields";
import { filterChoice, filterText } from "./list-filters";

export * from "./recognition-text";

/**
 * Credit transfer and recognition of prior learning: the forms and payloads the pages and /api
 * share (applying, authenticating a credit transfer's document, assigning an RPL assessor,
 * deciding) and the register's filters. Wording the pages print sits here with them.
 */

const kind = z.enum(RECOGNITION_KINDS, { message: "Choose credit transfer or recognition of prior learning" });

/** A learner's (or staff's, on their behalf) application for one enrolment's unit. */
export const recognitionApplyInput = z.object({
  enrollment_id: chosenId(RECOGNITION_MESSAGES.chooseUnit).describe("The enrolment whose unit is to be recognised"),
  kind: kind.describe("credit_transfer: another RTO's AQF certification document or VET transcript; rpl: evidence of competence"),
  statement: requiredText("What you hold or have done", 4000, { multiline: true }).describe(
    "For credit transfer: the document and the issuing RTO; for RPL: the work done and where",
  ),
});
export type RecognitionApplyInput = z.infer<typeof recognitionApplyInput>;

/** Staff's record of how a credit transfer's document was authenticated, and the equivalence. */
export const recognitionAuthenticateInput = z
  .object({
    issuing_rto_code: z
      .string({ message: "Issuing RTO code is required" })
      .trim()
      .regex(/^\d{4,5}$/, "Enter the issuing RTO's code (4 or 5 digits)"),
    document_number: requiredText("Document number", 60),
    checked_how: requiredText("How it was checked", 500, { multiline: true }),
    // a check cannot be dated after the day it is recorded, nor so after the grant that relies on it
    checked_on: pastCalendarDate("Date checked"),
    equivalence: z.enum(EQUIVALENCES, { message: "Choose same unit, equivalent or superseding" }),
    held_unit_code: optionalText("Unit held", 20),
    mapping: optionalText("Mapping", 2000, { multiline: true }),
  })
  .refine((v) => v.equivalence === "same" || !!v.held_unit_code, { message: RECOGNITION_MESSAGES.heldUnitNeeded, path: ["held_unit_code"] });
export type RecognitionAuthenticateInput = z.infer<typeof recognitionAuthenticateInput>;

export const recognitionAssignInput = z.object({ assessor_id: chosenId(RECOGNITION_MESSAGES.chooseAssessor).describe("A trainer credentialed for the unit") });
export type RecognitionAssignInput = z.infer<typeof recognitionAssignInput>;

/** granted / not_granted, or refused (with reasons), by staff. */
export const recognitionDecideInput = z.object({
  decision: z.enum(["granted", "not_granted", "refused"], { message: "Choose the decision" }),
  reasons: requiredText("Reasons", 4000, { multiline: true }),
});
export type RecognitionDecideInput = z.infer<typeof recognitionDecideInput>;

export const recognitionListQuery = z.object({
  kind: filterChoice("Kind", RECOGNITION_KINDS),
  status: filterChoice("Status", RECOGNITION_STATUSES),
  q: filterText("Search", 100),
});
export type RecognitionListQuery = z.infer<typeof recognitionListQuery>;
