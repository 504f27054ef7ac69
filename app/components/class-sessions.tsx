import { sessionWhen } from "~/utils/format";

/**
 * A class's sessions, one line each ("3 Dec 2026, 7:30 am – 3:30 pm"): the public course page,
 * the enrolment page and the learner's course cards all show them the same way.
 */
export function SessionList({ sessions, className = "" }: { sessions: { date: string; starts_at: string; ends_at: string }[]; className?: string }) {
  if (sessions.length === 0) return null;
  return (
    <ul className={`space-y-0.5 ${className}`}>
      {sessions.map((s) => (
        <li key={`${s.date} ${s.starts_at}`}>
          <time dateTime={`${s.date}T${s.starts_at}`}>{sessionWhen(s)}</time>
        </li>
      ))}
    </ul>
  );
}
