import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  data,
  getDb,
  clientAddress,
  questionnaireForToken,
  submitQuestionnaire,
  redirectWithFlash,
  answerForm,
  postedAnswersSchema,
  retryAfterFromAction,
} from "~/routes/questionnaire.$token.server";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthLayout } from "~/components/auth-layout";
import { useActionToast } from "~/components/toaster";
import { Alert, ErrorSummary, SubmitButton, TextAreaField } from "~/components/ui";
import {
  QUESTIONNAIRE_ALREADY_ANSWERED,
  QUESTIONNAIRE_EXPIRED,
  QUESTIONNAIRE_THANKS,
  QUESTIONNAIRE_UNKNOWN_LINK,
  RATING_MAX,
  RATING_MIN,
  RATING_WORDS,
} from "~/schemas/improvement-text";
import { cn } from "~/utils/cn";
import { secretPageHeaders, secretPageMeta } from "~/utils/secret-page";

/**
 * The questionnaire an emailed invitation opens. The token in the URL is the only credential:
 * it works signed out, answers once, and the answers are stored without it or anyone's name.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const found = await questionnaireForToken(getDb(), params.token ?? "");
  // a live token in the URL: never cached, and no path in a Referer (app/utils/secret-page.ts)
  const headers = { "Cache-Control": "no-store" };
  if (!found) return data({ state: "unknown" as const, audience: null, questions: [] }, { status: 404, headers });
  if (found.used) return data({ state: "answered" as const, audience: found.audience, questions: [] }, { headers });
  if (found.expired) return data({ state: "expired" as const, audience: found.audience, questions: [] }, { status: 410, headers });
  return data(
    { state: "open" as const, audience: found.audience, questions: found.questions.map((q) => ({ id: q.id, kind: q.kind, prompt: q.prompt })) },
    { headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const token = params.token ?? "";
  return answerForm(request, {
    schema: postedAnswersSchema,
    unreadable: "Your answers could not be read; please try again",
    save: async (answers) => {
      await submitQuestionnaire(getDb(), token, answers, { client: clientAddress(request) });
      return redirectWithFlash(`/questionnaire/${token}`, { type: "success", message: QUESTIONNAIRE_THANKS });
    },
  });
}

const RATINGS = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i);

function RatingQuestion({ id, prompt, number, value, error }: { id: string; prompt: string; number: number; value?: string; error?: string }) {
  const name = `q_${id}`;
  return (
    <fieldset aria-describedby={error ? `${name}-error` : undefined} aria-invalid={error ? true : undefined}>
      <legend className="text-sm font-semibold text-steel-900">
        {number}. {prompt}
      </legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-5">
        {RATINGS.map((r) => (
          <label
            key={r}
            className={cn("flex min-h-11 cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm", error ? "border-red-500" : "border-steel-300")}
          >
            <input type="radio" name={name} value={r} id={r === RATING_MIN ? name : undefined} defaultChecked={value === String(r)} className="h-5 w-5" />
            <span>
              {r} <span className="text-steel-600">{RATING_WORDS[r]}</span>
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${name}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export default function Questionnaire() {
  const { state, questions } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  useActionToast(failure);
  if (state === "unknown") {
    return (
      <AuthLayout title="This questionnaire link is not valid" subtitle="Nothing was recorded.">
        <Alert>{QUESTIONNAIRE_UNKNOWN_LINK}</Alert>
      </AuthLayout>
    );
  }
  if (state === "expired") {
    return (
      <AuthLayout title="This questionnaire link has expired" subtitle="Nothing was recorded.">
        <Alert>{QUESTIONNAIRE_EXPIRED}</Alert>
      </AuthLayout>
    );
  }
  if (state === "answered") {
    return (
      <AuthLayout title="Thank you" subtitle="Your questionnaire is answered.">
        <p className="text-sm text-steel-800">{QUESTIONNAIRE_ALREADY_ANSWERED}</p>
      </AuthLayout>
    );
  }
  const values = failure?.values ?? {};
  const errors = failure?.fieldErrors ?? {};
  return (
    <AuthLayout
      wide
      title="How did it go?"
      subtitle="Your answers are anonymous: we read them only as totals, never with your name. Rate each statement from 1 (strongly disagree) to 5 (strongly agree)."
    >
      <Form method="post" noValidate className="space-y-6" key={failure?.submittedAt ?? "initial"}>
        <ErrorSummary failure={failure} />
        {questions.map((q, i) =>
          q.kind === "rating" ? (
            <RatingQuestion key={q.id} id={q.id} prompt={q.prompt} number={i + 1} value={values[`q_${q.id}`]} error={errors[`q_${q.id}`]} />
          ) : (
            <TextAreaField
              key={q.id}
              label={`${i + 1}. ${q.prompt}`}
              name={`q_${q.id}`}
              rows={4}
              defaultValue={values[`q_${q.id}`] ?? ""}
              error={errors[`q_${q.id}`]}
              hint="Optional"
            />
          ),
        )}
        <SubmitButton busyLabel="Sending..." size="lg" className="w-full">
          Send my answers
        </SubmitButton>
      </Form>
    </AuthLayout>
  );
}

export const meta: MetaFunction = () => [{ title: "Questionnaire | Summit Crane & Rigging Training" }, ...secretPageMeta];
export const headers: HeadersFunction = (args) => ({ ...Object.fromEntries(new Headers(secretPageHeaders(args))), ...retryAfterFromAction(args) });
