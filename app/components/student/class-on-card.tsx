import { Link } from "@remix-run/react";
import { ATTENDANCE_WORDS, classDates } from "~/schemas/class-text";
import { plural } from "~/utils/format";

/** The class an enrolment holds a seat in, and the learner's attendance so far (their course card). */
export function ClassOnCard({
  cls,
  attendance,
}: {
  cls?: { start_date: string; end_date: string; location: string | null; cancelled: boolean };
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

/** The learner's places on waitlists (above their course cards), each leading to the class's course page. */
export function MyWaitlists({ entries }: { entries: { class_id: string; course_id: string; course_name: string; start_date: string; status: string; place: number | null }[] }) {
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby="my-waitlists" className="mb-6 rounded-xl border border-amber-300 bg-amber-50 p-4">
      <h2 id="my-waitlists" className="text-base font-bold text-steel-900">
        Waitlists
      </h2>
      <ul className="mt-2 space-y-1 text-sm text-steel-800">
        {entries.map((w) => (
          <li key={w.class_id}>
            <Link to={`/enroll/${w.course_id}`} className="font-semibold underline underline-offset-4">
              {`${w.course_name}, class of ${classDates(w.start_date, w.start_date)}`}
            </Link>
            {w.status === "offered" ? ": a seat is kept for you: accept it on the course page" : `: you are number ${w.place} on the waitlist`}
          </li>
        ))}
      </ul>
    </section>
  );
}
