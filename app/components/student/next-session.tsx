import { Link } from "@remix-run/react";
import { TitledCard } from "~/components/ui";
import { WHAT_TO_BRING } from "~/schemas/class-text";
import { clockTime, formatDate } from "~/utils/format";

const linkClass = "inline-flex min-h-11 items-center text-sm font-semibold text-hivis-800 underline-offset-4 hover:underline";

/** The top of the learner's dashboard: when and where their next class session is, and what to bring; or that none is coming. */
export function NextSessionCard({
  session,
}: {
  session: {
    course_name: string;
    unit_code: string;
    date: string;
    starts_at: string;
    ends_at: string;
    location: string | null;
  } | null;
}) {
  return (
    <section aria-labelledby="next-class-heading" className="mb-6">
      <TitledCard title={<span id="next-class-heading">Your next class</span>}>
        {session ? (
          <div data-testid="next-session">
            <p className="font-semibold text-steel-900">
              {session.unit_code} {session.course_name}
            </p>
            <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
              <dt className="font-semibold text-steel-700">When</dt>
              <dd className="text-steel-900">
                <time dateTime={session.date}>{formatDate(session.date)}</time>, {clockTime(session.starts_at)} – {clockTime(session.ends_at)}
              </dd>
              <dt className="font-semibold text-steel-700">Where</dt>
              <dd className="text-steel-900">{session.location ?? "To be confirmed"}</dd>
              <dt className="font-semibold text-steel-700">Bring</dt>
              <dd className="text-steel-900">{WHAT_TO_BRING}</dd>
            </dl>
            <p className="mt-2 flex flex-wrap gap-x-4">
              <Link to="/student/courses" className={linkClass}>
                All your sessions
              </Link>
              <Link to="/student/calendar" className={linkClass}>
                Add your classes to your calendar
              </Link>
            </p>
          </div>
        ) : (
          <div data-testid="next-session">
            <p className="font-semibold text-steel-900">No upcoming class</p>
            <p className="mt-1 text-sm text-steel-600">You have no class session booked. When you enrol in a class, its next session shows here.</p>
            <p className="mt-2">
              <Link to="/courses" className={linkClass}>
                Browse courses
              </Link>
            </p>
          </div>
        )}
      </TitledCard>
    </section>
  );
}
