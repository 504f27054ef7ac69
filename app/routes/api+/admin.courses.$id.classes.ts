import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { classForApi, classRequest, type ClassResponse } from "~/api/class-schemas";
import { getDb } from "~/db.server";
import { createClass } from "~/models/class.server";
import { clientAddress } from "~/http/request-context.server";

/** POST /api/admin/courses/{id}/classes → 201 with the new class (administrators; the add-class form's schema). */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const courseId = pathId(params, "Course");
    const input = parseInput(classRequest, await readJsonBody(request));
    const created = await createClass(getDb(), courseId, input, { id: admin.id, client: clientAddress(request) });
    return apiJson<ClassResponse>(classForApi(created), { status: 201, headers: { Location: `/api/courses/${courseId}/classes` } });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
