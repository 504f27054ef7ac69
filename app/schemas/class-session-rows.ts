/**
 * The class form's session rows without zod (app/schemas/class.ts validates them): the form's
 * component reads the field ids and row shape in the browser, where no validation library goes.
 */

/** Field ids of the session rows (the error summary links to them). */
export const sessionFieldId = (field: "session_date" | "session_start" | "session_end", row: number) => `${field}-${row}`;

/** The rows of the sessions fieldset, typed as the form sends them (blank rows included). */
export interface SessionRow {
  date: string;
  starts_at: string;
  ends_at: string;
}

/** The rows of a submitted form, blank ones kept (the form is shown again as typed). */
export function sessionRows(form: { session_date?: string[]; session_start?: string[]; session_end?: string[] }): SessionRow[] {
  const count = Math.max(form.session_date?.length ?? 0, form.session_start?.length ?? 0, form.session_end?.length ?? 0);
  return Array.from({ length: count }, (_, i) => ({
    date: form.session_date?.[i]?.trim() ?? "",
    starts_at: form.session_start?.[i]?.trim() ?? "",
    ends_at: form.session_end?.[i]?.trim() ?? "",
  }));
}
