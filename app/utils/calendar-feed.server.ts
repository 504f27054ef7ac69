import type { DB } from "#db/connection";
import { calendarFeedCreatedAt, calendarFeedPath, renewCalendarFeed } from "~/models/calendar.server";
import { FEED_RENEWED } from "~/schemas/class-text";
import { documentOrigin } from "~/utils/public-link.server";

/** The calendar page's data: whether the person has a feed address (its token is never stored in the clear). */
export async function calendarPageData(db: DB, userId: string) {
  return { createdAt: await calendarFeedCreatedAt(db, userId) };
}

/**
 * Makes a new feed address (the old one stops working) and answers with it: shown once, on the
 * page the form posted from, with or without JavaScript.
 */
export async function renewCalendarAction(db: DB, userId: string) {
  const token = await renewCalendarFeed(db, userId);
  return { url: `${documentOrigin()}${calendarFeedPath(token)}`, toast: { type: "success" as const, message: FEED_RENEWED } };
}
