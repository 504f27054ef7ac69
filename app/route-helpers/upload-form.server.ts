import type { z } from "zod";
import { getFileStore } from "~/files/store.server";
import type { FormUpload } from "~/files/intake.server";
import { BAD_UPLOAD_MESSAGE, BadUpload, readUpload } from "~/files/upload.server";
import type { DomainError } from "~/utils/errors";
import { answerForm, formFailure } from "~/utils/form-action.server";
import { FIX_HIGHLIGHTED_FIELDS, FORM_UNREADABLE } from "~/utils/form-text";
import type { FieldErrors } from "~/utils/validation";

/**
 * A page's form that carries a file (multipart): the file streams to disk as it arrives, the text
 * fields meet their schema, and `save` takes both to the model, which keeps the file in the
 * store. Answers like answerForm: `save`'s answer on success, else the failure the page shows;
 * the spooled files are removed either way.
 */
export async function answerUploadForm<S extends z.ZodType, R>(
  request: Request,
  steps: {
    schema: S;
    save: (input: z.infer<S>, upload: FormUpload) => Promise<R>;
    /** As answerForm's: the field errors of a refusal (default: its own, or its message beside its field). */
    fieldErrors?: (error: DomainError, values: Record<string, string>) => FieldErrors;
    /** As answerForm's: values every failure answers with, an upload too large to read included. */
    values?: Record<string, string>;
  },
) {
  let read: Awaited<ReturnType<typeof readUpload>>;
  try {
    read = await readUpload(request);
  } catch (error) {
    if (error instanceof BadUpload) return formFailure(BAD_UPLOAD_MESSAGE, { values: steps.values });
    throw error;
  }
  try {
    return await answerForm(request, {
      unreadable: FORM_UNREADABLE,
      invalid: FIX_HIGHLIGHTED_FIELDS,
      form: read.form,
      schema: steps.schema,
      fieldErrors: steps.fieldErrors,
      values: steps.values,
      save: (input) => steps.save(input, { store: getFileStore(), files: read.files, dir: read.dir, tooMany: read.tooMany }),
    });
  } finally {
    read.dispose();
  }
}
