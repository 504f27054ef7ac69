import { Link } from "@remix-run/react";

/** The office's notice of learners absent twice in a row (the newest first). */
export function AttendanceAlerts({ alerts }: { alerts: { id: number; student_id: string; full_name: string; course_name: string; session_date: string }[] }) {
  if (alerts.length === 0) return null;
  return (
    <section aria-labelledby="attendance-alerts" className="mb-6 rounded-xl border border-amber-300 bg-amber-50 p-4">
      <h2 id="attendance-alerts" className="text-base font-bold text-steel-900">
        Attendance: absent twice in a row
      </h2>
      <ul className="mt-2 space-y-1 text-sm text-steel-800">
        {alerts.map((a) => (
          <li key={a.id}>
            <Link to={`/admin/students/${a.student_id}`} className="font-semibold underline underline-offset-4">
              {a.full_name}
            </Link>
            {`: ${a.course_name}, second absence on ${a.session_date}`}
          </li>
        ))}
      </ul>
    </section>
  );
}
