import { z } from "zod";
import { RECORD_TYPES, type RecordType } from "~/models/retention.server";
import { SIGNATURE_ROLES } from "~/schemas/evidence";
import { responses } from "./schemas";

const instant = z.iso.datetime({ offset: true }).describe("ISO 8601 date-time");

/** One evidence file as GET /api/assessments/{kind}/{id}/evidence lists it; its bytes come from `download`. */
export const evidenceFileResponse = z
  .strictObject({
    id: z.uuid(),
    original_name: z.string(),
    media_type: z.string().describe("The type read from the file's own bytes, not the name it was sent with"),
    size_bytes: z.int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/).describe("SHA-256 of the stored bytes (photos after their location data was removed)"),
    uploaded_at: instant,
    uploaded_by: z.strictObject({ id: z.uuid(), full_name: z.string() }),
    keep_until: z.string().nullable().describe("The day the file may be destroyed (YYYY-MM-DD), once the assessment has a result"),
    download: z.string().describe("The path that serves the file to the learner, the assessor and admins; each staff download is audited"),
  })
  .register(responses, { id: "EvidenceFile" });

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

const recordType = z.enum(Object.keys(RECORD_TYPES) as [RecordType, ...RecordType[]]);

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
