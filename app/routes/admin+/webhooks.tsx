import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireRole, getDb, createWebhookEndpoint, listWebhookEndpoints, answerForm } from "~/routes/admin+/webhooks.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Badge, CheckboxField, DataTable, EmptyState, ErrorSummary, SelectField, TextField } from "~/components/ui";
import { SubmitButton } from "~/components/ui/submit-button";
import { webhookEndpointSchema } from "~/schemas/webhooks";
import { WEBHOOK_AUDIENCE_LABELS, WEBHOOK_AUDIENCES, WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS, WEBHOOK_REGISTERED } from "~/schemas/webhook-text";

/**
 * Webhooks (administrators): the registered endpoints with their deliveries' counts, and the
 * form that registers one. The new endpoint's secret is shown once, in the answer to the post
 * (never stored in a cookie or a link), so it works the same without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return { endpoints: await listWebhookEndpoints(getDb()) };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  return answerForm(request, {
    schema: webhookEndpointSchema,
    requires: ["url"],
    unreadable: "The endpoint could not be read; please try again",
    save: async (input) => {
      const made = await createWebhookEndpoint(getDb(), input, { actorId: admin.id });
      return {
        created: { id: made.endpoint.id, url: made.endpoint.url, secret: made.secret },
        toast: { type: "success" as const, message: WEBHOOK_REGISTERED },
      };
    },
  });
}

export default function WebhooksPage() {
  const { endpoints } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  useActionToast(answer);
  const failure = answer && "error" in answer ? answer : null;
  const created = answer && "created" in answer ? answer.created : null;
  const chosen = failure ? (failure.values.events ?? "").split(",") : ["enrolment.created"];
  return (
    <>
      <PageTitle title="Webhooks" subtitle="Other systems hear of enrolments, results, certificates, bookings, invoices and complaints as they happen." />
      {created ? (
        <section aria-labelledby="secret-heading" className="mb-6 rounded-md border border-green-300 bg-green-50 p-4" role="status">
          <h2 id="secret-heading" className="font-semibold text-steel-900">
            {WEBHOOK_REGISTERED}
          </h2>
          <p className="mt-1 text-sm">
            Signing secret for <span className="[overflow-wrap:anywhere]">{created.url}</span>:
          </p>
          <code className="mt-1 block text-sm [overflow-wrap:anywhere]">{created.secret}</code>
          <Link className="mt-2 inline-block text-sm underline" to={`/admin/webhooks/${created.id}`}>
            Open the endpoint
          </Link>
        </section>
      ) : null}
      {endpoints.length === 0 ? (
        <EmptyState title="No endpoints yet" />
      ) : (
        <DataTable label="Endpoints" columns={["Endpoint", "Reads as", "Events", "Deliveries"]}>
          {endpoints.map((e) => (
            <tr key={e.id} className="border-t border-steel-100 align-top">
              <th scope="row" className="px-3 py-2 font-semibold [overflow-wrap:anywhere]">
                <Link to={`/admin/webhooks/${e.id}`} className="underline">
                  {e.url}
                </Link>
                {e.description ? <span className="block text-xs font-normal text-steel-600">{e.description}</span> : null}
                {e.is_active ? null : <Badge tone="red">Off</Badge>}
              </th>
              <td className="px-3 py-2">{e.audience === "admin" ? "Administrator" : "Trainer"}</td>
              <td className="px-3 py-2">{e.events.map((ev) => WEBHOOK_EVENT_LABELS[ev]).join(", ")}</td>
              <td className="px-3 py-2">
                {e.counts.delivered} delivered, {e.counts.queued + e.counts.failed} waiting, {e.counts.given_up} given up
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <section aria-labelledby="register-heading" className="mt-8 max-w-xl">
        <h2 id="register-heading" className="text-lg font-semibold text-steel-900">
          Register an endpoint
        </h2>
        <Form method="post" className="mt-3 space-y-4" noValidate>
          <ErrorSummary failure={failure} />
          <TextField
            label="URL"
            name="url"
            type="url"
            required
            defaultValue={failure?.values.url ?? ""}
            hint="https://, or a loopback address while developing"
            error={failure?.fieldErrors.url}
          />
          <TextField label="Description" name="description" defaultValue={failure?.values.description ?? ""} error={failure?.fieldErrors.description} />
          <SelectField
            label="Reads as"
            name="audience"
            defaultValue={failure?.values.audience ?? "admin"}
            options={WEBHOOK_AUDIENCES.map((a) => ({ value: a, label: WEBHOOK_AUDIENCE_LABELS[a] }))}
            error={failure?.fieldErrors.audience}
          />
          <fieldset id="events">
            <legend className="text-sm font-semibold text-steel-900">Events</legend>
            {failure?.fieldErrors.events ? <p className="text-sm text-red-800">{failure.fieldErrors.events}</p> : null}
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {WEBHOOK_EVENTS.map((ev) => (
                <CheckboxField key={ev} id={`event-${ev}`} label={WEBHOOK_EVENT_LABELS[ev]} name="events" value={ev} defaultChecked={chosen.includes(ev)} />
              ))}
            </div>
          </fieldset>
          <SubmitButton busyLabel="Registering...">Register endpoint</SubmitButton>
        </Form>
      </section>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Webhooks | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Webhooks" message="Failed to load the webhooks" />;
}
