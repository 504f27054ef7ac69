import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { classForApi, classUpdateRequest, type ClassResponse } from "~/api/class-schemas";
import { getDb } from "~/db.server";
import { cancelClass, getClass, updateClass } from "~/models/class.server";
import { notFound } from "~/utils/errors";
import { clientAddress } from "~/http/request-context.server";

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
    return apiJson<ClassResponse>(classForApi(await updateClass(db, id, patch, { id: admin.id, client: clientAddress(request) })));
  },
  DELETE: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Class");
    const db = getDb();
    const current = await getClass(db, id);
    if (!current) throw notFound("Class");
    await cancelClass(db, id, { id: admin.id, client: clientAddress(request) });
    return new Response(null, { status: 204 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
