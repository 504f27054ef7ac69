import { getDb } from "~/db.server";
import { getFileStore } from "~/files/store.server";
import { BadUpload, readUpload } from "~/files/upload.server";
import { addActivity } from "~/models/trainer-credential.server";
import { trainerActivitySchema } from "~/schemas/standards";
import { answerForm, formFailure } from "./form-action.server";

const UNREADABLE = "The form could not be read; please try again";

/**
 * The credential pages' activity form (multipart, for its optional evidence file): the file
 * streams to disk as it arrives, the text fields meet the same schema as /api's, and addActivity
 * keeps both. Answers like answerForm: `done` on success, else the failure the page shows.
 */
export async function answerActivityForm<R>(request: Request, trainerId: string, actor: { id: string; client?: string | null; role: "trainer" | "admin" }, done: () => R) {
  let read: Awaited<ReturnType<typeof readUpload>>;
  try {
    read = await readUpload(request);
  } catch (error) {
    if (error instanceof BadUpload) return formFailure(UNREADABLE);
    throw error;
  }
  try {
    return await answerForm(request, {
      unreadable: UNREADABLE,
      invalid: "Please correct the highlighted fields",
      form: read.form,
      schema: trainerActivitySchema,
      save: async (input) => {
        await addActivity(getDb(), trainerId, input, actor, new Date(), { store: getFileStore(), files: read.files, dir: read.dir, tooMany: read.tooMany });
        return done();
      },
    });
  } finally {
    read.dispose();
  }
}
