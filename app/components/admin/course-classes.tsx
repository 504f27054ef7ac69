import { Link } from "@remix-run/react";
import { Badge, buttonClasses } from "~/components/ui";
import { classDates, seatsTaken, seatsWording } from "~/schemas/class-text";

/** The classes of a course on its admin page, each linking to its edit modal. */
export function CourseClasses({
  courseId,
  classes,
}: {
  courseId: string;
  classes: {
    id: string;
    start_date: string;
    end_date: string;
    location: string | null;
    trainer_name: string | null;
    seats: number;
    seats_left: number;
    cancelled: boolean;
  }[];
}) {
  return (
    <div className="space-y-3">
      {classes.length === 0 ? (
        <p className="rounded-md bg-steel-50 px-3 py-4 text-center text-sm text-steel-600">No classes scheduled: learners enrol without choosing one</p>
      ) : (
        <ul className="divide-y divide-steel-100">
          {classes.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <div>
                <p className="font-semibold text-steel-900">{classDates(c.start_date, c.end_date)}</p>
                <p className="text-xs text-steel-600">{[c.location, c.trainer_name, seatsTaken(c.seats, c.seats_left)].filter(Boolean).join(" · ")}</p>
              </div>
              <div className="flex items-center gap-2">
                {c.cancelled ? <Badge tone="red">Cancelled</Badge> : <Badge tone={c.seats_left > 0 ? "green" : "amber"}>{seatsWording(c.seats_left)}</Badge>}
                <Link to={`/admin/courses/${courseId}/classes/${c.id}`} preventScrollReset className={buttonClasses("secondary", "sm")}>
                  Edit<span className="sr-only"> class of {classDates(c.start_date, c.end_date)}</span>
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Link to={`/admin/courses/${courseId}/classes/new`} preventScrollReset className={buttonClasses("primary", "sm")}>
        Add Class
      </Link>
    </div>
  );
}
