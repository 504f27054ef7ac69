import { Link } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import type { AwaitingCertificate } from "~/models/certificates/certificate-due.server";
import { Badge, EmptyState, TAP_LINK, TitledCard } from "~/components/ui";
import { formatDate } from "~/utils/format";

/**
 * The certification rules as both staff portals show them: a completed enrolment's certificate
 * is due 30 days after completion (overdue ones lead, marked), and a student without a verified
 * USI cannot be issued one, so they are listed under "Awaiting USI" with a link to fix it (the
 * trainer records the check, the admin edits the record).
 */

export const linkClass = "font-semibold text-hivis-800 underline underline-offset-2 hover:text-hivis-900";

type Awaiting = SerializeFrom<AwaitingCertificate>;

export function OverdueBadge() {
  return (
    <Badge tone="red" className="ml-2">
      Overdue
    </Badge>
  );
}

/** "due 12 Dec 2026" and the Overdue mark. */
export function DueDate({ awaiting }: { awaiting: Pick<Awaiting, "due_date" | "overdue"> }) {
  return (
    <>
      due {formatDate(awaiting.due_date, "now")}
      {awaiting.overdue ? <OverdueBadge /> : null}
    </>
  );
}

export function AwaitingUsiCard({ awaitingUsi, fixHref, className }: { awaitingUsi: Awaiting[]; fixHref: (studentId: string) => string; className?: string }) {
  return (
    <TitledCard title={`Awaiting USI (${awaitingUsi.length})`} className={className}>
      <p className="mb-3 text-sm text-steel-600">
        A statement of attainment needs a verified USI (Student Identifiers Act 2014). Check each USI with the USI Registry, then record it.
      </p>
      {awaitingUsi.length ? (
        <ul className="divide-y divide-steel-100">
          {awaitingUsi.map((a) => (
            <li key={a.enrollment_id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span>
                <span className="font-semibold text-steel-900">{a.student.full_name}</span> · {a.course.name} ·{" "}
                {a.student.usi_status === "missing" ? "No USI recorded" : "USI not verified"} · <DueDate awaiting={a} />
              </span>
              <Link to={fixHref(a.student.id)} className={`${TAP_LINK} ${linkClass}`}>
                Verify USI<span className="sr-only"> of {a.student.full_name}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState title="No one awaiting a USI">Every student with a completed enrolment has a verified USI.</EmptyState>
      )}
    </TitledCard>
  );
}
