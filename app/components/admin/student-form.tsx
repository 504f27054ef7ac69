import { AvetmissFields, type AvetmissFormValues } from "~/components/avetmiss/fields";
import { CheckboxField, TextAreaField, TextField } from "~/components/ui";
import { UsiField } from "~/components/usi-field";
import { passwordRule } from "~/schemas/password-text";
import type { FieldErrors } from "~/utils/validation";

export type StudentFormValues = Partial<
  Record<"full_name" | "email" | "phone" | "address" | "date_of_birth" | "emergency_contact" | "license_number" | "usi", string>
> & { is_active?: boolean; usi_verified_at?: string | null; avetmiss?: AvetmissFormValues };

/** The fields of Edit Student and Add Student ; `withPassword` for a new account. */
export function StudentFields({ values, errors, withPassword = false }: { values: StudentFormValues; errors: FieldErrors; withPassword?: boolean }) {
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Full name" name="full_name" required autoComplete="off" defaultValue={values.full_name} error={errors.full_name} />
        <TextField label="Email" name="email" type="email" required autoComplete="off" defaultValue={values.email} error={errors.email} />
        {withPassword ? (
          <TextField
            label="Initial password"
            name="password"
            type="password"
            required
            autoComplete="new-password"
            hint={`${passwordRule("student")}; give it to the student to sign in with`}
            error={errors.password}
            className="sm:col-span-2"
          />
        ) : null}
        <TextField label="Phone" name="phone" type="tel" autoComplete="off" defaultValue={values.phone} error={errors.phone} />
        <TextField label="Date of birth" name="date_of_birth" type="date" defaultValue={values.date_of_birth} error={errors.date_of_birth} />
      </div>
      <TextAreaField label="Address" name="address" rows={2} defaultValue={values.address} error={errors.address} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Emergency contact"
          name="emergency_contact"
          hint="Name and phone number"
          defaultValue={values.emergency_contact}
          error={errors.emergency_contact}
        />
        <TextField
          label="Licence number"
          name="license_number"
          hint="Existing certification licence"
          defaultValue={values.license_number}
          error={errors.license_number}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <UsiField defaultValue={values.usi} error={errors.usi} verified={values.usi_verified_at === undefined ? undefined : values.usi_verified_at !== null} />
        {values.usi_verified_at ? null : (
          <CheckboxField
            label="I have verified this USI with the USI Registry"
            name="usi_verified"
            hint="Records you and the time; issuing a certificate needs it. Changing the USI clears it. An exemption code (INDIV, INTOFF) you save counts as verified without it."
            error={errors.usi_verified}
          />
        )}
      </div>
      <section aria-labelledby="avetmiss-heading" className="border-t border-steel-100 pt-4">
        <h3 id="avetmiss-heading" className="mb-3 text-sm font-bold uppercase tracking-wide text-steel-700">
          Enrolment details (AVETMISS)
        </h3>
        <AvetmissFields values={values.avetmiss ?? {}} errors={errors} forOffice />
      </section>
      <CheckboxField
        label="Active"
        name="is_active"
        defaultChecked={values.is_active ?? true}
        hint="An inactive student cannot sign in; unticking signs them out everywhere at once."
        error={errors.is_active}
      />
    </div>
  );
}

/** Form values as a failed submission left them (the checkbox is present or absent). */
export function studentValuesFromSubmission(values: Record<string, string>): StudentFormValues {
  return { ...values, avetmiss: values, is_active: values.is_active === "on" || values.is_active === "true" };
}
