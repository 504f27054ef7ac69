import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  queryObject,
  requireRole,
  getDb,
  clientAddress,
  createImprovementAction,
  describeImprovementSource,
  listActionOwners,
  redirectWithFlash,
  answerForm,
} from "~/routes/admin+/improvements.new.server";
import { ImprovementFields } from "~/components/admin/improvement-form";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { buttonClasses, Card, ErrorSummary, SelectField, SubmitButton, TextField } from "~/components/ui";
import { improvementCreateSchema, improvementPrefillQuery } from "~/schemas/improvement";
import { IMPROVEMENT_SOURCE_LABELS, IMPROVEMENT_SOURCES } from "~/schemas/improvement-text";
import { addDays, organisationToday } from "~/utils/organisation-calendar";

/**
 * Raise an improvement action. Other registers link here with their record:
 * `?source_type=<complaint|appeal|validation|questionnaire|audit|other>&source_id=<id>` prefills
 * the source, and a source the portal can describe (a questionnaire question) is named.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const db = getDb();
  const prefill = improvementPrefillQuery.parse(queryObject(request));
  const sourceType = prefill.source_type ?? "other";
  const sourceId = prefill.source_id || null;
  const [owners, sourceLabel] = await Promise.all([listActionOwners(db), describeImprovementSource(db, sourceType, sourceId)]);
  return {
    owners,
    sourceLabel,
    defaults: { source_type: sourceType, source_id: sourceId ?? "", owner_id: admin.id, due_date: addDays(organisationToday(), 30), description: "" },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  return answerForm(request, {
    schema: improvementCreateSchema,
    requires: ["source_type", "description", "owner_id", "due_date"],
    unreadable: "Failed to raise the action",
    save: async (input) => {
      const raised = await createImprovementAction(getDb(), input, { id: admin.id, client: clientAddress(request) });
      return redirectWithFlash(`/admin/improvements/${raised.id}`, { type: "success", message: "Improvement action raised" });
    },
  });
}

const SOURCE_OPTIONS = IMPROVEMENT_SOURCES.map((s) => ({ value: s, label: IMPROVEMENT_SOURCE_LABELS[s] }));

export default function NewImprovementAction() {
  const { owners, sourceLabel, defaults } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const values: Record<string, string> = data?.values ?? defaults;
  const errors = data?.fieldErrors ?? {};
  return (
    <>
      <PageTitle
        title="Raise an improvement action"
        subtitle="Record what is to change, who owns it and by when. It closes only with what was done and the evidence."
      />
      <Card className="p-5 sm:p-6">
        <Form method="post" noValidate className="space-y-4" key={data?.submittedAt ?? "initial"}>
          <ErrorSummary failure={data} />
          {sourceLabel ? (
            <p className="rounded-md bg-steel-50 p-3 text-sm text-steel-800">
              <span className="font-semibold">Raised from: </span>
              {sourceLabel}
            </p>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField label="Source" name="source_type" defaultValue={values.source_type} options={SOURCE_OPTIONS} error={errors.source_type} required />
            <TextField
              label="Source reference"
              name="source_id"
              defaultValue={values.source_id}
              error={errors.source_id}
              hint="A complaint's or appeal's reference, a validation's or question's id (needed for those sources); for an audit or other, anything that identifies it, or nothing"
            />
          </div>
          <ImprovementFields values={values} errors={errors} owners={owners} />
          <div className="flex flex-wrap justify-end gap-2">
            <Link to="/admin/improvements" className={buttonClasses("secondary")}>
              Cancel
            </Link>
            <SubmitButton busyLabel="Raising...">Raise action</SubmitButton>
          </div>
        </Form>
      </Card>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Raise an improvement action | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Raise an improvement action" message="Failed to load the form" />;
}
