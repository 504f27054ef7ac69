import { TextField } from "~/components/ui";

/** The name and email rows of the booking forms (worker_name_N / worker_email_N, read back by `workerRows`). */
export function WorkerRows({ rows, values, error }: { rows: number; values: Record<string, string>; error?: string }) {
  return (
    <fieldset id="workers" className="space-y-3">
      <legend className="font-semibold">Workers</legend>
      {error ? <p className="text-sm text-red-700">{error}</p> : null}
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="grid gap-3 sm:grid-cols-2">
          <TextField label={`Worker ${i + 1} name`} name={`worker_name_${i}`} defaultValue={values[`worker_name_${i}`] ?? ""} />
          <TextField label={`Worker ${i + 1} email`} name={`worker_email_${i}`} type="email" defaultValue={values[`worker_email_${i}`] ?? ""} />
        </div>
      ))}
    </fieldset>
  );
}
