import { foundOr404, requireRole, getDb, getCourseDetail, listCourseClasses } from "~/routes/admin+/courses.$id.server";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { RouteError } from "~/components/route-error";
import { ActiveBadge, StatusBadge, TierBadge } from "~/components/status-badges";
import { buttonClasses, Modal, ProgressBar } from "~/components/ui";
import { CourseClasses } from "~/components/admin/course-classes";
import { ModalSection } from "~/components/admin/modal-section";
import { formatDate, formatPrice } from "~/utils/format";
import { GST_TREATMENTS } from "~/schemas/invoice-text";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const detail = await foundOr404(params.id, (id) => getCourseDetail(getDb(), id), "Course not found");
  return { ...detail, classes: await listCourseClasses(getDb(), detail.course.id) };
}

function List({ items, empty }: { items: string[]; empty: string }) {
  if (items.length === 0) return <p className="text-sm text-steel-600">{empty}</p>;
  return (
    <ul className="list-disc space-y-1 pl-5 text-sm text-steel-800">
      {items.map((item, i) => (
        <li key={i}>{item}</li>
      ))}
    </ul>
  );
}

export default function CourseDetails() {
  const { course, statistics, recent_enrollments, classes } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  return (
    <Modal title="Course Details" closeTo={`/admin/courses${search}`} size="lg">
      <div className="space-y-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <div className="flex flex-wrap gap-2">
              <TierBadge tier={course.tier} />
              <ActiveBadge active={course.is_active} />
            </div>
            <p className="mt-2 text-xl font-bold text-steel-900">{course.name}</p>
            <p className="text-sm text-steel-600">
              {course.unit_code} · {course.duration_hours} hours · {formatPrice(course.price)}
            </p>
          </div>
          <Link to={`/admin/courses/${course.id}/edit${search}`} preventScrollReset className={buttonClasses("secondary", "sm")}>
            Edit<span className="sr-only"> {course.name}</span>
          </Link>
        </div>
        <p className="text-sm text-steel-800">{course.description}</p>
        <ModalSection title="National register (AVETMISS)">
          <dl className="grid gap-2 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
            <dt className="font-semibold text-steel-600">Official unit title</dt>
            <dd className="text-steel-900">{course.official_title ?? "Not recorded: the AVETMISS export cannot report this unit until it is"}</dd>
            <dt className="font-semibold text-steel-600">Field of education</dt>
            <dd className="text-steel-900">{course.field_of_education ?? "Not recorded"}</dd>
            <dt className="font-semibold text-steel-600">VET</dt>
            <dd className="text-steel-900">{course.vet_flag ? "Yes" : "No"}</dd>
            <dt className="font-semibold text-steel-600">GST</dt>
            <dd className="text-steel-900">{GST_TREATMENTS[course.gst_treatment]}</dd>
            <dt className="font-semibold text-steel-600">Pre-enrolment review</dt>
            <dd className="text-steel-900">{course.review_required ? `Required; a retake after ${course.review_retake_days} days` : "Not required"}</dd>
          </dl>
        </ModalSection>

        <ModalSection title="Statistics">
          <dl className="grid grid-cols-2 gap-3">
            <div className="rounded-md bg-steel-50 p-3">
              <dt className="text-xs font-semibold text-steel-600">Total Enrolments</dt>
              <dd className="text-2xl font-bold tabular-nums text-steel-900">{statistics.total_enrollments}</dd>
            </div>
            <div className="rounded-md bg-steel-50 p-3">
              <dt className="text-xs font-semibold text-steel-600">Completion Rate</dt>
              <dd className="text-2xl font-bold tabular-nums text-steel-900">{statistics.completion_rate}%</dd>
            </div>
          </dl>
        </ModalSection>

        <ModalSection title="Classes">
          <CourseClasses courseId={course.id} classes={classes} />
        </ModalSection>

        <ModalSection title="Recent Enrolments">
          {recent_enrollments.length === 0 ? (
            <p className="rounded-md bg-steel-50 px-3 py-4 text-center text-sm text-steel-600">No enrolments yet</p>
          ) : (
            <ul className="divide-y divide-steel-100">
              {recent_enrollments.map((e) => (
                <li key={e.id} className="py-2">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <div>
                      <p className="text-sm font-semibold text-steel-900">{e.student_name}</p>
                      <p className="break-all text-xs text-steel-600">
                        {e.student_email} · Enrolled {formatDate(e.enrollment_date)}
                      </p>
                    </div>
                    <StatusBadge status={e.status} />
                  </div>
                  <div className="mt-1">
                    <ProgressBar value={e.progress_percentage} label={`Progress of ${e.student_name}`} />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </ModalSection>

        <div className="grid gap-5 sm:grid-cols-2">
          <ModalSection title="Learning Outcomes">
            <List items={course.learning_outcomes} empty="No learning outcomes listed" />
          </ModalSection>
          <ModalSection title="Assessment Criteria">
            <List items={course.assessment_criteria} empty="No assessment criteria listed" />
          </ModalSection>
        </div>
        <ModalSection title="Prerequisites">
          <List items={course.prerequisites} empty="No prerequisites" />
        </ModalSection>
      </div>
    </Modal>
  );
}

export const meta: MetaFunction = () => [{ title: "Course Details | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Course Details" message="Failed to load course details" modalCloseTo="/admin/courses" />;
}
