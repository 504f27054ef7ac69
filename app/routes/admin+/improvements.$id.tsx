import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  clientAddress,
  closeImprovementAction,
  getImprovementAction,
  listActionOwners,
  updateImprovementAction,
  redirectWithFlash,
  answerForm,
  formFailure,
  formIntent,
  foundOr404,
} from "~/routes/admin+/improvements.$id.server";
import { ImprovementStatusBadge } from "~/components/admin/improvement-badges";
import { ImprovementFields } from "~/components/admin/improvement-form";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { ErrorSummary, SelectField, SubmitButton, TextAreaField, TitledCard } from "~/components/ui";
import { improvementCloseSchema, improvementUpdateSchema } from "~/schemas/improvement";
import { IMPROVEMENT_SOURCE_LABELS, IMPROVEMENT_STATUS_LABELS } from "~/schemas/improvement-text";
import { formatDate, formatDateTime } from "~/utils/format";

function loadAction(id: string | undefined) {
  return foundOr404(id, (actionId) => getImprovementAction(getDb(), actionId), "Improvement action not found");
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const [found, owners] = await Promise.all([loadAction(params.id), listActionOwners(getDb())]);
  return { action: found, owners };
}

/** Two forms: save the action's details (intent "save"), or close it with its evidence (intent "close"). */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const current = await loadAction(params.id);
  const actor = { id: admin.id, client: clientAddress(request) };
  const back = `/admin/improvements/${current.id}`;
  const intent = await formIntent(request);
  if (intent === "close") {
    return answerForm(request, {
      schema: improvementCloseSchema,
      unreadable: "Failed to close the action",
      save: async (input) => {
        await closeImprovementAction(getDb(), current.id, input, actor);
        return redirectWithFlash(back, { type: "success", message: "Improvement action closed" });
      },
    });
  }
  if (intent === "save") {
    return answerForm(request, {
      schema: improvementUpdateSchema,
      requires: ["description", "owner_id", "due_date", "status"],
      unreadable: "Failed to save the action",
      save: async (input) => {
        await updateImprovementAction(getDb(), current.id, input, actor);
        return redirectWithFlash(back, { type: "success", message: "Improvement action saved" });
      },
    });
  }
  return formFailure("Unknown action");
}

const STATUS_OPTIONS = (["open", "in_progress"] as const).map((s) => ({ value: s, label: IMPROVEMENT_STATUS_LABELS[s] }));

function Detail({ term, wide, children }: { term: string; wide?: boolean; children: React.ReactNode }) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-xs font-semibold uppercase tracking-wide text-steel-600">{term}</dt>
      <dd className="mt-1 whitespace-pre-line text-steel-900">{children}</dd>
    </div>
  );
}

export default function ImprovementActionPage() {
  const { action: a, owners } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const intent = data?.values?.intent;
  const saveFailure = intent === "save" ? data : undefined;
  const closeFailure = intent === "close" ? data : undefined;
  return (
    <>
      <PageTitle
        title="Improvement action"
        subtitle={
          <>
            <Link to="/admin/improvements" className="text-hivis-800 underline underline-offset-4">
              Improvement register
            </Link>
          </>
        }
      />
      <TitledCard title="The action">
        <dl className="grid gap-4 text-sm sm:grid-cols-2">
          <Detail term="Status">
            <ImprovementStatusBadge status={a.status} overdue={a.overdue} />
          </Detail>
          <Detail term="Due">{formatDate(a.due_date)}</Detail>
          <Detail term="Source">
            {IMPROVEMENT_SOURCE_LABELS[a.source_type]}
            {a.source_label ? `: ${a.source_label}` : a.source_id ? ` ${a.source_id}` : ""}
          </Detail>
          <Detail term="Owner">{a.owner.full_name}</Detail>
          <Detail wide term="Description">
            {a.description}
          </Detail>
          {a.action_taken ? (
            <Detail wide term="What was done">
              {a.action_taken}
            </Detail>
          ) : null}
          {a.status === "closed" ? (
            <>
              <Detail wide term="Closure evidence">
                {a.closure_evidence}
              </Detail>
              <Detail term="Closed">
                {formatDateTime(a.closed_at)} by {a.closed_by?.full_name}
              </Detail>
            </>
          ) : null}
          <Detail term="Raised">{formatDateTime(a.created_at)}</Detail>
        </dl>
      </TitledCard>
      {a.status === "closed" ? null : (
        <>
          <TitledCard title="Update the action" className="mt-6">
            <Form method="post" noValidate className="space-y-4" key={`save-${saveFailure?.submittedAt ?? a.updated_at}`}>
              <ErrorSummary failure={saveFailure} />
              <ImprovementFields
                values={saveFailure?.values ?? { description: a.description, owner_id: a.owner.id, due_date: a.due_date }}
                errors={saveFailure?.fieldErrors ?? {}}
                owners={owners}
              />
              <SelectField
                label="Status"
                name="status"
                defaultValue={saveFailure?.values.status ?? a.status}
                options={STATUS_OPTIONS}
                error={saveFailure?.fieldErrors.status}
              />
              <TextAreaField
                label="Progress so far"
                name="action_taken"
                rows={3}
                defaultValue={saveFailure?.values.action_taken ?? a.action_taken ?? ""}
                error={saveFailure?.fieldErrors.action_taken}
                hint="What has been done so far (optional)"
              />
              <div className="flex justify-end">
                <SubmitButton intent="save" busyLabel="Saving...">
                  Save action
                </SubmitButton>
              </div>
            </Form>
          </TitledCard>
          <TitledCard title="Close the action" className="mt-6">
            <Form method="post" noValidate className="space-y-4" key={`close-${closeFailure?.submittedAt ?? "initial"}`}>
              <ErrorSummary failure={closeFailure} />
              <TextAreaField
                label="What was done"
                name="action_taken"
                rows={3}
                defaultValue={closeFailure?.values.action_taken ?? a.action_taken ?? ""}
                error={closeFailure?.fieldErrors.action_taken}
                required
              />
              <TextAreaField
                label="Closure evidence"
                name="closure_evidence"
                rows={3}
                defaultValue={closeFailure?.values.closure_evidence ?? ""}
                error={closeFailure?.fieldErrors.closure_evidence}
                hint="What shows it was done: a document and where it is kept, a record, an observation"
                required
              />
              <div className="flex justify-end">
                <SubmitButton intent="close" busyLabel="Closing...">
                  Close action
                </SubmitButton>
              </div>
            </Form>
          </TitledCard>
        </>
      )}
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Improvement action | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Improvement action" message="Failed to load the improvement action" />;
}
