import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  getCandidateChecks,
  recordCandidateCheck,
  statesAskingAen,
  candidateChecksFor,
  answerForm,
  formFailure,
  formIntent,
  redirectWithFlash,
  clientAddress,
  foundOr404,
} from "~/routes/trainer+/hrw_.candidates.$id.server";
import { LICENCE_CLASS_OPTIONS } from "~/components/hrw/class-fields";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { SelectField, SubmitButton, TextField, TitledCard, ErrorSummary } from "~/components/ui";
import { aenCheckSchema, ageCheckSchema, identityCheckSchema, prerequisiteCheckSchema } from "~/schemas/hrw";
import { HRW_STATES, hrwDate, IDENTITY_DOCUMENT_CODES, IDENTITY_DOCUMENTS, IDENTITY_POINTS_NEEDED, MINIMUM_AGE } from "~/schemas/hrw-codes";
import { formatDateTime } from "~/utils/format";
import { organisationToday } from "~/utils/organisation-calendar";
import type { FieldErrors } from "~/utils/validation";
import { FIX_HIGHLIGHTED_FIELDS } from "~/utils/form-text";

export const CHECK_RECORDED = "Check recorded";

function loadChecks(id: string | undefined) {
  return foundOr404(id, (found) => getCandidateChecks(getDb(), found), "Candidate not found");
}

