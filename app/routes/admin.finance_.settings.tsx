import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/auth/guards.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { ErrorSummary, SubmitButton, TextField, TitledCard } from "~/components/ui";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { financeSettings, saveFinanceSettings } from "~/models/invoice.server";
import { financeSettingsSchema } from "~/schemas/invoice";
import { FINANCE_SETTINGS_SAVED } from "~/schemas/invoice-text";
import { formatAbn } from "~/utils/abn";
import { redirectWithFlash } from "~/utils/flash.server";
import { answerForm } from "~/utils/form-action.server";

/** The seller printed on new tax invoices, their payment terms and the accounting export's sales account (administrators). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return { settings: await financeSettings(getDb()) };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
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
  const { settings } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const v = data?.values;
  const errors = data?.fieldErrors ?? {};
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
          <ErrorSummary failure={data} />
          <TextField label="Seller's legal name" name="seller_name" required defaultValue={v?.seller_name ?? settings.seller_name} error={errors.seller_name} />
          <TextField label="Seller's ABN" name="seller_abn" required inputMode="numeric" defaultValue={v?.seller_abn ?? formatAbn(settings.seller_abn)} hint="11 digits; printed on every tax invoice" error={errors.seller_abn} />
          <TextField label="Payment terms (days)" name="payment_terms_days" required inputMode="numeric" defaultValue={v?.payment_terms_days ?? String(settings.payment_terms_days)} hint="An invoice is due this many days after it is issued (a booking is due before its class)" error={errors.payment_terms_days} />
          <TextField label="Sales account code" name="sales_account_code" required defaultValue={v?.sales_account_code ?? settings.sales_account_code} hint="The account the Xero export posts sales to, e.g. 200" error={errors.sales_account_code} />
          <div>
            <SubmitButton busyLabel="Saving...">Save settings</SubmitButton>
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
