import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { attendanceRequest, rosterResponse } from "~/api/class-schemas";
import { type ApiOperation, err, FORBIDDEN, INVALID, MALFORMED, TOO_LARGE, UNAUTHENTICATED, WRONG_TYPE } from "~/api/operation";
import { getDb } from "~/db.server";
import { getRoster, markAttendance } from "~/models/attendance.server";
import { notFound } from "~/utils/errors";

/**
 * GET /api/classes/{id}/roster: the class's sessions and learners with their marks; POST marks
 * one learner on one session (present, absent or late). The class's trainer or an admin; any
 * other class is a 404.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request, "trainer", "admin");
    const roster = await getRoster(getDb(), pathId(params, "Class"), user);
    if (!roster) throw notFound("Class");
    return apiJson(roster);
  },
  POST: async ({ request, params }) => {
    const user = await requireApiUser(request, "trainer", "admin");
    const db = getDb();
    const classId = pathId(params, "Class");
    const input = parseInput(attendanceRequest, await readJsonBody(request));
    if (!(await getRoster(db, classId, user))?.sessions.some((s) => s.id === input.session_id)) throw notFound("Learner or session");
    await markAttendance(db, { ...input, user });
    return apiJson((await getRoster(db, classId, user))!);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

const common = { tags: ["trainer"], access: "required" as const };
export const openapi: ApiOperation[] = [
  {
    method: "get",
    path: "/api/classes/{id}/roster",
    operationId: "getClassRoster",
    summary: "A class's roster",
    description: "The class's trainer or an admin: sessions, learners and attendance marks.",
    ...common,
    responses: { 200: { description: "The roster", schema: rosterResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: err("No class of the caller has this id") },
  },
  {
    method: "post",
    path: "/api/classes/{id}/roster",
    operationId: "markAttendance",
    summary: "Mark attendance",
    description: "The class's trainer or an admin marks one learner on one session present, absent or late (again to change it). Two absences in a row notify the office.",
    ...common,
    body: attendanceRequest,
    bodyRequired: true,
    responses: {
      200: { description: "The roster after the mark", schema: rosterResponse },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No such session or learner in a class of the caller"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
];
