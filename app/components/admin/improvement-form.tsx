import { SelectField, TextAreaField, TextField } from "~/components/ui";

/** The fields an action is raised and edited with: what is to be improved, who owns it, by when. */
export function ImprovementFields({
  values,
  errors,
  owners,
}: {
  values: Record<string, string | null | undefined>;
  errors: Record<string, string>;
  owners: { id: string; full_name: string }[];
}) {
  return (
    <>
      <TextAreaField
        label="Description"
        name="description"
        rows={4}
        defaultValue={values.description ?? ""}
        error={errors.description}
        hint="What is to be improved, and why"
        required
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Owner"
          name="owner_id"
          defaultValue={values.owner_id ?? ""}
          placeholder="Choose a staff member"
          options={owners.map((o) => ({ value: o.id, label: o.full_name }))}
          error={errors.owner_id}
          required
        />
        <TextField
          label="Due date"
          name="due_date"
          type="date"
          defaultValue={values.due_date ?? ""}
          error={errors.due_date}
          hint="A day in Australia/Sydney time"
          required
        />
      </div>
    </>
  );
}
