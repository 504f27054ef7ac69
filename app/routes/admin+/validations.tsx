import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  clientAddress,
  listActiveTrainers,
  createValidationPlan,
  listCourseValidations,
  listValidationPlans,
  setCourseValidation,
  answerForm,
  formFailure,
  formIntent,
  redirectWithFlash,
} from "~/routes/admin+/validations.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Badge, CheckboxField, ErrorSummary, SelectField, SubmitButton, TableScroll, TextField, TitledCard } from "~/components/ui";
import { courseValidationSchema, validationPlanSchema } from "~/schemas/standards";
import {
  RISK_RATING_CODES,
  RISK_RATINGS,
  SAMPLE_SIZE_MAX,
  VALIDATION_INTERVAL_MONTHS,
  VALIDATION_STATES,
  type ValidationState,
} from "~/schemas/standards-text";
import { formatDate } from "~/utils/format";
import { organisationToday } from "~/utils/organisation-calendar";
import type { FieldErrors } from "~/utils/validation";
import { FIX_HIGHLIGHTED_FIELDS, FORM_UNREADABLE } from "~/utils/form-text";

export const RATING_SAVED = "Validation schedule saved";
export const PLAN_SAVED = "Validation planned";

const STATE_TONES: Record<ValidationState, "red" | "amber" | "green"> = { overdue: "red", due: "amber", scheduled: "green" };

