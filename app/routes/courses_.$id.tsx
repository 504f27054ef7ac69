import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { getOptionalUser, getDb, organisation, publicCoursePage, courseOverview } from "~/routes/courses_.$id.server";
import { SessionList } from "~/components/class-sessions";
import { CourseOverview } from "~/components/course/course-overview";
import { SiteFooter } from "~/components/landing/site-footer";
import { RouteError } from "~/components/route-error";
import { SiteHeader } from "~/components/site-header";
import { buttonClasses } from "~/components/ui";
import { classDates, seatsWording } from "~/schemas/class-text";
import { courseIdField } from "~/schemas/enrollment";
import { LICENCE_CLASSES } from "~/schemas/hrw-codes";
import { RefundPolicyTerms } from "~/components/finance/refund-policy-terms";
import { enrolPath, reviewPath } from "~/utils/course-links";
import { withReturn } from "~/utils/safe-redirect";
import { formatPrice } from "~/utils/format";

/**
 * A course's public page: what it teaches, its coming classes with their sessions and seats, its
 * fee, the licence it leads to and the refund policy. Anyone may read it; a visitor's copy is
 * kept by the page cache like the catalogue's. "Sign up and enrol" carries the enrolment page
 * through registration and sign-in, so the new learner comes back to this course.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = courseIdField.safeParse(params.id);
  const [user, page] = await Promise.all([getOptionalUser(request), id.success ? publicCoursePage(getDb(), id.data) : null]);
  if (!page) throw new Response("Course not found", { status: 404 });
  const { course, classes } = page;
  return {
    signedIn: user !== null,
    course: {
      ...courseOverview(course),
      licence: course.licence_class ? { code: course.licence_class, name: LICENCE_CLASSES[course.licence_class] } : null,
      reviewRequired: course.review_required,
    },
    classes,
    rto: organisation(),
  };
}

const sectionClass = "rounded-xl border border-steel-200 bg-white p-5 shadow-sm sm:p-6";

export default function CoursePage() {
  const { signedIn, course, classes, rto } = useLoaderData<typeof loader>();
  const enrol = enrolPath(course.id);
  return (
    <>
      <SiteHeader signedIn={signedIn} />
      <main id="main" className="bg-steel-50">
        <div className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
          <Link to="/courses" className="text-sm font-semibold text-hivis-700 underline-offset-4 hover:underline">
            ← All courses
          </Link>
          <div className="mt-4 grid gap-6 lg:grid-cols-[1fr_22rem] lg:items-start">
            <div className="min-w-0 space-y-6">
              <CourseOverview course={course}>
                <p className="mt-4 text-sm font-semibold text-hivis-300">
                  {course.licence
                    ? `Leads to the high-risk work licence class ${course.licence.code} (${course.licence.name}).`
                    : "Nationally recognised training: a statement of attainment when you complete it."}
                </p>
              </CourseOverview>

              <section aria-labelledby="classes-title" className={sectionClass}>
                <h2 id="classes-title" className="text-lg font-bold text-steel-900">
                  Classes
                </h2>
                {classes.length ? (
                  <ul className="mt-3 space-y-4">
                    {classes.map((c) => (
                      <li key={c.id} className="rounded-md border border-steel-200 p-4 text-sm text-steel-800">
                        <h3 className="font-bold text-steel-900">{classDates(c.start_date, c.end_date)}</h3>
                        <p>{c.location ?? "Location to be confirmed"}</p>
                        <p className={`font-semibold ${c.seats_left > 0 ? "text-green-800" : "text-red-700"}`}>{seatsWording(c.seats_left)}</p>
                        <SessionList sessions={c.sessions} className="mt-2 text-steel-700" />
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="mt-3 text-sm text-steel-600">No classes are scheduled yet: enrol and we will place you in the next one.</p>
                )}
              </section>

              <section aria-labelledby="refunds-title" className={sectionClass}>
                <h2 id="refunds-title" className="text-lg font-bold text-steel-900">
                  Refund policy
                </h2>
                <RefundPolicyTerms className="mt-3 list-disc space-y-2 pl-5 text-sm leading-relaxed text-steel-800" />
              </section>
            </div>

            <aside aria-labelledby="fees-title" className={`${sectionClass} lg:sticky lg:top-6`}>
              <h2 id="fees-title" className="text-lg font-bold text-steel-900">
                Fees
              </h2>
              <p className="mt-3 text-4xl font-extrabold tracking-tight text-steel-900">{formatPrice(course.price)}</p>
              <p className="text-sm text-steel-600">{`The whole course: ${course.duration_hours} hours of training and assessment.`}</p>
              {course.rpl_fee > 0 ? (
                <p className="mt-2 text-sm text-steel-700">{`Already do this work? Recognition of prior learning (RPL) is assessed for ${formatPrice(course.rpl_fee)} per unit, invoiced when you apply.`}</p>
              ) : null}
              {course.reviewRequired ? (
                <div className="mt-4 rounded-md border border-hivis-300 bg-hivis-50 p-3 text-sm text-steel-800">
                  <p>Enrolment starts with a short review of reading, writing, numbers and computers, so we can advise you and arrange any support.</p>
                  <Link to={reviewPath(course.id)} className="mt-1 inline-block py-2 font-semibold text-hivis-800 underline underline-offset-4">
                    Take the pre-enrolment review
                  </Link>
                </div>
              ) : null}
              {signedIn ? (
                <Link to={enrol} className={buttonClasses("primary", "lg", "mt-6 w-full")}>
                  Enrol in this course
                </Link>
              ) : (
                <>
                  <Link to={withReturn("/register", enrol)} className={buttonClasses("primary", "lg", "mt-6 w-full")}>
                    Sign up and enrol
                  </Link>
                  <p className="mt-4 text-center text-sm text-steel-700">
                    Already have an account?{" "}
                    <Link to={withReturn("/login", enrol)} className="inline-block py-2 font-semibold text-hivis-800 underline underline-offset-4">
                      Sign in to enrol
                    </Link>
                  </p>
                </>
              )}
            </aside>
          </div>
        </div>
      </main>
      <SiteFooter rto={rto} />
    </>
  );
}

/** Search results and shared links show the course's own name and the start of its description. */
export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: "Course not found | Summit Crane & Rigging Training" }];
  const { course } = data;
  const description = course.description.length > 155 ? `${course.description.slice(0, 154).trimEnd()}…` : course.description;
  return [{ title: `${course.name} (${course.unit_code}) | Summit Crane & Rigging Training` }, { name: "description", content: description }];
};

export function ErrorBoundary() {
  return (
    <>
      <SiteHeader />
      <main id="main" className="mx-auto max-w-xl px-4 py-16">
        <RouteError title="Course" message="Failed to load the course" />
      </main>
    </>
  );
}

/** The site footer carries the complaints policy link here, so the root leaves out its own strip; the meta describes the page, so the root adds no description. */
export const handle = { siteFooter: true, describesItself: true };
