import type { DB } from "#db/connection";
import { listEventsForUser } from "./event.server";

/**
 * A user's notifications are the audit-trail events about them (enrolments, status changes,
 * certificates issued, account changes); those after the user last marked them read are unread.
 */
export interface Notification {
  id: string;
  type: string;
  entity_type: string;
  message: string;
  created_at: string;
  unread: boolean;
}

async function seenAt(db: DB, userId: string): Promise<string | null> {
  const row = await db.selectFrom("notification_reads").select("seen_at").where("user_id", "=", userId).executeTakeFirst();
  return row?.seen_at ?? null;
}

/** The newest notifications, each marked read or unread. */
export async function listNotifications(db: DB, userId: string, limit = 20): Promise<Notification[]> {
  const [events, seen] = await Promise.all([listEventsForUser(db, userId, limit), seenAt(db, userId)]);
  return events.map((e) => ({
    id: e.id,
    type: e.type,
    entity_type: e.entity_type,
    message: e.message,
    created_at: e.created_at,
    unread: seen === null || e.created_at > seen,
  }));
}

/** How many events arrived since the user last marked their notifications read. */
export async function countUnreadNotifications(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom("events")
    .leftJoin("notification_reads", "notification_reads.user_id", "events.subject_user_id")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("events.subject_user_id", "=", userId)
    .where((eb) =>
      eb.or([eb("notification_reads.seen_at", "is", null), eb("events.created_at", ">", eb.ref("notification_reads.seen_at"))]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function markNotificationsRead(db: DB, userId: string, now = new Date()): Promise<void> {
  const seen_at = now.toISOString();
  await db
    .insertInto("notification_reads")
    .values({ user_id: userId, seen_at })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ seen_at }))
    .execute();
}
