import { Form } from "@remix-run/react";
import { ErrorSummary, SelectField, TextField, type SummarisedFailure } from "~/components/ui";
import { RECOGNITION_KIND_LABELS, RECOGNITION_KINDS, RECOGNITION_STATUS_LABELS, RECOGNITION_STATUSES } from "~/schemas/recognition-text";

/** The register's filters (a GET form: the same query names the CSV and GET /api/recognition take). */
export function RecognitionFilters({
  values,
  failure,
  search,
}: {
  values: Record<string, string | undefined>;
  failure: SummarisedFailure | null;
  search: boolean;
}) {
  return (
    <Form method="get" className="grid gap-3 sm:grid-cols-4 sm:items-end">
      <ErrorSummary failure={failure} />
      <SelectField
        label="Kind"
        name="kind"
        placeholder="Any kind"
        defaultValue={values.kind ?? ""}
        options={RECOGNITION_KINDS.map((k) => ({ value: k, label: RECOGNITION_KIND_LABELS[k] }))}
        error={failure?.fieldErrors?.kind}
      />
      <SelectField
        label="Status"
        name="status"
        placeholder="Any status"
        defaultValue={values.status ?? ""}
        options={RECOGNITION_STATUSES.map((s) => ({ value: s, label: RECOGNITION_STATUS_LABELS[s] }))}
        error={failure?.fieldErrors?.status}
      />
      {search ? <TextField label="Learner or unit" name="q" defaultValue={values.q ?? ""} error={failure?.fieldErrors?.q} /> : null}
      <button type="submit" className="min-h-11 rounded-md border border-steel-300 px-3 py-2 text-sm font-semibold">
        Show
      </button>
    </Form>
  );
}
