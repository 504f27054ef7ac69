import { Link } from "@remix-run/react";
import { TitledCard } from "~/components/ui";
import { clockTime, formatDate } from "~/utils/format";

/**
 * The learner's dashboard: their coming RPL competency sessions, each linking to its
 * application (nothing shows when none is booked). Kept apart from rpl-steps.tsx so the
 * dashboard's scripts carry no staff forms (scripts/bundle.test.ts holds the learner's budget).
 */

interface UpcomingSession {
  id: string;
  application_id: string;
  unit_code: string;
  title: string;
  session_date: string;
  starts_at: string;
  ends_at: string;
  location: { name: string };
}

/** A session's day and times as the pages print them. */
export function sessionWhen(s: { session_date: string; starts_at: string; ends_at: string }) {
  return `${formatDate(s.session_date)}, ${clockTime(s.starts_at)} to ${clockTime(s.ends_at)}`;
}

export function UpcomingRplSessions({ sessions }: { sessions: UpcomingSession[] }) {
  if (sessions.length === 0) return null;
  return (
    <section aria-labelledby="rpl-sessions-heading" className="mb-6">
      <TitledCard title={<span id="rpl-sessions-heading">Your recognition sessions</span>}>
        <ul className="space-y-2 text-sm">
          {sessions.map((s) => (
            <li key={s.id}>
              <Link to={`/student/recognition/${s.application_id}`} className="inline-flex min-h-11 items-center font-semibold underline">
                {`${s.title}: ${s.unit_code}`}
              </Link>
              <p>
                <time dateTime={s.session_date}>{sessionWhen(s)}</time> at {s.location.name}
              </p>
            </li>
          ))}
        </ul>
      </TitledCard>
    </section>
  );
}
