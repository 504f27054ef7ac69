import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  getOptionalUser,
  ensureReviewClaimToken,
  reviewClaimToken,
  getDb,
  organisation,
  enrollmentState,
  reviewPage,
  retakeWaitMessage,
  takeReview,
  redirectWithFlash,
  answerForm,
} from "~/routes/courses_.$id_.review.server";
import { SiteFooter } from "~/components/landing/site-footer";
import { ReviewQuestions, ReviewResult } from "~/components/review/review-parts";
import { RouteError } from "~/components/route-error";
import { SiteHeader } from "~/components/site-header";
import { useActionToast } from "~/components/toaster";
import { Alert, buttonClasses, ErrorSummary, SubmitButton } from "~/components/ui";
import { courseIdField } from "~/schemas/enrollment";
import { reviewAnswersSchema, reviewFormInput } from "~/schemas/review";
import { REVIEW_NOT_REQUIRED, REVIEW_REFERRED, REVIEW_SAVED } from "~/schemas/review-text";
import { coursePagePath, enrolPath, reviewPath } from "~/utils/course-links";
import { isDomainError } from "~/utils/errors";
import { withReturn } from "~/utils/safe-redirect";

/**
 * The pre-enrolment review of a course that asks for one: anyone may take it from the course
 * page (a visitor's attempt waits in their browser until they enrol), and a learner whose
 * enrolment holds its seat takes it here to confirm it. After an attempt the page shows the
 * outcome and the advice; `?retake=1` shows the questions again once the course's wait is over.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = courseIdField.safeParse(params.id);
  if (!id.success) throw new Response("Course not found", { status: 404 });
  const db = getDb();
  const user = await getOptionalUser(request);
  const rto = organisation();
  let page;
  try {
    page = await reviewPage(db, id.data, { userId: user?.id ?? null, claimToken: await reviewClaimToken(request) });
  } catch (error) {
    if (isDomainError(error) && error.status === 409) return { notRequired: true as const, courseId: id.data, signedIn: user !== null, rto };
    if (isDomainError(error) && error.status === 404) throw new Response("Course not found", { status: 404 });
    throw error;
  }
  const now = new Date().toISOString();
  const wantsRetake = new URL(request.url).searchParams.get("retake") === "1";
  const latest = page.latest;
  const canRetake = !latest || latest.retake_from <= now;
  return {
    notRequired: false as const,
    signedIn: user !== null,
    rto,
    ...page,
    showForm: !latest || (wantsRetake && canRetake),
    retake: latest ? { allowed: canRetake, message: canRetake ? null : retakeWaitMessage(latest.retake_from) } : null,
    enrollment: user ? await enrollmentState(db, user.id, id.data) : "none",
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = courseIdField.safeParse(params.id);
  if (!id.success) throw new Response("Course not found", { status: 404 });
  const user = await getOptionalUser(request);
  // a visitor's attempt is known by a token in this browser until they enrol
  const claim = user ? null : await ensureReviewClaimToken(request);
  return answerForm(request, {
    schema: reviewAnswersSchema,
    input: reviewFormInput,
    unreadable: "The review could not be read. Please try again.",
    save: async ({ answers }) => {
      const { enrollment } = await takeReview(getDb(), { courseId: id.data, taker: { userId: user?.id ?? null, claimToken: claim?.token ?? null }, answers });
      const message =
        enrollment?.review_status === "confirmed"
          ? "Your review is saved and your enrolment is confirmed."
          : enrollment?.review_status === "referred"
            ? REVIEW_REFERRED
            : REVIEW_SAVED;
      return redirectWithFlash(reviewPath(id.data), { type: "success", message }, claim?.setCookie ? [claim.setCookie] : []);
    },
  });
}

const sectionClass = "rounded-xl border border-steel-200 bg-white p-5 shadow-sm sm:p-6";

export default function CourseReview() {
  const data = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  useActionToast(failure);
  return (
    <>
      <SiteHeader signedIn={data.signedIn} />
      <main id="main" className="bg-steel-50">
        <div className="mx-auto max-w-3xl px-4 py-8 sm:py-10">
          <Link
            to={coursePagePath(data.notRequired ? data.courseId : data.course.id)}
            className="text-sm font-semibold text-hivis-700 underline-offset-4 hover:underline"
          >
            ← Back to the course
          </Link>
          {data.notRequired ? (
            <div className={`mt-4 ${sectionClass}`}>
              <h1 className="text-2xl font-bold text-steel-900">Pre-enrolment review</h1>
              <p className="mt-3 text-steel-800">{REVIEW_NOT_REQUIRED}</p>
            </div>
          ) : (
            <div className="mt-4 space-y-6">
              <header>
                <p className="text-sm font-semibold uppercase tracking-wide text-hivis-700">Pre-enrolment review</p>
                <h1 className="text-2xl font-bold text-steel-900 [overflow-wrap:anywhere]">{`${data.course.name} (${data.course.unit_code})`}</h1>
                <p className="mt-2 text-sm text-steel-700">
                  Before you enrol we check that the course suits you: a few questions on reading, writing, numbers and computers, taken from the work itself (a
                  load chart, a load&apos;s weight, a safety sign, a form). There is no pass or fail: the answers tell us what support to arrange with you.
                </p>
              </header>
              {data.latest && !data.showForm ? (
                <ReviewResult result={data.latest}>
                  <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
                    {data.enrollment !== "none" ? (
                      <Link to="/student/courses" className={buttonClasses("primary", "lg")}>
                        Go to My Courses
                      </Link>
                    ) : data.signedIn ? (
                      <Link to={enrolPath(data.course.id)} className={buttonClasses("primary", "lg")}>
                        Enrol in this course
                      </Link>
                    ) : (
                      <>
                        <Link to={withReturn("/register", enrolPath(data.course.id))} className={buttonClasses("primary", "lg")}>
                          Sign up and enrol
                        </Link>
                        <Link to={withReturn("/login", enrolPath(data.course.id))} className={buttonClasses("secondary", "lg")}>
                          Sign in to enrol
                        </Link>
                      </>
                    )}
                    {data.retake?.allowed ? (
                      <Link to="?retake=1" className={buttonClasses("secondary", "lg")}>
                        Take the review again
                      </Link>
                    ) : null}
                  </div>
                  {data.retake?.message ? <p className="mt-3 text-sm">{data.retake.message}</p> : null}
                </ReviewResult>
              ) : data.questions.length === 0 ? (
                <Alert tone="info">The review has no questions yet: please contact our office to enrol.</Alert>
              ) : (
                <Form method="post" noValidate className="space-y-6">
                  <ErrorSummary failure={failure} />
                  <ReviewQuestions questions={data.questions} errors={failure?.fieldErrors ?? {}} values={failure?.values ?? {}} />
                  <SubmitButton busyLabel="Saving..." size="lg" className="w-full sm:w-auto">
                    Submit my review
                  </SubmitButton>
                </Form>
              )}
            </div>
          )}
        </div>
      </main>
      <SiteFooter rto={data.rto} />
    </>
  );
}

/** The site footer carries the complaints policy link here, so the root leaves out its own strip. */
export const handle = { siteFooter: true };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title:
      data && !data.notRequired
        ? `Pre-enrolment review: ${data.course.name} | Summit Crane & Rigging Training`
        : "Pre-enrolment review | Summit Crane & Rigging Training",
  },
];

export function ErrorBoundary() {
  return (
    <>
      <SiteHeader />
      <main id="main" className="mx-auto max-w-xl px-4 py-16">
        <RouteError title="Pre-enrolment review" message="Failed to load the review" />
      </main>
    </>
  );
}
