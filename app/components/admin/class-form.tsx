import { Form, Link } from "@remix-run/react";
import { Alert, buttonClasses, SelectField, SubmitButton, TextAreaField, TextField } from "~/components/ui";

export interface ClassFormValues {
  start_date: string;
  end_date: string;
  sessions: string;
  location_id: string;
  trainer_id: string;
  seats: string;
}

/**
 * The add and edit class form (a modal over the course list). Sessions are typed one a line,
 * "2026-12-03 07:30-15:30", so the form needs no script; times are on the RTO's clock.
 */
export function ClassForm({
  values,
  errors,
  error,
  trainers,
  locations,
  closeTo,
  submitLabel,
}: {
  values: ClassFormValues;
  errors: Record<string, string>;
  error?: string;
  trainers: { id: string; full_name: string }[];
  locations: { id: string; name: string }[];
  closeTo: string;
  submitLabel: string;
}) {
  return (
    <Form method="post" noValidate className="space-y-4">
      {error ? <Alert>{error}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Start date" name="start_date" type="date" defaultValue={values.start_date} error={errors.start_date} required />
        <TextField label="End date" name="end_date" type="date" defaultValue={values.end_date} error={errors.end_date} required />
      </div>
      <TextAreaField
        label="Sessions"
        name="sessions"
        rows={4}
        defaultValue={values.sessions}
        error={errors.sessions}
        hint="One a line: date, start and end time in Sydney time, e.g. 2026-12-03 07:30-15:30"
        required
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField label="Delivery location" name="location_id" defaultValue={values.location_id} error={errors.location_id} options={locations.map((l) => ({ value: l.id, label: l.name }))} />
        <SelectField
          label="Trainer"
          name="trainer_id"
          defaultValue={values.trainer_id}
          error={errors.trainer_id}
          options={[{ value: "", label: "Choose a trainer" }, ...trainers.map((t) => ({ value: t.id, label: t.full_name }))]}
        />
        <TextField label="Seats" name="seats" type="number" min={1} max={100} defaultValue={values.seats} error={errors.seats} required />
      </div>
      <div className="flex flex-wrap justify-end gap-2 border-t border-steel-100 pt-4">
        <Link to={closeTo} preventScrollReset className={buttonClasses("secondary")}>
          Close
        </Link>
        <SubmitButton intent="save" busyLabel="Saving...">
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}
