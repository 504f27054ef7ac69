import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute } from "~/api/http.server";
import type { ApiOperation } from "~/api/operation";

/**
 * GET /api/openapi.json → the OpenAPI 3.1 description of /api (public). The document is built
 * from every api.* route's `openapi`, this one's included, so it is loaded on first use rather
 * than imported (a static import would make the two modules wait on each other).
 */
const handle = apiRoute({
  GET: async () => {
    const { openApiDocument } = await import("~/api/openapi");
    return apiJson(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "get",
    path: "/api/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This document",
    description: "Anyone.",
    tags: ["meta"],
    access: "public",
    responses: { 200: { description: "The OpenAPI 3.1 document" } },
  },
];
