import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import {
  requireRole,
  getDb,
  clientAddress,
  addReviewQuestion,
  listReviewQuestions,
  replaceReviewQuestion,
  retireReviewQuestion,
  type ReviewQuestionAdmin,
  answerForm,
  formFailure,
  formIntent,
  redirectWithFlash,
} from "~/routes/admin+/review-questions.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Badge, Button, EmptyState, ErrorSummary, SelectField, TextAreaField, TextField, TitledCard } from "~/components/ui";
import { uuid } from "~/schemas/fields";
import { reviewQuestionFormInput, reviewQuestionSchema } from "~/schemas/review";
import {
  REVIEW_CHOICE_SLOTS,
  REVIEW_GROUP_LABELS,
  REVIEW_GROUPS,
  REVIEW_KIND_LABELS,
  REVIEW_KINDS,
  REVIEW_QUESTION_ADDED,
  REVIEW_QUESTION_CHANGED,
  REVIEW_QUESTION_RETIRED,
} from "~/schemas/review-text";
import { FIX_HIGHLIGHTED_FIELDS } from "~/utils/form-text";

/**
 * The pre-enrolment review's question bank (administrators), group by group: add a question,
 * change one (the old one is retired and the new one takes its place, so past answers keep their
 * meaning: docs/decisions/028-pre-enrolment-review.md), or retire one. Plain forms without
 * JavaScript; with it, each form posts through its own fetcher and the answer is a toast.
 */
const HERE = "/admin/review-questions";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return { questions: await listReviewQuestions(getDb()) };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const actor = { id: admin.id, client: clientAddress(request) };
  const db = getDb();
  const intent = await formIntent(request);
  const common = { schema: reviewQuestionSchema, input: reviewQuestionFormInput, requires: ["prompt", "answer"], invalid: FIX_HIGHLIGHTED_FIELDS };
  if (intent === "add") {
    return answerForm(request, {
      ...common,
      save: async (input) => (await addReviewQuestion(db, input, actor), redirectWithFlash(HERE, { type: "success", message: REVIEW_QUESTION_ADDED })),
    });
  }
  if (intent === "replace") {
    const id = uuid.safeParse((await request.clone().formData()).get("id"));
    if (!id.success) return formFailure("Unknown question", { status: 404 });
    return answerForm(request, {
      ...common,
      save: async (input) => (
        await replaceReviewQuestion(db, id.data, input, actor),
        redirectWithFlash(HERE, { type: "success", message: REVIEW_QUESTION_CHANGED })
      ),
    });
  }
  if (intent === "retire") {
    return answerForm(request, {
      schema: z.object({ id: uuid }),
      input: (form) => ({ id: form.get("id") }),
      save: async ({ id }) => (await retireReviewQuestion(db, id, actor), redirectWithFlash(HERE, { type: "success", message: REVIEW_QUESTION_RETIRED })),
    });
  }
  return formFailure("Unknown action");
}

type Failure = ReturnType<typeof useActionData<typeof action>>;

/** The failure to show beside one form: its fetcher's answer, or (without JavaScript) the page's when it came from this form. */
function useFormFailure(intent: string, id: string | undefined) {
  const fetcher = useFetcher<typeof action>();
  const page = useActionData<typeof action>();
  const fromPage = page?.values?.intent === intent && (id === undefined || page?.values?.id === id) ? page : undefined;
  const failure: Failure = fetcher.state === "idle" ? (fetcher.data ?? fromPage) : undefined;
  useActionToast(fetcher.data);
  return { fetcher, failure };
}

const FIELDS = ["group", "kind", "prompt", "context", "choices", "answer", "tolerance"] as const;

