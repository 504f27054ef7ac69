import type { Tier } from "#db/schema";
import { Button, CheckboxField, SelectField, TextAreaField, TextField } from "~/components/ui";
import type { Course } from "~/models/course.server";
import type { CourseListName } from "~/schemas/course";
import { OFFICIAL_TITLE_MAX } from "~/schemas/course-text";
import { GST_TREATMENT_CODES, GST_TREATMENTS } from "~/schemas/invoice-text";
import type { FieldErrors } from "~/utils/validation";
import { TIER_TITLES } from "~/components/status-badges";
import { CourseLicenceFields } from "~/components/hrw/class-fields";
import type { CourseFormState } from "~/schemas/course-form";

const GST_OPTIONS = GST_TREATMENT_CODES.map((value) => ({ value, label: GST_TREATMENTS[value] }));

const LISTS: Record<CourseListName, { legend: string; item: string; keyword: string; add: string }> = {
  prerequisites: { legend: "Prerequisites", item: "Prerequisite", keyword: "prerequisite", add: "Add prerequisite" },
  learning_outcomes: { legend: "Learning outcomes", item: "Learning outcome", keyword: "outcome", add: "Add outcome" },
  assessment_criteria: { legend: "Assessment criteria", item: "Assessment criterion", keyword: "criterion", add: "Add criterion" },
};

/**
 * An editable list. Each Add and Remove button submits the form with its own intent
 * (`add-outcome`, `remove-outcome-2`), so entries can be added and removed without
 * JavaScript; the action sends the edited form back without saving.
 */
function ListField({
  list,
  entries,
  error,
  version,
  focusIndex,
}: {
  list: CourseListName;
  entries: string[];
  error?: string;
  version: string | number;
  focusIndex: number | null;
}) {
  const meta = LISTS[list];
  return (
    <fieldset className="rounded-md border border-steel-200 p-3">
      <legend className="px-1 text-sm font-semibold text-steel-800">{meta.legend}</legend>
      <input type="hidden" name={`${list}_present`} value="1" />
      {entries.length === 0 ? <p className="mb-2 text-sm text-steel-600">No entries yet.</p> : null}
      <ol className="space-y-2">
        {entries.map((entry, i) => (
          <li key={`${version}-${i}`} className="flex items-start gap-2">
            <label htmlFor={`${list}-${i}`} className="sr-only">
              {meta.item} {i + 1}
            </label>
            <span aria-hidden className="mt-2 w-5 text-right text-sm tabular-nums text-steel-500">
              {i + 1}.
            </span>
            <input
              id={`${list}-${i}`}
              name={list}
              defaultValue={entry}
              maxLength={500}
              autoFocus={focusIndex === i}
              className="block w-full flex-1 rounded-md border border-steel-300 bg-white px-3 py-2 text-base text-steel-900 shadow-sm focus:border-hivis-500 focus:outline-none focus:ring-2 focus:ring-hivis-500/40 sm:text-sm"
            />
            <Button type="submit" name="intent" value={`remove-${meta.keyword}-${i}`} variant="ghost" size="sm" className="mt-0.5">
              Remove
              <span className="sr-only">
                {" "}
                {meta.item.toLowerCase()} {i + 1}
              </span>
            </Button>
          </li>
        ))}
      </ol>
      {error ? <p className="mt-2 text-sm font-medium text-red-700">{error}</p> : null}
      <div className="mt-2">
        <Button type="submit" name="intent" value={`add-${meta.keyword}`} variant="secondary" size="sm">
          {meta.add}
        </Button>
      </div>
      <p className="mt-1 text-xs text-steel-500">Blank entries are dropped when you save.</p>
    </fieldset>
  );
}

const TIER_OPTIONS = (Object.keys(TIER_TITLES) as Tier[]).map((t) => ({ value: t, label: TIER_TITLES[t] }));

/**
 * The fields of Edit Course and Add Course. A hidden default button comes
 * first so pressing Enter in a field saves rather than pressing the first Remove button.
 */
