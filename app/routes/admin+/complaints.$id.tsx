import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  readOrRefuse,
  requireRole,
  getDb,
  clientAddress,
  acknowledgeComplaint,
  assignDecider,
  deciderChoices,
  getComplaint,
  resolveComplaint,
  answerForm,
  formFailure,
  formIntent,
  redirectWithFlash,
} from "~/routes/admin+/complaints.$id.server";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Badge, ErrorSummary, SelectField, SubmitButton, TextAreaField, TitledCard } from "~/components/ui";
import { acknowledgeInput, assignDeciderInput, resolveInput } from "~/schemas/complaint";
import { COMPLAINT_OUTCOMES, describeChange, KIND_LABELS, OUTCOME_LABELS, OVERDUE_LABELS, STATUS_LABELS } from "~/schemas/complaint-text";
import { formatDate, formatDateTime } from "~/utils/format";
import { FIX_HIGHLIGHTED_FIELDS, FORM_UNREADABLE } from "~/utils/form-text";

/**
 * One complaint or appeal: what was lodged, its clocks, and the steps (acknowledge, assign a
 * decider to an appeal, resolve or decide). Admins read every item; a trainer reaches here
 * (trainer.appeals.$id re-exports this page) only for an appeal assigned to them to decide.
 */
const basePath = (role: string) => (role === "admin" ? "/admin/complaints" : "/trainer/appeals");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "admin", "trainer");
  const db = getDb();
  const item = await readOrRefuse(() => getComplaint(db, params.id ?? "", { id: user.id, role: user.role }));
  const deciders = user.role === "admin" && item.kind === "appeal" && item.status !== "resolved" ? await deciderChoices(db, item.assessor?.id ?? null) : [];
  return { item, deciders, viewer: { id: user.id, role: user.role }, base: basePath(user.role) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, "admin", "trainer");
  const db = getDb();
  const id = params.id ?? "";
  const reader = { id: user.id, role: user.role };
  const actor = { id: user.id, client: clientAddress(request) };
  const here = `${basePath(user.role)}/${id}`;
  const common = { invalid: FIX_HIGHLIGHTED_FIELDS };
  switch (await formIntent(request)) {
    case "acknowledge":
      return answerForm(request, {
        ...common,
        schema: acknowledgeInput,
        save: async () => (await acknowledgeComplaint(db, id, actor, reader), redirectWithFlash(here, { type: "success", message: "Acknowledged" })),
      });
    case "assign":
      if (user.role !== "admin") return formFailure("Only an administrator assigns appeals", { status: 403 });
      return answerForm(request, {
        ...common,
        schema: assignDeciderInput,
        save: async (input) => (
          await assignDecider(db, id, input.decider_id, actor),
          redirectWithFlash(here, { type: "success", message: "Decider assigned" })
        ),
      });
    case "resolve":
      return answerForm(request, {
        ...common,
        schema: resolveInput,
        save: async (input) => (
          await resolveComplaint(db, id, input, actor, reader),
          redirectWithFlash(here, { type: "success", message: "Outcome recorded and mailed" })
        ),
      });
    default:
      return formFailure(FORM_UNREADABLE);
  }
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[12rem_1fr]">
      <dt className="font-semibold text-steel-700">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

const RESOLVE_FIELDS = ["outcome", "reasons", "new_status", "hrw_part", "hrw_result"] as const;

