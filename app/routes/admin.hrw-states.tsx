import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/auth/guards.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Card, ErrorSummary, SubmitButton, TextField } from "~/components/ui";
import { getDb } from "~/db.server";
import { listStateRules, setStateRule } from "~/models/hrw-register.server";
import { stateRuleSchema } from "~/schemas/hrw";
import { answerForm } from "~/utils/form-action.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { clientAddress } from "~/http/request-context.server";

export const STATE_RULE_SAVED = "Notice lead time saved";

/**
 * How many business days ahead each state's regulator must be told of an HRW assessment
 * (blank: no notice). Bookings made afterwards use the new figure; docs/decisions/011 gives
 * the sources of the defaults.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return { rules: await listStateRules(getDb()) };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  return answerForm(request, {
    schema: stateRuleSchema,
    unreadable: "The form could not be read; please try again",
    save: async (input) => {
      await setStateRule(getDb(), input, { id: admin.id, client: clientAddress(request) });
      return redirectWithFlash("/admin/hrw-states", { type: "success", message: `${STATE_RULE_SAVED}: ${input.state}` });
    },
  });
}

export default function HrwStates() {
  const { rules } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const failedState = data?.values?.state;
  return (
    <>
      <PageTitle title="Regulator notice lead times" subtitle={<Link to="/admin/reports/hrw" className="underline">HRW assessment audit</Link>} />
      <ErrorSummary failure={data} />
      <Card className="divide-y divide-steel-100">
        {rules.map((r) => (
          <Form key={r.state} method="post" noValidate className="flex flex-wrap items-end gap-3 p-4">
            <input type="hidden" name="state" value={r.state} />
            <TextField
              label={`${r.state}: ${r.regulator}, business days of notice`}
              name="notice_business_days"
              inputMode="numeric"
              defaultValue={failedState === r.state ? data?.values?.notice_business_days : r.notice_business_days === null ? "" : String(r.notice_business_days)}
              error={failedState === r.state ? data?.fieldErrors?.notice_business_days : undefined}
              hint="Blank: this state asks for no notice"
              className="min-w-72 flex-1"
            />
            <SubmitButton variant="secondary" busyLabel="Saving..." aria-label={`Save ${r.state}`}>Save</SubmitButton>
          </Form>
        ))}
      </Card>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Regulator notice lead times | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Regulator notice lead times" message="Failed to load the lead times" />;
}
