import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "~/utils/use-hydrated";
import type { Role } from "#db/schema";
import {
  HOME_BY_ROLE,
  requireUser,
  reviewClaimToken,
  reviewBeforeEnrollment,
  getDb,
  organisation,
  courseOverview,
  getCourse,
  createEnrollment,
  enrollmentState,
  listUpcomingClasses,
  acceptOffer,
  joinWaitlist,
  leaveWaitlist,
  waitlistForStudent,
  redirectWithFlash,
  logLine,
  answerForm,
  clientAddress,
  formIntent,
} from "~/routes/enroll.$courseId.server";
import { ReviewResult } from "~/components/review/review-parts";
import { REVIEW_REFERRED, REVIEW_SEAT_HELD } from "~/schemas/review-text";
import { CourseOverview } from "~/components/course/course-overview";
import { SiteFooter } from "~/components/landing/site-footer";
import { SiteHeader } from "~/components/site-header";
import { useActionToast } from "~/components/toaster";
import { Alert, ButtonLink, ErrorSummary, SubmitButton } from "~/components/ui";
import { PolicyLinks } from "~/components/policy-links";
import { ClassRadioList, SeatOffers, WaitlistForms } from "~/components/class-choice";
import { CHOOSE_ANOTHER_CLASS, CLASS_CHOSEN, OFFER_ACCEPTED, WAITLIST_JOINED, WAITLIST_LEFT } from "~/schemas/class-text";
import { courseIdField, enrollmentFormSchema } from "~/schemas/enrollment";
import { waitlistFormSchema } from "~/schemas/class";
import { ALREADY_ENROLLED } from "~/schemas/enrollment-text";
import { isDomainError } from "~/utils/errors";
import { formatPrice } from "~/utils/format";
import { coursePagePath, reviewPath } from "~/utils/course-links";

export const ENROLLED = "Successfully enrolled in course!";
const COURSE_NOT_FOUND = "Course not found";
const ENROLL_FAILED = "Failed to enrol in course";

/** Where a new enrollment is seen: the student's courses; other roles have no such page, so their portal. */
const afterEnrollment = (role: Role) => (role === "student" ? "/student/courses" : HOME_BY_ROLE[role]);

