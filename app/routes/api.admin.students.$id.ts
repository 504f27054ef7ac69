import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { studentUpdateRequest, type StudentDetailResponse, type UserResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { getStudentDetail, updateStudent } from "~/models/student.server";
import { notFound } from "~/utils/errors";

/**
 * GET /api/admin/students/{id} → the student detail response (spec section 3).
 * PUT /api/admin/students/{id} → a partial update with the Edit Student schema; returns the
 * updated student. Deactivating ends the student's sessions and tokens at once (updateStudent).
 * Administrators only; an unknown or malformed id is a 404.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiUser(request, "admin");
    const detail = await getStudentDetail(getDb(), pathId(params, "Student"));
    if (!detail) throw notFound("Student");
    return apiJson<StudentDetailResponse>(detail);
  },
  PUT: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Student");
    const patch = parseInput(studentUpdateRequest, await readJsonBody(request));
    const db = getDb();
    if (Object.keys(patch).length === 0) {
      // nothing to change: answer with the record as it stands, and write nothing
      const detail = await getStudentDetail(db, id);
      if (!detail) throw notFound("Student");
      return apiJson<UserResponse>(detail.student);
    }
    return apiJson<UserResponse>(await updateStudent(db, id, patch, admin.id));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
