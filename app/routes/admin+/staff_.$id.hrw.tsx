import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  addAccreditation,
  getAssessorRegister,
  removeAccreditation,
  setAssessorLicence,
  assessorCurrency,
  completeRegulatorTask,
  listRegulatorTasks,
  answerForm,
  formFailure,
  formIntent,
  redirectWithFlash,
  clientAddress,
  foundOr404,
} from "~/routes/admin+/staff_.$id.hrw.server";
import { ClassCheckboxes } from "~/components/hrw/class-fields";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { SelectField, SubmitButton, TextField, TitledCard, ErrorSummary } from "~/components/ui";
import { CurrencyList } from "~/components/hrw/hrw-ui";
import { accreditationRemovalSchema, accreditationSchema, assessorLicenceSchema, regulatorTaskDoneSchema } from "~/schemas/hrw";
import { HRW_STATE_CODES, HRW_STATES, hrwDate } from "~/schemas/hrw-codes";
import { organisationToday } from "~/utils/organisation-calendar";
import type { FieldErrors } from "~/utils/validation";
import { FIX_HIGHLIGHTED_FIELDS, FORM_UNREADABLE } from "~/utils/form-text";

export const REGISTER_UPDATED = "Assessor register updated";

function loadRegister(id: string | undefined) {
  return foundOr404(id, (found) => getAssessorRegister(getDb(), found), "Trainer not found");
}

