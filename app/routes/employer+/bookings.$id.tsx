import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  clientAddress,
  invitationLink,
  getBooking,
  addWorkers,
  redirectWithFlash,
  answerForm,
  readOrRefuse,
} from "~/routes/employer+/bookings.$id.server";
import { PriceSummary } from "~/components/employer/price-summary";
import { WorkerRows } from "~/components/employer/worker-rows";
import { InvoiceStatusBadge } from "~/components/finance/invoice-status";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { ErrorSummary, SubmitButton, TitledCard } from "~/components/ui";
import { classDates } from "~/schemas/class-text";
import { addWorkersSchema, workerFormErrors, workerRefusalErrors, workerRows } from "~/schemas/employer";
import { CONSENT_LABELS, WORKER_STATE_LABELS, WORKERS_ADDED } from "~/schemas/employer-text";
import { formatCents, formatDate, plural } from "~/utils/format";
import { formToObject } from "~/utils/validation";

/** Rows offered at once: a booking of many seats names its workers in several goes. */
const MAX_ROWS = 6;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "employer");
  // an unknown id, or another organisation's booking, is the page's 404, never a server error
  return { booking: await readOrRefuse(() => getBooking(getDb(), user, params.id ?? "")) };
}

/** Names more workers on the booking, up to the seats it holds; each is mailed an invitation. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, "employer");
  const bookingId = params.id ?? "";
  return answerForm(request, {
    schema: addWorkersSchema,
    requires: ["worker_name_0", "worker_email_0"],
    unreadable: "Failed to add the workers",
    input: (form) => ({ workers: workerRows(formToObject(form)) }),
    invalidFields: workerFormErrors,
    fieldErrors: workerRefusalErrors,
    save: async (input) => {
      await addWorkers(getDb(), {
        user,
        bookingId,
        workers: input.workers,
        client: clientAddress(request),
        link: (token) => invitationLink(request, token),
      });
      return redirectWithFlash(`/employer/bookings/${encodeURIComponent(bookingId)}`, { type: "success", message: WORKERS_ADDED });
    },
  });
}

export default function BookingPage() {
  const { booking } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const open = booking.released ? 0 : booking.seats - booking.workers;
  return (
    <>
      <PageTitle title={booking.course} subtitle={classDates(booking.start_date, booking.end_date)} />
      <TitledCard title="Seats">
        <p className="text-sm">
          {plural(booking.seats, "seat")} held, {plural(booking.workers, "worker")} named, {booking.accepted} accepted
          {booking.declined ? `, ${booking.declined} declined (their ${booking.declined === 1 ? "seat is" : "seats are"} yours to name again)` : ""}.{" "}
          {booking.released ? "Unfilled seats were released." : `Unfilled seats are released on ${formatDate(booking.release_on)}.`}
        </p>
      </TitledCard>
      {booking.invoice ? (
        <TitledCard title="Price" className="mt-6">
          <PriceSummary quote={booking.invoice} />
          <p className="mt-2 flex flex-wrap items-center gap-3 text-sm">
            Invoice {booking.invoice.number} <InvoiceStatusBadge status={booking.invoice.status} /> owed {formatCents(booking.invoice.owed_cents)}
            <a href={`/employer/invoices/${booking.invoice.id}/pdf`} className="inline-flex min-h-11 items-center font-semibold text-hivis-700 underline">
              Download PDF<span className="sr-only"> of invoice {booking.invoice.number}</span>
            </a>
          </p>
        </TitledCard>
      ) : null}
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
      {open > 0 ? (
        <TitledCard title="Name more workers" className="mt-6">
          <p className="mb-3 text-sm text-steel-700">
            {open} {open === 1 ? "seat has" : "seats have"} no worker named yet. Each worker you name is emailed an invitation to accept the seat.
          </p>
          <Form method="post" noValidate className="space-y-4" key={data?.submittedAt ?? "initial"}>
            <ErrorSummary failure={data} />
            <WorkerRows rows={Math.min(open, MAX_ROWS)} values={data?.values ?? {}} errors={data?.fieldErrors ?? {}} />
            <div className="flex justify-end">
              <SubmitButton busyLabel="Adding...">Add workers</SubmitButton>
            </div>
          </Form>
        </TitledCard>
      ) : null}
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Booking | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Booking" message="Booking not found" />;
}
