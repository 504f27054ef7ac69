import { type ApiOperation, BODY_FAILURES, err, FORBIDDEN, UNAUTHENTICATED } from "../operation";
import { courseDetailResponse, courseResponse, courseUpdateRequest } from "../schemas";

/** How the OpenAPI document describes the courses calls. */
export const coursesOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/courses",
    operationId: "listCourses",
    summary: "Course list",
    description:
      "Anyone. Without credentials, and for students, the active courses only; trainers and administrators get every course with its is_active. Ordered by tier then name.",
    tags: ["courses"],
    access: "optional",
    responses: { 200: { description: "The courses", schema: courseResponse, array: true } },
  },
  {
    method: "get",
    path: "/api/admin/courses/{id}",
    operationId: "getCourse",
    summary: "Course detail",
    description: "Administrators. The course with its enrolment figures and five most recent enrolments.",
    tags: ["admin"],
    access: "required",
    responses: {
      200: { description: "The course detail", schema: courseDetailResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No course has this id"),
    },
  },
  {
    method: "put",
    path: "/api/admin/courses/{id}",
    operationId: "updateCourse",
    summary: "Update a course (partial)",
    description:
      "Administrators. Fields left out stay as they are; the status toggle sends only is_active. Blank list entries are dropped. " +
      "duration_hours, price and rpl_fee (the fee per unit invoiced when a learner applies for RPL, 0 for none) are numbers (or numeric strings): an empty, negative or non-numeric value is a 422 naming the field, and duration_hours " +
      "(the unit's nominal hours, reported to NCVER) must be more than 0. official_title is the unit's title on the national register, " +
      "reported as NAT00060's subject name (at most 100 characters; empty or null clears it).",
    tags: ["admin"],
    access: "required",
    body: courseUpdateRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      200: { description: "The updated course", schema: courseResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No course has this id"),
    },
  },
];