export default function ComplaintItemPage() {
  const { item, deciders, viewer, base } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const failedIntent = data?.values?.intent;
  const isAssessor = item.assessor?.id === viewer.id;
  const mayDecide = item.kind === "complaint" ? viewer.role === "admin" : !isAssessor && (viewer.role === "admin" || item.decider?.id === viewer.id);
  return (
    <>
      <PageTitle
        title={`${KIND_LABELS[item.kind]} ${item.reference}`}
        subtitle={
          <>
            {STATUS_LABELS[item.status]}
            {item.overdue ? (
              <Badge tone="red" className="ml-2">
                {OVERDUE_LABELS[item.overdue]}
              </Badge>
            ) : null}
          </>
        }
        actions={
          <Link to={base} className="underline">
            Back to the {viewer.role === "admin" ? "register" : "appeals"}
          </Link>
        }
      />
      <div className="grid gap-6">
        <TitledCard title="What was lodged">
          <dl className="grid gap-3 text-sm">
            <Row label="Received">{formatDateTime(item.received_at)}</Row>
            <Row label="Acknowledge by">{formatDate(item.acknowledge_by)}</Row>
            <Row label="Resolve by">{formatDate(item.resolve_by)}</Row>
            <Row label="From">
              {item.name ?? "Anonymous"}
              {item.lodged_by ? " (signed in)" : ""}
            </Row>
            {item.email ? <Row label="Email">{item.email}</Row> : null}
            {item.phone ? <Row label="Phone">{item.phone}</Row> : null}
            {item.assessment_title ? <Row label="Assessment">{item.assessment_title}</Row> : null}
            {item.assessor ? <Row label="Assessor">{item.assessor.full_name}</Row> : null}
            {item.kind === "appeal" ? <Row label="Decider">{item.decider?.full_name ?? "Not assigned"}</Row> : null}
            <Row label="Details">
              <p className="whitespace-pre-line">{item.details}</p>
            </Row>
            {item.acknowledged_at ? (
              <Row label="Acknowledged">{`${formatDateTime(item.acknowledged_at)} by ${item.acknowledged_by?.full_name ?? ""}`}</Row>
            ) : null}
            {item.resolved_at ? (
              <>
                <Row label="Resolved">{`${formatDateTime(item.resolved_at)} by ${item.resolved_by?.full_name ?? ""}`}</Row>
                <Row label="Outcome">{item.outcome ? OUTCOME_LABELS[item.outcome] : ""}</Row>
                <Row label="Reasons">
                  <p className="whitespace-pre-line">{item.reasons}</p>
                </Row>
                {item.changed_result ? <Row label="Result changed to">{describeChange(item.changed_result)}</Row> : null}
              </>
            ) : null}
          </dl>
          {viewer.role === "admin" ? (
            <p className="mt-4 text-sm">
              <Link className="font-semibold underline" to={`/admin/improvements/new?source_type=${item.kind}&source_id=${item.id}`}>
                Raise an improvement action
              </Link>
            </p>
          ) : null}
        </TitledCard>

        {item.status === "received" ? (
          <TitledCard title="Acknowledge">
            <Form method="post" className="space-y-3">
              {failedIntent === "acknowledge" ? <ErrorSummary failure={data} /> : null}
              <p className="text-sm">Record that the person has been told it is being looked into (due by {formatDate(item.acknowledge_by)}).</p>
              <SubmitButton intent="acknowledge" busyLabel="Saving...">
                Mark acknowledged
              </SubmitButton>
            </Form>
          </TitledCard>
        ) : null}

        {deciders.length > 0 ? (
          <TitledCard title="Who decides">
            <Form method="post" noValidate className="space-y-3">
              {failedIntent === "assign" ? <ErrorSummary failure={data} only={["decider_id"]} /> : null}
              <SelectField
                label="Decider"
                name="decider_id"
                hint="Anyone but the assessor whose decision is appealed"
                defaultValue={item.decider?.id ?? ""}
                placeholder="Choose a staff member"
                options={deciders.map((d) => ({ value: d.id, label: `${d.full_name} (${d.role})` }))}
                error={failedIntent === "assign" ? data?.fieldErrors?.decider_id : undefined}
              />
              <SubmitButton intent="assign" busyLabel="Saving...">
                Assign
              </SubmitButton>
            </Form>
          </TitledCard>
        ) : null}

        {item.status !== "resolved" ? (
          <TitledCard title={item.kind === "appeal" ? "Decide the appeal" : "Resolve"}>
            {mayDecide ? (
              <Form method="post" noValidate className="space-y-3">
                {failedIntent === "resolve" ? <ErrorSummary failure={data} only={RESOLVE_FIELDS} /> : null}
                <SelectField
                  label="Outcome"
                  name="outcome"
                  placeholder="Choose the outcome"
                  defaultValue={failedIntent === "resolve" ? data?.values?.outcome : ""}
                  options={COMPLAINT_OUTCOMES.map((o) => ({ value: o, label: OUTCOME_LABELS[o] }))}
                  error={failedIntent === "resolve" ? data?.fieldErrors?.outcome : undefined}
                />
                <TextAreaField
                  label="Reasons"
                  name="reasons"
                  rows={5}
                  hint="Mailed to the person who lodged it"
                  defaultValue={failedIntent === "resolve" ? data?.values?.reasons : ""}
                  error={failedIntent === "resolve" ? data?.fieldErrors?.reasons : undefined}
                />
                {item.assessment_kind === "unit" ? (
                  <SelectField
                    label="Change the result to"
                    name="new_status"
                    placeholder="Leave the result as it is"
                    defaultValue={failedIntent === "resolve" ? data?.values?.new_status : ""}
                    options={[
                      { value: "passed", label: "Passed" },
                      { value: "failed", label: "Failed" },
                    ]}
                    error={failedIntent === "resolve" ? data?.fieldErrors?.new_status : undefined}
                  />
                ) : null}
                {item.assessment_kind === "hrw" ? (
                  <div className="grid gap-3 sm:grid-cols-2">
                    <SelectField
                      label="Part whose result changes"
                      name="hrw_part"
                      placeholder="Leave the results as they are"
                      options={[
                        { value: "knowledge", label: "Knowledge" },
                        { value: "calculations", label: "Calculations" },
                        { value: "practical", label: "Practical" },
                      ]}
                      error={failedIntent === "resolve" ? data?.fieldErrors?.hrw_part : undefined}
                    />
                    <SelectField
                      label="New result"
                      name="hrw_result"
                      placeholder="No change"
                      options={[
                        { value: "satisfactory", label: "Satisfactory" },
                        { value: "not_yet_satisfactory", label: "Not yet satisfactory" },
                      ]}
                      error={failedIntent === "resolve" ? data?.fieldErrors?.hrw_result : undefined}
                    />
                  </div>
                ) : null}
                <SubmitButton intent="resolve" busyLabel="Saving...">
                  {item.kind === "appeal" ? "Record the decision" : "Record the outcome"}
                </SubmitButton>
              </Form>
            ) : (
              <p className="text-sm">
                {isAssessor ? "You made the decision under appeal, so someone else decides it." : "This appeal is assigned to another staff member to decide."}
              </p>
            )}
          </TitledCard>
        ) : null}
      </div>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.item.reference ?? "Complaint"} | Complaints` }];

export function ErrorBoundary() {
  return <RouteError title="Complaint or appeal" message="This complaint or appeal could not be found" />;
}
