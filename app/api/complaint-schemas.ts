import { z } from "zod";
import { appealInput, assignDeciderInput, complaintInput, resolveInput } from "~/schemas/complaint";
import { COMPLAINT_KINDS, COMPLAINT_OUTCOMES, COMPLAINT_STATUSES } from "~/schemas/complaint-text";
import { improvementCreateSchema } from "~/schemas/improvement";
import { ASSESSMENT_KINDS } from "~/schemas/evidence";
import { requests, responses } from "./schemas";

/** Complaints and appeals over /api: the pages' schemas made strict, and the register's answers. */

export const complaintRequest = complaintInput.strict().register(requests, { id: "ComplaintLodge" });
export const appealRequest = appealInput.strict().register(requests, { id: "AppealLodge" });
export const assignDeciderRequest = assignDeciderInput.strict().register(requests, { id: "AppealAssign" });
export const resolveRequest = resolveInput.strict().register(requests, { id: "ComplaintResolve" });
/** Acknowledging asks nothing: an empty object, or no body at all. */
export const acknowledgeRequest = z.strictObject({}).register(requests, { id: "ComplaintAcknowledge" });
/** An improvement action raised from an item: its source is the item itself. */
export const itemImprovementRequest = improvementCreateSchema
  .pick({ description: true, owner_id: true, due_date: true })
  .strict()
  .register(requests, { id: "ComplaintImprovement" });

const instant = z.iso.datetime({ offset: true }).describe("ISO 8601 date-time");
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe("YYYY-MM-DD, a day on the organisation's calendar");
const person = z.strictObject({ id: z.uuid(), full_name: z.string() });

export const lodgedResponse = z
  .strictObject({
    id: z.uuid(),
    reference: z.string().describe("C-YYYY-NNNN for a complaint, A-YYYY-NNNN for an appeal"),
    acknowledge_by: day,
    resolve_by: day,
    mailed: z.boolean().describe("Whether an acknowledgement mail was queued (not when no address was left)"),
  })
  .register(responses, { id: "ComplaintLodged" });
export type LodgedResponse = z.input<typeof lodgedResponse>;

export const complaintResponse = z
  .strictObject({
    id: z.uuid(),
    kind: z.enum(COMPLAINT_KINDS),
    reference: z.string(),
    status: z.enum(COMPLAINT_STATUSES),
    lodged_by: z.uuid().nullable().describe("The account that lodged it; null for a visitor"),
    name: z.string().nullable().describe("The name given, else the account's; null when anonymous"),
    email: z.string().nullable().describe("Administrators and the person who lodged it only"),
    phone: z.string().nullable().describe("Administrators and the person who lodged it only"),
    details: z.string(),
    assessment_kind: z.enum([...ASSESSMENT_KINDS, "recognition"]).nullable(),
    assessment_id: z.uuid().nullable(),
    assessment_title: z.string().nullable(),
    assessor: person.nullable().describe("An appeal's assessor: never its decider"),
    decider: person.nullable(),
    received_at: instant,
    acknowledge_by: day,
    resolve_by: day,
    acknowledged_at: instant.nullable(),
    acknowledged_by: person.nullable(),
    resolved_at: instant.nullable(),
    resolved_by: person.nullable(),
    outcome: z.enum(COMPLAINT_OUTCOMES).nullable(),
    reasons: z.string().nullable(),
    changed_result: z.string().nullable().describe("An upheld appeal's changed result, as JSON: {status} for a unit, {part, result} for a licence part"),
    overdue: z.enum(["acknowledge", "resolve"]).nullable().describe("Which clock it has run past today, if any"),
  })
  .register(responses, { id: "ComplaintItem" });
export type ComplaintResponse = z.input<typeof complaintResponse>;
