import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/auth/guards.server";
import { ClassForm } from "~/components/admin/class-form";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Alert, Modal, SubmitButton } from "~/components/ui";
import { getDb } from "~/db.server";
import { cancelClass, getClass, listClassTrainers, updateClass } from "~/models/class.server";
import { listLocations } from "~/models/location.server";
import { classFormSchema } from "~/schemas/class";
import { CLASS_CANCELLED, CLASS_UPDATED, classDates, seatsTaken, seatsWording, sessionsToText } from "~/schemas/class-text";
import { redirectWithFlash } from "~/utils/flash.server";
import { answerForm } from "~/utils/form-action.server";
import { foundOr404, jsonResponse } from "~/utils/http.server";
import { clientAddress } from "~/http/request-context.server";

async function loadClass(params: LoaderFunctionArgs["params"]) {
  const cls = await foundOr404(params.classId, (id) => getClass(getDb(), id), "Class not found");
  if (cls.course_id !== params.id) throw jsonResponse("Class not found", { status: 404 });
  return cls;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const db = getDb();
  return { cls: await loadClass(params), trainers: await listClassTrainers(db), locations: await listLocations(db) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const cls = await loadClass(params);
  const db = getDb();
  const back = `/admin/courses/${cls.course_id}`;
  const intent = (await request.clone().formData().catch(() => null))?.get("intent");
  if (intent === "cancel") {
    await cancelClass(db, cls.id, { id: admin.id, client: clientAddress(request) });
    return redirectWithFlash(back, { type: "success", message: CLASS_CANCELLED });
  }
  return answerForm(request, {
    schema: classFormSchema,
    unreadable: "Failed to save the class",
    save: async (input) => {
      await updateClass(db, cls.id, input, { id: admin.id, client: clientAddress(request) });
      return redirectWithFlash(back, { type: "success", message: CLASS_UPDATED });
    },
  });
}

export default function EditClass() {
  const { cls, trainers, locations } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const v = data?.values ?? {};
  const closeTo = `/admin/courses/${cls.course_id}`;
  return (
    <Modal title="Edit Class" closeTo={closeTo} size="lg">
      <p className="mb-4 text-sm text-steel-600">{`${classDates(cls.start_date, cls.end_date)} · ${seatsTaken(cls.seats, cls.seats_left)} · ${seatsWording(cls.seats_left)}`}</p>
      {cls.cancelled ? (
        <Alert tone="info">This class is cancelled.</Alert>
      ) : (
        <>
          <ClassForm
            key={data?.submittedAt ?? "initial"}
            values={{
              start_date: v.start_date ?? cls.start_date,
              end_date: v.end_date ?? cls.end_date,
              sessions: v.sessions ?? sessionsToText(cls.sessions),
              location_id: v.location_id ?? cls.location_id ?? "",
              trainer_id: v.trainer_id ?? cls.trainer_id ?? "",
              seats: v.seats ?? String(cls.seats),
            }}
            errors={data?.fieldErrors ?? {}}
            error={data?.error}
            trainers={trainers}
            locations={locations}
            closeTo={closeTo}
            submitLabel="Save Class"
          />
          <Form method="post" className="mt-6 border-t border-steel-100 pt-4">
            <p className="mb-2 text-sm text-steel-700">Cancelling takes the class off the catalogue and mails every learner enrolled or waiting.</p>
            <SubmitButton intent="cancel" variant="danger" busyLabel="Cancelling...">
              Cancel this class
            </SubmitButton>
          </Form>
        </>
      )}
    </Modal>
  );
}

export const meta: MetaFunction = () => [{ title: "Edit Class | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Edit Class" message="Failed to load the class" modalCloseTo="/admin/courses" />;
}
