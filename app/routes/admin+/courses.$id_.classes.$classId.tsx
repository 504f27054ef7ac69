import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  cancelClass,
  classPeople,
  getClass,
  listClassTrainers,
  updateClass,
  listLocations,
  sessionRowsAnswer,
  redirectWithFlash,
  answerForm,
  formIntent,
  foundOr404,
  jsonResponse,
  clientAddress,
} from "~/routes/admin+/courses.$id_.classes.$classId.server";
import { ClassForm, classFormState } from "~/components/admin/class-form";
import { ClassPeopleLists } from "~/components/admin/class-people";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Alert, ConfirmAction, Modal } from "~/components/ui";
import { classFormSchema } from "~/schemas/class";
import { CLASS_CANCELLED, cancelClassWords, classDates, classSavedMessage, seatsTaken, seatsWording } from "~/schemas/class-text";
import { confirmationAnswer, isConfirmed } from "~/utils/confirm";
import { formatDateTime } from "~/utils/format";

async function loadClass(params: LoaderFunctionArgs["params"]) {
  const cls = await foundOr404(params.classId, (id) => getClass(getDb(), id), "Class not found");
  if (cls.course_id !== params.id) throw jsonResponse("Class not found", { status: 404 });
  return cls;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const db = getDb();
  const cls = await loadClass(params);
  return { cls, people: await classPeople(db, cls.id), trainers: await listClassTrainers(db), locations: await listLocations(db) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const cls = await loadClass(params);
  const db = getDb();
  const back = `/admin/courses/${cls.course_id}`;
  if ((await formIntent(request)) === "cancel") {
    // asked twice: the first post answers with the question (the page without JavaScript)
    if (!isConfirmed(await request.formData().catch(() => null))) return confirmationAnswer("cancel");
    await cancelClass(db, cls.id, { id: admin.id, client: clientAddress(request) });
    return redirectWithFlash(back, { type: "success", message: CLASS_CANCELLED });
  }
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  const rows = form ? sessionRowsAnswer(form) : null;
  if (rows) return rows;
  return answerForm(request, {
    schema: classFormSchema,
    unreadable: "Failed to save the class",
    save: async (input) => {
      const saved = await updateClass(db, cls.id, input, { id: admin.id, client: clientAddress(request) });
      const message = classSavedMessage({ from: cls.seats, to: saved.seats }, saved.offersMade, (iso) => formatDateTime(iso));
      return redirectWithFlash(back, { type: "success", message });
    },
  });
}

export default function EditClass() {
  const { cls, people, trainers, locations } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data && "toast" in data ? data : undefined);
  const closeTo = `/admin/courses/${cls.course_id}`;
  const confirming = data !== undefined && "confirm" in data && data.confirm === "cancel";
  const formData = data && !("confirm" in data) ? data : undefined;
  const enrolledNames = people.learners.filter((l) => l.status === "enrolled" || l.status === "in_progress").map((l) => l.full_name);
  const cancel = (
    <ConfirmAction
      intent="cancel"
      trigger="Cancel this class"
      title={`Cancel the class of ${classDates(cls.start_date, cls.end_date)}?`}
      confirmLabel="Yes, cancel the class"
      busyLabel="Cancelling..."
      keepLabel="Keep the class"
      confirming={confirming}
    >
      {cancelClassWords(enrolledNames.length, people.waitlist.length).map((line) => (
        <p key={line}>{line}</p>
      ))}
      {enrolledNames.length ? <p>Enrolled: {enrolledNames.join(", ")}.</p> : null}
      {people.waitlist.length ? <p>Waiting: {people.waitlist.map((w) => w.full_name).join(", ")}.</p> : null}
    </ConfirmAction>
  );
  return (
    <Modal title="Edit Class" closeTo={closeTo} size="lg">
      <p className="mb-4 text-sm text-steel-600">{`${classDates(cls.start_date, cls.end_date)} · ${seatsTaken(cls.seats, cls.seats_left)} · ${seatsWording(cls.seats_left)}`}</p>
      {cls.cancelled ? (
        <Alert tone="info">This class is cancelled.</Alert>
      ) : confirming ? (
        cancel
      ) : (
        <>
          <ClassForm
            key={formData?.submittedAt ?? "initial"}
            {...classFormState(formData, {
              sessions: cls.sessions.map((s) => ({ date: s.date, starts_at: s.starts_at, ends_at: s.ends_at })),
              location_id: cls.location_id ?? "",
              trainer_id: cls.trainer_id ?? "",
              seats: String(cls.seats),
            })}
            trainers={trainers}
            locations={locations}
            closeTo={closeTo}
            submitLabel="Save Class"
          />
          <div className="mt-6 border-t border-steel-100 pt-4">
            <p className="mb-2 text-sm text-steel-700">
              Cancelling takes the class off the catalogue; its learners keep their enrolment and are asked to choose another class. You are asked to confirm
              first.
            </p>
            {cancel}
          </div>
        </>
      )}
      <ClassPeopleLists people={people} />
    </Modal>
  );
}

export const meta: MetaFunction = () => [{ title: "Edit Class | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Edit Class" message="Failed to load the class" modalCloseTo="/admin/courses" />;
}
