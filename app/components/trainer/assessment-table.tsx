import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { AssessmentStatusBadge } from "~/components/status-badges";
import type { AssessmentListItem } from "~/models/assessment.server";
import { cn } from "~/utils/cn";
import { formatDate } from "~/utils/format";
import { TableScroll } from "~/components/ui";

type Assessment = SerializeFrom<AssessmentListItem>;
export type AssessmentColumn = "student" | "course" | "date" | "type" | "status" | "score" | "assessor" | "feedback" | "evidence";

const HEADINGS: Record<AssessmentColumn, string> = {
  student: "Student",
  course: "Course",
  date: "Date",
  type: "Type",
  status: "Status",
  score: "Score",
  assessor: "Assessor",
  feedback: "Feedback",
  evidence: "Evidence",
};

const muted = (text: string) => <span className="text-steel-500">{text}</span>;

function cell(column: AssessmentColumn, a: Assessment, evidenceOf?: string) {
  switch (column) {
    case "student":
      return a.student.full_name;
    case "course":
      return a.course.name;
    case "date":
      return formatDate(a.assessment_date);
    case "type":
      return a.assessment_type;
    case "status":
      return <AssessmentStatusBadge status={a.status} />;
    case "score":
      return a.score !== null && a.max_score !== null ? `${a.score}/${a.max_score}` : muted("Not marked");
    case "assessor":
      return a.assessor?.full_name ?? muted("Unknown");
    case "feedback":
      return a.feedback ?? "";
    case "evidence":
      // only the assessor's own assessments: the evidence page is no one else's
      return evidenceOf && a.assessor?.id === evidenceOf ? (
        <Link to={`/trainer/evidence/unit/${a.id}`} className="font-semibold underline" aria-label={`Evidence for ${a.student.full_name}, ${a.course.name}`}>
          Evidence
        </Link>
      ) : (
        ""
      );
  }
}

const NO_WRAP = new Set<AssessmentColumn>(["date", "score"]);

/**
 * Assessments as the trainer's pages list them, in the columns a page asks for. The student's
 * name, when shown, heads its row.
 */
export function AssessmentTable({
  assessments,
  columns,
  caption,
  className,
  evidenceOf,
}: {
  assessments: Assessment[];
  columns: AssessmentColumn[];
  caption: string;
  className?: string;
  /** the signed-in trainer: their own assessments link to their evidence */
  evidenceOf?: string;
}) {
  return (
    <TableScroll label={caption}>
      <table className={cn("w-full text-left text-sm", className)}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-steel-200 text-xs uppercase tracking-wide text-steel-600">
            {columns.map((column, i) => (
              <th key={column} scope="col" className={cn("py-2 font-semibold", i < columns.length - 1 && "pr-3", column === "score" && "text-right")}>
                {HEADINGS[column]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {assessments.map((a) => (
            <tr key={a.id} className="border-b border-steel-100 align-top">
              {columns.map((column, i) => {
                const className = cn(
                  "py-2 text-steel-800",
                  i < columns.length - 1 && "pr-3",
                  NO_WRAP.has(column) && "whitespace-nowrap",
                  column === "score" && "text-right tabular-nums",
                );
                return column === "student" ? (
                  <th key={column} scope="row" className={cn(className, "font-semibold text-steel-900")}>
                    {cell(column, a, evidenceOf)}
                  </th>
                ) : (
                  <td key={column} className={className}>
                    {cell(column, a, evidenceOf)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
