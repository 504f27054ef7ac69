import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, queryObject, requireRole, getDb, questionnaireSummary, type QuestionnaireSummary } from "~/routes/admin+/questionnaires.report.server";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { Badge, Button, Card, EmptyState, ErrorSummary, SelectField, TextField, TitledCard } from "~/components/ui";
import { LOW_RATING, QUESTION_KIND_LABELS, QUESTIONNAIRE_AUDIENCE_LABELS, QUESTIONNAIRE_AUDIENCES, RATING_WORDS } from "~/schemas/improvement-text";
import { summaryQuery } from "~/schemas/questionnaire";
import { formatDate, plural } from "~/utils/format";
import { organisationToday, organisationYear } from "~/utils/organisation-calendar";
import { parseWith } from "~/utils/validation";

/**
 * The questionnaires' report (administrators): per question, over a period, the count, the
 * average and each rating's count, the low scores flagged (with a link that raises an
 * improvement action from the question), the text answers as written; and the annual summary of
 * a calendar year as a download. Nothing here names who answered.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const raw = queryObject(request);
  const values = { audience: raw.audience ?? "learner", from: raw.from ?? "", to: raw.to ?? "" };
  const parsed = parseWith(summaryQuery, { audience: raw.audience || undefined, from: raw.from || undefined, to: raw.to || undefined });
  const thisYear = organisationYear();
  if (!parsed.success)
    return data(
      { values, failure: { error: parsed.message, fieldErrors: parsed.fieldErrors }, summary: null as QuestionnaireSummary | null, thisYear },
      { status: 400 },
    );
  const summary = await questionnaireSummary(getDb(), parsed.data, organisationToday());
  return { values, failure: null, summary, thisYear };
}

const AUDIENCE_OPTIONS = QUESTIONNAIRE_AUDIENCES.map((a) => ({ value: a, label: QUESTIONNAIRE_AUDIENCE_LABELS[a] }));

export default function QuestionnaireReport() {
  const { values, failure, summary, thisYear } = useLoaderData<typeof loader>();
  const years = [thisYear - 1, thisYear, thisYear - 2].map((y) => ({ value: String(y), label: String(y) }));
  return (
    <>
      <PageTitle
        title="Questionnaire report"
        subtitle={
          <Link to={`/admin/questionnaires?audience=${values.audience}`} className="text-hivis-800 underline underline-offset-4">
            Questions and low-score threshold
          </Link>
        }
      />
      <Card className="mb-4 p-4">
        <Form method="get" action="/admin/questionnaires/report" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-end">
          <SelectField label="Audience" name="audience" defaultValue={values.audience} options={AUDIENCE_OPTIONS} />
          <TextField label="From" name="from" type="date" defaultValue={values.from} hint="Default: 1 January this year" error={failure?.fieldErrors.from} />
          <TextField label="To" name="to" type="date" defaultValue={values.to} hint="Default: today" error={failure?.fieldErrors.to} />
          <div>
            <Button type="submit">Show</Button>
          </div>
        </Form>
      </Card>
      <ErrorSummary failure={failure} />
      {summary ? (
        <>
          <p className="mb-4 text-sm text-steel-700" role="status">
            {QUESTIONNAIRE_AUDIENCE_LABELS[summary.audience]} questionnaire, {formatDate(summary.from)} to {formatDate(summary.to)}:{" "}
            {plural(summary.responses, "response")}. Averages under {summary.threshold.toFixed(1)}, and any rating of {LOW_RATING} or lower, are flagged.
          </p>
          {summary.questions.length === 0 ? (
            <EmptyState title="No questions for this audience yet" />
          ) : (
            <ol className="space-y-4">
              {summary.questions.map((q) => (
                <li key={q.id}>
                  <Card className="p-4">
                    <h2 className="text-base font-semibold text-steel-900">{q.prompt}</h2>
                    <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-steel-600">
                      <span>{QUESTION_KIND_LABELS[q.kind]}</span>
                      {q.retired ? <Badge tone="grey">No longer asked</Badge> : null}
                      {q.flagged ? <Badge tone="red">Low score</Badge> : null}
                    </p>
                    {q.kind === "rating" ? (
                      <>
                        <p className="mt-2 text-sm text-steel-800">
                          {q.count === 0
                            ? "No ratings in this period."
                            : `Average ${q.average?.toFixed(2)} from ${plural(q.count, "rating")}; ${q.low} at ${LOW_RATING} or lower.`}
                        </p>
                        {q.count > 0 ? (
                          <ul className="mt-2 grid gap-1 text-sm sm:grid-cols-5" aria-label={`Ratings of: ${q.prompt}`}>
                            {q.ratings.map((n, i) => (
                              <li key={i} className="rounded bg-steel-50 px-2 py-1">
                                {i + 1} ({RATING_WORDS[i + 1]}): <span className="font-semibold">{n}</span>
                              </li>
                            ))}
                          </ul>
                        ) : null}
                      </>
                    ) : (
                      <>
                        <p className="mt-2 text-sm text-steel-800">{q.count === 0 ? "No answers in this period." : plural(q.count, "answer")}</p>
                        {q.texts.length > 0 ? (
                          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-steel-800">
                            {q.texts.map((t, i) => (
                              <li key={i} className="whitespace-pre-line">
                                {t}
                              </li>
                            ))}
                          </ul>
                        ) : null}
                      </>
                    )}
                    <p className="mt-3">
                      <Link
                        to={`/admin/improvements/new?source_type=questionnaire&source_id=${q.id}`}
                        className="inline-flex min-h-11 items-center text-sm font-semibold text-hivis-800 underline underline-offset-4"
                      >
                        Raise an improvement action<span className="sr-only"> from: {q.prompt}</span>
                      </Link>
                    </p>
                  </Card>
                </li>
              ))}
            </ol>
          )}
        </>
      ) : null}
      <TitledCard title="Annual summary" className="mt-6">
        <p className="mb-3 text-sm text-steel-700">
          The calendar year&apos;s figures per question (1 January to 31 December), as a CSV file for the summary the RTO sends by 30 June of the following
          year.
        </p>
        <Form method="get" action="/admin/questionnaires/annual.csv" reloadDocument className="grid gap-3 sm:grid-cols-3 sm:items-end">
          <SelectField label="Questionnaire" name="audience" defaultValue={values.audience} options={AUDIENCE_OPTIONS} />
          <SelectField label="Year" name="year" defaultValue={String(thisYear - 1)} options={years} />
          <div>
            <Button type="submit">Download annual summary</Button>
          </div>
        </Form>
      </TitledCard>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Questionnaire report | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Questionnaire report" message="Failed to load the questionnaire report" />;
}
