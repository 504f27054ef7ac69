import { clientAddress } from "~/http/request-context.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import {
  type StudentContactDetailResponse,
  studentDetailAsReadResponse,
  type StudentDetailResponse, studentUpdateRequest, type UserResponse, userResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { readsSensitive, studentDetailFor } from "~/models/personal-data.server";
import { getStudentDetail, updateStudent } from "~/models/student.server";
import { notFound } from "~/utils/errors";
import { type ApiOperation, err, FORBIDDEN, INVALID, MALFORMED, TOO_LARGE, UNAUTHENTICATED, WRONG_TYPE } from "~/api/operation";

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

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "get",
    path: "/api/admin/students/{id}",
    operationId: "getStudent",
    summary: "Student detail",
    description:
      "Administrators: the student with their AVETMISS enrolment details, enrolments, certificates, files, assessments and a summary. Trainers: the student's contact fields and `usi_status`, with the enrolments, certificates, assessments and summary (no USI, date of birth, address, emergency contact, licence number, AVETMISS details or files).",
    tags: ["admin"],
    access: "required",
    responses: {
      200: { description: "The student detail, as the caller's role may read it", schema: studentDetailAsReadResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No student has this id"),
    },
  },
  {
    method: "put",
    path: "/api/admin/students/{id}",
    operationId: "updateStudent",
    summary: "Update a student (partial)",
    description:
      "Administrators. Fields left out stay as they are. Deactivating (is_active false) ends the student's sessions and tokens at once.",
    tags: ["admin"],
    access: "required",
    body: studentUpdateRequest,
    bodyRequired: true,
    responses: {
      200: { description: "The updated student", schema: userResponse },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No student has this id"),
      409: err("Another account already uses this email"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
];
