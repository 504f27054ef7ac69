import {
  foundOr404,
  requireRole,
  answerCourseForm,
  getDb,
  updateCourse,
  getCourse,
  redirectWithFlash,
  clientAddress,
} from "~/routes/admin+/courses.$id_.edit.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { RouteError } from "~/components/route-error";
import { CourseFields, courseStateFrom } from "~/components/admin/course-form";
import { useActionToast } from "~/components/toaster";
import { buttonClasses, ErrorSummary, Modal, SubmitButton } from "~/components/ui";
import { courseEditSchema } from "~/schemas/course";

export const COURSE_UPDATED = "Course updated successfully";
const UPDATE_FAILED = "Failed to update course";

function loadCourse(id: string | undefined) {
  return foundOr404(id, (courseId) => getCourse(getDb(), courseId), "Course not found");
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return { course: await loadCourse(params.id) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const course = await loadCourse(params.id);
  const stored = courseStateFrom(course);
  return answerCourseForm(request, {
    schema: courseEditSchema,
    stored: stored,
    unreadable: UPDATE_FAILED,
    save: async (input) => {
      await updateCourse(getDb(), course.id, input, { id: admin.id, client: clientAddress(request) });
      return redirectWithFlash(`/admin/courses${new URL(request.url).search}`, { type: "success", message: COURSE_UPDATED });
    },
  });
}

export default function EditCourse() {
  const { course } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  useActionToast(data);
  const state = data?.state ?? courseStateFrom(course);
  return (
    <Modal title="Edit Course" closeTo={`/admin/courses${search}`} size="lg">
      <Form method="post" action={`${pathname}${search}`} noValidate className="space-y-4" key={data?.submittedAt ?? "initial"}>
        <ErrorSummary failure={data} />
        <p className="text-sm text-steel-600">
          {course.unit_code} · {course.name}
        </p>
        <CourseFields mode="edit" state={state} errors={data?.fieldErrors ?? {}} version={data?.submittedAt ?? 0} focus={data?.focus ?? null} />
        <div className="flex flex-wrap justify-end gap-2 border-t border-steel-100 pt-4">
          <Link to={`/admin/courses${search}`} preventScrollReset className={buttonClasses("secondary")}>
            Cancel
          </Link>
          <SubmitButton intent="save" busyLabel="Saving...">
            Save Changes
          </SubmitButton>
        </div>
      </Form>
    </Modal>
  );
}

export const meta: MetaFunction = () => [{ title: "Edit Course | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Edit Course" message="Failed to load course details" modalCloseTo="/admin/courses" />;
}
