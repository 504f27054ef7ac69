import { z } from "zod";
import { EQUIVALENCES, RECOGNITION_KINDS, RECOGNITION_STATUSES, type RecognitionKind, type RecognitionStatus } from "#db/schema-recognition";
import { calendarDate, optionalText, requiredText, uuid } from "./fields";
import { filterChoice, filterText } from "./list-filters";

/**
 * Credit transfer and recognition of prior learning: the forms and payloads the pages and /api
 * share (applying, authenticating a credit transfer's document, assigning an RPL assessor,
 * deciding) and the register's filters. Wording the pages print sits here with them.
 */

export const RECOGNITION_KIND_LABELS: Record<RecognitionKind, string> = {
  credit_transfer: "Credit transfer",
  rpl: "Recognition of prior learning",
};

export const RECOGNITION_STATUS_LABELS: Record<RecognitionStatus, string> = {
  applied: "Applied",
  granted: "Granted",
  not_granted: "Not granted",
  refused: "Refused",
};

/** How a recognised unit was achieved, as the record of results prints it. */
export const HOW_ACHIEVED: Record<"51" | "60", string> = {
  "51": "Recognition of prior learning",
  "60": "Credit transfer",
};

/** The name an appeal or an evidence page gives an application. */
export const recognitionTitle = (kind: RecognitionKind, unitCode: string) => `${RECOGNITION_KIND_LABELS[kind]}: ${unitCode}`;

export const RECOGNITION_MESSAGES = {
  licenceUnit: (licenceClass: string) =>
    `This unit leads to the ${licenceClass} high-risk work licence: it cannot be granted by credit transfer or RPL in place of the licence assessment, because the regulator issues the licence only on an accredited assessor's notice of satisfactory assessment. The learner completes the licence assessment.`,
  alreadyOpen: "An application for this unit is already being decided",
  alreadyRecognised: "This unit has already been granted",
  enrolmentClosed: "Only a current enrolment can apply for recognition",
  notApplied: "This application has already been decided",
  noAuthentication: "Record how the other RTO's document was authenticated before granting the credit transfer",
  noAssessor: "Assign a credentialed assessor before deciding",
  notAssessor: "Only the application's assessor (or an administrator) decides it",
  wrongKind: "That decision does not fit this kind of application",
  reasonsNeeded: "Give the reasons for the decision",
  creditedNoCertificate: "No statement of attainment is issued for a unit credited from another RTO's document: the learner holds that RTO's",
  heldUnitNeeded: "Name the unit the learner holds that is equivalent or superseded",
} as const;

const kind = z.enum(RECOGNITION_KINDS, { message: "Choose credit transfer or recognition of prior learning" });

/** A learner's (or staff's, on their behalf) application for one enrolment's unit. */
export const recognitionApplyInput = z.object({
  enrollment_id: uuid.describe("The enrolment whose unit is to be recognised"),
  kind: kind.describe("credit_transfer: another RTO's AQF certification document or VET transcript; rpl: evidence of competence"),
  statement: requiredText("What you hold or have done", 4000, { multiline: true }).describe("For credit transfer: the document and the issuing RTO; for RPL: the work done and where"),
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
    checked_on: calendarDate("Date checked", "2000-01-01"),
    equivalence: z.enum(EQUIVALENCES, { message: "Choose same unit, equivalent or superseding" }),
    held_unit_code: optionalText("Unit held", 20),
    mapping: optionalText("Mapping", 2000, { multiline: true }),
  })
  .refine((v) => v.equivalence === "same" || !!v.held_unit_code, { message: RECOGNITION_MESSAGES.heldUnitNeeded, path: ["held_unit_code"] });
export type RecognitionAuthenticateInput = z.infer<typeof recognitionAuthenticateInput>;

export const recognitionAssignInput = z.object({ assessor_id: uuid.describe("A trainer credentialed for the unit") });
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
