import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  clientAddress,
  financeSettings,
  saveFinanceSettings,
  addRefundPolicy,
  listRefundPolicies,
  redirectWithFlash,
  answerForm,
  formIntent,
} from "~/routes/admin+/finance_.settings.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { ErrorSummary, SubmitButton, TextField, TitledCard } from "~/components/ui";
import { financeSettingsSchema, refundPolicyFormSchema } from "~/schemas/invoice";
import { FINANCE_SETTINGS_SAVED, REFUND_POLICY_ADDED } from "~/schemas/invoice-text";
import { formatDate } from "~/utils/format";
import { formatAbn } from "~/utils/abn";

/** The seller printed on new tax invoices, their payment terms and the accounting export's sales account (administrators). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const db = getDb();
  const [settings, refundPolicies] = await Promise.all([financeSettings(db), listRefundPolicies(db)]);
  return { settings, refundPolicies };
}

/** Save the seller and terms (intent=save) or add a refund policy version (intent=refund-policy). */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const intent = await formIntent(request);
  if (intent === "refund-policy") {
    return answerForm(request, {
      schema: refundPolicyFormSchema,
      requires: ["effective_from"],
      unreadable: "Failed to add the refund policy version",
      save: async (input) => {
        await addRefundPolicy(getDb(), input, { id: admin.id, client: clientAddress(request) });
        return redirectWithFlash("/admin/finance/settings", { type: "success", message: REFUND_POLICY_ADDED });
      },
    });
  }
  return answerForm(request, {
    schema: financeSettingsSchema,
    requires: ["seller_name", "seller_abn", "payment_terms_days", "sales_account_code"],
    unreadable: "Failed to save the finance settings",
    save: async (input) => {
      await saveFinanceSettings(getDb(), input, { id: admin.id, client: clientAddress(request) });
      return redirectWithFlash("/admin/finance/settings", { type: "success", message: FINANCE_SETTINGS_SAVED });
    },
  });
}

export default function FinanceSettingsPage() {
  const { settings, refundPolicies } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  // which of the two forms the answer is for: the refund policy form sends effective_from
  const isPolicyForm = data?.values !== undefined && "effective_from" in (data.values ?? {});
  const v = isPolicyForm ? undefined : data?.values;
  const errors = (isPolicyForm ? null : data?.fieldErrors) ?? {};
  return (
    <>
      <PageTitle
        title="Finance settings"
        subtitle="What new tax invoices carry. Invoices already issued keep the details they were issued with."
        actions={
          <Link to="/admin/finance" className="font-semibold text-hivis-700 underline">
            All invoices
          </Link>
        }
      />
      <TitledCard title="Seller and terms">
        <Form method="post" noValidate className="grid gap-4" key={data?.submittedAt ?? "initial"}>
          <input type="hidden" name="intent" value="save" />
          {isPolicyForm ? null : <ErrorSummary failure={data} />}
          <TextField label="Seller's legal name" name="seller_name" required defaultValue={v?.seller_name ?? settings.seller_name} error={errors.seller_name} />
          <TextField
            label="Seller's ABN"
            name="seller_abn"
            required
            inputMode="numeric"
            defaultValue={v?.seller_abn ?? formatAbn(settings.seller_abn)}
            hint="11 digits; printed on every tax invoice"
            error={errors.seller_abn}
          />
          <TextField
            label="Payment terms (days)"
            name="payment_terms_days"
            required
            inputMode="numeric"
            defaultValue={v?.payment_terms_days ?? String(settings.payment_terms_days)}
            hint="An invoice is due this many days after it is issued (a booking is due before its class)"
            error={errors.payment_terms_days}
          />
          <TextField
            label="Sales account code"
            name="sales_account_code"
            required
            defaultValue={v?.sales_account_code ?? settings.sales_account_code}
            hint="The account the Xero export posts sales to, e.g. 200"
            error={errors.sales_account_code}
          />
          <div>
            <SubmitButton busyLabel="Saving...">Save settings</SubmitButton>
          </div>
        </Form>
      </TitledCard>
      <TitledCard title="Refund policy versions">
        <p className="text-sm text-steel-600">Each enrolment is made under the version in force on its day; a credit note cites that version.</p>
        <table className="mt-3 w-full text-left text-sm">
          <thead>
            <tr>
              <th scope="col" className="py-1 pr-4">
                Version
              </th>
              <th scope="col" className="py-1">
                Takes effect
              </th>
            </tr>
          </thead>
          <tbody>
            {refundPolicies.map((p) => (
              <tr key={p.version}>
                <td className="py-1 pr-4">{p.version}</td>
                <td className="py-1">{formatDate(p.effective_from)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Form method="post" noValidate className="mt-4 grid gap-4" key={`policy-${data?.submittedAt ?? "initial"}`}>
          <input type="hidden" name="intent" value="refund-policy" />
          {isPolicyForm ? <ErrorSummary failure={data} /> : null}
          <TextField
            label="New version takes effect on"
            name="effective_from"
            type="date"
            required
            defaultValue={isPolicyForm ? data?.values?.effective_from : undefined}
            hint="Today or later; change the policy's words in the same release"
            error={isPolicyForm ? data?.fieldErrors?.effective_from : undefined}
          />
          <div>
            <SubmitButton busyLabel="Adding...">Add version</SubmitButton>
          </div>
        </Form>
      </TitledCard>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Finance settings | Admin" }];

export function ErrorBoundary() {
  return <RouteError title="Finance settings" message="Failed to load the finance settings" />;
}
