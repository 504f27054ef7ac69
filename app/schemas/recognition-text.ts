import type { RecognitionKind, RecognitionStatus } from "#db/schema-recognition";

/**
 * The words of credit transfer and RPL, zod-free so pages' browser code can read them (the
 * schemas are in recognition.ts, the rules in app/models/recognition/recognition.server.ts).
 */

export { EQUIVALENCES, RECOGNITION_KINDS, RECOGNITION_STATUSES } from "#db/schema-recognition";

export const EQUIVALENCE_LABELS = { same: "The same unit", equivalent: "An equivalent unit", superseding: "A unit this one supersedes" } as const;

export const DECISION_LABELS = { granted: "Granted", not_granted: "Not granted", refused: "Refused" } as const;

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
  enrollmentClosed: "Only a current enrolment can apply for recognition",
  notApplied: "This application has already been decided",
  noAuthentication: "Record how the other RTO's document was authenticated before granting the credit transfer",
  noAssessor: "Assign a credentialed assessor before deciding",
  // an RPL's judgement of competence is its assessor's alone; refusing a wrong application is the office's
  notAssessor: "Only the application's assessor decides whether an RPL is granted or not granted; an administrator may refuse it but never judge it",
  onlyAdminRefuses: "Only an administrator may refuse an application; its assessor decides granted or not granted",
  chooseAssessor: "Choose the assessor",
  chooseTrainer: "Choose an active trainer",
  chooseUnit: "Choose a unit",
  ownRtoCode: "Enter the code of the RTO that issued the document: a credit transfer recognises another RTO's document, and this is this RTO's own code",
  checklistUnmarked: "Mark every item of the unit's checklist before granting",
  noChecklist:
    "Mark every item of the unit's checklist before granting: the unit has no reviewed observation checklist yet, which an administrator writes and reviews",
  wrongKind: "That decision does not fit this kind of application",
  reasonsNeeded: "Give the reasons for the decision",
  creditedNoCertificate: "No statement of attainment is issued for a unit credited from another RTO's document: the learner holds that RTO's",
  heldUnitNeeded: "Name the unit the learner holds that is equivalent or superseded",
  earlierAssessor: "An appeal overturned this assessor's decision: choose another credentialed assessor to decide again",
} as const;
