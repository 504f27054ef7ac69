import { SelectField, TextField } from "~/components/ui";
import { AUSTRALIA, LOCATION_IDENTIFIER_MAX, NOT_STATED, STATES } from "~/schemas/avetmiss-codes";
import type { FieldErrors } from "~/utils/validation";

export type LocationFormValues = Partial<Record<"identifier" | "name" | "suburb" | "postcode" | "state" | "country", string | null>>;

const STATE_OPTIONS = [{ value: "", label: NOT_STATED }, ...STATES.map((s) => ({ value: s.code, label: s.label }))];

/** The fields of a delivery location (add and edit). */
export function LocationFields({ values, errors }: { values: LocationFormValues; errors: FieldErrors }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Identifier"
        name="identifier"
        required
        maxLength={LOCATION_IDENTIFIER_MAX}
        hint="Up to 10 letters or digits; reported to NCVER, so keep it once used"
        defaultValue={values.identifier ?? ""}
        error={errors.identifier}
      />
      <TextField label="Name" name="name" required maxLength={100} defaultValue={values.name ?? ""} error={errors.name} />
      <TextField label="Suburb, locality or town" name="suburb" maxLength={50} defaultValue={values.suburb ?? ""} error={errors.suburb} />
      <TextField label="Postcode" name="postcode" inputMode="numeric" maxLength={4} defaultValue={values.postcode ?? ""} error={errors.postcode} />
      <SelectField label="State or territory" name="state" defaultValue={values.state ?? ""} options={STATE_OPTIONS} error={errors.state} />
      <TextField
        label="Country code"
        name="country"
        inputMode="numeric"
        maxLength={4}
        hint={`ABS SACC code; ${AUSTRALIA} is Australia`}
        defaultValue={values.country ?? AUSTRALIA}
        error={errors.country}
      />
    </div>
  );
}
