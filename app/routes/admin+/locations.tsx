import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireRole, getDb, createLocation, listLocations, answerForm, redirectWithFlash } from "~/routes/admin+/locations.server";
import { LocationFields } from "~/components/admin/location-form";
import { RouteError } from "~/components/route-error";
import { PageTitle } from "~/components/portal-shell";
import { useActionToast } from "~/components/toaster";
import { Card, EmptyState, SubmitButton, TitledCard, TableScroll, ErrorSummary } from "~/components/ui";
import { labelOf, STATES } from "~/schemas/avetmiss-codes";
import { locationSchema } from "~/schemas/location";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return { locations: await listLocations(getDb()) };
}

/** Add a location. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  return answerForm(request, {
    schema: locationSchema,
    requires: ["identifier", "name"],
    unreadable: "Failed to add the location",
    save: async (input) => {
      const location = await createLocation(getDb(), input, admin.id);
      return redirectWithFlash("/admin/locations", { type: "success", message: `Location ${location.identifier} added` });
    },
  });
}

export default function DeliveryLocations() {
  const { locations } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  return (
    <>
      <PageTitle title="Delivery Locations" subtitle="Where training is delivered; every enrolment names one (the first listed unless another is chosen)" />
      {locations.length === 0 ? (
        <EmptyState title="No delivery locations yet">Add the training yard or site where you deliver; enrolments need one.</EmptyState>
      ) : (
        <Card>
          <TableScroll label="Delivery locations">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Delivery locations</caption>
              <thead className="bg-steel-50 text-steel-700">
                <tr>
                  <th scope="col" className="px-4 py-2">
                    Identifier
                  </th>
                  <th scope="col" className="px-4 py-2">
                    Name
                  </th>
                  <th scope="col" className="px-4 py-2">
                    Suburb
                  </th>
                  <th scope="col" className="px-4 py-2">
                    Postcode
                  </th>
                  <th scope="col" className="px-4 py-2">
                    State
                  </th>
                  <th scope="col" className="px-4 py-2">
                    Country
                  </th>
                  <th scope="col" className="px-4 py-2">
                    <span className="sr-only">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {locations.map((l, i) => (
                  <tr key={l.id} className="border-t border-steel-100">
                    <th scope="row" className="px-4 py-2 font-mono font-semibold text-steel-900">
                      {l.identifier}
                      {i === 0 ? <span className="ml-2 font-sans text-xs font-normal text-steel-600">(default)</span> : null}
                    </th>
                    <td className="px-4 py-2">{l.name}</td>
                    <td className="px-4 py-2">{l.suburb ?? "Not recorded"}</td>
                    <td className="px-4 py-2">{l.postcode ?? <span className="font-semibold text-amber-800">Missing</span>}</td>
                    <td className="px-4 py-2">{labelOf(STATES, l.state, "Not recorded")}</td>
                    <td className="px-4 py-2 font-mono">{l.country}</td>
                    <td className="px-4 py-2 text-right">
                      <Link to={`/admin/locations/${l.id}`} className="font-semibold text-hivis-800 underline-offset-4 hover:underline">
                        Edit<span className="sr-only"> {l.identifier}</span>
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </Card>
      )}
      <TitledCard title="Add a location" className="mt-6">
        <Form method="post" action="/admin/locations" noValidate className="space-y-4" key={data?.submittedAt ?? "initial"}>
          <ErrorSummary failure={data} />
          <LocationFields values={data?.values ?? {}} errors={data?.fieldErrors ?? {}} />
          <div className="flex justify-end">
            <SubmitButton busyLabel="Adding...">Add location</SubmitButton>
          </div>
        </Form>
      </TitledCard>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Delivery Locations | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Delivery Locations" message="Failed to load delivery locations" />;
}
