import { TIERS, type Tier } from "#db/schema";
import type { GstTreatment } from "#db/schema-finance";
import type { CourseListName } from "./course";
import { GST_TREATMENT_CODES } from "./invoice-text";

/**
 * The course form's state and how a submission becomes it: the page draws it
 * (components/admin/course-form.tsx) and the actions parse it (route-helpers/course-form-action.server.ts),
 * so it sits here, beneath both.
 */

/** The course form as typed: numbers stay text until the server parses them. */
export interface CourseFormState {
  unit_code: string;
  name: string;
  description: string;
  tier: Tier;
  duration_hours: string;
  price: string;
  rpl_fee: string;
  gst_treatment: GstTreatment;
  is_active: boolean;
  field_of_education: string;
  official_title: string;
  vet_flag: boolean;
  review_required: boolean;
  review_retake_days: string;
  licence_class: string;
  licence_prerequisites: string[];
  prerequisites: string[];
  learning_outcomes: string[];
  assessment_criteria: string[];
}

/** The licence fields of the course form as submitted (kept when the form comes back with errors). */
export function licenceStateFromForm(form: FormData, fallback: { licence_class: string; licence_prerequisites: string[] }) {
  const cls = form.get("licence_class");
  return {
    licence_class: typeof cls === "string" ? cls.slice(0, 4) : fallback.licence_class,
    licence_prerequisites: form.has("licence_prerequisites_present")
      ? form
          .getAll("licence_prerequisites")
          .filter((v): v is string => typeof v === "string")
          .slice(0, 20)
      : fallback.licence_prerequisites,
  };
}

/** The form state from a submission (what the person typed, blank entries kept). */
export function courseStateFromForm(form: FormData, fallback: CourseFormState): CourseFormState {
  const text = (name: keyof CourseFormState, def: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v.slice(0, 5000) : def;
  };
  const list = (name: CourseListName) =>
    form.has(`${name}_present`) || form.has(name)
      ? form
          .getAll(name)
          .filter((v): v is string => typeof v === "string")
          .slice(0, 60)
          .map((v) => v.slice(0, 600))
      : fallback[name];
  const tier = text("tier", fallback.tier);
  return {
    unit_code: text("unit_code", fallback.unit_code),
    name: text("name", fallback.name),
    description: text("description", fallback.description),
    tier: (TIERS as readonly string[]).includes(tier) ? (tier as Tier) : fallback.tier,
    duration_hours: text("duration_hours", fallback.duration_hours),
    price: text("price", fallback.price),
    rpl_fee: text("rpl_fee", fallback.rpl_fee),
    gst_treatment: GST_TREATMENT_CODES.find((code) => code === form.get("gst_treatment")) ?? fallback.gst_treatment,
    is_active: form.has("is_active_present") ? form.get("is_active") === "on" : fallback.is_active,
    field_of_education: text("field_of_education", fallback.field_of_education),
    official_title: text("official_title", fallback.official_title),
    vet_flag: form.has("vet_flag_present") ? form.get("vet_flag") === "on" : fallback.vet_flag,
    review_required: form.has("review_required_present") ? form.get("review_required") === "on" : fallback.review_required,
    review_retake_days: text("review_retake_days", fallback.review_retake_days),
    ...licenceStateFromForm(form, fallback),
    prerequisites: list("prerequisites"),
    learning_outcomes: list("learning_outcomes"),
    assessment_criteria: list("assessment_criteria"),
  };
}

export const EMPTY_COURSE_STATE: CourseFormState = {
  unit_code: "",
  name: "",
  description: "",
  tier: "tier_1",
  duration_hours: "",
  price: "",
  rpl_fee: "0",
  gst_treatment: "gst_free",
  is_active: true,
  field_of_education: "",
  official_title: "",
  vet_flag: true,
  review_required: false,
  review_retake_days: "1",
  licence_class: "",
  licence_prerequisites: [],
  prerequisites: [""],
  learning_outcomes: [""],
  assessment_criteria: [""],
};
