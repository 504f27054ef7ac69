import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  clientAddress,
  addQuestion,
  listQuestions,
  lowAverageThreshold,
  setLowAverageThreshold,
  updateQuestion,
  redirectWithFlash,
  answerForm,
  formFailure,
  formIntent,
} from "~/routes/admin+/questionnaires._index.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Badge, ButtonLink, CheckboxField, EmptyState, ErrorSummary, SelectField, SubmitButton, TextField, TitledCard } from "~/components/ui";
import {
  QUESTION_KIND_LABELS,
  QUESTION_KINDS,
  QUESTIONNAIRE_AUDIENCE_LABELS,
  QUESTIONNAIRE_AUDIENCES,
  type QuestionnaireAudience,
} from "~/schemas/improvement-text";
import { lowAverageSchema, questionCreateSchema, questionnaireAudience, questionUpdateSchema } from "~/schemas/questionnaire";
import { uuid } from "~/schemas/fields";
import { cn } from "~/utils/cn";

function audienceOf(request: Request): QuestionnaireAudience {
  return questionnaireAudience.catch("learner").parse(new URL(request.url).searchParams.get("audience") ?? "learner");
}

/**
 * The questionnaires' questions (administrators), per audience: add one, change its words,
 * retire it (asked no more, its answers stay in the reports), and the average under which a
 * question is flagged as a low score.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const audience = audienceOf(request);
  const db = getDb();
  const [questions, threshold] = await Promise.all([listQuestions(db, audience, { includeRetired: true }), lowAverageThreshold(db, audience)]);
  return { audience, questions, threshold };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const audience = audienceOf(request);
  const actor = { id: admin.id, client: clientAddress(request) };
  const back = `/admin/questionnaires?audience=${audience}`;
  const intent = await formIntent(request);
  if (intent === "add") {
    return answerForm(request, {
      schema: questionCreateSchema,
      requires: ["kind", "prompt"],
      unreadable: "Failed to add the question",
      input: (form) => ({ ...Object.fromEntries(form), audience }),
      save: async (input) => {
        await addQuestion(getDb(), input, actor);
        return redirectWithFlash(back, { type: "success", message: "Question added" });
      },
    });
  }
  if (intent === "question") {
    const form = await request.clone().formData();
    const id = uuid.safeParse(form.get("id"));
    if (!id.success) return formFailure("Unknown question", { status: 404 });
    return answerForm(request, {
      schema: questionUpdateSchema,
      requires: ["prompt"],
      unreadable: "Failed to save the question",
      save: async (input) => {
        await updateQuestion(getDb(), id.data, input, actor);
        return redirectWithFlash(back, { type: "success", message: input.retired ? "Question saved; it is no longer asked" : "Question saved" });
      },
    });
  }
  if (intent === "threshold") {
    return answerForm(request, {
      schema: lowAverageSchema,
      requires: ["low_average"],
      unreadable: "Failed to save the threshold",
      input: (form) => ({ ...Object.fromEntries(form), audience }),
      save: async (input) => {
        const saved = await setLowAverageThreshold(getDb(), input, actor);
        return redirectWithFlash(back, { type: "success", message: `Averages under ${saved.toFixed(1)} are flagged as low scores` });
      },
    });
  }
  return formFailure("Unknown action");
}

const KIND_OPTIONS = QUESTION_KINDS.map((k) => ({ value: k, label: QUESTION_KIND_LABELS[k] }));

export default function Questionnaires() {
  const { audience, questions, threshold } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const intent = data?.values?.intent;
  const failedId = intent === "question" ? data?.values.id : undefined;
  return (
    <>
      <PageTitle
        title="Questionnaires"
        subtitle="The questions learners are asked after they complete a course, and employers after their people train. Answers are anonymous."
        actions={<ButtonLink to={`/admin/questionnaires/report?audience=${audience}`}>Report and annual summary</ButtonLink>}
      />
      <nav aria-label="Audience" className="mb-4 flex flex-wrap gap-2">
        {QUESTIONNAIRE_AUDIENCES.map((a) => (
          <Link
            key={a}
            to={`/admin/questionnaires?audience=${a}`}
            aria-current={a === audience ? "page" : undefined}
            className={cn(
              "inline-flex min-h-11 items-center rounded-md border px-4 text-sm font-semibold",
              a === audience ? "border-hivis-600 bg-hivis-50 text-steel-900" : "border-steel-300 text-steel-700",
            )}
          >
            {QUESTIONNAIRE_AUDIENCE_LABELS[a]} questionnaire
          </Link>
        ))}
      </nav>
      <TitledCard title={`${QUESTIONNAIRE_AUDIENCE_LABELS[audience]} questions`}>
        {questions.length === 0 ? (
          <EmptyState title="No questions yet">Add the first question below; invitations are sent only while there is a question to ask.</EmptyState>
        ) : (
          <ol className="space-y-4">
            {questions.map((q, i) => {
              const failed = failedId === q.id ? data : undefined;
              return (
                <li key={q.id} className="rounded-md border border-steel-200 p-3">
                  <Form
                    method="post"
                    action={`/admin/questionnaires?audience=${audience}`}
                    noValidate
                    className="space-y-3"
                    key={`${q.id}-${failed?.submittedAt ?? q.prompt}-${q.retired}`}
                  >
                    <ErrorSummary failure={failed} />
                    <input type="hidden" name="id" value={q.id} />
                    <div className="flex flex-wrap items-center gap-2 text-xs text-steel-600">
                      <span>Question {i + 1}</span>
                      <Badge tone="navy">{QUESTION_KIND_LABELS[q.kind]}</Badge>
                      {q.retired ? <Badge tone="grey">No longer asked</Badge> : null}
                    </div>
                    <TextField
                      label={`Question ${i + 1} wording`}
                      name="prompt"
                      defaultValue={failed?.values.prompt ?? q.prompt}
                      error={failed?.fieldErrors.prompt}
                    />
                    <div className="flex flex-wrap items-center justify-between gap-3">
                      <CheckboxField label="No longer asked" name="retired" defaultChecked={q.retired} hint="Its answers stay in the reports" />
                      <SubmitButton intent="question" variant="secondary" busyLabel="Saving..." aria-label={`Save question ${i + 1}`}>
                        Save
                      </SubmitButton>
                    </div>
                  </Form>
                </li>
              );
            })}
          </ol>
        )}
      </TitledCard>
      <TitledCard title="Add a question" className="mt-6">
        <Form
          method="post"
          action={`/admin/questionnaires?audience=${audience}`}
          noValidate
          className="space-y-4"
          key={intent === "add" ? data?.submittedAt : "add"}
        >
          <ErrorSummary failure={intent === "add" ? data : undefined} />
          <SelectField
            label="Kind"
            name="kind"
            defaultValue={intent === "add" ? data?.values.kind : "rating"}
            options={KIND_OPTIONS}
            error={intent === "add" ? data?.fieldErrors.kind : undefined}
          />
          <TextField
            label="Question"
            name="prompt"
            defaultValue={intent === "add" ? data?.values.prompt : ""}
            error={intent === "add" ? data?.fieldErrors.prompt : undefined}
            hint="A rating question is a statement rated from 1 (strongly disagree) to 5 (strongly agree)"
          />
          <div className="flex justify-end">
            <SubmitButton intent="add" busyLabel="Adding...">
              Add question
            </SubmitButton>
          </div>
        </Form>
      </TitledCard>
      <TitledCard title="Low scores" className="mt-6">
        <Form
          method="post"
          action={`/admin/questionnaires?audience=${audience}`}
          noValidate
          className="space-y-4"
          key={intent === "threshold" ? data?.submittedAt : `threshold-${threshold}`}
        >
          <ErrorSummary failure={intent === "threshold" ? data : undefined} />
          <TextField
            label="Flag a question when its average is under"
            name="low_average"
            type="number"
            step="0.1"
            min="1"
            max="5"
            inputMode="decimal"
            defaultValue={intent === "threshold" ? data?.values.low_average : threshold.toFixed(1)}
            error={intent === "threshold" ? data?.fieldErrors.low_average : undefined}
            hint="From 1 to 5. A single rating of 2 or lower is always flagged."
          />
          <div className="flex justify-end">
            <SubmitButton intent="threshold" busyLabel="Saving...">
              Save threshold
            </SubmitButton>
          </div>
        </Form>
      </TitledCard>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Questionnaires | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Questionnaires" message="Failed to load the questionnaires" />;
}
