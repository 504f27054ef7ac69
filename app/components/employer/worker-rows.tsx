import { TextField } from "~/components/ui";
import { workerRowErrors } from "~/schemas/employer";

/**
 * The name and email rows of the booking forms (worker_name_N / worker_email_N, read back by
 * `workerRows`). A row's own error shows at that row's field, naming the worker; an error of the
 * group as a whole (e.g. an address the portal refuses) stays at the top.
 */
export function WorkerRows({ rows, values, error }: { rows: number; values: Record<string, string>; error?: string }) {
  const rowErrors = error ? workerRowErrors(values, rows) : {};
  const groupError = error && Object.keys(rowErrors).length === 0 ? error : undefined;
  return (
    <fieldset id="workers" className="space-y-3">
      <legend className="font-semibold">Workers</legend>
      {groupError ? <p className="text-sm text-red-700">{groupError}</p> : null}
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="grid gap-3 sm:grid-cols-2">
          <TextField label={`Worker ${i + 1} name`} name={`worker_name_${i}`} defaultValue={values[`worker_name_${i}`] ?? ""} error={rowErrors[`worker_name_${i}`]} />
          <TextField label={`Worker ${i + 1} email`} name={`worker_email_${i}`} type="email" defaultValue={values[`worker_email_${i}`] ?? ""} error={rowErrors[`worker_email_${i}`]} />
        </div>
      ))}
    </fieldset>
  );
}
