import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  clientAddress,
  addActivity,
  addTrainingCredential,
  confirmActivity,
  getTrainerProfile,
  listActiveTrainers,
  recordTrainerUnit,
  removeTrainerUnit,
  removeTrainingCredential,
  isMultipart,
  answerActivityForm,
  answerForm,
  formFailure,
  formIntent,
  redirectWithFlash,
} from "~/routes/admin+/credentials_.$id.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { ActivityForm, ActivityList, CredentialSummary } from "~/components/standards/credential-ui";
import { ErrorSummary, SelectField, SubmitButton, TextAreaField, TextField, TitledCard } from "~/components/ui";
import { uuid } from "~/schemas/fields";
import { activityConfirmSchema, removeRecordSchema, trainerActivitySchema, trainerUnitSchema, trainingCredentialSchema } from "~/schemas/standards";
import { CREDENTIAL_CHOICES, credentialLabel, UNIT_BASES, UNIT_BASIS_CODES } from "~/schemas/standards-text";
import type { FieldErrors } from "~/utils/validation";
import { formatDate } from "~/utils/format";
import { FIX_HIGHLIGHTED_FIELDS, FORM_UNREADABLE } from "~/utils/form-text";

export const CREDENTIALS_UPDATED = "Credentials updated";

async function loadProfile(id: string | undefined) {
  if (!id || !uuid.safeParse(id).success) throw new Response("Trainer not found", { status: 404 });
  try {
    return await getTrainerProfile(getDb(), id);
  } catch {
    throw new Response("Trainer not found", { status: 404 });
  }
}

