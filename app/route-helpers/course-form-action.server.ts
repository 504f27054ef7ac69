import { data } from "@remix-run/node";
import type { z } from "zod";
import { applyListIntent, courseFormInput, parseListIntent, type CourseListName } from "~/schemas/course";
import { answerForm } from "~/utils/form-action.server";
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

/**
 * The course form's submission, adding a course or editing one: a list's Add or Remove button
 * answers with the form as edited; a save parses the form with `schema` and calls `save`. A
 * failure comes back as courseFormFailure, with the list rows as typed, which answerForm's kept
 * values cannot hold (a learning outcome may hold the comma they would be joined with).
 */
export async function answerCourseForm<S extends z.ZodType, R>(
  request: Request,
  steps: { schema: S; stored: CourseFormState; unreadable: string; save: (input: z.infer<S>) => Promise<R> },
) {
  const form = await request.formData().catch(() => null);
  if (!form) return courseFormFailure(new FormData(), steps.stored, steps.unreadable, {}, 400);
  const listResult = listButtonResult(form, steps.stored);
  if (listResult) return listResult;
  return answerForm(request, {
    form,
    schema: steps.schema,
    input: courseFormInput,
    unreadable: steps.unreadable,
    failed: ({ message, status, fieldErrors }) => courseFormFailure(form, steps.stored, message, fieldErrors, status),
    save: steps.save,
  });
}
