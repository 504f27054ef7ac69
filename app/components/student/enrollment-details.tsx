import { NOT_STATED } from "~/schemas/avetmiss-not-stated";
import type { EnrollmentDetailRows } from "~/avetmiss/enrollment-detail-rows";

/**
 * A learner's enrolment details with their labels, as enrollmentDetailRows
 * (app/avetmiss/enrollment-detail-rows.ts) makes them: this module carries no code lists, so a
 * page whose loader makes the lines ships none (docs/decisions/043-a-first-visit-on-a-slow-phone.md).
 */
export function EnrollmentDetailsList({ rows }: { rows: EnrollmentDetailRows }) {
  return (
    <dl className="grid gap-x-8 gap-y-4 sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-sm font-medium text-steel-500">{label}</dt>
          <dd className={value === NOT_STATED ? "mt-1 italic text-steel-500" : "mt-1 break-words font-semibold text-steel-900"}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
