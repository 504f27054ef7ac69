import { Link } from "@remix-run/react";
import { SessionList } from "~/components/class-sessions";
import { ATTENDANCE_WORDS, classDates } from "~/schemas/class-text";
import { enrolPath } from "~/utils/course-links";
import { plural } from "~/utils/format";

/** The class an enrolment holds a seat in, and the learner's attendance so far (their course card). */
export function ClassOnCard({
  cls,
  attendance,
}: {
  cls?: { start_date: string; end_date: string; location: string | null; cancelled: boolean; sessions: { date: string; starts_at: string; ends_at: string }[] };
  attendance?: { present: number; late: number; absent: number; sessions: number };
}) {
  if (!cls) return null;
  const marked = attendance ? attendance.present + attendance.late + attendance.absent : 0;
  return (
    <dl className="mt-4 space-y-1 border-t border-steel-100 pt-3 text-sm">
      <div className="flex flex-wrap gap-x-2">
        <dt className="text-steel-500">Class</dt>
        <dd className="font-semibold text-steel-900">{`${classDates(cls.start_date, cls.end_date)}${cls.location ? `, ${cls.location}` : ""}${cls.cancelled ? " (cancelled)" : ""}`}</dd>
      </div>
      {cls.sessions.length && !cls.cancelled ? (
        <div>
          <dt className="text-steel-500">Sessions</dt>
          <dd className="font-medium text-steel-900">
            <SessionList sessions={cls.sessions} />
          </dd>
        </div>
      ) : null}
      {attendance ? (
        <div className="flex flex-wrap gap-x-2">
          <dt className="text-steel-500">Attendance</dt>
          <dd className="font-semibold text-steel-900">
            {marked === 0
              ? `${plural(attendance.sessions, "session")}, none marked yet`
              : `${ATTENDANCE_WORDS.present} ${attendance.present}, ${ATTENDANCE_WORDS.late} ${attendance.late}, ${ATTENDANCE_WORDS.absent} ${attendance.absent} of ${plural(attendance.sessions, "session")}`}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

/** The learner's places still waiting on waitlists (above their course cards; seats offered are SeatOffers'), each leading to the class's course. */
export function MyWaitlists({
  entries,
}: {
  entries: { class_id: string; course_id: string; course_name: string; start_date: string; end_date: string; status: string; place: number | null }[];
}) {
  const waiting = entries.filter((w) => w.status === "waiting");
  if (waiting.length === 0) return null;
  return (
    <section aria-labelledby="my-waitlists" className="mb-6 rounded-xl border border-amber-300 bg-amber-50 p-4">
      <h2 id="my-waitlists" className="text-base font-bold text-steel-900">
        Waitlists
      </h2>
      <ul className="mt-2 space-y-1 text-sm text-steel-800">
        {waiting.map((w) => (
          <li key={w.class_id}>
            <Link to={enrolPath(w.course_id)} className="font-semibold underline underline-offset-4">
              {`${w.course_name}, class of ${classDates(w.start_date, w.end_date)}`}
            </Link>
            {`: you are number ${w.place} on the waitlist`}
          </li>
        ))}
      </ul>
    </section>
  );
}
