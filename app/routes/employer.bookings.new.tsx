import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/auth/guards.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { WorkerRows } from "~/components/employer/worker-rows";
import { Card, ErrorSummary, SelectField, SubmitButton, TextField } from "~/components/ui";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { secretLink } from "~/mail/password-reset.server";
import { bookableClasses, createBooking } from "~/models/group-booking.server";
import { bookingSchema, workerRows } from "~/schemas/employer";
import { classDates } from "~/schemas/class-text";
import { SEATS_BOOKED } from "~/schemas/employer-text";
import { redirectWithFlash } from "~/utils/flash.server";
import { answerForm } from "~/utils/form-action.server";
import { formToObject } from "~/utils/validation";

/** Worker rows the form offers (more can be named on the booking later, up to its seats). */
const WORKER_ROWS = 6;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "employer");
  return { classes: await bookableClasses(getDb()) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "employer");
  return answerForm(request, {
    schema: bookingSchema,
    requires: ["class_id", "seats"],
    unreadable: "Failed to book the seats",
    input: (form) => {
      const values = formToObject(form);
      return { class_id: values.class_id, seats: values.seats, workers: workerRows(values) };
    },
    save: async (input) => {
      const booking = await createBooking(getDb(), {
        ...input,
        user,
        client: clientAddress(request),
        link: (token) => secretLink(request, `/invitation/${encodeURIComponent(token)}`),
      });
      return redirectWithFlash(`/employer/bookings/${booking.id}`, { type: "success", message: SEATS_BOOKED(booking.seats) });
    },
  });
}

export default function NewBooking() {
  const { classes } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const values = data?.values ?? {};
  const errors = data?.fieldErrors ?? {};
  return (
    <>
      <PageTitle title="Book seats" subtitle="Choose a class and the number of seats, and name the workers you know now" />
      <Card className="p-4">
        <Form method="post" noValidate className="space-y-4" key={data?.submittedAt ?? "initial"}>
          <ErrorSummary failure={data} />
          <SelectField
            label="Class"
            name="class_id"
            required
            defaultValue={values.class_id ?? ""}
            error={errors.class_id}
            options={[{ value: "", label: "Choose a class" }, ...classes.map((c) => ({ value: c.id, label: `${c.course}, ${classDates(c.start_date, c.end_date)} (${c.seats_left} seats left)` }))]}
          />
          <TextField label="Seats" name="seats" type="number" min={1} max={100} required defaultValue={values.seats ?? ""} error={errors.seats} />
          <WorkerRows rows={WORKER_ROWS} values={values} error={errors.workers} />
          <div className="flex justify-end">
            <SubmitButton busyLabel="Booking...">Book seats</SubmitButton>
          </div>
        </Form>
      </Card>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Book seats | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Book seats" message="Failed to load the classes" />;
}
