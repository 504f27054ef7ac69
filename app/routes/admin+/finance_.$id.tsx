import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  clientAddress,
  getInvoice,
  issueCreditNote,
  recordPayment,
  redirectWithFlash,
  answerForm,
  formIntent,
  foundOr404,
  formOnce,
  newFormToken,
} from "~/routes/admin+/finance_.$id.server";
import { InvoiceStatusBadge } from "~/components/finance/invoice-status";
import { InvoiceSummary } from "~/components/finance/invoice-summary";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import {
  Card,
  ConfirmAction,
  ErrorSummary,
  FormTokenField,
  SelectField,
  SubmitButton,
  TAP_LINK,
  TextAreaField,
  TextField,
  revalidateAfterRepeat,
} from "~/components/ui";
import { withFormToken } from "~/schemas/form-token";
import { creditNoteFormSchema, paymentFormSchema } from "~/schemas/invoice";
import { CREDIT_NOTE_ISSUED, PAYMENT_METHODS, PAYMENT_RECORDED } from "~/schemas/invoice-text";
import { confirmationAnswer, isConfirmed } from "~/utils/confirm";
import { formatCents } from "~/utils/format";
import { FORM_TOKEN_FIELD } from "~/utils/form-token";
import { organisationToday } from "~/utils/organisation-calendar";

