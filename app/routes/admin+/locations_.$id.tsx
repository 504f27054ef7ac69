import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireRole, getDb, getLocation, updateLocation, answerForm, redirectWithFlash, foundOr404 } from "~/routes/admin+/locations_.$id.server";
import { LocationFields } from "~/components/admin/location-form";
import { RouteError } from "~/components/route-error";
import { PageTitle } from "~/components/portal-shell";
import { useActionToast } from "~/components/toaster";
import { buttonClasses, Card, ErrorSummary, SubmitButton } from "~/components/ui";
import { locationSchema } from "~/schemas/location";

function loadLocation(id: string | undefined) {
  return foundOr404(id, (locationId) => getLocation(getDb(), locationId), "Location not found");
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return { location: await loadLocation(params.id) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const location = await loadLocation(params.id);
  return answerForm(request, {
    schema: locationSchema,
    requires: ["identifier", "name"],
    unreadable: "Failed to update the location",
    save: async (input) => {
      const saved = await updateLocation(getDb(), location.id, input, admin.id);
      return redirectWithFlash("/admin/locations", { type: "success", message: `Location ${saved.identifier} updated` });
    },
  });
}

export default function EditLocation() {
  const { location } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  return (
    <>
      <PageTitle title={`Edit location ${location.identifier}`} subtitle={location.name} />
      <Card className="p-5 sm:p-6">
        <Form method="post" noValidate className="space-y-4" key={data?.submittedAt ?? "initial"}>
          <ErrorSummary failure={data} />
          <LocationFields values={data?.values ?? location} errors={data?.fieldErrors ?? {}} />
          <div className="flex flex-wrap justify-end gap-2">
            <Link to="/admin/locations" className={buttonClasses("secondary")}>
              Cancel
            </Link>
            <SubmitButton busyLabel="Saving...">Save location</SubmitButton>
          </div>
        </Form>
      </Card>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Edit Location | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Edit location" message="Failed to load the location" />;
}
