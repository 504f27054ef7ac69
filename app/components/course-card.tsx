import { Link } from "@remix-run/react";
import { TierBadge } from "~/components/status-badges";
import { buttonClasses } from "~/components/ui";
import type { Course } from "~/models/course.server";
import { cn } from "~/utils/cn";
import { formatPrice } from "~/utils/format";
import { ClockIcon, ShieldCheckIcon, StarIcon, UsersIcon } from "./landing/icons";

export const CARD_OUTCOMES = 3;

export type CourseCardData = Pick<
  Course,
  "id" | "unit_code" | "name" | "description" | "tier" | "duration_hours" | "price" | "prerequisites" | "learning_outcomes"
>;

/** A course in the public catalogue (spec section 2): what it teaches, what it needs, what it costs. */
export function CourseCard({ course, signedIn }: { course: CourseCardData; signedIn: boolean }) {
  const shown = course.learning_outcomes.slice(0, CARD_OUTCOMES);
  const more = course.learning_outcomes.length - shown.length;
  const titleId = `course-${course.id}`;
  return (
    <article aria-labelledby={titleId} className="flex flex-col overflow-hidden rounded-xl border border-steel-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-steel-100 bg-steel-50 px-5 py-3">
        <TierBadge tier={course.tier} />
        <span className="inline-flex items-center gap-1 text-xs font-semibold text-green-800">
          <ShieldCheckIcon className="h-4 w-4" />
          ASQA Certified
        </span>
      </div>
      <div className="flex flex-1 flex-col p-5">
        <h2 id={titleId} className="text-lg font-bold leading-snug text-steel-900">
          {course.name}
        </h2>
        <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-steel-600">
          <span className="font-mono text-xs">{course.unit_code}</span>
          <span className="inline-flex items-center gap-1">
            <ClockIcon />
            {course.duration_hours} hours
          </span>
        </p>
        <p className="mt-3 text-sm leading-relaxed text-steel-700">{course.description}</p>

        <h3 className="mt-4 text-xs font-bold uppercase tracking-wide text-steel-600">Learning outcomes</h3>
        <ul className="mt-2 space-y-1.5 text-sm text-steel-800">
          {shown.map((o) => (
            <li key={o} className="flex gap-2">
              <span aria-hidden className="mt-2 h-1.5 w-1.5 shrink-0 rounded-full bg-hivis-500" />
              {o}
            </li>
          ))}
        </ul>
        {more > 0 ? <p className="mt-1.5 pl-3.5 text-sm font-medium text-hivis-700">+{more} more outcomes</p> : null}

        <h3 className="mt-4 text-xs font-bold uppercase tracking-wide text-steel-600">Prerequisites</h3>
        {course.prerequisites.length ? (
          <ul className="mt-2 space-y-1 text-sm text-steel-700">
            {course.prerequisites.map((p) => (
              <li key={p} className="flex gap-2">
                <span aria-hidden className="mt-2 h-1.5 w-1.5 shrink-0 rounded-full bg-steel-400" />
                {p}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-1 text-sm text-steel-700">None</p>
        )}

        <div className="mt-auto pt-5">
          <div className="flex flex-wrap items-end justify-between gap-3 border-t border-steel-100 pt-4">
            <p className="text-2xl font-extrabold tracking-tight text-steel-900">{formatPrice(course.price)}</p>
            <p className="flex items-center gap-3 text-sm text-steel-600">
              <span className="inline-flex items-center gap-1">
                <StarIcon className="h-4 w-4 text-hivis-500" />
                <span className="sr-only">Rated </span>
                <span className="font-semibold text-steel-800">4.8</span>
              </span>
              <span className="inline-flex items-center gap-1">
                <UsersIcon />
                25+ enrolled
              </span>
            </p>
          </div>
          {signedIn ? (
            <Link to={`/enroll/${course.id}`} className={cn(buttonClasses("primary", "md"), "mt-4 w-full")} aria-describedby={titleId}>
              Enroll Now
            </Link>
          ) : (
            <Link to="/register" className={cn(buttonClasses("primary", "md"), "mt-4 w-full")} aria-describedby={titleId}>
              Sign Up &amp; Enroll
            </Link>
          )}
        </div>
      </div>
    </article>
  );
}
