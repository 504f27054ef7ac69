import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  deliverWebhooksNow,
  getWebhookEndpoint,
  listWebhookDeliveries,
  resendWebhookDelivery,
  rotateWebhookSecret,
  toggleWebhookEndpoint,
  redirectWithFlash,
  answerForm,
} from "~/routes/admin+/webhooks_.$id.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Badge, DataTable, EmptyState, type BadgeTone } from "~/components/ui";
import { SubmitButton } from "~/components/ui/submit-button";
import { webhookActionSchema } from "~/schemas/webhooks";
import { WEBHOOK_EVENT_LABELS, WEBHOOK_RESENT, WEBHOOK_ROTATED, WEBHOOK_STATE_LABELS } from "~/schemas/webhook-text";
import { isDomainError } from "~/utils/errors";
import { formatDateTime } from "~/utils/format";

/**
 * One webhook endpoint (administrators): its events, its deliveries newest first with their
 * state, tries and the receiver's answer, "Send again" on each, and the secret's rotation
 * (the new secret shown once, in the answer to the post).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const db = getDb();
  const endpoint = await getWebhookEndpoint(db, params.id ?? "").catch((error) => {
    if (isDomainError(error)) throw new Response("Not found", { status: 404 });
    throw error;
  });
  const page = Number(new URL(request.url).searchParams.get("page") ?? 1) || 1;
  return { endpoint, ...(await listWebhookDeliveries(db, endpoint.id, page)) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireRole(request, "admin");
  const db = getDb();
  const id = params.id ?? "";
  const back = `/admin/webhooks/${id}`;
  return answerForm(request, {
    schema: webhookActionSchema,
    // a body that is not a form names no action, like an empty one
    unreadable: "Unknown action",
    failed: ({ message, refusal }) => {
      // an endpoint or delivery that is not there is the page's 404; any other refusal is a flash on it
      if (refusal?.status === 404) throw new Response("Not found", { status: 404 });
      return redirectWithFlash(back, { type: "error", message });
    },
    save: async (input) => {
      if (input.intent === "rotate") {
        const rotated = await rotateWebhookSecret(db, id);
        return { rotated: { secret: rotated.secret, until: rotated.previous_until }, toast: { type: "success" as const, message: WEBHOOK_ROTATED } };
      }
      if (input.intent === "toggle") {
        const endpoint = await toggleWebhookEndpoint(db, id);
        return redirectWithFlash(back, {
          type: "success",
          message: endpoint.is_active ? "Endpoint turned on." : "Endpoint turned off: no new deliveries are queued for it.",
        });
      }
      await resendWebhookDelivery(db, { endpointId: id, deliveryId: input.delivery });
      deliverWebhooksNow([input.delivery]);
      return redirectWithFlash(back, { type: "success", message: WEBHOOK_RESENT });
    },
  });
}

const STATE_TONES: Record<keyof typeof WEBHOOK_STATE_LABELS, BadgeTone> = { queued: "blue", delivered: "green", failed: "amber", given_up: "red" };

export default function WebhookEndpointPage() {
  const { endpoint, deliveries, total } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  useActionToast(answer);
  const rotated = answer && "rotated" in answer ? answer.rotated : null;
  return (
    <>
      <PageTitle title="Webhook endpoint" subtitle={endpoint.url} />
      <p className="mb-4 text-sm">
        <Link to="/admin/webhooks" className="underline">
          All endpoints
        </Link>
      </p>
      {rotated ? (
        <section aria-labelledby="rotated-heading" role="status" className="mb-6 rounded-md border border-green-300 bg-green-50 p-4">
          <h2 id="rotated-heading" className="font-semibold">
            {WEBHOOK_ROTATED}
          </h2>
          <p className="mt-1 text-sm">New signing secret (the old one also signs until {formatDateTime(rotated.until)}):</p>
          <code className="mt-1 block text-sm [overflow-wrap:anywhere]">{rotated.secret}</code>
        </section>
      ) : null}
      <dl className="mb-6 grid gap-2 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold">Reads as</dt>
        <dd>{endpoint.audience === "admin" ? "Administrator" : "Trainer"}</dd>
        <dt className="font-semibold">Events</dt>
        <dd>{endpoint.events.map((e) => WEBHOOK_EVENT_LABELS[e]).join(", ")}</dd>
        <dt className="font-semibold">State</dt>
        <dd>{endpoint.is_active ? "On" : "Off"}</dd>
        {endpoint.rotating_until ? (
          <>
            <dt className="font-semibold">Old secret signs until</dt>
            <dd>{formatDateTime(endpoint.rotating_until)}</dd>
          </>
        ) : null}
      </dl>
      <div className="mb-8 flex flex-wrap gap-3">
        <Form method="post">
          <SubmitButton intent="rotate" variant="secondary" busyLabel="Rotating...">
            Rotate secret
          </SubmitButton>
        </Form>
        <Form method="post">
          <SubmitButton intent="toggle" variant="secondary" busyLabel="Saving...">
            {endpoint.is_active ? "Turn off" : "Turn on"}
          </SubmitButton>
        </Form>
      </div>
      <h2 className="mb-2 text-lg font-semibold">Deliveries ({total})</h2>
      {deliveries.length === 0 ? (
        <EmptyState title="No deliveries yet" />
      ) : (
        <DataTable label="Deliveries, newest first" columns={["Queued", "Event", "State", "Tries", "Answer", { label: "Action", hidden: true }]}>
          {deliveries.map((d) => (
            <tr key={d.id} className="border-t border-steel-100 align-top">
              <td className="whitespace-nowrap px-3 py-2">{formatDateTime(d.created_at)}</td>
              <th scope="row" className="px-3 py-2 font-semibold">
                {WEBHOOK_EVENT_LABELS[d.event_type]}
                <span className="block text-xs font-normal text-steel-600 [overflow-wrap:anywhere]">{d.id}</span>
              </th>
              <td className="px-3 py-2">
                <Badge tone={STATE_TONES[d.state]}>{WEBHOOK_STATE_LABELS[d.state]}</Badge>
              </td>
              <td className="px-3 py-2">{d.attempts}</td>
              <td className="px-3 py-2 [overflow-wrap:anywhere]">
                {d.response_status ?? "No answer"}
                {d.response_excerpt ? <span className="block text-xs text-steel-600">{d.response_excerpt}</span> : null}
                {d.last_error ? <span className="block text-xs text-red-800">{d.last_error}</span> : null}
              </td>
              <td className="px-3 py-2 text-right">
                <Form method="post">
                  <input type="hidden" name="delivery" value={d.id} />
                  <SubmitButton
                    intent="resend"
                    variant="secondary"
                    busyLabel="Sending..."
                    aria-label={`Send again: ${WEBHOOK_EVENT_LABELS[d.event_type]} ${d.id}`}
                  >
                    Send again
                  </SubmitButton>
                </Form>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Webhook endpoint | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Webhook endpoint" message="Failed to load the endpoint" />;
}
