import { data } from "@remix-run/node";
import { applyListIntent, parseListIntent, type CourseListName } from "~/schemas/course";
import type { FieldErrors } from "~/utils/validation";
import { courseStateFromForm, type CourseFormState } from "~/schemas/course-form";

export type CourseFormResult = {
  state: CourseFormState;
  focus: { list: CourseListName; index: number } | null;
  error: string | null;
  fieldErrors: FieldErrors;
  toast?: { type: "error"; message: string };
  submittedAt: number;
  /** A save that deactivates the course asks first (CONTRACT 21): the question and the form as posted. */
  confirm?: string;
  posted?: [string, string][];
};

/**
 * The Add and Remove buttons of the course lists: the edited form goes back to the page,
 * nothing is saved. Null when the submission is a save.
 */
export function listButtonResult(form: FormData, fallback: CourseFormState) {
  const intent = parseListIntent(form.get("intent"));
  if (!intent) return null;
  const state = courseStateFromForm(form, fallback);
  state[intent.list] = applyListIntent(state[intent.list], intent);
  const focus = intent.op === "add" ? { list: intent.list, index: state[intent.list].length - 1 } : null;
  const result: CourseFormResult = { state, focus, error: null, fieldErrors: {}, submittedAt: Date.now() };
  return result;
}

/** A save that failed: the form comes back as typed, with the message and the field errors. */
export function courseFormFailure(form: FormData, fallback: CourseFormState, message: string, fieldErrors: FieldErrors, status: number) {
  return data<CourseFormResult>(
    {
      state: courseStateFromForm(form, fallback),
      focus: null,
      error: message,
      fieldErrors,
      // one message per failure: invalid fields have the error summary, not a toast over them
      toast: Object.keys(fieldErrors).length ? undefined : { type: "error", message },
      submittedAt: Date.now(),
    },
    { status },
  );
}
