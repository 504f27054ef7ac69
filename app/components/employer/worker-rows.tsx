import { TextField } from "~/components/ui";

/**
 * The name and email rows of the booking forms (worker_name_N / worker_email_N, read back by
 * `workerRows`). A row's own error (the action keys it by that row's field, naming the worker:
 * `workerRowErrors` in schemas/employer.ts, server-side, so no schema code reaches the browser)
 * shows at that worker's field; an error of the group as a whole stays at the top.
 */
export function WorkerRows({ rows, values, errors }: { rows: number; values: Record<string, string>; errors: Record<string, string | undefined> }) {
  return (
    <fieldset id="workers" className="space-y-3" aria-describedby={errors.workers ? "workers-error" : undefined}>
      <legend className="font-semibold">Workers</legend>
      {errors.workers ? (
        <p id="workers-error" className="text-sm text-red-700">
          {errors.workers}
        </p>
      ) : null}
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="grid gap-3 sm:grid-cols-2">
          <TextField
            label={`Worker ${i + 1} name`}
            name={`worker_name_${i}`}
            defaultValue={values[`worker_name_${i}`] ?? ""}
            error={errors[`worker_name_${i}`]}
          />
          <TextField
            label={`Worker ${i + 1} email`}
            name={`worker_email_${i}`}
            type="email"
            defaultValue={values[`worker_email_${i}`] ?? ""}
            error={errors[`worker_email_${i}`]}
          />
        </div>
      ))}
    </fieldset>
  );
}
