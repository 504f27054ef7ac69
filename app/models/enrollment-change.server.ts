import type { UpdateQueryBuilder, UpdateResult, Updateable } from "kysely";
import { atCommit, writeLater, type WriteTransaction } from "#db/connection";
import type { Database, EnrollmentsTable } from "#db/schema";
import { ENROLLMENT_PAYLOAD_COLUMNS } from "~/schemas/webhooks";
import { queueWebhookEvent } from "./webhook-events.server";

/**
 * The one way an enrolment row is changed once made, so that webhook receivers hear of every
 * change: a new update of an enrolment's status, progress, class or dates cannot forget to tell
 * them. (A test reads app/ for any other update of the table.)
 *
 * What is told is gathered while the transaction runs and queued just before it commits, once
 * per enrolment: one change made of several updates (a class chosen and its dates set) is one
 * enrolment.changed, and an enrolment made in the transaction is told once, as enrolment.created,
 * whatever else the transaction did to it. Either carries the enrolment as the transaction left it.
 */

type EnrollmentUpdate = UpdateQueryBuilder<Database, "enrollments", "enrollments", UpdateResult>;
type EnrollmentValues = Updateable<EnrollmentsTable>;

/**
 * The columns whose change receivers hear of: those an enrolment event shows, but for the ids an
 * enrolment keeps and updated_at (which every write touches), and the planned dates. The review's
 * outcome and a bare touch of updated_at are not a change of the enrolment they follow.
 */
const UNTOLD: readonly string[] = ["id", "student_id", "course_id", "updated_at"];
const TOLD_COLUMNS: readonly (keyof EnrollmentValues)[] = [
  ...ENROLLMENT_PAYLOAD_COLUMNS.filter((column) => !UNTOLD.includes(column)),
  "planned_start_date",
  "planned_end_date",
];

function tells(set: EnrollmentValues): boolean {
  return TOLD_COLUMNS.some((column) => set[column] !== undefined);
}

interface Told {
  id: string;
  created: boolean;
  /** the moment of the change, as its writer recorded it */
  now: string;
}

const ENROLLMENT_EVENTS = Symbol("enrollment webhook events");

async function queueTold(trx: WriteTransaction, items: Told[]): Promise<void> {
  const byId = new Map<string, Told>();
  // a creation stays a creation; of several changes, the last one's moment names the event
  for (const item of items) if (!byId.get(item.id)?.created) byId.set(item.id, item);
  for (const { id, created, now } of byId.values()) {
    await queueWebhookEvent(
      trx,
      created ? { type: "enrolment.created", subjectId: id, now } : { type: "enrolment.changed", subjectId: id, cause: `${id}:${now}`, now },
    );
  }
}

async function tell(trx: WriteTransaction, told: Told): Promise<void> {
  const pending = atCommit(trx, ENROLLMENT_EVENTS, queueTold);
  // a transaction writeTransaction did not open has no commit step: its event is queued at once
  if (pending) pending.push(told);
  else await queueTold(trx, [told]);
}

/** An enrolment made in this transaction: receivers hear of it once, as it stands when the transaction ends. */
export async function enrollmentCreated(trx: WriteTransaction, input: { id: string; now: string }): Promise<void> {
  await tell(trx, { id: input.id, created: true, now: input.now });
}

/** What changeEnrollments reads back of each enrolment it changed (the values after the change). */
export type ChangedEnrollment = { id: string; student_id: string; class_id: string | null };

/**
 * Changes the enrolments `where` picks, now, and returns them; each one changed whose status,
 * progress, class or dates were set is told to webhook receivers (enrolment.changed) with the
 * transaction's commit. A `where` that makes the write conditional on what was read (a status
 * guard) returns no row when someone else got there first.
 */
export async function changeEnrollments(
  trx: WriteTransaction,
  change: { set: EnrollmentValues; where: (update: EnrollmentUpdate) => EnrollmentUpdate; now: string },
): Promise<ChangedEnrollment[]> {
  const changed = await change.where(trx.updateTable("enrollments").set(change.set)).returning(["id", "student_id", "class_id"]).execute();
  if (tells(change.set)) for (const { id } of changed) await tell(trx, { id, created: false, now: change.now });
  return changed;
}

/**
 * Changes one enrolment with writeLater (sent with the commit where the transaction asked for
 * that), for a writer that knows the row is there and reads nothing back: told as changeEnrollments tells.
 */
export async function changeEnrollmentLater(
  trx: WriteTransaction,
  change: { id: string; set: EnrollmentValues; where?: (update: EnrollmentUpdate) => EnrollmentUpdate; now: string },
): Promise<void> {
  const update = trx.updateTable("enrollments").set(change.set).where("id", "=", change.id);
  await writeLater(trx, change.where ? change.where(update) : update);
  if (tells(change.set)) await tell(trx, { id: change.id, created: false, now: change.now });
}
