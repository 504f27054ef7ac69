import { CheckboxField, SelectField, TextField } from "~/components/ui";
import {
  ADDRESS_LIMITS,
  COUNTRIES,
  DISABILITY_TYPES,
  HIGHEST_SCHOOL_LEVEL,
  INDIGENOUS_STATUS,
  LABOUR_FORCE_STATUS,
  LANGUAGES,
  NOT_STATED,
  PRIOR_EDUCATION_TYPES,
  SEX,
  STATES,
  SURVEY_CONTACT_STATUS,
  YES_NO,
  type CodeOption,
} from "~/schemas/avetmiss-codes";
import type { FieldErrors } from "~/utils/validation";

/** The form values of the details: text as typed, a tick-box list as its codes. */
export type AvetmissFormValues = Partial<Record<string, string | string[] | null>>;

/** Details as stored (codes, lists) to form values. */
export function avetmissFormValues(details: Record<string, unknown>): AvetmissFormValues {
  const out: AvetmissFormValues = {};
  for (const [k, v] of Object.entries(details)) out[k] = Array.isArray(v) ? v.map(String) : v === null || v === undefined ? "" : String(v);
  return out;
}

const text = (v: AvetmissFormValues[string]) => (Array.isArray(v) ? v.join(",") : (v ?? ""));
/** A re-rendered submission keeps a ticked list joined by commas (see keptValues). */
const codes = (v: AvetmissFormValues[string]) => (Array.isArray(v) ? v : v ? v.split(",") : []);

function options(list: readonly CodeOption[], current: string) {
  const out = [{ value: "", label: NOT_STATED }, ...list.map((o) => ({ value: o.code, label: o.label }))];
  if (current && !list.some((o) => o.code === current)) out.push({ value: current, label: `Code ${current}` });
  return out;
}

function Coded({
  name,
  label,
  list,
  values,
  errors,
  hint,
}: {
  name: string;
  label: string;
  list: readonly CodeOption[];
  values: AvetmissFormValues;
  errors: FieldErrors;
  hint?: string;
}) {
  const current = text(values[name]);
  return <SelectField label={label} name={name} defaultValue={current} options={options(list, current)} error={errors[name]} hint={hint} />;
}

function Ticks({
  name,
  legend,
  list,
  values,
  errors,
}: {
  name: string;
  legend: string;
  list: readonly CodeOption[];
  values: AvetmissFormValues;
  errors: FieldErrors;
}) {
  const ticked = codes(values[name]);
  return (
    <fieldset className="rounded-md border border-steel-200 p-3">
      <legend className="px-1 text-sm font-semibold text-steel-800">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {list.map((o) => (
          <CheckboxField key={o.code} label={o.label} name={name} value={o.code} defaultChecked={ticked.includes(o.code)} />
        ))}
      </div>
      {errors[name] ? <p className="mt-2 text-sm font-medium text-red-700">{errors[name]}</p> : null}
    </fieldset>
  );
}

/**
 * The AVETMISS questions, each optional ("Not stated"): the student's "My enrolment details"
 * and the training office's Edit Student show the same fields with the same names.
 */
export function AvetmissFields({
  values,
  errors,
  withDateOfBirth = false,
  forOffice = false,
}: {
  values: AvetmissFormValues;
  errors: FieldErrors;
  withDateOfBirth?: boolean;
  /** the training office fills them in for a learner: hints speak of the learner, not to them */
  forOffice?: boolean;
}) {
  const field = (name: keyof typeof ADDRESS_LIMITS, label: string, autoComplete?: string) => (
    <TextField label={label} name={name} maxLength={ADDRESS_LIMITS[name]} autoComplete={autoComplete} defaultValue={text(values[name])} error={errors[name]} />
  );
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Coded name="sex" label="Sex" list={SEX} values={values} errors={errors} />
        {withDateOfBirth ? (
          <TextField label="Date of birth" name="date_of_birth" type="date" defaultValue={text(values.date_of_birth)} error={errors.date_of_birth} />
        ) : null}
      </div>
      <fieldset className="rounded-md border border-steel-200 p-3">
        <legend className="px-1 text-sm font-semibold text-steel-800">Residential address</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          {field("address_building", "Building or property name")}
          {field("address_unit", "Flat or unit")}
          {field("address_street_number", "Street number")}
          {field("address_street_name", "Street name", "address-line1")}
          {field("suburb", "Suburb, locality or town", "address-level2")}
          <TextField
            label="Postcode"
            name="postcode"
            inputMode="numeric"
            maxLength={4}
            autoComplete="postal-code"
            defaultValue={text(values.postcode)}
            error={errors.postcode}
            hint="OSPC for an address overseas"
          />
          <Coded name="state" label="State or territory" list={STATES} values={values} errors={errors} />
        </div>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Coded name="country_of_birth" label="Country of birth" list={COUNTRIES} values={values} errors={errors} />
        <Coded name="language_at_home" label="Main language spoken at home" list={LANGUAGES} values={values} errors={errors} />
        <Coded name="indigenous_status" label="Aboriginal or Torres Strait Islander origin" list={INDIGENOUS_STATUS} values={values} errors={errors} />
        <Coded name="labour_force_status" label="Employment status" list={LABOUR_FORCE_STATUS} values={values} errors={errors} />
        <Coded name="highest_school_level" label="Highest school level completed" list={HIGHEST_SCHOOL_LEVEL} values={values} errors={errors} />
        <Coded name="at_school" label="Still attending secondary school" list={YES_NO} values={values} errors={errors} />
        <Coded name="disability" label="Disability, impairment or long-term condition" list={YES_NO} values={values} errors={errors} />
        <Coded name="prior_education" label="Completed any of the qualifications below" list={YES_NO} values={values} errors={errors} />
      </div>
      <Ticks name="disability_types" legend="Disability types (if Yes)" list={DISABILITY_TYPES} values={values} errors={errors} />
      <Ticks name="prior_education_types" legend="Qualifications completed (if Yes)" list={PRIOR_EDUCATION_TYPES} values={values} errors={errors} />
      <Coded
        name="survey_contact_status"
        label="Survey contact status"
        list={SURVEY_CONTACT_STATUS}
        values={values}
        errors={errors}
        hint={forOffice ? "Whether NCVER may invite the learner to its student outcomes survey" : "Whether NCVER may invite you to its student outcomes survey"}
      />
    </div>
  );
}
