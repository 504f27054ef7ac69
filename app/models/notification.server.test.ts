import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { up as removeOwnEditNotifications } from "../../migrations/2026-11-28T0300_own_edit_notifications";
import { makeUser } from "../../tests/support/factories";
import { createTestDb } from "../../tests/support/test-db";
import { recordEvent } from "./event.server";
import { countUnreadNotifications, markNotificationsRead, NOTIFICATION_PAGE_SIZE, notificationsPage } from "./notification.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb()));
afterAll(() => cleanup());

const minute = (n: number) => new Date(Date.UTC(2026, 10, 1, 0, n)).toISOString();

describe("notifications, page by page", () => {
  it("count all and unread in the database and page through every one, newest first", async () => {
    const { id } = await makeUser(db);
    const total = NOTIFICATION_PAGE_SIZE + 5;
    for (let n = 0; n < total; n++) {
      await recordEvent(db, {
        actorId: null,
        subjectUserId: id,
        type: "enrollment.status",
        entityType: "enrollment",
        entityId: null,
        message: `Change ${n}`,
        now: minute(n),
      });
    }
    await markNotificationsRead(db, id, new Date(minute(4)));
    // five read (minutes 0 to 4), the rest unread: the page says what the badge says
    const first = await notificationsPage(db, id, 1);
    expect(first).toMatchObject({ total, unread: total - 5, page: 1, pages: 2 });
    expect(await countUnreadNotifications(db, id)).toBe(total - 5);
    expect(first.notifications).toHaveLength(NOTIFICATION_PAGE_SIZE);
    expect(first.notifications[0]).toMatchObject({ message: `Change ${total - 1}`, unread: true });

    const second = await notificationsPage(db, id, 2);
    expect(second.notifications.map((n) => n.message)).toEqual(["Change 4", "Change 3", "Change 2", "Change 1", "Change 0"]);
    expect(second.notifications.every((n) => !n.unread)).toBe(true);
    // the two pages hold every notification once
    const ids = new Set([...first.notifications, ...second.notifications].map((n) => n.id));
    expect(ids.size).toBe(total);

    // a page past the end is the last one
    expect((await notificationsPage(db, id, 9)).page).toBe(2);
  });

  it("has one empty page for someone with none", async () => {
    const { id } = await makeUser(db);
    expect(await notificationsPage(db, id, 1)).toEqual({ notifications: [], total: 0, unread: 0, page: 1, pages: 1 });
  });

  it("drops the notices of one's own profile edits written before (migration), keeping the office's and others'", async () => {
    const { id } = await makeUser(db);
    const staff = await makeUser(db, { role: "admin" });
    const event = (actorId: string, type: string, message: string, n: number) =>
      recordEvent(db, { actorId, subjectUserId: id, type, entityType: "user", entityId: id, message, now: minute(n) });
    await event(id, "profile.updated", "Your contact details were updated", 1);
    await event(id, "profile.updated", "Your enrolment details were updated", 2);
    await event(staff.id, "student.updated", "Record updated by the training office", 3);
    await event(id, "password.reset", "Your password was changed", 4);
    await removeOwnEditNotifications(db);
    const left = await notificationsPage(db, id, 1);
    expect(left.notifications.map((n) => n.type)).toEqual(["password.reset", "student.updated"]);
    expect(left.total).toBe(2);
  });
});
