import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireRole, getDb, listEmployerInvoices } from "~/routes/employer+/invoices.server";
import { InvoiceList } from "~/components/finance/invoice-list";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";

/** The tax invoices of the employer's own organisation (its bookings), each with its status, what is owed, its PDF and the credit notes against it. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "employer");
  return { invoices: await listEmployerInvoices(getDb(), user.id) };
}

export default function EmployerInvoices() {
  const { invoices } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="Invoices"
        subtitle="Tax invoices for your bookings, what each one is, what is still owed and any credit notes (refunds) against them."
      />
      <InvoiceList invoices={invoices} portal="/employer" />
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Invoices | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Invoices" message="Failed to load your organisation's invoices" />;
}
