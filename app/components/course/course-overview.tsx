import type { ReactNode } from "react";
import { CheckIcon, ClockIcon, ShieldCheckIcon } from "~/components/landing/icons";
import { TierBadge } from "~/components/status-badges";
import type { Course } from "~/models/course.server";

type Overview = Pick<Course, "name" | "unit_code" | "description" | "tier" | "duration_hours" | "learning_outcomes" | "assessment_criteria" | "prerequisites">;

/**
 * What a course is, as its public page and its enrolment page both show it: the heading block
 * (the page's h1), then its outcomes, assessment and prerequisites. `children` go in the heading
 * block, under the description.
 */
export function CourseOverview({ course, eyebrow, children }: { course: Overview; eyebrow?: string; children?: ReactNode }) {
  return (
    <>
      <section aria-labelledby="course-title" className="rounded-xl bg-steel-950 p-6 text-white shadow-sm sm:p-8">
        <div className="flex flex-wrap items-center gap-3">
          <TierBadge tier={course.tier} />
          <span className="inline-flex items-center gap-1 text-xs font-semibold text-green-300">
            <ShieldCheckIcon className="h-4 w-4" />
            ASQA Certified
          </span>
        </div>
        {eyebrow ? <p className="mt-4 text-sm font-semibold uppercase tracking-wider text-hivis-300">{eyebrow}</p> : null}
        <h1 id="course-title" className={`${eyebrow ? "mt-1" : "mt-4"} text-2xl font-extrabold tracking-tight sm:text-3xl`}>
          {course.name}
        </h1>
        <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-steel-200">
          <span className="font-mono">{course.unit_code}</span>
          <span className="inline-flex items-center gap-1">
            <ClockIcon />
            {course.duration_hours} hours
          </span>
        </p>
        <p className="mt-4 leading-relaxed text-steel-100">{course.description}</p>
        {children}
      </section>
      <ListSection headingId="outcomes-title" title="Learning outcomes" items={course.learning_outcomes} empty="Outcomes are listed in the course guide." />
      <ListSection headingId="assessment-title" title="Assessment criteria" items={course.assessment_criteria} empty="Assessment is explained at induction." />
      <ListSection headingId="prerequisites-title" title="Prerequisites" items={course.prerequisites} empty="None: this course has no prerequisites." />
    </>
  );
}

function ListSection({ title, items, empty, headingId }: { title: string; items: string[]; empty: string; headingId: string }) {
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-steel-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id={headingId} className="scroll-mt-4 text-lg font-bold text-steel-900">
        {title}
      </h2>
      {items.length ? (
        <ul className="mt-3 space-y-2">
          {items.map((item) => (
            <li key={item} className="flex gap-3 text-sm leading-relaxed text-steel-800">
              <CheckIcon className="mt-0.5 h-4 w-4 shrink-0 text-green-700" />
              {item}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-sm text-steel-600">{empty}</p>
      )}
    </section>
  );
}