/** One trainer's credential, units and currency, as the office records and confirms them. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const profile = await loadProfile(params.id);
  const trainers = (await listActiveTrainers(getDb())).filter((t) => t.id !== profile.trainer.id);
  return { profile, trainers };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const { trainer } = await loadProfile(params.id);
  const db = getDb();
  const actor = { id: admin.id, client: clientAddress(request) };
  const done = () => redirectWithFlash(`/admin/credentials/${trainer.id}`, { type: "success", message: CREDENTIALS_UPDATED });
  // the activity form is multipart for its optional evidence file
  if (isMultipart(request)) return answerActivityForm(request, trainer.id, { ...actor, role: "admin" }, done);
  const common = { invalid: FIX_HIGHLIGHTED_FIELDS };
  switch (await formIntent(request)) {
    case "credential":
      return answerForm(request, {
        ...common,
        schema: trainingCredentialSchema,
        save: async (input) => (await addTrainingCredential(db, trainer.id, input, actor), done()),
      });
    case "remove-credential":
      return answerForm(request, {
        ...common,
        schema: removeRecordSchema,
        save: async (input) => (await removeTrainingCredential(db, trainer.id, input.record_id, actor), done()),
      });
    case "unit":
      return answerForm(request, {
        ...common,
        schema: trainerUnitSchema,
        save: async (input) => (await recordTrainerUnit(db, trainer.id, input, actor), done()),
      });
    case "remove-unit":
      return answerForm(request, {
        ...common,
        schema: removeRecordSchema,
        save: async (input) => (await removeTrainerUnit(db, trainer.id, input.record_id, actor), done()),
      });
    case "activity":
      return answerForm(request, {
        ...common,
        schema: trainerActivitySchema,
        save: async (input) => (await addActivity(db, trainer.id, input, { ...actor, role: "admin" }), done()),
      });
    case "confirm":
      return answerForm(request, {
        ...common,
        schema: activityConfirmSchema,
        save: async (input) => (await confirmActivity(db, input.activity_id, actor), done()),
      });
    default:
      return formFailure(FORM_UNREADABLE);
  }
}

export default function TrainerCredentialsPage() {
  const { profile, trainers } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const failed = data?.values?.intent;
  const errors: FieldErrors = data?.fieldErrors ?? {};
  const v: Record<string, string> = data?.values ?? {};
  const field = (intent: string, name: string) => (failed === intent ? errors[name] : undefined);
  const value = (intent: string, name: string) => (failed === intent ? v[name] : undefined);
  const summary = (intent: string, fields: string[]) => (failed === intent ? <ErrorSummary failure={data} only={fields} /> : null);
  const name = profile.trainer.full_name;
  return (
    <>
      <PageTitle
        title={`Credentials: ${name}`}
        subtitle={
          <Link to="/admin/credentials" className="underline">
            Back to the credential matrix
          </Link>
        }
      />
      {failed && ["remove-credential", "remove-unit", "confirm"].includes(failed) ? <ErrorSummary failure={data} only={[]} /> : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <CredentialSummary profile={profile} />
        <TitledCard title="Training and assessment credential">
          {profile.credentials.length === 0 ? <p className="text-sm">No credential recorded.</p> : null}
          <ul className="space-y-2 text-sm">
            {profile.credentials.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-2">
                <span>{c.label}</span>
                <Form method="post">
                  <input type="hidden" name="record_id" value={c.id} />
                  <SubmitButton intent="remove-credential" variant="secondary" size="sm" busyLabel="Removing..." aria-label={`Remove ${c.label}`}>
                    Remove
                  </SubmitButton>
                </Form>
              </li>
            ))}
          </ul>
          <Form method="post" noValidate className="mt-4 space-y-3">
            {summary("credential", ["credential", "supervisor_id", "issued_on", "expires_on", "note"])}
            <SelectField
              label="Credential"
              name="credential"
              defaultValue={value("credential", "credential") ?? "TAE40122"}
              error={field("credential", "credential")}
              options={CREDENTIAL_CHOICES.map((c) => ({ value: c, label: credentialLabel(c) }))}
            />
            <SelectField
              label="Directed by (for work under direction)"
              name="supervisor_id"
              defaultValue={value("credential", "supervisor_id") ?? ""}
              error={field("credential", "supervisor_id")}
              options={[{ value: "", label: "Nobody (credential held)" }, ...trainers.map((t) => ({ value: t.id, label: t.full_name }))]}
            />
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField
                label="Date issued"
                name="issued_on"
                type="date"
                required
                defaultValue={value("credential", "issued_on")}
                error={field("credential", "issued_on")}
              />
              <TextField
                label="Expiry date (if any)"
                name="expires_on"
                type="date"
                defaultValue={value("credential", "expires_on")}
                error={field("credential", "expires_on")}
              />
            </div>
            <TextField label="Note" name="note" defaultValue={value("credential", "note")} error={field("credential", "note")} />
            <SubmitButton intent="credential" busyLabel="Adding...">
              Add credential
            </SubmitButton>
          </Form>
        </TitledCard>
        <TitledCard title="Vocational competencies">
          {profile.units.length === 0 ? <p className="text-sm">No units recorded.</p> : null}
          <ul className="space-y-2 text-sm">
            {profile.units.map((u) => (
              <li key={u.id} className="flex flex-wrap items-center justify-between gap-2">
                <span>
                  <span className="font-semibold">{u.unit_code}</span>: {UNIT_BASES[u.basis]}
                  {u.expires_on ? ` until ${formatDate(u.expires_on)}` : ""}
                  {u.evidence ? <span className="block text-steel-600">{u.evidence}</span> : null}
                </span>
                <Form method="post">
                  <input type="hidden" name="record_id" value={u.id} />
                  <SubmitButton intent="remove-unit" variant="secondary" size="sm" busyLabel="Removing..." aria-label={`Remove unit ${u.unit_code}`}>
                    Remove
                  </SubmitButton>
                </Form>
              </li>
            ))}
          </ul>
          <Form method="post" noValidate className="mt-4 space-y-3">
            {summary("unit", ["unit_code", "basis", "evidence", "expires_on"])}
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField label="Unit code" name="unit_code" required defaultValue={value("unit", "unit_code")} error={field("unit", "unit_code")} />
              <SelectField
                label="Basis"
                name="basis"
                defaultValue={value("unit", "basis") ?? "held"}
                error={field("unit", "basis")}
                options={UNIT_BASIS_CODES.map((b) => ({ value: b, label: UNIT_BASES[b] }))}
              />
            </div>
            <TextAreaField
              label="Evidence of equivalence"
              name="evidence"
              rows={2}
              defaultValue={value("unit", "evidence")}
              error={field("unit", "evidence")}
            />
            <TextField
              label="Unit expiry (if any)"
              name="expires_on"
              type="date"
              defaultValue={value("unit", "expires_on")}
              error={field("unit", "expires_on")}
            />
            <SubmitButton intent="unit" busyLabel="Saving...">
              Record unit
            </SubmitButton>
          </Form>
        </TitledCard>
        <TitledCard title="Industry currency and professional development">
          <ActivityList activities={profile.activities} confirmIntent="confirm" />
          <ActivityForm failure={failed === "activity" ? data : null} />
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Trainer credentials | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Trainer credentials" message="Failed to load the trainer's credentials" />;
}