/** One invoice (administrators): its lines, payments and credit notes; record a payment; issue a credit note (asked twice). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const invoice = await foundOr404(params.id, (id) => getInvoice(getDb(), id, { learnerId: null }), "Invoice not found");
  return { invoice, today: organisationToday(), formToken: newFormToken() };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const invoice = await foundOr404(params.id, (id) => getInvoice(getDb(), id, { learnerId: null }), "Invoice not found");
  const actor = { id: admin.id, client: clientAddress(request) };
  const back = `/admin/finance/${invoice.id}`;
  if ((await formIntent(request)) === "credit") {
    // asked twice: without JavaScript the first post answers with the question, the amount kept
    // as typed (the schema's is in cents), so the form is read beside answerForm's reading
    const form = await request
      .clone()
      .formData()
      .catch(() => null);
    return answerForm(request, {
      // each post stores once: its one-time token is spent with the credit note (the schema is
      // made in the action, so the page's script carries no validation library)
      schema: withFormToken(creditNoteFormSchema),
      unreadable: "Failed to issue the credit note",
      save: async (input) => {
        if (!isConfirmed(form)) {
          return { ...confirmationAnswer("credit"), amount: String(form?.get("amount") ?? ""), reason: String(form?.get("reason") ?? "") };
        }
        const note = await issueCreditNote(getDb(), {
          invoiceId: invoice.id,
          amountCents: input.amount,
          reason: input.reason,
          actor,
          once: formOnce(input.form_token),
        });
        return redirectWithFlash(back, { type: "success", message: `${CREDIT_NOTE_ISSUED}: ${note.number}` });
      },
    });
  }
  return answerForm(request, {
    // each post stores once: its one-time token is spent with the payment
    schema: withFormToken(paymentFormSchema),
    unreadable: "Failed to record the payment",
    save: async (input) => {
      await recordPayment(getDb(), {
        invoiceId: invoice.id,
        method: input.method,
        reference: input.reference,
        receivedOn: input.received_on,
        amountCents: input.amount,
        actor,
        once: formOnce(input.form_token),
      });
      return redirectWithFlash(back, { type: "success", message: PAYMENT_RECORDED });
    },
  });
}

const METHOD_OPTIONS = Object.entries(PAYMENT_METHODS).map(([value, label]) => ({ value, label }));

export default function InvoicePage() {
  const { invoice, today, formToken } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data && "toast" in data ? data : undefined);
  const confirming = data !== undefined && "confirm" in data ? data : null;
  const failure = data && "fieldErrors" in data ? data : undefined;
  const creditFailure = failure && failure.values.intent === "credit" ? failure : undefined;
  const paymentFailure = failure && failure.values.intent !== "credit" ? failure : undefined;
  return (
    <>
      <p>
        <Link to="/admin/finance" className="text-sm font-semibold text-hivis-700 underline">
          ← All invoices
        </Link>
      </p>
      <PageTitle title={`Invoice ${invoice.number}`} subtitle={`${invoice.buyer_name} · ${formatCents(invoice.total_cents)}`} />
      <p className="mb-4 flex flex-wrap items-center gap-3">
        <InvoiceStatusBadge status={invoice.status} />
        <a href={`/admin/finance/${invoice.id}/pdf`} className={`${TAP_LINK} font-semibold text-hivis-700 underline`}>
          Download the PDF
        </a>
      </p>
      <InvoiceSummary invoice={invoice} creditNoteHref={(id) => `/admin/finance/credit-notes/${id}/pdf`} />
      {invoice.owed_cents > 0 ? (
        <section aria-labelledby="payment-title" className="mt-6">
          <Card>
            <Form method="post" noValidate className="grid gap-4 p-4 sm:grid-cols-2">
              <FormTokenField token={formToken} />
              <h2 id="payment-title" className="text-lg font-bold text-steel-900 sm:col-span-2">
                Record a payment
              </h2>
              <div className="sm:col-span-2">
                <ErrorSummary failure={paymentFailure} />
              </div>
              <SelectField
                label="Method"
                name="method"
                options={METHOD_OPTIONS}
                defaultValue={paymentFailure?.values.method ?? "bank_transfer"}
                error={paymentFailure?.fieldErrors.method}
              />
              <TextField
                label="Reference"
                name="reference"
                defaultValue={paymentFailure?.values.reference}
                error={paymentFailure?.fieldErrors.reference}
                hint="The bank's or card terminal's reference"
              />
              <TextField
                label="Date received"
                name="received_on"
                type="date"
                defaultValue={paymentFailure?.values.received_on ?? today}
                error={paymentFailure?.fieldErrors.received_on}
              />
              <TextField
                label="Amount"
                name="amount"
                inputMode="decimal"
                defaultValue={paymentFailure?.values.amount}
                error={paymentFailure?.fieldErrors.amount}
                hint={`At most ${formatCents(invoice.owed_cents)}, what is owed`}
              />
              <div className="sm:col-span-2">
                <SubmitButton intent="payment" busyLabel="Recording...">
                  Record payment
                </SubmitButton>
              </div>
            </Form>
          </Card>
        </section>
      ) : null}
      {invoice.refundable_cents > 0 ? (
        <section aria-labelledby="credit-title" className="mt-6">
          <Card>
            <div className="p-4">
              <h2 id="credit-title" className="text-lg font-bold text-steel-900">
                Issue a credit note (refund)
              </h2>
              <p className="text-sm text-steel-600">
                At most {formatCents(invoice.refundable_cents)}: what was paid, less earlier credit notes. Decide it under the refund policy the learner
                enrolled under.
              </p>
              <ErrorSummary failure={creditFailure} />
              <ConfirmAction
                intent="credit"
                trigger="Issue credit note"
                title={`Issue a credit note against ${invoice.number}?`}
                confirmLabel="Yes, issue the credit note"
                busyLabel="Issuing..."
                keepLabel="Do not issue it"
                confirming={confirming !== null}
                fields={{ [FORM_TOKEN_FIELD]: formToken, ...(confirming ? { amount: confirming.amount, reason: confirming.reason } : {}) }}
                triggerFields={
                  <div className="grid gap-4 sm:grid-cols-2">
                    <TextField
                      label="Credit amount"
                      name="amount"
                      inputMode="decimal"
                      defaultValue={confirming?.amount ?? creditFailure?.values.amount}
                      error={creditFailure?.fieldErrors.amount}
                    />
                    <TextAreaField
                      label="Reason"
                      name="reason"
                      defaultValue={confirming?.reason ?? creditFailure?.values.reason}
                      error={creditFailure?.fieldErrors.reason}
                    />
                  </div>
                }
              >
                <p>
                  {confirming
                    ? `${formatCents(Math.round(Number(confirming.amount.replace(/[$,\s]/g, "")) * 100))} will be credited to ${invoice.buyer_name}. `
                    : ""}
                  A credit note is a numbered tax document and cannot be withdrawn.
                </p>
              </ConfirmAction>
            </div>
          </Card>
        </section>
      ) : null}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `Invoice ${data.invoice.number}` : "Invoice"} | Summit Crane & Rigging Training` },
];

export const shouldRevalidate = revalidateAfterRepeat;

export function ErrorBoundary() {
  return <RouteError title="Invoice" message="Failed to load the invoice" />;
}
