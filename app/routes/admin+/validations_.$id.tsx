import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  clientAddress,
  completeValidation,
  drawSample,
  getValidationPlan,
  recordFinding,
  answerForm,
  formFailure,
  formIntent,
  redirectWithFlash,
  foundOr404,
} from "~/routes/admin+/validations_.$id.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Badge, ErrorSummary, SelectField, SubmitButton, TextAreaField, TitledCard } from "~/components/ui";
import { validationCompleteSchema, validationFindingSchema, validationSampleSchema } from "~/schemas/standards";
import { FINDING_OUTCOME_CODES, FINDING_OUTCOMES, improvementFromValidation } from "~/schemas/standards-text";
import { formatDate, formatDateTime } from "~/utils/format";
import { FIX_HIGHLIGHTED_FIELDS, FORM_UNREADABLE } from "~/utils/form-text";

export const SAMPLE_DRAWN = "Sample drawn";
export const FINDING_SAVED = "Finding recorded";
export const VALIDATION_DONE = "Validation completed";

function loadPlan(id: string | undefined) {
  return foundOr404(id, (found) => getValidationPlan(getDb(), found), "Validation plan not found");
}

/** One validation: its team, the sample the portal drew, a finding per item, and completion. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return { plan: await loadPlan(params.id) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const plan = await loadPlan(params.id);
  const db = getDb();
  const actor = { id: admin.id, client: clientAddress(request) };
  const back = (message: string, hash = "") => redirectWithFlash(`/admin/validations/${plan.id}${hash}`, { type: "success", message });
  const common = { invalid: FIX_HIGHLIGHTED_FIELDS };
  switch (await formIntent(request)) {
    case "sample":
      return answerForm(request, { ...common, schema: validationSampleSchema, save: async () => (await drawSample(db, plan.id, actor), back(SAMPLE_DRAWN)) });
    case "finding":
      return answerForm(request, {
        ...common,
        schema: validationFindingSchema,
        save: async (input) => (await recordFinding(db, plan.id, input, actor), back(FINDING_SAVED, `#item-${input.sample_id}`)),
      });
    case "complete":
      return answerForm(request, {
        ...common,
        schema: validationCompleteSchema,
        save: async (input) => (await completeValidation(db, plan.id, input.summary, actor), back(VALIDATION_DONE)),
      });
    default:
      return formFailure(FORM_UNREADABLE);
  }
}

export default function ValidationPlanPage() {
  const { plan } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const failed = data?.values?.intent;
  const v: Record<string, string> = data?.values ?? {};
  const errors = data?.fieldErrors ?? {};
  const mine = (sampleId: string) => failed === "finding" && v.sample_id === sampleId;
  return (
    <>
      <PageTitle
        title={`Validation: ${plan.course.name} (${plan.course.unit_code})`}
        subtitle={
          <Link to="/admin/validations" className="underline">
            Back to validation
          </Link>
        }
      />
      <div className="grid gap-6">
        <TitledCard title="Plan">
          <dl className="grid gap-2 text-sm sm:grid-cols-2">
            <div>
              <dt className="font-semibold">Date</dt>
              <dd>{formatDate(plan.planned_on)}</dd>
            </div>
            <div>
              <dt className="font-semibold">Validators</dt>
              <dd>{plan.validators.map((x) => x.full_name).join(", ")}</dd>
            </div>
            <div>
              <dt className="font-semibold">Sample</dt>
              <dd>
                {plan.sampled
                  ? `${plan.samples.length} of ${plan.population} completed assessments, drawn ${formatDateTime(plan.sampled_at)} from seed ${plan.seed}`
                  : `${plan.sample_size} completed assessments, to be drawn`}
              </dd>
            </div>
            <div>
              <dt className="font-semibold">Status</dt>
              <dd>
                {plan.completed_at
                  ? `Completed ${formatDateTime(plan.completed_at)}`
                  : plan.sampled
                    ? `${plan.findings_open} finding${plan.findings_open === 1 ? "" : "s"} to record`
                    : "Sample not drawn"}
              </dd>
            </div>
          </dl>
          {plan.summary ? <p className="mt-3 text-sm">{plan.summary}</p> : null}
          {!plan.sampled ? (
            <Form method="post" className="mt-4 space-y-3">
              {failed === "sample" ? <ErrorSummary failure={data} only={[]} /> : null}
              <SubmitButton intent="sample" busyLabel="Drawing...">
                Draw the sample
              </SubmitButton>
            </Form>
          ) : null}
        </TitledCard>
        {plan.samples.length ? (
          <TitledCard title="Sample and findings">
            <ol className="space-y-6">
              {plan.samples.map((s) => (
                <li key={s.id} id={`item-${s.id}`} className="scroll-mt-4 border-b border-steel-100 pb-4 text-sm">
                  <h3 className="font-semibold">
                    Item {s.position}: {s.assessment.student_name}, {s.assessment.assessment_type}, {s.assessment.status},{" "}
                    {formatDate(s.assessment.assessment_date)}
                  </h3>
                  <p>Assessor: {s.assessment.assessor?.full_name ?? "Unknown"}</p>
                  {s.outcome ? (
                    <div className="mt-2">
                      <Badge tone={s.outcome === "meets" ? "green" : "red"}>{FINDING_OUTCOMES[s.outcome]}</Badge>
                      {s.finding ? <p className="mt-1">Finding: {s.finding}</p> : null}
                      {s.action ? <p>Action: {s.action}</p> : null}
                      {s.outcome === "does_not_meet" ? (
                        <p className="mt-1">
                          <a href={improvementFromValidation(plan.id)} className="underline">
                            Raise an improvement action for item {s.position}
                          </a>
                        </p>
                      ) : null}
                    </div>
                  ) : null}
                  {!plan.completed_at ? (
                    <Form method="post" noValidate className="mt-3 space-y-3">
                      {mine(s.id) ? (
                        <ErrorSummary
                          failure={data}
                          only={["outcome", "finding", "action"]}
                          fieldIds={{ outcome: `outcome-${s.id}`, finding: `finding-${s.id}`, action: `action-${s.id}` }}
                        />
                      ) : null}
                      <input type="hidden" name="sample_id" value={s.id} />
                      <SelectField
                        label={`Outcome for item ${s.position}`}
                        name="outcome"
                        id={`outcome-${s.id}`}
                        placeholder="Choose an outcome"
                        defaultValue={mine(s.id) ? v.outcome : (s.outcome ?? "")}
                        error={mine(s.id) ? errors.outcome : undefined}
                        options={FINDING_OUTCOME_CODES.map((o) => ({ value: o, label: FINDING_OUTCOMES[o] }))}
                      />
                      <TextAreaField
                        label={`Finding for item ${s.position}`}
                        name="finding"
                        id={`finding-${s.id}`}
                        rows={2}
                        defaultValue={mine(s.id) ? v.finding : (s.finding ?? "")}
                        error={mine(s.id) ? errors.finding : undefined}
                      />
                      <TextAreaField
                        label={`Action for item ${s.position}`}
                        name="action"
                        id={`action-${s.id}`}
                        rows={2}
                        defaultValue={mine(s.id) ? v.action : (s.action ?? "")}
                        error={mine(s.id) ? errors.action : undefined}
                      />
                      <SubmitButton intent="finding" variant="secondary" busyLabel="Saving..." aria-label={`Record finding for item ${s.position}`}>
                        Record finding
                      </SubmitButton>
                    </Form>
                  ) : null}
                </li>
              ))}
            </ol>
          </TitledCard>
        ) : null}
        {plan.sampled && !plan.completed_at ? (
          <TitledCard title="Complete the validation">
            <Form method="post" noValidate className="space-y-3">
              {failed === "complete" ? <ErrorSummary failure={data} only={["summary"]} /> : null}
              <TextAreaField
                label="Summary of the validation"
                name="summary"
                rows={3}
                defaultValue={failed === "complete" ? v.summary : undefined}
                error={failed === "complete" ? errors.summary : undefined}
              />
              <SubmitButton intent="complete" busyLabel="Completing...">
                Complete validation
              </SubmitButton>
            </Form>
          </TitledCard>
        ) : null}
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Validation plan | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Validation plan" message="Failed to load the validation plan" />;
}
