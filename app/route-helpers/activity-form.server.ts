import { getDb } from "~/db.server";
import { addActivity } from "~/models/standards/trainer-credential.server";
import { trainerActivitySchema } from "~/schemas/standards";
import { answerUploadForm } from "./upload-form.server";

/**
 * The credential pages' activity form (multipart, for its optional evidence file): the text
 * fields meet the same schema as /api's, and addActivity keeps both. Answers like answerForm:
 * `done` on success, else the failure the page shows.
 */
export function answerActivityForm<R>(
  request: Request,
  trainerId: string,
  actor: { id: string; client?: string | null; role: "trainer" | "admin" },
  done: () => R,
) {
  return answerUploadForm(request, {
    schema: trainerActivitySchema,
    save: async (input, upload) => {
      await addActivity(getDb(), trainerId, input, actor, new Date(), upload);
      return done();
    },
  });
}
