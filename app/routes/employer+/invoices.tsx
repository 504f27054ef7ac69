import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireRole, getDb, listEmployerInvoices } from "~/routes/employer+/invoices.server";
import { InvoiceList } from "~/components/finance/invoice-list";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";

/** The tax invoices of the employer's own organisation (its bookings), each with its status, what is owed and its PDF. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "employer");
  return { invoices: await listEmployerInvoices(getDb(), user.id) };
}

export default function EmployerInvoices() {
  const { invoices } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle title="Invoices" subtitle="Tax invoices for your bookings, what each one is and what is still owed." />
      <InvoiceList invoices={invoices} pdfBase="/employer/invoices" />
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Invoices | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Invoices" message="Failed to load your organisation's invoices" />;
}