/**
 * A candidate's checks before a high-risk work assessment: age (the date of birth as sighted),
 * evidence of identity (which documents were sighted, 100 points; nothing is copied or kept)
 * and prerequisite licences. Each is recorded with who checked and when; trainers see that a
 * date of birth was checked and whether the candidate is of age, never the date, and a licence's
 * class and expiry, never its number (personal-data.server.ts decides).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const today = organisationToday();
  return { checks: candidateChecksFor(user, await loadChecks(params.id), today), today, aenStates: await statesAskingAen(getDb(), today) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const { candidate } = await loadChecks(params.id);
  const db = getDb();
  const actor = { id: user.id, client: clientAddress(request) };
  const done = () => redirectWithFlash(`/trainer/hrw/candidates/${candidate.id}`, { type: "success", message: CHECK_RECORDED });
  const common = { unreadable: "The check could not be read; please try again", invalid: FIX_HIGHLIGHTED_FIELDS };
  switch (await formIntent(request)) {
    case "age":
      return answerForm(request, {
        ...common,
        schema: ageCheckSchema,
        save: async (input) => (await recordCandidateCheck(db, candidate.id, { kind: "age", ...input }, actor), done()),
      });
    case "identity":
      return answerForm(request, {
        ...common,
        schema: identityCheckSchema,
        save: async (input) => (await recordCandidateCheck(db, candidate.id, { kind: "identity", ...input }, actor), done()),
      });
    case "aen":
      return answerForm(request, {
        ...common,
        schema: aenCheckSchema,
        save: async (input) => (await recordCandidateCheck(db, candidate.id, { kind: "aen", ...input }, actor), done()),
      });
    case "prerequisite":
      return answerForm(request, {
        ...common,
        schema: prerequisiteCheckSchema,
        save: async (input) => (await recordCandidateCheck(db, candidate.id, { kind: "prerequisite", ...input }, actor), done()),
      });
    default:
      return formFailure(common.unreadable);
  }
}

export default function CandidateChecks() {
  const { checks, today, aenStates } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const failed = data?.values?.intent;
  const errors: FieldErrors = data?.fieldErrors ?? {};
  const v: Record<string, string> = data?.values ?? {};
  const ticked = (v.documents ?? "").split(",");
  const error = (intent: string) => <ErrorSummary failure={failed === intent ? data : null} />;
  return (
    <>
      <PageTitle
        title={`Checks: ${checks.candidate.full_name}`}
        subtitle={
          <Link to={`/trainer/hrw/book?candidate=${checks.candidate.id}`} className="underline">
            Book an assessment for {checks.candidate.full_name}
          </Link>
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <TitledCard title="Age">
          <p className="mb-3 text-sm">
            {checks.age
              ? `Date of birth checked by ${checks.age.checked_by}, ${formatDateTime(checks.age.checked_at)}; ${MINIMUM_AGE} or older today: ${"adult" in checks.age ? (checks.age.adult ? "yes" : "no") : checks.age.date_of_birth}`
              : "Not checked yet"}
          </p>
          <Form method="post" noValidate className="space-y-3">
            {error("age")}
            <TextField
              label="Date of birth as sighted"
              name="date_of_birth"
              type="date"
              required
              max={today}
              defaultValue={failed === "age" ? v.date_of_birth : undefined}
              error={failed === "age" ? errors.date_of_birth : undefined}
              hint="The candidate must be 18 on the assessment date"
            />
            <SubmitButton intent="age" busyLabel="Saving...">
              Record age check
            </SubmitButton>
          </Form>
        </TitledCard>
        <TitledCard title="Evidence of identity">
          <p className="mb-3 text-sm">
            {checks.identity
              ? `${checks.identity.points} points (${checks.identity.documents.map((d) => IDENTITY_DOCUMENTS[d].label).join(", ")}), sighted by ${checks.identity.checked_by}, ${formatDateTime(checks.identity.checked_at)}`
              : "Not sighted yet"}
          </p>
          <Form method="post" noValidate className="space-y-3">
            {error("identity")}
            <fieldset id="documents" tabIndex={-1} aria-describedby={failed === "identity" && errors.documents ? "documents-error" : undefined}>
              <legend className="text-sm font-semibold text-steel-800">Documents sighted ({IDENTITY_POINTS_NEEDED} points needed; no copies are kept)</legend>
              {IDENTITY_DOCUMENT_CODES.map((code) => (
                <label key={code} className="mt-1 flex items-center gap-2 text-sm">
                  <input type="checkbox" name="documents" value={code} defaultChecked={failed === "identity" && ticked.includes(code)} className="h-4 w-4" />
                  {IDENTITY_DOCUMENTS[code].label} ({IDENTITY_DOCUMENTS[code].points})
                </label>
              ))}
              {failed === "identity" && errors.documents ? (
                <p id="documents-error" className="mt-1 text-sm text-red-700">
                  {errors.documents}
                </p>
              ) : null}
            </fieldset>
            <SubmitButton intent="identity" busyLabel="Saving...">
              Record identity check
            </SubmitButton>
          </Form>
        </TitledCard>
        <TitledCard title="Prerequisite licences">
          {checks.prerequisites.length ? (
            <ul className="mb-3 space-y-1 text-sm">
              {checks.prerequisites.map((p) => (
                <li key={p.licence_class}>
                  {p.licence_class}
                  {"licence_number" in p ? ` ${p.licence_number}` : ""}, expires {hrwDate(p.expires_on)} (checked by {p.checked_by})
                </li>
              ))}
            </ul>
          ) : (
            <p className="mb-3 text-sm">None recorded</p>
          )}
          <Form method="post" noValidate className="space-y-3">
            {error("prerequisite")}
            <SelectField
              label="Licence class held"
              name="licence_class"
              required
              defaultValue={failed === "prerequisite" ? v.licence_class : "DG"}
              error={failed === "prerequisite" ? errors.licence_class : undefined}
              options={LICENCE_CLASS_OPTIONS}
            />
            <TextField
              label="Licence number"
              name="licence_number"
              required
              defaultValue={failed === "prerequisite" ? v.licence_number : undefined}
              error={failed === "prerequisite" ? errors.licence_number : undefined}
            />
            <TextField
              label="Licence expiry"
              name="expires_on"
              type="date"
              required
              defaultValue={failed === "prerequisite" ? v.expires_on : undefined}
              error={failed === "prerequisite" ? errors.expires_on : undefined}
            />
            <SubmitButton intent="prerequisite" busyLabel="Saving...">
              Record licence
            </SubmitButton>
          </Form>
        </TitledCard>
        {aenStates.length ? (
          <TitledCard title="Assessment enrolment number (AEN)">
            {checks.aens.length ? (
              <ul className="mb-3 space-y-1 text-sm">
                {checks.aens.map((a) => (
                  <li key={a.state}>
                    {a.state}: {a.aen} (recorded by {a.checked_by})
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mb-3 text-sm">
                None recorded. The candidate gets it from the regulator before the assessment; no result can be recorded without it.
              </p>
            )}
            <Form method="post" noValidate className="space-y-3">
              {error("aen")}
              <SelectField
                label="Regulator"
                name="state"
                required
                defaultValue={failed === "aen" ? v.state : aenStates[0]}
                error={failed === "aen" ? errors.state : undefined}
                options={aenStates.map((s) => ({ value: s, label: `${s} (${HRW_STATES[s]})` }))}
              />
              <TextField
                label="Assessment enrolment number"
                name="aen"
                required
                autoComplete="off"
                defaultValue={failed === "aen" ? v.aen : undefined}
                error={failed === "aen" ? errors.aen : undefined}
                hint="As the candidate shows it from the regulator's app"
              />
              <SubmitButton intent="aen" busyLabel="Saving...">
                Record AEN
              </SubmitButton>
            </Form>
          </TitledCard>
        ) : null}
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Candidate checks | Trainer Portal" }];

export function ErrorBoundary() {
  return <RouteError title="Candidate checks" message="Failed to load the candidate's checks" />;
}
