import { Link } from "@remix-run/react";
import { TierBadge } from "~/components/status-badges";
import { buttonClasses } from "~/components/ui";
import type { Course } from "~/models/course.server";
import { formatPrice } from "~/utils/format";
import { SpriteIcon } from "./landing/icons";

export const CARD_OUTCOMES = 3;

/** What a card shows, and no more: it travels in the page's hydration data once per card. */
export type CourseCardData = Pick<Course, "id" | "unit_code" | "name" | "description" | "tier" | "duration_hours" | "price" | "prerequisites"> & {
  /** the first CARD_OUTCOMES learning outcomes */
  first_outcomes: string[];
  /** how many learning outcomes the card leaves out */
  more_outcomes: number;
};

export function toCourseCardData(course: Course): CourseCardData {
  const { learning_outcomes: outcomes, id, unit_code, name, description, tier, duration_hours, price, prerequisites } = course;
  const first = outcomes.slice(0, CARD_OUTCOMES);
  return { id, unit_code, name, description, tier, duration_hours, price, prerequisites, first_outcomes: first, more_outcomes: outcomes.length - first.length };
}

const cta = buttonClasses("primary", "md", "mt-4 w-full");

/**
 * A course in the public catalogue: what it teaches, what it needs, what it
 * costs. Its icons come from the page's <IconSprite>; its repeated styles from `.course-card`.
 */
export function CourseCard({ course, signedIn }: { course: CourseCardData; signedIn: boolean }) {
  const titleId = `course-${course.id}`;
  return (
    <article aria-labelledby={titleId} className="course-card">
      <div className="course-card-top">
        <TierBadge tier={course.tier} />
        <span className="inline-flex items-center gap-1 text-xs font-semibold text-green-800">
          <SpriteIcon name="shield-check" />
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
            <SpriteIcon name="clock" />
            {`${course.duration_hours} hours`}
          </span>
        </p>
        <p className="mt-3 text-sm leading-relaxed text-steel-700">{course.description}</p>

        <h3>Learning outcomes</h3>
        <ul className="mt-2 space-y-1.5 text-sm text-steel-800">
          {course.first_outcomes.map((o) => (
            <li key={o}>{o}</li>
          ))}
        </ul>
        {course.more_outcomes > 0 ? (
          <p className="mt-1.5 pl-3.5 text-sm font-medium text-hivis-700">{`+${course.more_outcomes} more outcomes`}</p>
        ) : null}

        <h3>Prerequisites</h3>
        {course.prerequisites.length ? (
          <ul className="course-card-prerequisites mt-2 space-y-1 text-sm text-steel-700">
            {course.prerequisites.map((p) => (
              <li key={p}>{p}</li>
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
                <SpriteIcon name="star" className="h-4 w-4 text-hivis-500" />
                <span className="sr-only">Rated </span>
                <span className="font-semibold text-steel-800">4.8</span>
              </span>
              <span className="inline-flex items-center gap-1">
                <SpriteIcon name="users" />
                25+ enrolled
              </span>
            </p>
          </div>
          {signedIn ? (
            <Link to={`/enroll/${course.id}`} className={cta} aria-describedby={titleId}>
              Enroll Now
            </Link>
          ) : (
            <Link to="/register" className={cta} aria-describedby={titleId}>
              Sign Up &amp; Enroll
            </Link>
          )}
        </div>
      </div>
    </article>
  );
}
