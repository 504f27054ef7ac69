import { Link } from "@remix-run/react";
import { TierBadge } from "~/components/status-badges";
import { buttonClasses } from "~/components/ui";
import type { Course } from "~/models/course.server";
import { formatPrice } from "~/utils/format";
import { classDates, seatsWording } from "~/schemas/class-text";
import { coursePagePath, enrolPath } from "~/utils/course-links";
import { withReturn } from "~/utils/safe-redirect";

export const CARD_OUTCOMES = 3;

/** What a card shows, and no more: it travels in the page's hydration data once per card. */
export type CourseCardData = Pick<Course, "id" | "unit_code" | "name" | "description" | "tier" | "duration_hours" | "price" | "prerequisites"> & {
  /** the first CARD_OUTCOMES learning outcomes */
  first_outcomes: string[];
  /** how many learning outcomes the card leaves out */
  more_outcomes: number;
  /** the next scheduled classes (docs/decisions/013-classes.md); empty for a course without classes */
  classes: CardClass[];
};

/** A class on a card: a few short strings, so a page of cards stays light. */
export interface CardClass {
  id: string;
  start_date: string;
  end_date: string;
  location: string | null;
  seats_left: number;
}

export function toCourseCardData(course: Course, classes: CardClass[] = []): CourseCardData {
  const { learning_outcomes: outcomes, id, unit_code, name, description, tier, duration_hours, price, prerequisites } = course;
  const first = outcomes.slice(0, CARD_OUTCOMES);
  return {
    id,
    unit_code,
    name,
    description,
    tier,
    duration_hours,
    price,
    prerequisites,
    first_outcomes: first,
    more_outcomes: outcomes.length - first.length,
    classes: classes.map((c) => ({ id: c.id, start_date: c.start_date, end_date: c.end_date, location: c.location, seats_left: c.seats_left })),
  };
}

const cta = buttonClasses("primary", "md", "mt-4 w-full");
const details = buttonClasses("secondary", "md", "mt-2 w-full");

/**
 * A course in the public catalogue: what it teaches, what it needs, what it costs. A page
 * repeats it a dozen times, so its styles and icons come from `.course-card` and `.icon-*` in
 * the stylesheet and its markup is little more than its text.
 */
export function CourseCard({ course, signedIn }: { course: CourseCardData; signedIn: boolean }) {
  const titleId = `course-${course.id}`;
  return (
    <article aria-labelledby={titleId} className="course-card">
      <div className="course-card-top">
        <TierBadge tier={course.tier} />
        <span className="course-card-asqa icon-before icon-shield-check">ASQA Certified</span>
      </div>
      <div className="course-card-body">
        <h2 id={titleId}>
          <Link to={coursePagePath(course.id)} className="course-card-title">
            {course.name}
          </Link>
        </h2>
        <p className="course-card-meta">
          <span>{course.unit_code}</span>
          <span className="icon-before icon-clock">{`${course.duration_hours} hours`}</span>
        </p>
        <p className="course-card-description">{course.description}</p>

        <h3>Learning outcomes</h3>
        <ul>
          {course.first_outcomes.map((o) => (
            <li key={o}>{o}</li>
          ))}
        </ul>
        {course.more_outcomes > 0 ? (
          <Link to={`${coursePagePath(course.id)}#outcomes-title`} className="course-card-more" aria-describedby={titleId}>
            {`+${course.more_outcomes} more outcomes`}
          </Link>
        ) : null}

        <h3>Prerequisites</h3>
        {course.prerequisites.length ? (
          <ul className="course-card-prerequisites">
            {course.prerequisites.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        ) : (
          <p className="course-card-none">None</p>
        )}

        {course.classes.length ? (
          <>
            <h3>Next classes</h3>
            <ul className="course-card-classes">
              {course.classes.map((c) => (
                <li key={c.id}>
                  {`${classDates(c.start_date, c.end_date)}${c.location ? `, ${c.location}` : ""}: `}
                  <strong>{seatsWording(c.seats_left)}</strong>
                </li>
              ))}
            </ul>
          </>
        ) : null}

        <div className="course-card-footer">
          <p>
            <span>{formatPrice(course.price)}</span>
            <span className="course-card-rating icon-before icon-star">
              <span className="sr-only">Rated </span>4.8
            </span>
            <span className="icon-before icon-users">25+ enrolled</span>
          </p>
          {signedIn ? (
            <Link to={enrolPath(course.id)} className={cta} aria-describedby={titleId}>
              Enrol Now
            </Link>
          ) : (
            <Link to={withReturn("/register", enrolPath(course.id))} className={cta} aria-describedby={titleId}>
              Sign up and enrol
            </Link>
          )}
          <Link to={coursePagePath(course.id)} className={details} aria-describedby={titleId}>
            Course details
          </Link>
        </div>
      </div>
    </article>
  );
}
