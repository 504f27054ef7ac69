import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, Outlet, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { requireRole, getDb, listAllCourses, updateCourse, redirectWithFlash, clientAddress, answerForm } from "~/routes/admin+/courses.server";
import { ActiveBadge, TierBadge } from "~/components/status-badges";
import { PageTitle } from "~/components/portal-shell";
import { RowActionButton } from "~/components/admin/row-action-button";
import { ButtonLink, Card, ConfirmAction, EmptyState } from "~/components/ui";
import { courseListStatus, courseToggleSchema } from "~/schemas/page-queries";
import { cn } from "~/utils/cn";
import { confirmationAnswer, requestConfirmed } from "~/utils/confirm";
import { formatPrice } from "~/utils/format";
import { RouteError } from "~/components/route-error";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const status = courseListStatus.parse(new URL(request.url).searchParams.get("status") ?? "all");
  const courses = await listAllCourses(getDb(), { status });
  return { courses, status };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const back = `/admin/courses${new URL(request.url).search}`;
  const confirmed = await requestConfirmed(request);
  return answerForm(request, {
    schema: courseToggleSchema,
    // a row's button has no field to show a message beside: any failure is one flash on the list
    failed: () => redirectWithFlash(back, { type: "error", message: "Failed to update course status" }),
    save: async ({ course_id, is_active }) => {
      // deactivating is asked twice: the first post answers with the question (the page without JavaScript)
      if (!is_active && !confirmed) return { ...confirmationAnswer("deactivate"), course_id };
      const course = await updateCourse(getDb(), course_id, { is_active }, { id: admin.id, client: clientAddress(request) });
      return redirectWithFlash(back, {
        type: "success",
        message: course.is_active ? "Course activated successfully" : "Course deactivated successfully",
      });
    },
  });
}

/** Closing a course to enrolment, asked twice: it names the course and what closing it stops. */
function DeactivateCourse({ course, confirming }: { course: { id: string; name: string; unit_code: string }; confirming: boolean }) {
  return (
    <ConfirmAction
      intent="toggle"
      fields={{ course_id: course.id, is_active: "false" }}
      trigger="Deactivate"
      triggerLabel={`Deactivate ${course.name}`}
      triggerVariant="secondary"
      triggerSize="sm"
      title={`Deactivate ${course.name}?`}
      confirmLabel="Yes, deactivate"
      busyLabel="Updating..."
      keepLabel="Keep the course open"
      confirming={confirming}
    >
      <p>{`${course.name} (${course.unit_code}) leaves the public catalogue and takes no new enrolments. Its classes, enrolled learners and records stay; you can activate it again later.`}</p>
    </ConfirmAction>
  );
}

const FILTERS = [
  { value: "all", label: "All courses" },
  { value: "active", label: "Active" },
  { value: "inactive", label: "Inactive" },
] as const;

export default function CourseManagement() {
  const { courses, status } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const asked = useActionData<typeof action>();
  const confirmFor = asked && "confirm" in asked ? courses.find((c) => c.id === asked.course_id) : undefined;
  return (
    <>
      <PageTitle
        title="Course Management"
        subtitle="The training catalogue: open, close and edit units"
        actions={
          <ButtonLink to={`/admin/courses/new${search}`} preventScrollReset>
            Add Course
          </ButtonLink>
        }
      />
      {confirmFor ? (
        <div className="mb-4">
          <DeactivateCourse course={confirmFor} confirming />
        </div>
      ) : null}
      <nav aria-label="Course status" className="mb-4">
        <ul className="flex flex-wrap gap-2">
          {FILTERS.map((f) => (
            <li key={f.value}>
              <Link
                to={f.value === "all" ? "/admin/courses" : `/admin/courses?status=${f.value}`}
                aria-current={status === f.value ? "page" : undefined}
                className={cn(
                  "inline-block rounded-full border px-3 py-1.5 text-sm font-semibold",
                  status === f.value ? "border-steel-800 bg-steel-800 text-white" : "border-steel-300 bg-white text-steel-700 hover:bg-steel-100",
                )}
              >
                {f.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {courses.length === 0 ? (
        <EmptyState title="No courses found" />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {courses.map((c) => (
            <li key={c.id}>
              <Card className={cn("flex h-full flex-col p-4", !c.is_active && "bg-steel-50")}>
                <div className="flex items-center justify-between gap-2">
                  <TierBadge tier={c.tier} />
                  <ActiveBadge active={c.is_active} />
                </div>
                <h2 className="mt-3 text-base font-bold leading-snug text-steel-900">{c.name}</h2>
                <p className="text-xs font-semibold text-steel-500">{c.unit_code}</p>
                <p className="mt-2 line-clamp-3 flex-1 text-sm text-steel-700">{c.description}</p>
                <dl className="mt-3 flex gap-4 text-sm">
                  <div>
                    <dt className="sr-only">Duration</dt>
                    <dd className="font-semibold text-steel-800">{c.duration_hours} hours</dd>
                  </div>
                  <div>
                    <dt className="sr-only">Price</dt>
                    <dd className="font-semibold text-steel-800">{formatPrice(c.price)}</dd>
                  </div>
                </dl>
                <div className="mt-4 flex flex-wrap items-center gap-2 border-t border-steel-100 pt-3">
                  {c.is_active ? (
                    <DeactivateCourse course={c} confirming={false} />
                  ) : (
                    <Form method="post" action={`/admin/courses${search}`} preventScrollReset>
                      <input type="hidden" name="course_id" value={c.id} />
                      <input type="hidden" name="is_active" value="true" />
                      <RowActionButton
                        intent="toggle"
                        recordField="course_id"
                        recordId={c.id}
                        variant="primary"
                        busyLabel="Updating..."
                        aria-label={`Activate ${c.name}`}
                      >
                        Activate
                      </RowActionButton>
                    </Form>
                  )}
                  <Link
                    to={`/admin/courses/${c.id}/edit${search}`}
                    preventScrollReset
                    className="inline-flex min-h-11 items-center rounded-md px-3 py-1.5 text-sm font-semibold text-hivis-800 hover:bg-hivis-50"
                  >
                    Edit<span className="sr-only"> {c.name}</span>
                  </Link>
                  <Link
                    to={`/admin/courses/${c.id}${search}`}
                    preventScrollReset
                    className="inline-flex min-h-11 items-center rounded-md px-3 py-1.5 text-sm font-semibold text-steel-800 hover:bg-steel-100"
                  >
                    View<span className="sr-only"> {c.name}</span>
                  </Link>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <Outlet />
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Course Management | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Course Management" message="Failed to load courses" />;
}
