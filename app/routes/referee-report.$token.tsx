import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  data,
  getDb,
  clientAddress,
  refereeReportForToken,
  submitRefereeReport,
  answerForm,
  redirectWithFlash,
  retryAfterFromAction,
} from "~/routes/referee-report.$token.server";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthLayout } from "~/components/auth-layout";
import { useActionToast } from "~/components/toaster";
import { Alert, CheckboxField, ErrorSummary, SubmitButton, TextAreaField, TextField } from "~/components/ui";
import { REFEREE_DECLARATION, refereeReportInput, RPL_STEP_MESSAGES } from "~/schemas/recognition-rpl";
import { organisationToday } from "~/utils/organisation-calendar";
import { secretPageHeaders, secretPageMeta } from "~/utils/secret-page";
import { FIX_HIGHLIGHTED_FIELDS } from "~/utils/form-text";

/**
 * The third-party report an RPL's referee opens from their mail (docs/decisions/037-recognition.md).
 * The token in the URL is the only credential: it works signed out, once, until it expires, and
 * only while the application waits for its decision. An unknown link is a 404, an expired or
 * closed one a 410, and none of them changes anything.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const found = await refereeReportForToken(getDb(), params.token ?? "");
  // a live token in the URL: never cached, and no path in a Referer (app/utils/secret-page.ts)
  const headers = { "Cache-Control": "no-store" };
  if (!found) return data({ state: "unknown" as const, about: null, today: organisationToday() }, { status: 404, headers });
  const about = found.state === "open" ? { learner: found.learner, unit: found.unit, referee_name: found.referee_name, looks_for: found.looks_for } : null;
  return data(
    { state: found.state, about, today: organisationToday() },
    { status: found.state === "expired" || found.state === "closed" ? 410 : 200, headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const token = params.token ?? "";
  return answerForm(request, {
    schema: refereeReportInput,
    unreadable: "Your report could not be read; please try again",
    invalid: FIX_HIGHLIGHTED_FIELDS,
    save: async (input) => {
      await submitRefereeReport(getDb(), token, input, { client: clientAddress(request) });
      return redirectWithFlash(`/referee-report/${token}`, { type: "success", message: RPL_STEP_MESSAGES.refereeThanks });
    },
  });
}

const FIELDS = [
  "reporter_name",
  "reporter_role",
  "reporter_organisation",
  "reporter_phone",
  "known_how",
  "worked_from",
  "worked_to",
  "work_witnessed",
  "declaration",
] as const;

export default function RefereeReportPage() {
  const { state, about, today } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  useActionToast(failure);
  if (state === "unknown") {
    return (
      <AuthLayout title="This report link is not valid" subtitle="Nothing was recorded.">
        <Alert>{RPL_STEP_MESSAGES.refereeUnknown}</Alert>
      </AuthLayout>
    );
  }
  if (state === "expired" || state === "closed") {
    return (
      <AuthLayout title="This report link no longer works" subtitle="Nothing was recorded.">
        <Alert>{state === "expired" ? RPL_STEP_MESSAGES.refereeExpired : RPL_STEP_MESSAGES.refereeClosed}</Alert>
      </AuthLayout>
    );
  }
  if (state === "used" || !about) {
    return (
      <AuthLayout title="Thank you" subtitle="Your report has been sent.">
        <p className="text-sm text-steel-800">{RPL_STEP_MESSAGES.refereeUsed}</p>
      </AuthLayout>
    );
  }
  const values = failure?.values ?? {};
  const errors = failure?.fieldErrors ?? {};
  return (
    <AuthLayout
      wide
      title={`A workplace report for ${about.learner}`}
      subtitle={`${about.learner} has applied for recognition of prior learning in ${about.unit} and named you, ${about.referee_name}, as someone who saw their work. Please describe what you saw: the assessor reads your report with their other evidence.`}
    >
      <Form method="post" noValidate className="grid gap-4 sm:grid-cols-2" key={failure?.submittedAt ?? "initial"}>
        <ErrorSummary failure={failure} order={FIELDS} />
        <TextField
          label="Your name"
          name="reporter_name"
          autoComplete="name"
          defaultValue={values.reporter_name ?? about.referee_name}
          error={errors.reporter_name}
        />
        <TextField
          label="Your role"
          name="reporter_role"
          autoComplete="organization-title"
          hint="For example: site supervisor"
          defaultValue={values.reporter_role ?? ""}
          error={errors.reporter_role}
        />
        <TextField
          label="Organisation"
          name="reporter_organisation"
          autoComplete="organization"
          defaultValue={values.reporter_organisation ?? ""}
          error={errors.reporter_organisation}
        />
        <TextField
          label="Contact phone"
          name="reporter_phone"
          type="tel"
          autoComplete="tel"
          hint="The assessor may call to confirm your report"
          defaultValue={values.reporter_phone ?? ""}
          error={errors.reporter_phone}
        />
        <TextAreaField
          className="sm:col-span-2"
          label="How you know the applicant"
          name="known_how"
          rows={3}
          hint="For example: I supervised them on our civil sites"
          defaultValue={values.known_how ?? ""}
          error={errors.known_how}
        />
        <TextField
          label="From"
          name="worked_from"
          type="date"
          max={today}
          hint="When you first saw their work"
          defaultValue={values.worked_from ?? ""}
          error={errors.worked_from}
        />
        <TextField
          label="To"
          name="worked_to"
          type="date"
          max={today}
          hint="The last time you saw it"
          defaultValue={values.worked_to ?? ""}
          error={errors.worked_to}
        />
        {about.looks_for.length ? (
          <div className="text-sm sm:col-span-2">
            <p className="font-semibold text-steel-800">What the assessor looks for in this unit</p>
            <ul className="mt-1 list-disc space-y-1 pl-5 text-steel-700">
              {about.looks_for.map((item, i) => (
                <li key={i}>{item}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <TextAreaField
          className="sm:col-span-2"
          label="The work you saw them do"
          name="work_witnessed"
          rows={8}
          hint="The tasks, how often, the equipment and conditions, and how well they did them. Mention any of the points above you saw."
          defaultValue={values.work_witnessed ?? ""}
          error={errors.work_witnessed}
        />
        <CheckboxField
          className="sm:col-span-2"
          label={REFEREE_DECLARATION}
          name="declaration"
          defaultChecked={values.declaration === "on"}
          error={errors.declaration}
        />
        <div className="sm:col-span-2">
          <SubmitButton busyLabel="Sending..." size="lg" className="w-full">
            Send my report
          </SubmitButton>
        </div>
      </Form>
    </AuthLayout>
  );
}

export const meta: MetaFunction = () => [{ title: "Workplace report | Summit Crane & Rigging Training" }, ...secretPageMeta];
export const headers: HeadersFunction = (args) => ({ ...Object.fromEntries(new Headers(secretPageHeaders(args))), ...retryAfterFromAction(args) });
