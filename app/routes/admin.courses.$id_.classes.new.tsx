import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/auth/guards.server";
import { ClassForm, classFormState } from "~/components/admin/class-form";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Modal } from "~/components/ui";
import { getDb } from "~/db.server";
import { createClass, listClassTrainers } from "~/models/class.server";
import { getCourse } from "~/models/course.server";
import { listLocations } from "~/models/location.server";
import { classFormSchema } from "~/schemas/class";
import { CLASS_CREATED } from "~/schemas/class-text";
import { redirectWithFlash } from "~/utils/flash.server";
import { answerForm } from "~/utils/form-action.server";
import { sessionRowsAnswer } from "~/utils/class-form-action.server";
import { foundOr404 } from "~/utils/http.server";
import { clientAddress } from "~/http/request-context.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const db = getDb();
  const course = await foundOr404(params.id, (id) => getCourse(db, id), "Course not found");
  return { course: { id: course.id, name: course.name, unit_code: course.unit_code }, trainers: await listClassTrainers(db), locations: await listLocations(db) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const db = getDb();
  const course = await foundOr404(params.id, (id) => getCourse(db, id), "Course not found");
  const rows = sessionRowsAnswer(await request.clone().formData());
  if (rows) return rows;
  return answerForm(request, {
    schema: classFormSchema,
    unreadable: "Failed to add the class",
    save: async (input) => {
      await createClass(db, course.id, input, { id: admin.id, client: clientAddress(request) });
      return redirectWithFlash(`/admin/courses/${course.id}`, { type: "success", message: CLASS_CREATED });
    },
  });
}

export default function NewClass() {
  const { course, trainers, locations } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  return (
    <Modal title="Add Class" closeTo={`/admin/courses/${course.id}`} size="lg">
      <p className="mb-4 text-sm text-steel-600">
        {course.unit_code} · {course.name}
      </p>
      <ClassForm
        key={data?.submittedAt ?? "initial"}
        {...classFormState(data, { sessions: [], location_id: locations[0]?.id ?? "", trainer_id: "", seats: "8" })}
        trainers={trainers}
        locations={locations}
        closeTo={`/admin/courses/${course.id}`}
        submitLabel="Add Class"
      />
    </Modal>
  );
}

export const meta: MetaFunction = () => [{ title: "Add Class | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Add Class" message="Failed to load the course" modalCloseTo="/admin/courses" />;
}
