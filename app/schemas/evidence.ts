import { z } from "zod";
import type { AssessmentKind } from "#db/schema-evidence";
import { uuid } from "./fields";
import { licenceClass } from "./hrw";
import { CHECKLIST_RESULTS, RECORD_TYPE_NAMES, type ChecklistResult } from "./evidence-text";

export { CHECKLIST_RESULTS, type ChecklistResult } from "./evidence-text";

/** One assessment of either kind, as evidence, checklists, signatures and retention name it. */
export interface AssessmentRef {
  kind: AssessmentKind;
  id: string;
}

export const ASSESSMENT_KINDS = ["unit", "hrw"] as const satisfies readonly AssessmentKind[];
export const SIGNATURE_ROLES = ["assessor", "candidate"] as const;
export type SignatureRole = (typeof SIGNATURE_ROLES)[number];

const CHECKLIST_RESULT_NAMES = Object.keys(CHECKLIST_RESULTS) as [ChecklistResult, ...ChecklistResult[]];

/** An assessment named in a URL: /trainer/evidence/:kind/:id, /api/assessments/:kind/:id/evidence. */
export const assessmentRefSchema = z.object({ kind: z.enum(ASSESSMENT_KINDS), id: uuid });

/**
 * An assessment or a recognition application (an RPL assessed against the unit's checklist, a
 * decision appealed): the assessor's evidence page and the learner's appeal page take both.
 */
export const decisionRefSchema = z.object({ kind: z.enum([...ASSESSMENT_KINDS, "recognition"]), id: uuid });

export const signatureSchema = z.object({
  role: z.enum(SIGNATURE_ROLES, { message: "Choose whose declaration this is" }),
  full_name: z.string({ message: "Type the full name" }).trim().min(2, "Type the full name").max(200, "At most 200 characters"),
});

/** An admin's edit of a retention rule (the audit trail's is not editable: the model refuses it). */
export const retentionRuleSchema = z.object({
  record_type: z.enum(RECORD_TYPE_NAMES, { message: "Choose a record type" }),
  /** blank or left out: the rule of every class; otherwise one of the licence classes courses name, in the list's own words when not */
  licence_class: z.preprocess((v) => (v === "" ? undefined : v), licenceClass.optional()).transform((v) => v ?? ""),
  keep_months: z.coerce.number({ message: "Enter a number of months" }).int("Whole months").min(1, "At least 1 month").max(1200, "At most 1200 months"),
  source: z.string().trim().min(3, "Say where the period comes from").max(300, "At most 300 characters"),
});

/** The admin's approval of destruction: the chosen items and the confirmation. */
export const destroySchema = z.object({
  ids: z.array(uuid).min(1, "Choose at least one item to destroy"),
  confirm: z.literal("yes", { message: "Tick the box to confirm the destruction" }),
});

/** One checklist item: the unit element or criterion it maps to, what is observed, the NAI part (licence courses). */
export const checklistItemSchema = z.object({
  maps_to: z
    .string({ message: "Say which element or criterion it maps to" })
    .trim()
    .min(1, "Say which element or criterion it maps to")
    .max(60, "At most 60 characters"),
  text: z.string({ message: "Say what is observed" }).trim().min(1, "Say what is observed").max(500, "At most 500 characters"),
  nai_part: z
    .string()
    .trim()
    .max(60, "At most 60 characters")
    .nullish()
    .transform((v) => v || null),
});

const checklistTitle = z.string({ message: "Give the checklist a title" }).trim().min(3, "Give the checklist a title").max(200, "At most 200 characters");

/** A checklist as the /api takes it: the course, a title and its items in order. */
export const checklistBodySchema = z.object({
  course_id: uuid,
  title: checklistTitle,
  items: z.array(checklistItemSchema.strict(), { message: "Add at least one item" }).min(1, "Add at least one item").max(100, "At most 100 items"),
});

/**
 * An admin's checklist: its items one a line, "maps to | what is observed | NAI part (licence
 * courses; optional)", e.g. "PC 2.3 | Checks the load chart for the radius | practical".
 */
export const checklistSchema = z.object({
  id: uuid.optional(),
  course_id: uuid,
  title: checklistTitle,
  items: z.string({ message: "Add at least one item" }).transform((text, ctx) => {
    const lines = text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    const items = lines.map((line) => {
      const [maps_to = "", text = "", nai_part = ""] = line.split("|").map((p) => p.trim());
      return checklistItemSchema.safeParse({ maps_to, text, nai_part });
    });
    if (items.length === 0 || items.some((i) => !i.success)) {
      ctx.addIssue({ code: "custom", message: "One item a line: maps to | what is observed | NAI part (optional)" });
      return z.NEVER;
    }
    return items.map((i) => i.data!);
  }),
});

/** The assessor's marks of one checklist: result_ITEMID and comment_ITEMID for each item. */
export function checklistMarksInput(form: FormData): {
  checklist_id: string;
  marks: { item_id: string; result: ChecklistResult | null; comment: string | null }[];
} {
  const marks = new Map<string, { item_id: string; result: ChecklistResult | null; comment: string | null }>();
  for (const [key, value] of form.entries()) {
    const m = /^(result|comment)_([0-9a-f-]{36})$/.exec(key);
    if (!m || typeof value !== "string") continue;
    const mark = marks.get(m[2]!) ?? { item_id: m[2]!, result: null, comment: null };
    if (m[1] === "result") mark.result = value in CHECKLIST_RESULTS ? (value as ChecklistResult) : null;
    else mark.comment = value.trim().slice(0, 1000) || null;
    marks.set(m[2]!, mark);
  }
  return { checklist_id: String(form.get("checklist_id") ?? ""), marks: [...marks.values()] };
}

export const checklistMarksSchema = z.object({
  checklist_id: uuid,
  marks: z.array(z.object({ item_id: uuid, result: z.enum(CHECKLIST_RESULT_NAMES).nullable(), comment: z.string().max(1000).nullable() })),
});
