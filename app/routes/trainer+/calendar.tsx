import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireRole, calendarPageData, makeCalendarAction, getDb } from "~/routes/trainer+/calendar.server";
import { CalendarFeedPage } from "~/components/calendar-feed";
import { RouteError } from "~/components/route-error";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "trainer");
  return calendarPageData(getDb(), user.id);
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "trainer");
  return makeCalendarAction(getDb(), user.id, request);
}

export default function Calendar() {
  const { createdAt } = useLoaderData<typeof loader>();
  return <CalendarFeedPage createdAt={createdAt} result={useActionData<typeof action>()} what="classes and the classes you teach" />;
}

export const meta: MetaFunction = () => [{ title: "Calendar feed | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Calendar feed" message="Failed to load your calendar feed" />;
}
