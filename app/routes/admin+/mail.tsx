import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  data,
  queryObject,
  requireRole,
  getDb,
  clientAddress,
  deliverNow,
  mailView,
  listMail,
  MAIL_PAGE_SIZE,
  resendMail,
  resendRefusal,
  redirectWithFlash,
  answerForm,
} from "~/routes/admin+/mail.server";
import { Form, useLoaderData, useLocation } from "@remix-run/react";
import { RowActionButton } from "~/components/admin/row-action-button";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { FilteredList } from "~/components/admin/filtered-list";
import { Badge, EmptyState, Pagination, SelectField, TextField, type BadgeTone, DataTable } from "~/components/ui";
import { readListFilters } from "~/schemas/list-filters";
import { MAIL_FILTERS, mailListQuery, mailResendSchema } from "~/schemas/mail";
import { MAIL_RESENT, MAIL_STATE_LABELS, MAIL_STATES, MAIL_TEMPLATE_LABELS, MAIL_TEMPLATES } from "~/schemas/mail-text";
import { formatDateTime } from "~/utils/format";

/**
 * Mail (administrators): every message the portal has queued, with its recipient, subject,
 * state, attempts, times and the last error; filters in a GET form, so each view is a link that
 * works without JavaScript; paged. "Send again" is a POST form per message.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const filters = readListFilters(mailListQuery, queryObject(request), MAIL_FILTERS);
  if (!filters.query) {
    return data(
      {
        ...filters,
        messages: [] as (ReturnType<typeof mailView> & { resendable: boolean })[],
        total: 0,
        totalCapped: false,
        page: 1,
        pages: 1,
        pageSize: MAIL_PAGE_SIZE,
      },
      { status: 400 },
    );
  }
  const result = await listMail(getDb(), filters.query);
  const messages = result.messages.map((m) => ({ ...mailView(m), resendable: resendRefusal(m) === null }));
  // the page size travels with the data: a .server module's constant is not in the browser bundle
  return { ...filters, ...result, messages, pageSize: MAIL_PAGE_SIZE };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  // back to the list as it was filtered, with the message of a failure in a flash
  const back = `/admin/mail${new URL(request.url).search}`;
  return answerForm(request, {
    schema: mailResendSchema,
    // a body that is not a form names no action, like an empty one
    unreadable: "Unknown action",
    failed: ({ message }) => redirectWithFlash(back, { type: "error", message }),
    save: async ({ id }) => {
      await resendMail(getDb(), { id, actorId: admin.id, client: clientAddress(request) });
      deliverNow([id]);
      return redirectWithFlash(back, { type: "success", message: MAIL_RESENT });
    },
  });
}

const STATE_OPTIONS = [{ value: "", label: "Any state" }, ...MAIL_STATES.map((s) => ({ value: s, label: MAIL_STATE_LABELS[s] }))];
const TEMPLATE_OPTIONS = [{ value: "", label: "Any kind" }, ...MAIL_TEMPLATES.map((t) => ({ value: t, label: MAIL_TEMPLATE_LABELS[t] }))];
const STATE_TONES: Record<(typeof MAIL_STATES)[number], BadgeTone> = { queued: "blue", sent: "green", failed: "amber", given_up: "red" };

export default function MailPage() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <>
      <PageTitle title="Mail" subtitle="Every message the portal sends. A failed one is retried; after the last try it waits here for you to send it again." />
      <FilteredList
        path="/admin/mail"
        values={data.values}
        fieldErrors={data.fieldErrors}
        error={data.error}
        total={data.total}
        totalCapped={data.totalCapped}
        noun={["message", "messages"]}
      >
        <SelectField label="State" name="state" defaultValue={data.values.state} options={STATE_OPTIONS} error={data.fieldErrors.state} />
        <TextField label="Recipient" name="recipient" defaultValue={data.values.recipient} hint="Name, email or id" error={data.fieldErrors.recipient} />
        <SelectField label="Kind" name="template" defaultValue={data.values.template} options={TEMPLATE_OPTIONS} error={data.fieldErrors.template} />
      </FilteredList>
      {data.messages.length === 0 ? (
        <EmptyState title="No messages match these filters" />
      ) : (
        <DataTable
          label="Mail, newest first"
          columns={["Queued", "Subject", "Recipient", "State", "Attempts", "Sent or next try", { label: "Action", hidden: true }]}
        >
          {data.messages.map((m) => (
            <tr key={m.id} className="border-t border-steel-100 align-top">
              <td className="whitespace-nowrap px-3 py-2">{formatDateTime(m.created_at)}</td>
              <th scope="row" className="px-3 py-2 font-semibold text-steel-900">
                {m.subject}
                <span className="block text-xs font-normal text-steel-600">{MAIL_TEMPLATE_LABELS[m.template]}</span>
                {m.last_error ? <span className="block text-xs font-normal text-red-800">Last error: {m.last_error}</span> : null}
              </th>
              <td className="px-3 py-2">
                {m.recipient.name}
                <span className="block text-xs text-steel-600">{m.recipient.email}</span>
              </td>
              <td className="px-3 py-2">
                <Badge tone={STATE_TONES[m.state]}>{MAIL_STATE_LABELS[m.state]}</Badge>
              </td>
              <td className="px-3 py-2">{m.attempts}</td>
              <td className="whitespace-nowrap px-3 py-2">
                {m.state === "sent" ? formatDateTime(m.sent_at) : m.state === "given_up" ? "Waiting for you" : formatDateTime(m.next_attempt_at)}
              </td>
              <td className="px-3 py-2 text-right">
                {m.resendable ? (
                  <Form method="post" action={`/admin/mail${location.search}`} preventScrollReset>
                    <input type="hidden" name="id" value={m.id} />
                    <RowActionButton
                      intent="resend"
                      recordField="id"
                      recordId={m.id}
                      variant="secondary"
                      busyLabel="Sending..."
                      aria-label={`Send again: ${m.subject} to ${m.recipient.name}`}
                    >
                      Send again
                    </RowActionButton>
                  </Form>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pagination
        label="Messages"
        one="message"
        page={data.page}
        pageCount={data.pages}
        pageSize={data.pageSize}
        total={data.total}
        totalCapped={data.totalCapped}
        pathname="/admin/mail"
        search={location.search}
      />
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Mail | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Mail" message="Failed to load the mail" />;
}
