import { z } from "zod";
import { filterChoice, filteredListQuery, filterText } from "./list-filters";
import { calendarDate, optionalText, requiredText } from "./fields";
import { IMPROVEMENT_SOURCES, IMPROVEMENT_STATUSES } from "./improvement-text";

/**
 * The improvement register's forms and /api bodies (the same schema for both). The rule that a
 * closed action needs what was done and its evidence lives in the model (improvement.server.ts),
 * so a form, an /api call and a script meet the same refusal.
 */

export const improvementSource = z.enum(IMPROVEMENT_SOURCES, { message: `Source must be one of ${IMPROVEMENT_SOURCES.join(", ")}` });

const sourceId = optionalText("Source reference", 100).describe(
  "The record the action comes from, as given: a complaint's or appeal's id or reference, a validation's id, a questionnaire question's id (each must name one of that kind, else 422 at source_id; required for those kinds); for an audit or other, free text",
);
const description = requiredText("Description", 2000, { multiline: true }).describe("What is to be improved");
const ownerId = z.string({ message: "Choose an owner" }).uuid("Choose an owner").describe("The staff member (trainer or administrator) who owns the action");
const dueDate = calendarDate("Due date", "2000-01-01").describe("YYYY-MM-DD, a day on the organisation's calendar");
const actionTaken = optionalText("What was done", 4000, { multiline: true }).describe("What was done about it");
const closureEvidence = optionalText("Closure evidence", 4000, { multiline: true }).describe(
  "What shows it was done: a document's name and where it is kept, a record, an observation",
);

export const improvementCreateSchema = z.object({
  source_type: improvementSource,
  source_id: sourceId,
  description,
  owner_id: ownerId,
  due_date: dueDate,
});
export type ImprovementCreateInput = z.infer<typeof improvementCreateSchema>;

/** An open action's edit: its text, owner, due day and progress (closing is its own step). */
export const improvementUpdateSchema = z.object({
  description,
  owner_id: ownerId,
  due_date: dueDate,
  status: z.enum(["open", "in_progress"], { message: "Status must be open or in_progress (close the action with its evidence)" }),
  action_taken: actionTaken,
});
export type ImprovementUpdateInput = z.infer<typeof improvementUpdateSchema>;

export const improvementCloseSchema = z.object({ action_taken: actionTaken, closure_evidence: closureEvidence });
export type ImprovementCloseInput = z.infer<typeof improvementCloseSchema>;

/** The register's filters, for /admin/improvements, its CSV and GET /api/admin/improvements; the days are due days. */
export const improvementListQuery = filteredListQuery(
  {
    status: filterChoice("status", IMPROVEMENT_STATUSES),
    source_type: filterChoice("source_type", IMPROVEMENT_SOURCES),
    owner: filterText("owner", 36).describe("An owner's user id"),
    overdue: filterChoice("overdue", ["1"]).describe("1: only actions past their due day and not closed"),
  },
  { from: "First due day, YYYY-MM-DD (organisation's calendar)", to: "Last due day, YYYY-MM-DD (organisation's calendar)" },
);
export type ImprovementListQuery = z.infer<typeof improvementListQuery>;
export const IMPROVEMENT_FILTERS = ["status", "source_type", "owner", "overdue", "from", "to"] as const;

/** GET /admin/improvements/new?source_type=&source_id=: the source to prefill, or none. */
export const improvementPrefillQuery = z.object({
  source_type: improvementSource.optional().catch(undefined),
  source_id: z.string().trim().max(100).optional().catch(undefined),
});
