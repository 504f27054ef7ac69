import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute } from "~/api/http.server";
import { openApiDocument } from "~/api/openapi";

/** GET /api/openapi.json → the OpenAPI 3.1 description of /api (public), built once per process. */
const handle = apiRoute({
  GET: async () => apiJson(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } }),
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
