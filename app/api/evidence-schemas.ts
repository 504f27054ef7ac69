import { z } from "zod";
import { RECORD_TYPE_NAMES } from "~/schemas/evidence-text";
import type { EvidenceFile } from "~/models/evidence.server";
import { CHECKLIST_RESULTS, checklistBodySchema, checklistMarksSchema, destroySchema, SIGNATURE_ROLES, signatureSchema } from "~/schemas/evidence";
import { requests, responses } from "./schemas";

const instant = z.iso.datetime({ offset: true }).describe("ISO 8601 date-time");

/** One evidence file as GET /api/assessments/{kind}/{id}/evidence lists it; its bytes come from `download`. */
export const evidenceFileResponse = z
  .strictObject({
    id: z.uuid(),
    original_name: z.string(),
    media_type: z.string().describe("The type read from the file's own bytes, not the name it was sent with"),
    size_bytes: z.int().min(0),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .describe("SHA-256 of the stored bytes (photos and videos after their location data was removed)"),
    uploaded_at: instant,
    uploaded_by: z.strictObject({ id: z.uuid(), full_name: z.string() }),
    keep_until: z.string().nullable().describe("The day the file may be destroyed (YYYY-MM-DD), once the assessment has a result"),
    download: z.string().describe("The path that serves the file to the learner, the assessor and admins; each staff download is audited"),
  })
  .register(responses, { id: "EvidenceFile" });

/** The /api's path for one evidence file's bytes (a bearer token or the session cookie). */
export const evidenceDownloadPath = (id: string) => `/api/evidence/${id}/download`;

/** An evidence file as the /api shows it. */
export function evidenceFileJson(f: EvidenceFile): z.input<typeof evidenceFileResponse> {
  return {
    id: f.id,
    original_name: f.original_name,
    media_type: f.media_type,
    size_bytes: f.size_bytes,
    sha256: f.sha256,
    uploaded_at: f.uploaded_at,
    uploaded_by: f.uploaded_by,
    keep_until: f.keep_until,
    download: evidenceDownloadPath(f.id),
  };
}

/** The files one upload added. */
export const evidenceUploadResponse = z.strictObject({ files: z.array(evidenceFileResponse) }).register(responses, { id: "EvidenceUpload" });
export type EvidenceUploadResponse = z.input<typeof evidenceUploadResponse>;

/** An assessment's evidence: its files and the assessor's and candidate's declarations. */
export const evidenceListResponse = z
  .strictObject({
    files: z.array(evidenceFileResponse),
    signatures: z.array(z.strictObject({ role: z.enum(SIGNATURE_ROLES), full_name: z.string(), signed_at: instant })),
  })
  .register(responses, { id: "EvidenceList" });
export type EvidenceListResponse = z.input<typeof evidenceListResponse>;

/** An observation checklist as GET /api/admin/checklists lists it: only a reviewed one may be marked. */
export const checklistResponse = z
  .strictObject({
    id: z.uuid(),
    course: z.strictObject({ id: z.uuid(), name: z.string(), unit_code: z.string() }),
    title: z.string(),
    reviewed_at: instant.nullable().describe("When an admin reviewed it before use; trainers cannot mark it before then"),
    reviewed_by: z.uuid().nullable(),
    items: z.array(
      z.strictObject({
        id: z.uuid(),
        position: z.int().min(1),
        text: z.string().describe("What the assessor observes"),
        maps_to: z.string().describe("The unit's element or performance criterion, e.g. PC 2.3"),
        nai_part: z.string().nullable().describe("The National Assessment Instrument part, for licence courses"),
      }),
    ),
  })
  .register(responses, { id: "Checklist" });

const checklistResult = z.enum(Object.keys(CHECKLIST_RESULTS) as [keyof typeof CHECKLIST_RESULTS, ...(keyof typeof CHECKLIST_RESULTS)[]]);

/** A course's checklist with one assessment's marks, as the assessor marks it. */
export const assessmentChecklistResponse = z
  .strictObject({
    checklist: checklistResponse,
    marks: z.array(z.strictObject({ item_id: z.uuid(), result: checklistResult, comment: z.string().nullable(), marked_at: instant })),
  })
  .register(responses, { id: "AssessmentChecklist" });
export type AssessmentChecklistResponse = z.input<typeof assessmentChecklistResponse>;

/** A declaration as it was signed. */
export const signatureResponse = z
  .strictObject({ role: z.enum(SIGNATURE_ROLES), full_name: z.string(), signed_at: instant })
  .register(responses, { id: "Signature" });

/** What destruction leaves: what the record was, whose, its hashes, by whom and when. */
export const tombstoneResponse = z
  .strictObject({
    id: z.uuid(),
    record_type: z.string(),
    record_id: z.uuid(),
    subject_user_id: z.uuid().nullable(),
    description: z.string(),
    hashes: z.array(z.string()),
    destroyed_by: z.strictObject({ id: z.uuid(), full_name: z.string() }),
    destroyed_at: instant,
  })
  .register(responses, { id: "Tombstone" });
export const destroyedResponse = z.strictObject({ destroyed: z.array(tombstoneResponse) }).register(responses, { id: "RetentionDestroyed" });
export type DestroyedResponse = z.input<typeof destroyedResponse>;

export const checklistRequest = checklistBodySchema.strict().register(requests, { id: "ChecklistSave" });
/** A PUT's body: any of the fields, laid over the checklist (parsePartialInput checks the whole). */
export const checklistUpdateRequest = checklistBodySchema.partial().strict().register(requests, { id: "ChecklistUpdate" });
export const checklistMarksRequest = checklistMarksSchema.strict().register(requests, { id: "ChecklistMarks" });
export const signatureRequest = signatureSchema.strict().register(requests, { id: "SignatureCreate" });
export const destroyRequest = destroySchema.strict().register(requests, { id: "RetentionDestroy" });

const recordType = z.enum(RECORD_TYPE_NAMES);

/** The retention rules and the evidence past its keep-until day, as /admin/retention shows them. */
export const retentionResponse = z
  .strictObject({
    rules: z.array(
      z.strictObject({
        record_type: recordType,
        licence_class: z.string().describe("A licence class, or empty for every course"),
        keep_months: z.int().min(0).nullable().describe("Months kept after the result; null for ever"),
        source: z.string().describe("Where the period comes from"),
        updated_at: instant,
      }),
    ),
    due: z.array(
      z.strictObject({
        id: z.uuid(),
        record_type: z.literal("assessment_evidence"),
        description: z.string(),
        student: z.strictObject({ id: z.uuid(), full_name: z.string() }),
        keep_until: z.string().describe("YYYY-MM-DD"),
        hashes: z.array(z.string()),
      }),
    ),
  })
  .register(responses, { id: "Retention" });
export type RetentionResponse = z.input<typeof retentionResponse>;
