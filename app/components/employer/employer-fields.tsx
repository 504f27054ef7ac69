import { TextAreaField, TextField } from "~/components/ui";
import type { FieldErrors } from "~/utils/validation";

export type EmployerFormValues = Partial<Record<"name" | "abn" | "contact_name" | "contact_email" | "contact_phone" | "address", string | null>>;

/** The fields of an employer (add and edit). */
export function EmployerFields({ values, errors }: { values: EmployerFormValues; errors: FieldErrors }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField label="Organisation name" name="name" required maxLength={200} defaultValue={values.name ?? ""} error={errors.name} />
      <TextField
        label="ABN"
        name="abn"
        required
        inputMode="numeric"
        maxLength={14}
        hint="11 digits, e.g. 51 824 753 556"
        defaultValue={values.abn ?? ""}
        error={errors.abn}
      />
      <TextField
        label="Billing contact name"
        name="contact_name"
        required
        maxLength={200}
        defaultValue={values.contact_name ?? ""}
        error={errors.contact_name}
      />
      <TextField
        label="Billing contact email"
        name="contact_email"
        type="email"
        required
        defaultValue={values.contact_email ?? ""}
        error={errors.contact_email}
      />
      <TextField
        label="Billing contact phone"
        name="contact_phone"
        type="tel"
        required
        defaultValue={values.contact_phone ?? ""}
        error={errors.contact_phone}
      />
      <TextAreaField label="Address" name="address" required rows={3} defaultValue={values.address ?? ""} error={errors.address} className="sm:col-span-2" />
    </div>
  );
}
