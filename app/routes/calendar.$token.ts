import type { LoaderFunctionArgs } from "@remix-run/node";
import { getDb } from "~/db.server";
import { env } from "~/env.server";
import { calendarFeed } from "~/models/calendar.server";
import { fileNotFound } from "~/route-helpers/file-refusal.server";

/**
 * GET /calendar/{token}.ics: a person's private iCalendar feed. Calendar apps fetch it without
 * signing in, so the random token is the credential; an unknown or renewed one is a 404.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const token = (params.token ?? "").replace(/\.ics$/, "");
  const text = await calendarFeed(getDb(), token, env().RTO_NAME);
  if (text === null) return fileNotFound("Calendar not found");
  return new Response(text, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="classes.ics"',
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
