import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import {
  requireRole,
  getDb,
  clientAddress,
  invitationLink,
  bookableClasses,
  createBooking,
  refundPolicyInForce,
  redirectWithFlash,
  answerForm,
  formIntent,
  formOnce,
  newFormToken,
} from "~/routes/employer+/bookings.new.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { WorkerRows } from "~/components/employer/worker-rows";
import { ClassCards } from "~/components/employer/class-cards";
import { PriceSummary } from "~/components/employer/price-summary";
import { RefundPolicyTerms } from "~/components/finance/refund-policy-terms";
import { Card, ErrorSummary, FormTokenField, SubmitButton, TextField, revalidateAfterRepeat } from "~/components/ui";
import { seatQuote } from "~/rules/invoice-rules";
import { withFormToken } from "~/schemas/form-token";
import { bookingSchema, workerFormErrors, workerRefusalErrors, workerRows } from "~/schemas/employer";
import { SEATS_BOOKED } from "~/schemas/employer-text";
import { refundPolicyVersion } from "~/schemas/refund-policy";
import { organisationToday } from "~/utils/organisation-calendar";
import { FORM_TOKEN_FIELD } from "~/utils/form-token";
import { formToObject } from "~/utils/validation";

/** Most worker rows the form offers at once (more can be named on the booking later, up to its seats). */
const MAX_ROWS = 100;

/** Rows to show: one per seat booked (at least one), or as many as "Add a worker" asked for. */
function rowCount(seats: unknown, asked?: unknown): number {
  const n = Math.max(Number(asked) || 0, Math.trunc(Number(seats)) || 1);
  return Math.min(Math.max(n, 1), MAX_ROWS);
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "employer");
  const db = getDb();
  // the version a booking made now is made under (the booking keeps it; a credit note names it)
  const [classes, refundPolicy] = await Promise.all([bookableClasses(db), refundPolicyInForce(db, organisationToday())]);
  return { classes, refundPolicy, formToken: newFormToken() };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "employer");
  // "Add a worker" without JavaScript: the form comes back as typed, with one more row; nothing is stored
  if ((await formIntent(request)) === "add-worker") {
    const values = formToObject(await request.formData()) as Record<string, string>;
    return { added: true as const, values, rows: rowCount(values.seats, Number(values.rows) + 1) };
  }
  return answerForm(request, {
    // each post books once: its one-time token is spent with the booking and its invoice (the
    // schema is made in the action, so the page's script carries no validation library)
    schema: withFormToken(bookingSchema),
    requires: ["class_id", "seats"],
    unreadable: "Failed to book the seats",
    input: (form) => {
      const values = formToObject(form);
      return { class_id: values.class_id, seats: values.seats, workers: workerRows(values), [FORM_TOKEN_FIELD]: values[FORM_TOKEN_FIELD] };
    },
    // each worker's error at that worker's row, in the form's order
    invalidFields: workerFormErrors,
    fieldErrors: workerRefusalErrors,
    save: async ({ form_token, ...input }) => {
      const booking = await createBooking(getDb(), {
        ...input,
        once: formOnce(form_token),
        user,
        client: clientAddress(request),
        link: (token) => invitationLink(request, token),
      });
      return redirectWithFlash(`/employer/bookings/${booking.id}`, { type: "success", message: SEATS_BOOKED(booking.seats) });
    },
  });
}

export default function NewBooking() {
  const { classes, refundPolicy, formToken } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const data = posted && "added" in posted ? undefined : posted;
  useActionToast(data);
  const values: Record<string, string> = (posted?.values as Record<string, string> | undefined) ?? {};
  const errors = data?.fieldErrors ?? {};
  const [classId, setClassId] = useState(values.class_id ?? "");
  const [seats, setSeats] = useState(values.seats ?? "");
  const [rows, setRows] = useState(rowCount(values.seats, posted && "added" in posted ? posted.rows : values.rows));
  const chosen = classes.find((c) => c.id === classId);
  const seatCount = Math.trunc(Number(seats));
  const quote = chosen && seatCount >= 1 ? seatQuote(seatCount, chosen) : null;
  return (
    <>
      <PageTitle title="Book seats" subtitle="Choose a class and the number of seats, and name the workers you know now" />
      <Card className="p-4">
        <Form method="post" noValidate className="space-y-4" key={data?.submittedAt ?? (posted ? `rows-${rows}` : "initial")}>
          <FormTokenField token={formToken} />
          <ErrorSummary failure={data} />
          <ClassCards classes={classes} value={classId} onChange={setClassId} error={errors.class_id} />
          <TextField
            label="Seats"
            name="seats"
            type="number"
            min={1}
            max={100}
            required
            defaultValue={values.seats ?? ""}
            error={errors.seats}
            onChange={(e) => {
              setSeats(e.currentTarget.value);
              setRows(rowCount(e.currentTarget.value));
            }}
          />
          <section aria-labelledby="price-heading" className="rounded border border-steel-200 p-3">
            <h2 id="price-heading" className="mb-2 font-semibold">
              Price
            </h2>
            {quote ? (
              <PriceSummary quote={quote} />
            ) : (
              <p className="text-sm text-steel-700">Choose a class and the number of seats to see the price per seat, the GST and the total.</p>
            )}
            <p className="mt-2 text-sm text-steel-700">Your organisation is invoiced when you book; the invoice is emailed and listed under Invoices.</p>
          </section>
          <section aria-labelledby="refund-heading" className="rounded border border-steel-200 p-3">
            <h2 id="refund-heading" className="mb-2 font-semibold">
              Refund policy
            </h2>
            <p className="mb-2 text-sm text-steel-700">{refundPolicyVersion(refundPolicy)}. A refund of the seats you book follows these terms.</p>
            <RefundPolicyTerms />
          </section>
          <input type="hidden" name="rows" value={rows} />
          <WorkerRows rows={rows} values={values} errors={errors} />
          <button
            type="submit"
            name="intent"
            value="add-worker"
            formNoValidate
            className="inline-flex min-h-11 items-center font-semibold text-hivis-800 underline"
            onClick={(e) => {
              // with JavaScript the row is added here; without it the form posts back with one more row
              e.preventDefault();
              setRows((r) => Math.min(r + 1, MAX_ROWS));
            }}
          >
            Add a worker
          </button>
          <div className="flex justify-end">
            <SubmitButton busyLabel="Booking...">Book seats</SubmitButton>
          </div>
        </Form>
      </Card>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Book seats | Summit Crane & Rigging Training" }];

export const shouldRevalidate = revalidateAfterRepeat;

export function ErrorBoundary() {
  return <RouteError title="Book seats" message="Failed to load the classes" />;
}
