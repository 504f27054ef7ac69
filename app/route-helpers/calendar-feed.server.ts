import type { DB } from "#db/connection";
import { calendarFeedCreatedAt, calendarFeedPath, makeCalendarFeed } from "~/models/calendar.server";
import { FEED_MADE, FEED_RENEWED } from "~/schemas/class-text";
import { formFailure } from "~/utils/form-action.server";
import { formIntent } from "~/utils/form-intent.server";
import { isDomainError } from "~/utils/errors";
import { documentOrigin } from "~/utils/public-link.server";

/** The calendar page's data: whether the person has a feed address (its token is never stored in the clear). */
export async function calendarPageData(db: DB, userId: string) {
  return { createdAt: await calendarFeedCreatedAt(db, userId) };
}

/**
 * Makes the person's feed address and answers with it: shown once, on the page the form posted
 * from, with or without JavaScript. Only the confirmed "make a new address" form (intent
 * `replace`) ends an address that exists; the toast says so only then.
 */
export async function makeCalendarAction(db: DB, userId: string, request: Request) {
  const replace = (await formIntent(request)) === "replace";
  try {
    const { token, replaced } = await makeCalendarFeed(db, userId, { replace });
    return { url: `${documentOrigin()}${calendarFeedPath(token)}`, toast: { type: "success" as const, message: replaced ? FEED_RENEWED : FEED_MADE } };
  } catch (error) {
    if (isDomainError(error)) return formFailure(error.message, { status: error.status });
    throw error;
  }
}
