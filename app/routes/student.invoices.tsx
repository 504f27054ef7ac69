import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireRole } from "~/auth/guards.server";
import { InvoiceStatusBadge } from "~/components/finance/invoice-status";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { Card, EmptyState } from "~/components/ui";
import { getDb } from "~/db.server";
import { listLearnerInvoices } from "~/models/finance.server";
import { formatCents, formatDate } from "~/utils/format";

/** The learner's own tax invoices, each with its PDF. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  return { invoices: await listLearnerInvoices(getDb(), user.id) };
}

export default function StudentInvoices() {
  const { invoices } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle title="Invoices" subtitle="Tax invoices for the courses you paid for." />
      {invoices.length === 0 ? (
        <EmptyState title="No invoices yet" />
      ) : (
        <ul className="space-y-3">
          {invoices.map((i) => (
            <li key={i.id}>
              <Card>
                <div className="flex flex-wrap items-center justify-between gap-3 p-4">
                  <div>
                    <p className="font-bold text-steel-900">Invoice {i.number}</p>
                    <p className="text-sm text-steel-600">
                      Issued {formatDate(i.issue_date)} · {formatCents(i.total_cents)} (GST {formatCents(i.gst_cents)}) · owed {formatCents(i.owed_cents)}
                    </p>
                  </div>
                  <div className="flex items-center gap-3">
                    <InvoiceStatusBadge status={i.status} />
                    <a href={`/student/invoices/${i.id}/pdf`} className="inline-flex min-h-11 items-center font-semibold text-hivis-700 underline" aria-label={`Download invoice ${i.number} (PDF)`}>
                      Download PDF
                    </a>
                  </div>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Invoices | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Invoices" message="Failed to load your invoices" />;
}
