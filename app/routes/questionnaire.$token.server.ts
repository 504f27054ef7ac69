/**
 * What questionnaire.$token.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { data } from "@remix-run/node";
export { getDb } from "~/db.server";
export { clientAddress } from "~/http/request-context.server";
export { questionnaireForToken, submitQuestionnaire } from "~/models/standards/questionnaire.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm } from "~/utils/form-action.server";
export { retryAfterFromAction } from "~/utils/http.server";
export { postedAnswersSchema } from "~/schemas/questionnaire";
