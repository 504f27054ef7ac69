import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  organisation,
  clientAddress,
  complaintSettings,
  saveComplaintSettings,
  answerForm,
  redirectWithFlash,
} from "~/routes/admin+/complaints.settings.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { ErrorSummary, SubmitButton, TextAreaField, TextField, TitledCard } from "~/components/ui";
import { complaintSettingsInput } from "~/schemas/complaint";
import { FIX_HIGHLIGHTED_FIELDS } from "~/utils/form-text";

/** The clocks of complaints and appeals and the public policy's text (administrators). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return { settings: await complaintSettings(getDb(), organisation()) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "admin");
  return answerForm(request, {
    schema: complaintSettingsInput,
    invalid: FIX_HIGHLIGHTED_FIELDS,
    save: async (input) => {
      await saveComplaintSettings(getDb(), input, { id: user.id, client: clientAddress(request) }, organisation());
      return redirectWithFlash("/admin/complaints/settings", { type: "success", message: "Settings saved; clocks already running keep their days" });
    },
  });
}

export default function ComplaintSettingsPage() {
  const { settings } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const v = data?.values;
  return (
    <>
      <PageTitle
        title="Complaints: clocks and policy"
        actions={
          <Link to="/admin/complaints" className="underline">
            Back to the register
          </Link>
        }
      />
      <TitledCard title="Settings">
        <Form method="post" noValidate className="grid gap-4">
          <ErrorSummary failure={data} />
          <TextField
            label="Acknowledge within (business days)"
            name="acknowledge_business_days"
            inputMode="numeric"
            defaultValue={v?.acknowledge_business_days ?? String(settings.acknowledge_business_days)}
            hint="Weekdays that are not New South Wales public holidays"
            error={data?.fieldErrors?.acknowledge_business_days}
          />
          <TextField
            label="Resolve within (days)"
            name="resolve_days"
            inputMode="numeric"
            defaultValue={v?.resolve_days ?? String(settings.resolve_days)}
            hint="Calendar days from the day it is received"
            error={data?.fieldErrors?.resolve_days}
          />
          <TextAreaField
            label="Complaints and appeals policy"
            name="policy"
            rows={16}
            defaultValue={v?.policy ?? settings.policy}
            hint={
              settings.policy_is_default
                ? "The default text written for this organisation; edit it to make it yours"
                : "Shown to everyone at /complaints/policy"
            }
            error={data?.fieldErrors?.policy}
          />
          <div>
            <SubmitButton busyLabel="Saving...">Save settings</SubmitButton>
          </div>
        </Form>
      </TitledCard>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Complaints settings | Admin" }];

export function ErrorBoundary() {
  return <RouteError title="Complaints settings" message="Failed to load the settings" />;
}
