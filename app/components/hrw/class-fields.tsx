import { SelectField } from "~/components/ui";
import { LICENCE_CLASS_CODES, LICENCE_CLASSES } from "~/schemas/hrw-codes";

export const LICENCE_CLASS_OPTIONS = LICENCE_CLASS_CODES.map((code) => ({ value: code, label: `${code} \u2014 ${LICENCE_CLASSES[code]}` }));

/** A group of licence-class checkboxes (a course's prerequisites, an accreditation's classes). */
export function ClassCheckboxes({
  legend,
  name,
  checked,
  error,
  hint,
}: {
  legend: string;
  name: string;
  checked: readonly string[];
  error?: string;
  hint?: string;
}) {
  const errorId = `${name}-error`;
  return (
    <fieldset id={name} tabIndex={-1} aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-semibold text-steel-800">{legend}</legend>
      {hint ? <p className="text-xs text-steel-600">{hint}</p> : null}
      <input type="hidden" name={`${name}_present`} value="1" />
      <div className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-5">
        {LICENCE_CLASS_CODES.map((code) => (
          <label key={code} className="flex items-center gap-2 text-sm text-steel-800" title={LICENCE_CLASSES[code]}>
            <input type="checkbox" name={name} value={code} defaultChecked={checked.includes(code)} className="h-4 w-4 rounded border-steel-400" />
            {code}
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The licence part of the course form: the class and the classes a candidate must hold first. */
export function CourseLicenceFields({
  state,
  errors,
}: {
  state: { licence_class: string; licence_prerequisites: string[] };
  errors: Record<string, string | undefined>;
}) {
  return (
    <div className="grid gap-4 rounded-md border border-steel-200 p-3">
      <SelectField
        label="High-risk work licence class"
        name="licence_class"
        defaultValue={state.licence_class}
        error={errors.licence_class}
        hint="The licence the course leads to; none for a course without an HRW licence"
        options={[{ value: "", label: "None" }, ...LICENCE_CLASS_OPTIONS]}
      />
      <ClassCheckboxes
        legend="Licences a candidate must hold first"
        name="licence_prerequisites"
        checked={state.licence_prerequisites}
        error={errors.licence_prerequisites}
        hint="None ticked: the class's defaults (RB needs DG, RI needs RB, RA needs RI)"
      />
    </div>
  );
}
