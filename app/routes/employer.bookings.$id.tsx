import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/auth/guards.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { TitledCard } from "~/components/ui";
import { getDb } from "~/db.server";
import { getBooking } from "~/models/employer-view.server";
import { classDates } from "~/schemas/class-text";
import { CONSENT_LABELS, WORKER_STATE_LABELS } from "~/schemas/employer-text";
import { formatDate } from "~/utils/format";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "employer");
  return { booking: await getBooking(getDb(), user, params.id ?? "") };
}

export default function BookingPage() {
  const { booking } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle title={booking.course} subtitle={classDates(booking.start_date, booking.end_date)} />
      <TitledCard title="Seats">
        <p className="text-sm">
          {booking.seats} seats held, {booking.workers} workers named, {booking.accepted} accepted.{" "}
          {booking.released ? "Unfilled seats were released." : `Unfilled seats are released on ${formatDate(booking.release_on)}.`}
        </p>
      </TitledCard>
      <TitledCard title="Workers" className="mt-6">
        <ul className="divide-y divide-steel-100 text-sm">
          {booking.workerList.map((w) => (
            <li key={w.id} className="py-2">
              <Link to={`/employer/workers/${w.id}`} className="font-semibold text-hivis-800 underline-offset-4 hover:underline">
                {w.full_name}
              </Link>{" "}
              {WORKER_STATE_LABELS[w.state]}, {CONSENT_LABELS[w.consent]}
            </li>
          ))}
        </ul>
      </TitledCard>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Booking | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Booking" message="Booking not found" />;
}
