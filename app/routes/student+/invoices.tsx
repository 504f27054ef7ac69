import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireRole, getDb, listLearnerInvoices } from "~/routes/student+/invoices.server";
import { InvoiceList } from "~/components/finance/invoice-list";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";

/** The learner's own tax invoices, each with its PDF and the credit notes against it. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  return { invoices: await listLearnerInvoices(getDb(), user.id) };
}

export default function StudentInvoices() {
  const { invoices } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle title="Invoices" subtitle="Tax invoices for the courses you paid for, and any credit notes (refunds) against them." />
      <InvoiceList invoices={invoices} portal="/student" />
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Invoices | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Invoices" message="Failed to load your invoices" />;
}
