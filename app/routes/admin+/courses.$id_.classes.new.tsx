import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  createClass,
  listClassTrainers,
  getCourse,
  listLocations,
  redirectWithFlash,
  answerForm,
  sessionRowsAnswer,
  foundOr404,
  clientAddress,
} from "~/routes/admin+/courses.$id_.classes.new.server";
import { ClassForm, classFormState } from "~/components/admin/class-form";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Modal } from "~/components/ui";
import { classFormSchema } from "~/schemas/class";
import { CLASS_CREATED } from "~/schemas/class-text";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const db = getDb();
  const course = await foundOr404(params.id, (id) => getCourse(db, id), "Course not found");
  return {
    course: { id: course.id, name: course.name, unit_code: course.unit_code },
    trainers: await listClassTrainers(db),
    locations: await listLocations(db),
  };
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
