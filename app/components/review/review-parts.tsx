import type { ReactNode } from "react";
import { TextField } from "~/components/ui";
import { formatDate } from "~/utils/format";
import { REVIEW_GROUP_LABELS, REVIEW_GROUPS, REVIEW_OUTCOME_LABELS, type ReviewGroupKey, type ReviewOutcomeKey } from "~/schemas/review-text";

/** A question as the review form shows it (no right answer). */
export interface ReviewQuestionShown {
  id: string;
  group: ReviewGroupKey;
  kind: "choice" | "numeric";
  prompt: string;
  context: string | null;
  choices: string[];
}

/** An outcome as the result box, the enrolment page and the staff pages show it. */
export interface ReviewResultShown {
  outcome: ReviewOutcomeKey;
  advice: string;
  scores: Partial<Record<ReviewGroupKey, { correct: number; total: number; percent: number; outcome: ReviewOutcomeKey }>>;
  created_at: string;
}

const fieldName = (id: string) => `q_${id}`;

const OUTCOME_TONE: Record<ReviewOutcomeKey, string> = {
  suitable: "border-green-700 bg-green-50 text-green-900",
  support: "border-amber-600 bg-amber-50 text-amber-900",
  refer: "border-red-700 bg-red-50 text-red-900",
};

/** The questions of the review, by group: each a fieldset of choices or a number field, errors beside them. */
export function ReviewQuestions({
  questions,
  errors,
  values,
}: {
  questions: ReviewQuestionShown[];
  errors: Record<string, string>;
  values: Record<string, string>;
}) {
  let n = 0;
  return (
    <div className="space-y-6">
      {REVIEW_GROUPS.map((group) => {
        const inGroup = questions.filter((q) => q.group === group);
        if (inGroup.length === 0) return null;
        return (
          <section key={group} aria-labelledby={`group-${group}`} className="space-y-4">
            <h2 id={`group-${group}`} className="text-lg font-bold text-steel-900">
              {REVIEW_GROUP_LABELS[group]}
            </h2>
            {inGroup.map((q) => {
              n += 1;
              const name = fieldName(q.id);
              const error = errors[name];
              const context = q.context ? (
                <p id={`${name}-context`} className="whitespace-pre-line rounded-md bg-steel-50 p-3 text-sm text-steel-800 [overflow-wrap:anywhere]">
                  {q.context}
                </p>
              ) : null;
              if (q.kind === "numeric") {
                return (
                  <div key={q.id} className="rounded-md border border-steel-200 bg-white p-4">
                    {context}
                    <TextField
                      className="mt-3"
                      label={`${n}. ${q.prompt}`}
                      name={name}
                      id={name}
                      inputMode="decimal"
                      autoComplete="off"
                      maxLength={20}
                      defaultValue={values[name] ?? ""}
                      hint="A number; you may use a calculator"
                      error={error}
                    />
                  </div>
                );
              }
              return (
                <fieldset
                  key={q.id}
                  id={name}
                  tabIndex={-1}
                  aria-describedby={[q.context ? `${name}-context` : null, error ? `${name}-error` : null].filter(Boolean).join(" ") || undefined}
                  className="rounded-md border border-steel-200 bg-white p-4"
                >
                  <legend className="px-1 text-sm font-semibold text-steel-900">{`${n}. ${q.prompt}`}</legend>
                  {context}
                  <div className="mt-2 space-y-1">
                    {q.choices.map((choice, i) => (
                      <label
                        key={i}
                        htmlFor={`${name}-${i}`}
                        className="flex min-h-[44px] cursor-pointer items-center gap-3 rounded-md px-2 py-2 text-sm text-steel-800 hover:bg-steel-50"
                      >
                        <input
                          type="radio"
                          id={`${name}-${i}`}
                          name={name}
                          value={String(i)}
                          defaultChecked={values[name] === String(i)}
                          aria-invalid={error ? true : undefined}
                          className="h-5 w-5 shrink-0 accent-hivis-600"
                        />
                        <span className="[overflow-wrap:anywhere]">{choice}</span>
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
            })}
          </section>
        );
      })}
    </div>
  );
}

/** The outcome, the advice as the learner was shown it, and the score of each group. */
export function ReviewResult({ result, title = "Your result", children }: { result: ReviewResultShown; title?: string; children?: ReactNode }) {
  const [headline, ...advice] = result.advice.split("\n");
  return (
    <section aria-labelledby="review-result" className={`rounded-xl border-2 p-5 ${OUTCOME_TONE[result.outcome]}`}>
      <h2 id="review-result" className="text-lg font-bold">
        {`${title}: ${REVIEW_OUTCOME_LABELS[result.outcome]}`}
      </h2>
      <p className="mt-2 text-sm">{headline}</p>
      {advice.length ? (
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
          {advice.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
        {REVIEW_GROUPS.map((g) => {
          const s = result.scores[g];
          return s ? (
            <div key={g}>
              <dt className="font-semibold">{REVIEW_GROUP_LABELS[g]}</dt>
              <dd>{`${s.correct} of ${s.total}: ${REVIEW_OUTCOME_LABELS[s.outcome]}`}</dd>
            </div>
          ) : null;
        })}
      </dl>
      <p className="mt-3 text-xs">{`Taken ${formatDate(result.created_at)}`}</p>
      {children}
    </section>
  );
}
