import { clientAddress } from "~/http/request-context.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { type StudentContactDetailResponse, type StudentDetailResponse, studentUpdateRequest, type UserResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { readsSensitive, studentDetailFor } from "~/models/personal-data.server";
import { getStudentDetail, updateStudent } from "~/models/student.server";
import { notFound } from "~/utils/errors";

/**
 * GET /api/admin/students/{id} → the student's record, enrolments and certificates.
 * PUT /api/admin/students/{id} → a partial update with the Edit Student schema; returns the
 * updated student. Deactivating ends the student's sessions and tokens at once (updateStudent).
 * GET: trainers and administrators, each reading what the privacy rule lets them
 * (personal-data.server.ts); PUT: administrators. An unknown or malformed id is a 404.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const reader = await requireApiUser(request, "trainer", "admin");
    // an administrator's answer carries the USI: that view is audited (a trainer's never does)
    const shownTo = readsSensitive(reader, "") ? { id: reader.id, client: clientAddress(request) } : undefined;
    const detail = await getStudentDetail(getDb(), pathId(params, "Student"), shownTo);
    if (!detail) throw notFound("Student");
    return apiJson<StudentDetailResponse | StudentContactDetailResponse>(studentDetailFor(reader, detail));
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
    return apiJson<UserResponse>(await updateStudent(db, id, patch, { id: admin.id, client: clientAddress(request) }));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