export function CourseFields({
  mode,
  state,
  errors,
  version,
  focus,
}: {
  mode: "create" | "edit";
  state: CourseFormState;
  errors: FieldErrors;
  version: string | number;
  focus: { list: CourseListName; index: number } | null;
}) {
  const lists: CourseListName[] =
    mode === "create" ? ["prerequisites", "learning_outcomes", "assessment_criteria"] : ["learning_outcomes", "assessment_criteria"];
  return (
    <div className="space-y-4">
      <button type="submit" name="intent" value="save" tabIndex={-1} aria-hidden="true" className="sr-only">
        Save
      </button>
      {mode === "create" ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Unit code" name="unit_code" required defaultValue={state.unit_code} hint="e.g. CPCCLRG3001" error={errors.unit_code} />
          <SelectField label="Tier" name="tier" required defaultValue={state.tier} options={TIER_OPTIONS} error={errors.tier} />
        </div>
      ) : null}
      <TextField label="Course name" name="name" required defaultValue={state.name} error={errors.name} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Duration (hours)"
          name="duration_hours"
          type="number"
          inputMode="decimal"
          min={0}
          step="any"
          required
          defaultValue={state.duration_hours}
          error={errors.duration_hours}
        />
        <TextField
          label="Price ($)"
          name="price"
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          required
          defaultValue={state.price}
          error={errors.price}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="GST"
          name="gst_treatment"
          required
          defaultValue={state.gst_treatment}
          options={GST_OPTIONS}
          hint="An accredited unit of competency is GST-free; the price of a taxable course includes 10% GST"
          error={errors.gst_treatment}
        />
        <TextField
          label="RPL fee per unit (AUD)"
          name="rpl_fee"
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          required
          hint="Invoiced when a learner applies for recognition of prior learning, with the GST treatment above; 0 for no fee"
          defaultValue={state.rpl_fee}
          error={errors.rpl_fee}
        />
      </div>
      <TextField
        label="Official unit title"
        name="official_title"
        maxLength={OFFICIAL_TITLE_MAX}
        hint="The unit's title on training.gov.au, as NCVER's report carries it; the course name above stays the catalogue's"
        defaultValue={state.official_title}
        error={errors.official_title}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Field of education code"
          name="field_of_education"
          inputMode="numeric"
          maxLength={6}
          hint="6 digits from the unit's training.gov.au page, e.g. 030717"
          defaultValue={state.field_of_education}
          error={errors.field_of_education}
        />
        <div className="pt-6">
          <input type="hidden" name="vet_flag_present" value="1" />
          <CheckboxField
            label="Vocational education and training (VET)"
            name="vet_flag"
            defaultChecked={state.vet_flag}
            hint="Reported to NCVER; duration is the unit's nominal hours"
            error={errors.vet_flag}
          />
        </div>
      </div>
      <CourseLicenceFields state={state} errors={errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="pt-6">
          <input type="hidden" name="review_required_present" value="1" />
          <CheckboxField
            label="Pre-enrolment review required"
            name="review_required"
            defaultChecked={state.review_required}
            hint="Learners take the reading, writing, numeracy and digital review before their enrolment is confirmed"
            error={errors.review_required}
          />
        </div>
        <TextField
          label="Days before a retake"
          name="review_retake_days"
          inputMode="numeric"
          maxLength={3}
          hint="How long a learner waits before taking the review again"
          defaultValue={state.review_retake_days}
          error={errors.review_retake_days}
        />
      </div>
      <TextAreaField label="Description" name="description" rows={3} required defaultValue={state.description} error={errors.description} />
      {lists.map((list) => (
        <ListField key={list} list={list} entries={state[list]} error={errors[list]} version={version} focusIndex={focus?.list === list ? focus.index : null} />
      ))}
      {mode === "create" ? (
        <>
          <input type="hidden" name="is_active_present" value="1" />
          <CheckboxField label="Active (open for enrolment)" name="is_active" defaultChecked={state.is_active} error={errors.is_active} />
        </>
      ) : null}
    </div>
  );
}

/** A stored course as form state. */
export function courseStateFrom(course: Omit<Course, "id" | "created_at" | "updated_at">): CourseFormState {
  return {
    unit_code: course.unit_code,
    name: course.name,
    description: course.description,
    tier: course.tier,
    duration_hours: String(course.duration_hours),
    price: course.price.toFixed(2),
    rpl_fee: course.rpl_fee.toFixed(2),
    gst_treatment: course.gst_treatment,
    is_active: course.is_active,
    field_of_education: course.field_of_education ?? "",
    official_title: course.official_title ?? "",
    vet_flag: course.vet_flag,
    review_required: course.review_required,
    review_retake_days: String(course.review_retake_days),
    licence_class: course.licence_class ?? "",
    licence_prerequisites: [...course.licence_prerequisites],
    prerequisites: [...course.prerequisites],
    learning_outcomes: [...course.learning_outcomes],
    assessment_criteria: [...course.assessment_criteria],
  };
}
