import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { classForApi, classResponse, classUpdateRequest, type ClassResponse } from "~/api/class-schemas";
import { type ApiOperation, err, FORBIDDEN, INVALID, MALFORMED, TOO_LARGE, UNAUTHENTICATED, WRONG_TYPE } from "~/api/operation";
import { getDb } from "~/db.server";
import { mailClassCancelled } from "~/mail/class-schedule.server";
import { cancelClass, getClass, updateClass } from "~/models/class.server";
import { notFound } from "~/utils/errors";

/**
 * PUT /api/admin/classes/{id}: a partial change (the edit form's schema). DELETE cancels the
 * class and mails its learners (the class stays on record, cancelled). Administrators only.
 */
const handle = apiRoute({
  PUT: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Class");
    const patch = parseInput(classUpdateRequest, await readJsonBody(request));
    const db = getDb();
    if (Object.keys(patch).length === 0) {
      const current = await getClass(db, id);
      if (!current) throw notFound("Class");
      return apiJson<ClassResponse>(classForApi(current));
    }
    return apiJson<ClassResponse>(classForApi(await updateClass(db, id, patch, admin.id)));
  },
  DELETE: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Class");
    const db = getDb();
    const current = await getClass(db, id);
    if (!current) throw notFound("Class");
    mailClassCancelled(await cancelClass(db, id, admin.id), current.course_id);
    return new Response(null, { status: 204 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

export const openapi: ApiOperation[] = [
  {
    method: "put",
    path: "/api/admin/classes/{id}",
    operationId: "updateClass",
    summary: "Change a class",
    description: "Administrators. Fields left out stay as they are. New dates become the planned dates of the class's enrolments; seats never drop below the learners holding them.",
    tags: ["admin"],
    access: "required",
    body: classUpdateRequest,
    bodyRequired: true,
    responses: {
      200: { description: "The class", schema: classResponse },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No class has this id"),
      409: err("Fewer seats than learners, or the class is cancelled"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
  {
    method: "delete",
    path: "/api/admin/classes/{id}",
    operationId: "cancelClass",
    summary: "Cancel a class",
    description: "Administrators. The class leaves the catalogue and every enrolled or waiting learner is mailed.",
    tags: ["admin"],
    access: "required",
    responses: {
      204: { description: "Cancelled" },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No class has this id"),
      409: err("Already cancelled"),
    },
  },
];