/** A trainer's entry in the assessor register: their own licence and each regulator's accreditation. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const register = await loadRegister(params.id);
  const today = organisationToday();
  const [currency, tasks] = await Promise.all([
    assessorCurrency(getDb(), register.trainer.id, today),
    listRegulatorTasks(getDb(), { trainerId: register.trainer.id }),
  ]);
  return { register, today, currency, tasks };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const { trainer } = await loadRegister(params.id);
  const db = getDb();
  const actor = { id: admin.id, client: clientAddress(request) };
  const done = () => redirectWithFlash(`/admin/staff/${trainer.id}/hrw`, { type: "success", message: REGISTER_UPDATED });
  const common = { invalid: FIX_HIGHLIGHTED_FIELDS };
  switch (await formIntent(request)) {
    case "licence":
      return answerForm(request, {
        ...common,
        schema: assessorLicenceSchema,
        save: async (input) => (await setAssessorLicence(db, trainer.id, input, actor), done()),
      });
    case "accreditation":
      return answerForm(request, {
        ...common,
        schema: accreditationSchema,
        save: async (input) => (await addAccreditation(db, trainer.id, input, actor), done()),
      });
    case "task":
      return answerForm(request, {
        ...common,
        schema: regulatorTaskDoneSchema,
        save: async (input) => (await completeRegulatorTask(db, input.task_id, input.reference, actor), done()),
      });
    case "remove":
      return answerForm(request, {
        ...common,
        schema: accreditationRemovalSchema,
        save: async (input) => (await removeAccreditation(db, trainer.id, input.accreditation_id, actor), done()),
      });
    default:
      return formFailure(FORM_UNREADABLE);
  }
}

export default function AssessorRegisterPage() {
  const { register, today, currency, tasks } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const failed = data?.values?.intent;
  const errors: FieldErrors = data?.fieldErrors ?? {};
  const v: Record<string, string> = data?.values ?? {};
  const field = (intent: string, name: string) => (failed === intent ? errors[name] : undefined);
  return (
    <>
      <PageTitle
        title={`Assessor register: ${register.trainer.full_name}`}
        subtitle={
          <Link to="/admin/staff" className="underline">
            Back to staff
          </Link>
        }
      />
      <ErrorSummary failure={failed === "remove" ? data : null} />
      <div className="grid gap-6 lg:grid-cols-2">
        {tasks.length ? (
          <TitledCard title="Regulator changes">
            <ul className="space-y-3 text-sm">
              {tasks.map((t) => (
                <li key={t.id}>
                  <p>
                    <span className="font-semibold">
                      {t.done_at ? `Told the ${t.state} regulator` : `Tell the ${t.state} regulator by ${hrwDate(t.due_on)}`}
                    </span>
                    : {t.what}
                    {t.done_reference ? ` (${t.done_reference})` : ""}
                  </p>
                  {!t.done_at ? (
                    <Form method="post" noValidate className="mt-2 flex flex-wrap items-end gap-2">
                      {failed === "task" && v.task_id === t.id ? <ErrorSummary failure={data} fieldIds={{ reference: `task-${t.id}` }} /> : null}
                      <input type="hidden" name="task_id" value={t.id} />
                      <TextField
                        label={`Reference for telling the ${t.state} regulator`}
                        name="reference"
                        id={`task-${t.id}`}
                        defaultValue={failed === "task" && v.task_id === t.id ? v.reference : undefined}
                        error={failed === "task" && v.task_id === t.id ? errors.reference : undefined}
                        className="min-w-56 flex-1"
                      />
                      <SubmitButton intent="task" variant="secondary" busyLabel="Saving...">
                        Record as told
                      </SubmitButton>
                    </Form>
                  ) : null}
                </li>
              ))}
            </ul>
          </TitledCard>
        ) : null}
        {currency.length ? (
          <TitledCard title="Currency">
            <div className="text-sm">
              <CurrencyList currency={currency} />
            </div>
          </TitledCard>
        ) : null}
        <TitledCard title="Accreditations">
          {register.accreditations.length === 0 ? (
            <p className="text-sm">No accreditations recorded.</p>
          ) : (
            <ul className="space-y-2 text-sm">
              {register.accreditations.map((a) => (
                <li key={a.id} className="flex flex-wrap items-center justify-between gap-2">
                  <span>
                    {a.regulator} <span className="font-semibold">{a.number}</span>: {a.classes.join(", ")} — from {hrwDate(a.starts_on)},{" "}
                    {a.expires_on < today ? "expired" : "expires"} {hrwDate(a.expires_on)}
                  </span>
                  <Form method="post">
                    <input type="hidden" name="accreditation_id" value={a.id} />
                    <SubmitButton
                      intent="remove"
                      variant="secondary"
                      size="sm"
                      busyLabel="Removing..."
                      aria-label={`Remove accreditation ${a.number} from ${hrwDate(a.starts_on)}`}
                    >
                      Remove
                    </SubmitButton>
                  </Form>
                </li>
              ))}
            </ul>
          )}
        </TitledCard>
        <TitledCard title="Assessor's own licence">
          <Form method="post" noValidate className="space-y-3">
            <ErrorSummary failure={failed === "licence" ? data : null} />
            <TextField
              label="HRW licence number"
              name="licence_number"
              defaultValue={failed === "licence" ? v.licence_number : (register.licence_number ?? "")}
              error={field("licence", "licence_number")}
            />
            <TextField
              label="Licence expiry"
              name="licence_expires_on"
              type="date"
              defaultValue={failed === "licence" ? v.licence_expires_on : (register.licence_expires_on ?? "")}
              error={field("licence", "licence_expires_on")}
            />
            <SubmitButton intent="licence" busyLabel="Saving...">
              Save licence
            </SubmitButton>
          </Form>
        </TitledCard>
        <TitledCard title="Add an accreditation or a renewal" className="lg:col-span-2">
          <Form method="post" noValidate className="space-y-3">
            <ErrorSummary failure={failed === "accreditation" ? data : null} />
            <p className="text-sm text-steel-700">
              A renewal is the same number with the new period&apos;s dates; the earlier period stays. Results count only on days a period covers.
            </p>
            <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
              <SelectField
                label="Regulator (state)"
                name="regulator"
                required
                defaultValue={failed === "accreditation" ? v.regulator : "QLD"}
                error={field("accreditation", "regulator")}
                options={HRW_STATE_CODES.map((s) => ({ value: s, label: `${s} (${HRW_STATES[s]})` }))}
              />
              <TextField
                label="Accreditation number"
                name="number"
                required
                defaultValue={failed === "accreditation" ? v.number : undefined}
                error={field("accreditation", "number")}
              />
              <TextField
                label="Accreditation start"
                name="starts_on"
                type="date"
                required
                defaultValue={failed === "accreditation" ? v.starts_on : undefined}
                error={field("accreditation", "starts_on")}
              />
              <TextField
                label="Accreditation expiry"
                name="expires_on"
                type="date"
                required
                defaultValue={failed === "accreditation" ? v.expires_on : undefined}
                error={field("accreditation", "expires_on")}
              />
            </div>
            <ClassCheckboxes
              legend="Classes covered"
              name="classes"
              checked={failed === "accreditation" ? (v.classes ?? "").split(",") : []}
              error={field("accreditation", "classes")}
            />
            <SubmitButton intent="accreditation" busyLabel="Adding...">
              Add accreditation
            </SubmitButton>
          </Form>
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Assessor register | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Assessor register" message="Failed to load the assessor register" />;
}
