import type { z } from "zod";

export type FieldErrors = Record<string, string>;

export type ParseResult<T> = { success: true; data: T } | { success: false; fieldErrors: FieldErrors; message: string };

export interface ParseOptions {
  /**
   * The /api's reading: a message not tied to a field is keyed `body` (not `form`), and an
   * unknown field (refused by a strict schema) is named in the summary message.
   */
  strict?: boolean;
}

const UNKNOWN_FIELD = "Unknown field";

/** The first message for each field, keyed by its top-level name; each unknown field gets its own entry. */
export function fieldErrorsOf(error: z.ZodError, options: ParseOptions = {}): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) errors[key] ??= UNKNOWN_FIELD;
      continue;
    }
    const key = issue.path.length ? String(issue.path[0]) : options.strict ? "body" : "form";
    errors[key] ??= issue.message;
  }
  return errors;
}

/** Parses any input (form entries, a query or a JSON body) with a schema; never throws. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, options: ParseOptions = {}): ParseResult<z.infer<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { success: true, data: result.data };
  const fieldErrors = fieldErrorsOf(result.error, options);
  const [field, first] = Object.entries(fieldErrors)[0] ?? ["form", "Invalid input"];
  const message = first === UNKNOWN_FIELD ? `${UNKNOWN_FIELD}: ${field}` : first;
  return { success: false, fieldErrors, message };
}

/** Form data as a plain object; repeated names become arrays, files are ignored. */
export function formToObject(form: FormData): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value !== "string") continue;
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else out[key] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/** Submitted values to re-render a form with, passwords dropped; ticked boxes of one name joined by commas. */
export function keptValues(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value === "string" && !/password/i.test(key)) out[key] = key in out ? `${out[key]},${value}` : value;
  }
  return out;
}
