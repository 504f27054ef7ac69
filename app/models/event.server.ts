import crypto from "node:crypto";
import { writeLater, type DB } from "#db/connection";
import type { EventRow } from "#db/schema";

export interface NewEvent {
  actorId: string | null;
  subjectUserId: string | null;
  type: string;
  entityType: string;
  entityId: string | null;
  message: string;
  now?: string;
}

/** Appends to the audit trail; call inside the transaction that makes the change. */
export async function recordEvent(db: DB, event: NewEvent): Promise<void> {
  await writeLater(
    db,
    db.insertInto("events").values({
      id: crypto.randomUUID(),
      actor_id: event.actorId,
      subject_user_id: event.subjectUserId,
      type: event.type,
      entity_type: event.entityType,
      entity_id: event.entityId,
      message: event.message,
      created_at: event.now ?? new Date().toISOString(),
    }),
  );
}

/** The events about one user (a student's notifications), newest first, `limit` after the first `offset`. */
export function listEventsForUser(db: DB, userId: string, limit = 10, offset = 0): Promise<EventRow[]> {
  return (
    db
      .selectFrom("events")
      .selectAll()
      .where("subject_user_id", "=", userId)
      .orderBy("created_at", "desc")
      // the same instant twice (one transaction's events) still pages in one order
      .orderBy("id", "desc")
      .limit(limit)
      .offset(offset)
      .execute()
  );
}
