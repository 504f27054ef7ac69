import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  getOptionalUser,
  getDb,
  organisation,
  clientAddress,
  lodgeComplaint,
  answerForm,
  redirectWithFlash,
  retryAfterFromAction,
} from "~/routes/complaints+/new.server";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Alert, ErrorSummary, SubmitButton, TextAreaField, TextField } from "~/components/ui";
import { complaintInput } from "~/schemas/complaint";
import { DETAILS_MAX } from "~/schemas/complaint-text";
import { formatDate } from "~/utils/format";
import { FIX_HIGHLIGHTED_FIELDS } from "~/utils/form-text";

/**
 * Make a complaint: anyone, signed in (linked to their account, mailed there) or not (name and
 * contact optional). The answer comes back to this page with the reference in the address, so
 * it shows with or without JavaScript, and to an anonymous person who left no address.
 */
const REFERENCE = /^C-\d{4}-\d{4,}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  const url = new URL(request.url);
  const reference = url.searchParams.get("reference");
  const ack = url.searchParams.get("ack");
  const resolve = url.searchParams.get("resolve");
  const lodged =
    reference && REFERENCE.test(reference) && ack && DAY.test(ack) && resolve && DAY.test(resolve)
      ? { reference, ack, resolve, mailed: url.searchParams.get("mailed") === "1" }
      : null;
  return { signedIn: user ? { name: user.full_name } : null, lodged };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await getOptionalUser(request);
  return answerForm(request, {
    schema: complaintInput,
    invalid: FIX_HIGHLIGHTED_FIELDS,
    save: async (input) => {
      const lodged = await lodgeComplaint(getDb(), input, {
        by: user ? { id: user.id, client: clientAddress(request) } : { id: null, client: clientAddress(request) },
        rto: organisation(),
      });
      const q = new URLSearchParams({ reference: lodged.reference, ack: lodged.acknowledge_by, resolve: lodged.resolve_by, mailed: lodged.mailed ? "1" : "0" });
      return redirectWithFlash(`/complaints/new?${q}`, { type: "success", message: `Complaint received: your reference is ${lodged.reference}` });
    },
  });
}

export default function NewComplaint() {
  const { signedIn, lodged } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const v = data?.values;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-steel-900 sm:text-3xl">Make a complaint</h1>
      {lodged ? (
        <section aria-labelledby="lodged-heading" className="rounded-md border border-green-300 bg-green-50 p-4">
          <h2 id="lodged-heading" className="text-lg font-bold">
            Your reference is {lodged.reference}
          </h2>
          <p className="mt-2 text-sm">
            We will acknowledge it by {formatDate(lodged.ack)} and aim to resolve it by {formatDate(lodged.resolve)}.{" "}
            {lodged.mailed ? "We have emailed you an acknowledgement." : "You left no email address, so keep this reference to ask about it."}
          </p>
        </section>
      ) : null}
      <p>
        Tell us what went wrong. Read our{" "}
        <Link to="/complaints/policy" className="underline">
          complaints and appeals policy
        </Link>{" "}
        for what happens next.
        {signedIn ? ` You are signed in as ${signedIn.name}: we reply to your account.` : " You may stay anonymous: leave your name and contact blank."}
      </p>
      <Form method="post" noValidate className="grid gap-4">
        <ErrorSummary failure={data} />
        {data?.status && data.status >= 500 ? <Alert>{data.error}</Alert> : null}
        <TextAreaField
          label="Your complaint"
          name="details"
          rows={8}
          hint={`Up to ${DETAILS_MAX.toLocaleString("en-AU")} characters`}
          defaultValue={v?.details}
          error={data?.fieldErrors?.details}
        />
        {signedIn ? null : (
          <>
            <TextField label="Your name (optional)" name="name" autoComplete="name" defaultValue={v?.name} error={data?.fieldErrors?.name} />
            <TextField
              label="Email (optional)"
              name="email"
              type="email"
              autoComplete="email"
              hint="Where we send the acknowledgement and the outcome"
              defaultValue={v?.email}
              error={data?.fieldErrors?.email}
            />
            <TextField label="Phone (optional)" name="phone" type="tel" autoComplete="tel" defaultValue={v?.phone} error={data?.fieldErrors?.phone} />
          </>
        )}
        <div>
          <SubmitButton busyLabel="Sending...">Send complaint</SubmitButton>
        </div>
      </Form>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Make a complaint" }];
export const headers: HeadersFunction = retryAfterFromAction;

export function ErrorBoundary() {
  return <RouteError title="Make a complaint" message="The complaint form could not be shown" />;
}
