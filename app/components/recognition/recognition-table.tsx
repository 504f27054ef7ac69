import { Link } from "@remix-run/react";
import { TableScroll } from "~/components/ui";
import { RECOGNITION_KIND_LABELS, RECOGNITION_STATUS_LABELS } from "~/schemas/recognition-text";
import type { RecognitionKind, RecognitionStatus } from "#db/schema-recognition";
import { formatDate } from "~/utils/format";

export interface RecognitionRow {
  id: string;
  kind: RecognitionKind;
  status: RecognitionStatus;
  student: { full_name: string };
  course: { unit_code: string; name: string };
  applied_on: string;
  outcome_code: string | null;
  decided_on: string | null;
  assessor: { full_name: string } | null;
}

/** The register of recognitions as each role reads it: one row an application, its unit linking to it. */
export function RecognitionTable({ items, base, showLearner }: { items: RecognitionRow[]; base: string; showLearner: boolean }) {
  if (items.length === 0) return <p className="text-sm text-steel-600">No applications match.</p>;
  return (
    <TableScroll label="Register of recognitions">
      <table className="table-stack w-full text-left text-sm">
        <caption className="sr-only">Applications for credit transfer and RPL, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Unit</th>
            <th scope="col">Kind</th>
            <th scope="col">Status</th>
            {showLearner ? <th scope="col">Learner</th> : null}
            <th scope="col">Applied</th>
            <th scope="col">Assessor</th>
            <th scope="col">Decided</th>
          </tr>
        </thead>
        <tbody>
          {items.map((r) => (
            <tr key={r.id} className="align-top">
              <th scope="row" data-label="Unit">
                <Link
                  to={`${base}/${r.id}`}
                  className="inline-block min-h-6 py-0.5 font-semibold underline"
                  aria-label={`${RECOGNITION_KIND_LABELS[r.kind]}: ${r.course.unit_code}${showLearner ? `, ${r.student.full_name}` : ""}`}
                >
                  {r.course.unit_code}
                </Link>
              </th>
              <td data-label="Kind">{RECOGNITION_KIND_LABELS[r.kind]}</td>
              <td data-label="Status">
                {RECOGNITION_STATUS_LABELS[r.status]}
                {r.outcome_code ? ` (${r.outcome_code})` : ""}
              </td>
              {showLearner ? <td data-label="Learner">{r.student.full_name}</td> : null}
              <td data-label="Applied">{formatDate(r.applied_on)}</td>
              <td data-label="Assessor">{r.assessor?.full_name ?? "None"}</td>
              <td data-label="Decided">{r.decided_on ? formatDate(r.decided_on) : "Not yet"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
