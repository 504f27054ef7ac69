import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import {
  requireRole,
  getDb,
  getFileStore,
  clientAddress,
  destroyRecords,
  listDueForDestruction,
  listRetentionRules,
  listTombstones,
  setRetentionRule,
  answerForm,
  formFailure,
  formIntent,
  redirectWithFlash,
} from "~/routes/admin+/retention.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Alert, CheckboxField, SelectField, SubmitButton, TextField, TitledCard } from "~/components/ui";
import { destroySchema, retentionRuleSchema } from "~/schemas/evidence";
import { RECORD_TYPES } from "~/schemas/evidence-text";
import { LICENCE_CLASS_OPTIONS } from "~/components/hrw/class-fields";
import { formatDate, formatDateTime, keepingPeriod } from "~/utils/format";
import { organisationToday } from "~/utils/organisation-calendar";
import { FIX_HIGHLIGHTED_FIELDS, FORM_UNREADABLE } from "~/utils/form-text";

export const DESTROYED = "Destroyed; a record of each is kept";
export const RULE_SAVED = "Retention rule saved";

/** A rule for every class, or for one of the licence classes courses name (the schema takes no other). */
const RULE_CLASS_OPTIONS = [{ value: "", label: "Every class" }, ...LICENCE_CLASS_OPTIONS];

