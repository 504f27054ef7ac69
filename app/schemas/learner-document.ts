import { z } from "zod";
import { requiredText } from "./fields";

/** The words of a learner's documents, shared by the form, the model and the /api. */
export const LEARNER_DOCUMENT_MESSAGES = {
  oneFile: "Choose one file to upload.",
  uploaded: (name: string) => `${name} uploaded`,
} as const;

/** The office's upload of a learner's document: what it is (the file comes with it, multipart). */
export const learnerDocumentSchema = z.object({
  description: requiredText("Description", 200),
});

export type LearnerDocumentInput = z.infer<typeof learnerDocumentSchema>;