function notFoundRedirect() {
  return redirectWithFlash("/courses", { type: "error", message: COURSE_NOT_FOUND });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = courseIdField.safeParse(params.courseId);
  const db = getDb();
  let course;
  try {
    course = id.success ? await getCourse(db, id.data, { activeOnly: true }) : null;
  } catch (error) {
    logLine({ event: "enrol-load-error", error: String(error) });
    throw await redirectWithFlash("/courses", { type: "error", message: "Failed to load course details" });
  }
  if (!course) throw await notFoundRedirect();
  return {
    course: courseOverview(course),
    // "choose-class": their class was cancelled; the enrolment stays and takes a seat in the class chosen
    enrollment: await enrollmentState(db, user.id, course.id),
    // a course with classes is booked by choosing one (docs/decisions/013-classes.md)
    classes: await listUpcomingClasses(db, course.id),
    waitlist: (await waitlistForStudent(db, user.id)).filter((w) => w.course_id === course.id),
    // a course asking for the pre-enrolment review: the learner's outcome so far (or this browser's, taken before signing up)
    review: await reviewBeforeEnrollment(db, course.id, { userId: user.id, claimToken: await reviewClaimToken(request) }),
    myCourses: afterEnrollment(user.role),
    rto: organisation(),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = courseIdField.safeParse(params.courseId);
  if (!id.success) return notFoundRedirect();
  const intent = await formIntent(request);
  if (intent === "choose-class") {
    // an enrolment whose class was cancelled takes a seat in another class of the course
    return answerForm(request, {
      schema: waitlistFormSchema,
      unreadable: ENROLL_FAILED,
      save: async ({ class_id }) => {
        await createEnrollment(getDb(), { studentId: user.id, courseId: id.data, classId: class_id, actorId: user.id });
        return redirectWithFlash(afterEnrollment(user.role), { type: "success", message: CLASS_CHOSEN });
      },
    });
  }
  if (intent === "waitlist" || intent === "accept" || intent === "leave") {
    // the waitlist's own small forms: a class id and the intent
    return answerForm(request, {
      schema: waitlistFormSchema,
      unreadable: ENROLL_FAILED,
      save: async ({ class_id }) => {
        const db = getDb();
        const input = { classId: class_id, studentId: user.id };
        if (intent === "waitlist") await joinWaitlist(db, input);
        if (intent === "leave") await leaveWaitlist(db, input);
        if (intent === "accept") {
          await acceptOffer(db, { ...input, client: clientAddress(request) });
          return redirectWithFlash(afterEnrollment(user.role), { type: "success", message: OFFER_ACCEPTED });
        }
        return redirectWithFlash(`/enroll/${id.data}`, { type: "success", message: intent === "waitlist" ? WAITLIST_JOINED : WAITLIST_LEFT });
      },
    });
  }
  return answerForm(request, {
    schema: enrollmentFormSchema,
    unreadable: ENROLL_FAILED,
    save: async ({ class_id }) => {
      let created;
      try {
        created = await createEnrollment(getDb(), {
          studentId: user.id,
          courseId: id.data,
          classId: class_id,
          actorId: user.id,
          reviewClaim: await reviewClaimToken(request),
        });
      } catch (error) {
        // the course is gone; a class not found is the form's own field (answerForm shows it there)
        if (isDomainError(error) && error.status === 404 && !error.field) return notFoundRedirect();
        throw error;
      }
      // the seat is taken; an enrolment waiting for its review goes to the review, which confirms it
      if (created.review_status === "awaiting") return redirectWithFlash(reviewPath(id.data), { type: "success", message: REVIEW_SEAT_HELD });
      if (created.review_status === "referred") return redirectWithFlash(afterEnrollment(user.role), { type: "success", message: REVIEW_REFERRED });
      return redirectWithFlash(afterEnrollment(user.role), { type: "success", message: ENROLLED });
    },
  });
}

export default function Enroll() {
  const { course, enrollment, myCourses, rto, classes, waitlist, review } = useLoaderData<typeof loader>();
  const choosing = enrollment === "choose-class" && classes.length > 0;
  const enrolled = enrollment !== "none" && !choosing;
  const data = useActionData<typeof action>();
  useActionToast(data);
  const hydrated = useHydrated();
  const [agreed, setAgreed] = useState(false);
  const classError = data?.fieldErrors.class_id;
  const duplicate = data?.status === 409 && !classError;
  const alreadyEnrolled = enrolled || duplicate;
  const termsError = data?.fieldErrors.terms && !agreed ? data.fieldErrors.terms : null;

  return (
    <>
      <SiteHeader signedIn />
      <main id="main" className="bg-steel-50">
        <div className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
          <Link to={coursePagePath(course.id)} className="text-sm font-semibold text-hivis-700 underline-offset-4 hover:underline">
            ← Back to the course
          </Link>
          {alreadyEnrolled ? null : (
            <div className="mt-4">
              <SeatOffers offers={waitlist} />
            </div>
          )}
          <div className="mt-4 grid gap-6 lg:grid-cols-[1fr_22rem] lg:items-start">
            <div className="space-y-6">
              {review.required && !alreadyEnrolled ? (
                review.latest ? (
                  <ReviewResult result={review.latest} title="Your pre-enrolment review" />
                ) : (
                  <section aria-labelledby="review-needed" className="rounded-xl border border-hivis-300 bg-hivis-50 p-5 text-sm text-steel-800">
                    <h2 id="review-needed" className="text-lg font-bold text-steel-900">
                      Pre-enrolment review
                    </h2>
                    <p className="mt-2">
                      This course starts with a short review of reading, writing, numbers and computers. Enrol now and your seat is held while you take it; your
                      enrolment is confirmed by the review.
                    </p>
                    <Link to={reviewPath(course.id)} className="mt-1 inline-block py-2 font-semibold text-hivis-800 underline underline-offset-4">
                      Take the review first
                    </Link>
                  </section>
                )
              ) : null}
              <CourseOverview course={course} eyebrow="Enrol in" />
            </div>

            <aside aria-labelledby="payment-title" className="rounded-xl border border-steel-200 bg-white p-5 shadow-sm sm:p-6 lg:sticky lg:top-6">
              <h2 id="payment-title" className="text-lg font-bold text-steel-900">
                Enrolment summary
              </h2>
              <dl className="mt-4 space-y-2 border-b border-steel-100 pb-4 text-sm">
                <div className="flex justify-between gap-3">
                  <dt className="text-steel-600">Course</dt>
                  <dd className="text-right font-medium text-steel-900">{course.unit_code}</dd>
                </div>
                <div className="flex justify-between gap-3">
                  <dt className="text-steel-600">Duration</dt>
                  <dd className="font-medium text-steel-900">{course.duration_hours} hours</dd>
                </div>
              </dl>
              <p className="mt-4 text-sm text-steel-600">Course fee</p>
              <p className="text-4xl font-extrabold tracking-tight text-steel-900">{formatPrice(course.price)}</p>
              <p className="text-sm font-medium text-steel-600">One-time payment</p>

              {alreadyEnrolled ? (
                <div className="mt-6 space-y-4">
                  <Alert tone={duplicate ? "error" : "info"}>{ALREADY_ENROLLED}.</Alert>
                  <ButtonLink to={myCourses} className="w-full">
                    {myCourses === "/student/courses" ? "Go to My Courses" : "Go to my portal"}
                  </ButtonLink>
                </div>
              ) : choosing ? (
                <Form method="post" noValidate className="mt-6 space-y-4">
                  <ErrorSummary failure={data} />
                  <Alert tone="info">{CHOOSE_ANOTHER_CLASS}</Alert>
                  <ClassRadioList classes={classes} error={classError} chosen={data?.values.class_id} mine={waitlist} />
                  <SubmitButton intent="choose-class" busyLabel="Saving..." size="lg" className="w-full">
                    Choose this class
                  </SubmitButton>
                </Form>
              ) : (
                <Form method="post" noValidate className="mt-6 space-y-4">
                  <ErrorSummary failure={data} />
                  {classes.length ? <ClassRadioList classes={classes} error={classError} chosen={data?.values.class_id} mine={waitlist} /> : null}
                  <div>
                    <div className="flex items-start gap-3">
                      <input
                        id="terms"
                        name="terms"
                        type="checkbox"
                        required
                        onChange={(e) => setAgreed(e.currentTarget.checked)}
                        aria-invalid={termsError ? true : undefined}
                        aria-describedby={termsError ? "terms-error" : "terms-hint"}
                        className="mt-0.5 h-5 w-5 shrink-0 rounded border-steel-400 accent-hivis-600"
                      />
                      <label htmlFor="terms" className="text-sm text-steel-800">
                        I agree to the terms and conditions, the student code of conduct and the privacy policy
                      </label>
                    </div>
                    <PolicyLinks className="ml-8 mt-1" />
                    {termsError ? (
                      <p id="terms-error" role="alert" className="ml-8 mt-1 text-sm font-medium text-red-700">
                        {termsError}
                      </p>
                    ) : (
                      <p id="terms-hint" className="ml-8 mt-1 text-xs text-steel-600">
                        Tick the box to agree before you enrol.
                      </p>
                    )}
                  </div>
                  <SubmitButton busyLabel="Enrolling..." size="lg" className="w-full" disabled={hydrated && !agreed}>
                    Enrol Now (Mock Payment)
                  </SubmitButton>
                  <p className="rounded-md bg-steel-50 p-3 text-xs leading-relaxed text-steel-600">
                    This is a mock payment for demonstration: no charges will be made to any card or account.
                  </p>
                </Form>
              )}
              {!alreadyEnrolled && !choosing ? <WaitlistForms classes={classes} mine={waitlist} /> : null}
            </aside>
          </div>
        </div>
      </main>
      <SiteFooter rto={rto} />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Enrol: ${data.course.name} | Summit Crane & Rigging Training` : "Enrol | Summit Crane & Rigging Training" },
];

/** The site footer carries the complaints policy link here, so the root leaves out its own strip. */
export const handle = { siteFooter: true };
