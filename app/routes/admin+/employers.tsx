import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireRole, getDb, clientAddress, createEmployer, listEmployers, redirectWithFlash, answerForm } from "~/routes/admin+/employers.server";
import { EmployerFields } from "~/components/employer/employer-fields";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Card, EmptyState, ErrorSummary, SubmitButton, TableScroll, TitledCard } from "~/components/ui";
import { employerSchema } from "~/schemas/employer";
import { EMPLOYER_CREATED } from "~/schemas/employer-text";
import { formatAbn } from "~/utils/abn";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return { employers: await listEmployers(getDb()) };
}

/** Add an employer. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  return answerForm(request, {
    schema: employerSchema,
    requires: ["name", "abn"],
    unreadable: "Failed to add the employer",
    save: async (input) => {
      const employer = await createEmployer(getDb(), input, { id: admin.id, client: clientAddress(request) });
      return redirectWithFlash(`/admin/employers/${employer.id}`, { type: "success", message: EMPLOYER_CREATED });
    },
  });
}

export default function Employers() {
  const { employers } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  return (
    <>
      <PageTitle title="Employers" subtitle="Organisations that book seats for their workers, with their users and billing contact" />
      {employers.length === 0 ? (
        <EmptyState title="No employers yet">Add an organisation, then invite the people who book for it.</EmptyState>
      ) : (
        <Card>
          <TableScroll label="Employers">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Employers</caption>
              <thead className="bg-steel-50 text-steel-700">
                <tr>
                  <th scope="col" className="px-4 py-2">
                    Organisation
                  </th>
                  <th scope="col" className="px-4 py-2">
                    ABN
                  </th>
                  <th scope="col" className="px-4 py-2">
                    Billing contact
                  </th>
                  <th scope="col" className="px-4 py-2">
                    Users
                  </th>
                  <th scope="col" className="px-4 py-2">
                    Bookings
                  </th>
                </tr>
              </thead>
              <tbody>
                {employers.map((e) => (
                  <tr key={e.id} className="border-t border-steel-100">
                    <th scope="row" className="px-4 py-2 font-semibold">
                      <Link to={`/admin/employers/${e.id}`} className="text-hivis-800 underline-offset-4 hover:underline">
                        {e.name}
                      </Link>
                    </th>
                    <td className="px-4 py-2 font-mono">{formatAbn(e.abn)}</td>
                    <td className="px-4 py-2">{e.contact_name}</td>
                    <td className="px-4 py-2">{e.users}</td>
                    <td className="px-4 py-2">{e.bookings}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </Card>
      )}
      <TitledCard title="Add an employer" className="mt-6">
        <Form method="post" action="/admin/employers" noValidate className="space-y-4" key={data?.submittedAt ?? "initial"}>
          <ErrorSummary failure={data} />
          <EmployerFields values={data?.values ?? {}} errors={data?.fieldErrors ?? {}} />
          <div className="flex justify-end">
            <SubmitButton busyLabel="Adding...">Add employer</SubmitButton>
          </div>
        </Form>
      </TitledCard>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Employers | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Employers" message="Failed to load employers" />;
}
