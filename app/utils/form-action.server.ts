import { data } from "@remix-run/node";
import type { z } from "zod";
import { isDomainError, type DomainError } from "./errors";
import { FORM_UNREADABLE } from "./form-text";
import { FORM_TOKEN_FIELD, FORM_TOKEN_MISSING } from "./form-token";
import { formToObject, keptValues, parseWith, type FieldErrors } from "./validation";

/**
 * What a form action answers when a submission fails: the page re-renders the form with the
 * message, the errors beside their fields and the values as typed (passwords dropped), so it
 * works without JavaScript. `toast` shows the message once when JavaScript runs, only for a
 * failure no field is named in: invalid fields have the error summary and the messages beside
 * them, and a toast saying it again would lie over the very fields it names. It is page data
 * (`data()`), never an /api answer: the status and Retry-After reach the document or the data
 * request as a Response's would.
 */
export interface FormFailure {
  error: string;
  status: number;
  fieldErrors: FieldErrors;
  values: Record<string, string>;
  toast?: { type: "error"; message: string };
  submittedAt: number;
}

export function formFailure(
  message: string,
  {
    status = 400,
    fieldErrors = {},
    values = {},
    retryAfterSeconds,
  }: { status?: number; fieldErrors?: FieldErrors; values?: Record<string, string>; retryAfterSeconds?: number } = {},
) {
  // Retry-After of an answer over a rate limit, or busy; a page route passes it on with retryAfterFromAction
  const headers = retryAfterSeconds ? { "Retry-After": String(retryAfterSeconds) } : undefined;
  const toast = Object.keys(fieldErrors).length ? undefined : { type: "error" as const, message };
  const shown = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, printable(value)]));
  return data<FormFailure>({ error: message, status, fieldErrors, values: shown, toast, submittedAt: Date.now() }, { status, headers });
}

/**
 * A refused value as the form shows it again: without the control characters (line breaks and
 * tabs kept) a field is refused for, which no HTML page may hold (a NUL, a bell); the message
 * beside the field says why they went.
 */
function printable(value: string): string {
  return value.replace(/(?![\t\n\r])\p{Cc}/gu, "");
}

/** A failed submission, as answerForm's `failed` is given it. */
export interface FailedForm {
  message: string;
  status: number;
  fieldErrors: FieldErrors;
  /** The model's refusal; absent when the form was unreadable or its fields invalid. */
  refusal?: DomainError;
}

interface FormSteps<S extends z.ZodType, R, F> {
  schema: S;
  /** The schema's input from the form (default: every text entry; repeated names as arrays). */
  input?: (form: FormData) => unknown;
  /** Fields the form always sends (blank when empty): a post without them is not this form. */
  requires?: readonly string[];
  /** The message when the body is not this form (default: FORM_UNREADABLE). */
  unreadable?: string;
  /** The summary above the form when fields are invalid (default: the first field's message). */
  invalid?: string;
  /** Field errors for a domain failure (default: its own, or its message beside its field). */
  fieldErrors?: (error: DomainError, values: Record<string, string>) => FieldErrors;
  /** The invalid fields as the form shows them (default: the schema's, by top-level name): a list's rows, say. */
  invalidFields?: (fieldErrors: FieldErrors, values: Record<string, string>) => FieldErrors;
  /** The model call; answers, usually with a redirect, else with page data (a domain error becomes the failure answer). */
  save: (data: z.infer<S>) => Promise<R>;
  /** The form already read (a multipart upload's text fields, its files spooled apart). */
  form?: FormData;
  /**
   * Values every failure answers with besides the typed ones: on a page of several forms they
   * tell which form failed when the form has no field saying so (a recognition page's upload,
   * whose multipart body holds only its files).
   */
  values?: Record<string, string>;
  /**
   * The answer to a failure, for a page that cannot show it as formFailure's form again (the
   * default): a list's row buttons have no fields to show a message beside, so they go back to
   * the list with it in a flash, and the course form keeps its list rows in a failure of its own.
   */
  failed?: (failure: FailedForm) => F | Promise<F>;
}

/**
 * One form submission, after the route's guard: read the form, parse it with its schema, call
 * the model, and answer with the model's redirect or with a failure the page renders (400 for
 * invalid fields, the domain error's own status otherwise). Anything else is a bug: rethrown.
 */
export async function answerForm<S extends z.ZodType, R, F = ReturnType<typeof formFailure>>(request: Request, steps: FormSteps<S, R, F>): Promise<F | R> {
  const unreadable = steps.unreadable ?? FORM_UNREADABLE;
  // the failure as formFailure's page data, or as the page's own answer to it
  const fail = (message: string, failure: Parameters<typeof formFailure>[1] = {}, refusal?: DomainError) =>
    steps.failed
      ? steps.failed({ message, status: failure.status ?? 400, fieldErrors: failure.fieldErrors ?? {}, refusal })
      : (formFailure(message, failure) as F);
  const form = steps.form ?? (await request.formData().catch(() => null));
  if (!form || !(steps.requires ?? []).every((name) => form.has(name))) return fail(unreadable, { values: steps.values });
  const values = { ...steps.values, ...keptValues(form) };
  const parsed = parseWith(steps.schema, (steps.input ?? formToObject)(form));
  // a form whose schema asks for a one-time token (schemas/form-token.ts) and came without one is
  // an old page's: the page says so above the form, where no hidden field can be pointed at
  if (!parsed.success && parsed.fieldErrors[FORM_TOKEN_FIELD]) return fail(FORM_TOKEN_MISSING, { values });
  if (!parsed.success) {
    if (!steps.invalidFields) return fail(steps.invalid ?? parsed.message, { fieldErrors: parsed.fieldErrors, values });
    // the form's own reading of its fields: the summary's message is its first
    const fieldErrors = steps.invalidFields(parsed.fieldErrors, values);
    return fail(steps.invalid ?? Object.values(fieldErrors)[0] ?? parsed.message, { fieldErrors, values });
  }
  try {
    return await steps.save(parsed.data);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const fieldErrors = steps.fieldErrors?.(error, values) ?? (error.field ? { [error.field]: error.message } : error.fieldErrors);
    return fail(error.message || unreadable, { status: error.status, fieldErrors, values, retryAfterSeconds: error.retryAfterSeconds }, error);
  }
}
