import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { attendanceRequest } from "~/api/class-schemas";
import { getDb } from "~/db.server";
import { getRoster, markAttendance } from "~/models/attendance.server";
import { notFound } from "~/utils/errors";
import { clientAddress } from "~/http/request-context.server";

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
    await markAttendance(db, { ...input, user, client: clientAddress(request) });
    return apiJson((await getRoster(db, classId, user))!);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
