import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { enrollmentUpdateRequest, type TrainerEnrollmentResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { prepareCertificatePdf } from "~/pdf/certificate-pdf.server";
import { setPlannedDates, updateEnrollmentProgress } from "~/models/enrollment.server";
import { getEnrollmentForTrainer } from "~/models/trainer-students.server";
import { enrollmentUpdateSchema, plannedDatesSchema } from "~/schemas/enrollment-update";
import { notFound } from "~/utils/errors";

/**
 * PUT /api/enrollments/{id} `{status?, progress_percentage?, reopen?, planned_start_date?,
 * planned_end_date?}` → 200 with the enrolment. The planned dates go through the form's schema
 * (both together, real dates, the end not before the start) and setPlannedDates; a body with
 * only planned dates leaves status and progress alone.
 * Trainers and administrators. A field left out keeps its current value; the result goes
 * through the trainer's form schema (status and progress agree) and model
 * (updateEnrollmentProgress: the transitions, a passed assessment before completing, the
 * certificate issued on completion when the USI is verified, which is then mailed).
 */
const handle = apiRoute({
  PUT: async ({ request, params }) => {
    const user = await requireApiUser(request, "trainer", "admin");
    const id = pathId(params, "Enrolment");
    const body = parseInput(enrollmentUpdateRequest, await readJsonBody(request));
    const db = getDb();
    const current = await getEnrollmentForTrainer(db, id);
    if (!current) throw notFound("Enrolment");
    const datesGiven = body.planned_start_date !== undefined || body.planned_end_date !== undefined;
    const progressGiven = body.status !== undefined || body.progress_percentage !== undefined || body.reopen !== undefined;
    const dates = datesGiven ? parseInput(plannedDatesSchema, { planned_start_date: body.planned_start_date, planned_end_date: body.planned_end_date }) : null;
    const input = parseInput(enrollmentUpdateSchema, {
      status: body.status ?? current.status,
      progress: body.progress_percentage ?? current.progress_percentage,
      reopen: body.reopen ?? false,
    });
    if (dates) await setPlannedDates(db, { enrollmentId: id, start: dates.planned_start_date, end: dates.planned_end_date, actorId: user.id });
    if (!progressGiven && dates) return apiJson<TrainerEnrollmentResponse>((await getEnrollmentForTrainer(db, id))!);
    const result = await updateEnrollmentProgress(db, { enrollmentId: id, ...input, actorId: user.id });
    if (result.issuedCertificate) void prepareCertificatePdf(db, result.issuedCertificate.id);
    return apiJson<TrainerEnrollmentResponse>(result.enrollment);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
