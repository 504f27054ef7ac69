import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLocation } from "@remix-run/react";
import { requireRole, answerCourseForm, getDb, createCourse, redirectWithFlash, clientAddress } from "~/routes/admin+/courses.new.server";
import { CourseFields } from "~/components/admin/course-form";
import { EMPTY_COURSE_STATE } from "~/schemas/course-form";
import { useActionToast } from "~/components/toaster";
import { buttonClasses, ErrorSummary, Modal, SubmitButton } from "~/components/ui";
import { courseCreateSchema } from "~/schemas/course";

export const COURSE_CREATED = "Course created successfully";
const CREATE_FAILED = "Failed to create course";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  return answerCourseForm(request, {
    schema: courseCreateSchema,
    stored: EMPTY_COURSE_STATE,
    unreadable: CREATE_FAILED,
    save: async (input) => {
      const course = await createCourse(getDb(), input, { id: admin.id, client: clientAddress(request) });
      return redirectWithFlash(`/admin/courses/${course.id}`, { type: "success", message: COURSE_CREATED });
    },
  });
}

export default function AddCourse() {
  const data = useActionData<typeof action>();
  const { search } = useLocation();
  useActionToast(data);
  return (
    <Modal title="Add Course" closeTo={`/admin/courses${search}`} size="lg">
      <Form method="post" action={`/admin/courses/new${search}`} noValidate className="space-y-4" key={data?.submittedAt ?? "initial"}>
        <ErrorSummary failure={data} />
        <p className="text-sm text-steel-600">Adds a unit of competency to the catalogue. Active courses appear on the public course list at once.</p>
        <CourseFields
          mode="create"
          state={data?.state ?? EMPTY_COURSE_STATE}
          errors={data?.fieldErrors ?? {}}
          version={data?.submittedAt ?? 0}
          focus={data?.focus ?? null}
        />
        <div className="flex flex-wrap justify-end gap-2 border-t border-steel-100 pt-4">
          <Link to={`/admin/courses${search}`} preventScrollReset className={buttonClasses("secondary")}>
            Cancel
          </Link>
          <SubmitButton intent="save" busyLabel="Creating...">
            Create Course
          </SubmitButton>
        </div>
      </Form>
    </Modal>
  );
}

export const meta: MetaFunction = () => [{ title: "Add Course | Summit Crane & Rigging Training" }];