/**
 * Retention: the keep-until rules per record type (with their sources), what is past its day,
 * and the destruction an admin approves in two steps: choose (a GET that changes nothing), then
 * confirm on a page that names each item and whose it is.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const db = getDb();
  const today = organisationToday();
  const chosen = new URL(request.url).searchParams.getAll("destroy");
  const [rules, due, tombstones] = await Promise.all([listRetentionRules(db), listDueForDestruction(db, today), listTombstones(db, 50)]);
  return { rules, due, tombstones, chosen: due.filter((d) => chosen.includes(d.id)), today };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "admin");
  const db = getDb();
  const actor = { id: user.id, client: clientAddress(request) };
  const common = { invalid: FIX_HIGHLIGHTED_FIELDS };
  switch (await formIntent(request)) {
    case "rule":
      return answerForm(request, {
        ...common,
        schema: retentionRuleSchema,
        save: async (input) => (await setRetentionRule(db, input, actor), redirectWithFlash("/admin/retention", { type: "success", message: RULE_SAVED })),
      });
    case "destroy":
      return answerForm(request, {
        ...common,
        schema: destroySchema,
        input: (form) => ({ ids: form.getAll("ids").map(String), confirm: form.get("confirm") ?? undefined }),
        save: async (input) => {
          const done = await destroyRecords(db, getFileStore(), { ids: input.ids, today: organisationToday() }, actor);
          return redirectWithFlash("/admin/retention", { type: "success", message: `${DESTROYED} (${done.length})` });
        },
      });
    default:
      return formFailure(FORM_UNREADABLE);
  }
}

export default function RetentionPage() {
  const { rules, due, tombstones, chosen } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const [params] = useSearchParams();
  const confirming = chosen.length > 0 && params.has("destroy");
  return (
    <>
      <PageTitle title="Retention" subtitle="How long records are kept, and the destruction of what is past its date" />
      {/* one column that may shrink below its content: the rules table scrolls in its own box rather than widen a phone page */}
      <div className="grid grid-cols-1 gap-6">
        {confirming ? (
          <TitledCard title="Confirm destruction">
            <p className="mb-2 text-sm">
              These files will be removed for good. A record that they existed (what, whose, their hashes, by whom and when) is kept.
            </p>
            <Form method="post" noValidate className="space-y-3">
              {data?.error ? <Alert>{data.error}</Alert> : null}
              <ul className="list-disc pl-5 text-sm">
                {chosen.map((d) => (
                  <li key={d.id} className="[overflow-wrap:anywhere]">
                    <input type="hidden" name="ids" value={d.id} />
                    {d.description} (keep until {formatDate(d.keep_until)})
                  </li>
                ))}
              </ul>
              <CheckboxField
                label={`Destroy these ${chosen.length} item${chosen.length === 1 ? "" : "s"}`}
                name="confirm"
                value="yes"
                error={data?.fieldErrors?.confirm}
              />
              <div className="flex flex-wrap gap-3">
                <SubmitButton intent="destroy" variant="danger" busyLabel="Destroying...">
                  Destroy for good
                </SubmitButton>
                <Link to="/admin/retention" className="self-center underline">
                  Cancel
                </Link>
              </div>
            </Form>
          </TitledCard>
        ) : null}
        <TitledCard title={`Past their keep-until date (${due.length})`}>
          {due.length === 0 ? (
            <p className="text-sm text-steel-600">Nothing is past its date. Certification records and the audit trail are never offered for destruction.</p>
          ) : (
            <Form method="get" className="space-y-3">
              <fieldset>
                <legend className="mb-2 text-sm text-steel-700">Choose what to destroy (certification records and the audit trail are never offered)</legend>
                <ul className="space-y-1 text-sm">
                  {due.map((d) => (
                    <li key={d.id}>
                      <CheckboxField label={`${d.description}, keep until ${formatDate(d.keep_until)}`} name="destroy" value={d.id} />
                    </li>
                  ))}
                </ul>
              </fieldset>
              <button type="submit" className="rounded-md border border-steel-300 px-3 py-2 text-sm font-semibold">
                Review destruction
              </button>
            </Form>
          )}
        </TitledCard>
        <TitledCard title="Rules">
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Retention rules</caption>
              <thead>
                <tr>
                  <th scope="col">Records</th>
                  <th scope="col">Licence class</th>
                  <th scope="col">Kept</th>
                  <th scope="col">Source</th>
                </tr>
              </thead>
              <tbody>
                {rules.map((r) => (
                  <tr key={`${r.record_type}-${r.licence_class}`} className="align-top">
                    <th scope="row">{RECORD_TYPES[r.record_type]?.label ?? r.record_type}</th>
                    <td>{r.licence_class || "Every class"}</td>
                    <td>{keepingPeriod(r.keep_months)}</td>
                    <td>{r.source}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Form method="post" noValidate className="mt-4 grid gap-3 sm:grid-cols-2">
            {data?.values?.intent === "rule" && data.error ? <Alert>{data.error}</Alert> : null}
            <label className="text-sm font-semibold text-steel-800">
              Records
              <select name="record_type" className="mt-1 block w-full rounded-md border border-steel-300 px-3 py-2" defaultValue="assessment_evidence">
                <option value="assessment_evidence">{RECORD_TYPES.assessment_evidence.label}</option>
                <option value="certification_record">{RECORD_TYPES.certification_record.label}</option>
              </select>
            </label>
            <SelectField
              label="Licence class"
              name="licence_class"
              hint="A licence class may keep its evidence longer"
              options={RULE_CLASS_OPTIONS}
              error={data?.fieldErrors?.licence_class}
            />
            <TextField label="Keep for (months)" name="keep_months" inputMode="numeric" required error={data?.fieldErrors?.keep_months} />
            <TextField label="Source" name="source" required hint="The rule or instrument the period comes from" error={data?.fieldErrors?.source} />
            <div>
              <SubmitButton intent="rule" busyLabel="Saving...">
                Save rule
              </SubmitButton>
            </div>
          </Form>
        </TitledCard>
        <TitledCard title="Destroyed records">
          {tombstones.length === 0 ? <p className="text-sm text-steel-600">Nothing has been destroyed.</p> : null}
          <ul className="space-y-2 text-sm">
            {tombstones.map((t) => (
              <li key={t.id} className="[overflow-wrap:anywhere]">
                {t.description}: destroyed {formatDateTime(t.destroyed_at)} by {t.destroyed_by.full_name}. SHA-256 {t.hashes.join(", ")}
              </li>
            ))}
          </ul>
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Retention | Admin" }];

export function ErrorBoundary() {
  return <RouteError title="Retention" message="Failed to load retention" />;
}