/** Each course's risk and validation days, the plans, and the forms that set and plan them. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const db = getDb();
  const today = organisationToday();
  const [courses, plans, trainers] = await Promise.all([listCourseValidations(db, today), listValidationPlans(db), listActiveTrainers(db)]);
  return { courses, plans, trainers, today };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const db = getDb();
  const actor = { id: admin.id, client: clientAddress(request) };
  const common = { invalid: FIX_HIGHLIGHTED_FIELDS };
  switch (await formIntent(request)) {
    case "rating":
      return answerForm(request, {
        ...common,
        schema: courseValidationSchema,
        save: async (input) => (
          await setCourseValidation(db, input, actor),
          redirectWithFlash("/admin/validations", { type: "success", message: RATING_SAVED })
        ),
      });
    case "plan":
      return answerForm(request, {
        ...common,
        schema: validationPlanSchema,
        input: (form) => ({
          course_id: form.get("course_id") ?? undefined,
          planned_on: form.get("planned_on") ?? undefined,
          sample_size: form.get("sample_size") ?? undefined,
          validator_ids: form.getAll("validator_ids").map(String),
        }),
        save: async (input) => {
          const { id } = await createValidationPlan(db, input, actor);
          return redirectWithFlash(`/admin/validations/${id}`, { type: "success", message: PLAN_SAVED });
        },
      });
    default:
      return formFailure(FORM_UNREADABLE);
  }
}

export default function ValidationsPage() {
  const { courses, plans, trainers } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const failed = data?.values?.intent;
  const errors: FieldErrors = data?.fieldErrors ?? {};
  const v: Record<string, string> = data?.values ?? {};
  const field = (intent: string, name: string) => (failed === intent ? errors[name] : undefined);
  const value = (intent: string, name: string) => (failed === intent ? v[name] : undefined);
  return (
    <>
      <PageTitle title="Validation" subtitle="Every course validated at least once every 5 years, sooner for higher risk" />
      <div className="grid gap-6">
        <TitledCard title="Courses">
          <TableScroll label="Courses and their validation">
            <table className="min-w-full text-sm">
              <thead>
                <tr className="border-b border-steel-200 text-left">
                  <th scope="col" className="px-3 py-2">
                    Course (unit)
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Risk
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Last validated
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Next validation
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Plan
                  </th>
                </tr>
              </thead>
              <tbody>
                {courses.map((c) => (
                  <tr key={c.course.id} className="border-b border-steel-100">
                    <th scope="row" className="px-3 py-2 text-left font-normal">
                      {c.course.name} <span className="text-steel-600">({c.course.unit_code})</span>
                    </th>
                    <td className="px-3 py-2">
                      {RISK_RATINGS[c.risk_rating]}
                      {c.rated ? "" : " (not yet rated)"}
                    </td>
                    <td className="px-3 py-2">{formatDate(c.last_validated_on, "Never")}</td>
                    <td className="px-3 py-2">
                      {formatDate(c.next_due_on)} <Badge tone={STATE_TONES[c.state]}>{VALIDATION_STATES[c.state]}</Badge>
                    </td>
                    <td className="px-3 py-2">
                      {c.open_plan ? (
                        <Link to={`/admin/validations/${c.open_plan.id}`} className="underline">
                          Planned {formatDate(c.open_plan.planned_on)}
                        </Link>
                      ) : (
                        "None"
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </TitledCard>
        <div className="grid gap-6 lg:grid-cols-2">
          <TitledCard title="Plan a validation">
            <Form method="post" noValidate className="space-y-3">
              {failed === "plan" ? (
                <ErrorSummary failure={data} only={["course_id", "planned_on", "sample_size", "validator_ids"]} fieldIds={{ validator_ids: "validators" }} />
              ) : null}
              <SelectField
                label="Course"
                name="course_id"
                placeholder="Choose a course"
                defaultValue={value("plan", "course_id") ?? ""}
                error={field("plan", "course_id")}
                options={courses.map((c) => ({ value: c.course.id, label: `${c.course.name} (${c.course.unit_code})` }))}
              />
              <div className="grid gap-3 sm:grid-cols-2">
                <TextField
                  label="Validation date"
                  name="planned_on"
                  type="date"
                  required
                  defaultValue={value("plan", "planned_on")}
                  error={field("plan", "planned_on")}
                />
                <TextField
                  label="Sample size"
                  name="sample_size"
                  type="number"
                  min={1}
                  max={SAMPLE_SIZE_MAX}
                  required
                  defaultValue={value("plan", "sample_size") ?? "5"}
                  error={field("plan", "sample_size")}
                />
              </div>
              <fieldset id="validators" tabIndex={-1} aria-describedby={field("plan", "validator_ids") ? "validators-error" : undefined}>
                <legend className="mb-1 text-sm font-semibold text-steel-800">Validators (each credentialed for the unit)</legend>
                <div className="grid gap-1 sm:grid-cols-2">
                  {trainers.map((t) => (
                    <CheckboxField
                      key={t.id}
                      label={t.full_name}
                      name="validator_ids"
                      value={t.id}
                      id={`validator-${t.id}`}
                      defaultChecked={failed === "plan" ? (v.validator_ids ?? "").split(",").includes(t.id) : false}
                    />
                  ))}
                </div>
                {field("plan", "validator_ids") ? (
                  <p id="validators-error" className="mt-1 text-sm font-medium text-red-700">
                    {field("plan", "validator_ids")}
                  </p>
                ) : null}
              </fieldset>
              <p className="text-sm text-steel-700">
                The portal draws the sample at random from the course&apos;s completed assessments, leaving out every validator&apos;s own.
              </p>
              <SubmitButton intent="plan" busyLabel="Planning...">
                Plan validation
              </SubmitButton>
            </Form>
          </TitledCard>
          <TitledCard title="Risk rating and schedule">
            <Form method="post" noValidate className="space-y-3">
              {failed === "rating" ? <ErrorSummary failure={data} only={["course_id", "risk_rating", "last_validated_on", "next_due_on"]} /> : null}
              <SelectField
                label="Course to rate"
                name="course_id"
                id="rating-course"
                placeholder="Choose a course"
                defaultValue={value("rating", "course_id") ?? ""}
                error={field("rating", "course_id")}
                options={courses.map((c) => ({ value: c.course.id, label: `${c.course.name} (${c.course.unit_code})` }))}
              />
              <SelectField
                label="Risk rating"
                name="risk_rating"
                defaultValue={value("rating", "risk_rating") ?? "medium"}
                error={field("rating", "risk_rating")}
                options={RISK_RATING_CODES.map((r) => ({ value: r, label: `${RISK_RATINGS[r]}: at most ${VALIDATION_INTERVAL_MONTHS[r]} months apart` }))}
              />
              <div className="grid gap-3 sm:grid-cols-2">
                <TextField
                  label="Last validated"
                  name="last_validated_on"
                  type="date"
                  defaultValue={value("rating", "last_validated_on")}
                  error={field("rating", "last_validated_on")}
                />
                <TextField
                  label="Next validation (blank: the latest allowed)"
                  name="next_due_on"
                  type="date"
                  defaultValue={value("rating", "next_due_on")}
                  error={field("rating", "next_due_on")}
                />
              </div>
              <SubmitButton intent="rating" busyLabel="Saving...">
                Save schedule
              </SubmitButton>
            </Form>
          </TitledCard>
        </div>
        <TitledCard title={`Plans (${plans.length})`}>
          {plans.length === 0 ? (
            <p className="text-sm">No validations planned yet.</p>
          ) : (
            <ul className="space-y-2 text-sm">
              {plans.map((p) => (
                <li key={p.id}>
                  <Link to={`/admin/validations/${p.id}`} className="font-semibold underline">
                    {p.course.name} ({p.course.unit_code}), {formatDate(p.planned_on)}
                  </Link>
                  : {p.validators.map((x) => x.full_name).join(", ")};{" "}
                  {p.completed_at
                    ? "completed"
                    : p.sampled
                      ? `sample drawn, ${p.findings_open} finding${p.findings_open === 1 ? "" : "s"} to record`
                      : `sample of ${p.sample_size} to draw`}
                </li>
              ))}
            </ul>
          )}
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Validation | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Validation" message="Failed to load validation" />;
}