function QuestionForm({ question, intent, label, name }: { question?: ReviewQuestionAdmin; intent: "add" | "replace"; label: string; name: string }) {
  const { fetcher, failure } = useFormFailure(intent, question?.id);
  const v = failure?.values;
  const e = failure?.fieldErrors;
  const busy = fetcher.state !== "idle";
  const kind = v?.kind ?? question?.kind ?? "choice";
  const choice = (i: number) => v?.[`choice_${i + 1}`] ?? question?.choices[i] ?? "";
  const answer = v?.answer ?? (question ? (question.kind === "choice" ? String(Number(question.answer) + 1) : question.answer) : "");
  return (
    <fetcher.Form method="post" action={HERE} noValidate aria-label={name} className="grid gap-3" key={failure?.submittedAt ?? "form"}>
      <ErrorSummary failure={failure} only={FIELDS} />
      {question ? <input type="hidden" name="id" value={question.id} /> : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label="Group"
          name="group"
          defaultValue={v?.group ?? question?.group ?? ""}
          placeholder="Choose the group"
          options={REVIEW_GROUPS.map((g) => ({ value: g, label: REVIEW_GROUP_LABELS[g] }))}
          error={e?.group}
        />
        <SelectField
          label="Kind"
          name="kind"
          defaultValue={kind}
          options={REVIEW_KINDS.map((k) => ({ value: k, label: REVIEW_KIND_LABELS[k] }))}
          error={e?.kind}
          hint="Choices are used for multiple choice; tolerance for a numeric answer"
        />
      </div>
      <TextAreaField label="Question" name="prompt" rows={2} defaultValue={v?.prompt ?? question?.prompt ?? ""} error={e?.prompt} />
      <TextAreaField
        label="What the question shows (optional)"
        name="context"
        rows={3}
        defaultValue={v?.context ?? question?.context ?? ""}
        error={e?.context}
        hint="A load chart's lines, a sign described, a form's field"
      />
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-semibold text-steel-800">Choices (multiple choice: 2 to 6)</legend>
        {e?.choices ? <p className="text-sm font-medium text-red-700">{e.choices}</p> : null}
        {Array.from({ length: REVIEW_CHOICE_SLOTS }, (_, i) => (
          <TextField key={i} label={`Choice ${i + 1}`} name={`choice_${i + 1}`} defaultValue={choice(i)} />
        ))}
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Right answer"
          name="answer"
          defaultValue={answer}
          error={e?.answer}
          hint="Multiple choice: the choice's number (1 for the first). Numeric: the number, e.g. 0.471"
        />
        <TextField
          label="Tolerance (numeric)"
          name="tolerance"
          inputMode="decimal"
          defaultValue={v?.tolerance ?? question?.tolerance ?? ""}
          error={e?.tolerance}
          hint="How far off an answer may be and still be right; blank for exact"
        />
      </div>
      <div>
        <Button type="submit" name="intent" value={intent} disabled={busy} aria-busy={busy || undefined}>
          {busy ? "Saving..." : label}
        </Button>
      </div>
    </fetcher.Form>
  );
}

function RetireForm({ question, number }: { question: ReviewQuestionAdmin; number: string }) {
  const { fetcher, failure } = useFormFailure("retire", question.id);
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={HERE}>
      <input type="hidden" name="id" value={question.id} />
      {failure ? (
        <p className="mb-2 text-sm font-medium text-red-700" role="alert">
          {failure.error}
        </p>
      ) : null}
      <Button type="submit" name="intent" value="retire" variant="secondary" disabled={busy} aria-label={`Retire question ${number}`}>
        {busy ? "Retiring..." : "Retire"}
      </Button>
    </fetcher.Form>
  );
}

function Answer({ q }: { q: ReviewQuestionAdmin }) {
  if (q.kind === "numeric")
    return (
      <p className="text-sm">
        Right answer: {q.answer}
        {q.tolerance && Number(q.tolerance) > 0 ? ` (within ${q.tolerance})` : ""}
      </p>
    );
  return (
    <ol className="list-decimal space-y-1 pl-6 text-sm">
      {q.choices.map((c, i) => (
        <li key={i} className="break-words">
          {c}
          {String(i) === q.answer ? <strong> (right answer)</strong> : null}
        </li>
      ))}
    </ol>
  );
}

export default function ReviewQuestions() {
  const { questions } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="Pre-enrolment review questions"
        subtitle="The questions every course that asks for the review puts to a learner, scored per group. A question is never edited in place: changing it retires the old wording."
      />
      <div className="grid gap-6">
        {REVIEW_GROUPS.map((group) => {
          const active = questions.filter((q) => q.group === group && q.is_active);
          const retired = questions.filter((q) => q.group === group && !q.is_active);
          return (
            <TitledCard key={group} title={`${REVIEW_GROUP_LABELS[group]} (${active.length} asked)`}>
              {active.length === 0 ? <EmptyState title="No questions asked">Add one below; a group without questions is not scored.</EmptyState> : null}
              <ol className="grid gap-4">
                {active.map((q, i) => {
                  const number = `${REVIEW_GROUP_LABELS[group]} ${i + 1}`;
                  return (
                    <li key={q.id} className="grid gap-2 rounded-md border border-steel-200 p-3">
                      <div className="flex flex-wrap items-center gap-2 text-xs text-steel-600">
                        <span>Question {number}</span>
                        <Badge tone="navy">{REVIEW_KIND_LABELS[q.kind]}</Badge>
                      </div>
                      <p className="break-words font-semibold">{q.prompt}</p>
                      {q.context ? <p className="whitespace-pre-line break-words text-sm text-steel-700">{q.context}</p> : null}
                      <Answer q={q} />
                      <div className="flex flex-wrap items-start gap-3">
                        <RetireForm question={q} number={number} />
                      </div>
                      <details>
                        <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold underline">Change question {number}</summary>
                        <div className="mt-3">
                          <QuestionForm question={q} intent="replace" label="Save the new wording" name={`Change question ${number}`} />
                        </div>
                      </details>
                    </li>
                  );
                })}
              </ol>
              {retired.length > 0 ? (
                <details className="mt-4">
                  <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold underline">
                    Retired {REVIEW_GROUP_LABELS[group].toLowerCase()} questions ({retired.length})
                  </summary>
                  <ul className="mt-2 grid gap-2 text-sm">
                    {retired.map((q) => (
                      <li key={q.id} className="break-words rounded-md border border-steel-200 p-2 text-steel-700">
                        <Badge tone="grey">Retired</Badge> {q.prompt}
                      </li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </TitledCard>
          );
        })}
        <TitledCard title="Add a question">
          <QuestionForm key={questions.length} intent="add" label="Add question" name="Add a question" />
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Review questions | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Pre-enrolment review questions" message="Failed to load the review's questions" />;
}
