import type { DB } from "#db/connection";
import type { EventRow } from "#db/schema";
import { listEventsForUser } from "./event.server";

/**
 * A user's notifications are the audit-trail events about them (enrolments, status changes,
 * certificates issued, account changes); those after the user last marked them read are unread.
 */
export type Notification = Pick<EventRow, "id" | "type" | "entity_type" | "message" | "created_at"> & { unread: boolean };

async function seenAt(db: DB, userId: string): Promise<string | null> {
  const row = await db.selectFrom("notification_reads").select("seen_at").where("user_id", "=", userId).executeTakeFirst();
  return row?.seen_at ?? null;
}

/** The newest notifications, each marked read or unread: `limit` of them after the first `offset`. */
export async function listNotifications(db: DB, userId: string, limit = 20, offset = 0): Promise<Notification[]> {
  const [events, seen] = await Promise.all([listEventsForUser(db, userId, limit, offset), seenAt(db, userId)]);
  return events.map((e) => ({
    id: e.id,
    type: e.type,
    entity_type: e.entity_type,
    message: e.message,
    created_at: e.created_at,
    unread: seen === null || e.created_at > seen,
  }));
}

/** How many notifications a user has, and how many arrived since they last marked them read: one query. */
async function countNotifications(db: DB, userId: string): Promise<{ total: number; unread: number }> {
  const row = await db
    .selectFrom("events")
    .leftJoin("notification_reads", "notification_reads.user_id", "events.subject_user_id")
    .select((eb) => [
      eb.fn.countAll().as("total"),
      eb.fn
        .sum<number | string | null>(
          eb
            .case()
            .when(eb.or([eb("notification_reads.seen_at", "is", null), eb("events.created_at", ">", eb.ref("notification_reads.seen_at"))]))
            .then(1)
            .else(0)
            .end(),
        )
        .as("unread"),
    ])
    .where("events.subject_user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), unread: Number(row.unread ?? 0) };
}

/** How many events arrived since the user last marked their notifications read (the badge). */
export async function countUnreadNotifications(db: DB, userId: string): Promise<number> {
  return (await countNotifications(db, userId)).unread;
}

export const NOTIFICATION_PAGE_SIZE = 20;

/**
 * One page of a user's notifications, newest first, with how many there are in all and unread
 * (the same count as the badge); a page past the end is the last one.
 */
export async function notificationsPage(
  db: DB,
  userId: string,
  page = 1,
): Promise<{ notifications: Notification[]; total: number; unread: number; page: number; pages: number }> {
  const { total, unread } = await countNotifications(db, userId);
  const pages = Math.max(1, Math.ceil(total / NOTIFICATION_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pages);
  const notifications = await listNotifications(db, userId, NOTIFICATION_PAGE_SIZE, (current - 1) * NOTIFICATION_PAGE_SIZE);
  return { notifications, total, unread, page: current, pages };
}

export async function markNotificationsRead(db: DB, userId: string, now = new Date()): Promise<void> {
  const seen_at = now.toISOString();
  await db
    .insertInto("notification_reads")
    .values({ user_id: userId, seen_at })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ seen_at }))
    .execute();
}
