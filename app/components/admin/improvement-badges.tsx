import { Badge } from "~/components/ui";
import { IMPROVEMENT_STATUS_LABELS, type ImprovementStatus } from "~/schemas/improvement-text";

/** An action's status, and "Overdue" beside it when it is past its due day and not closed. */
export function ImprovementStatusBadge({ status, overdue }: { status: ImprovementStatus; overdue: boolean }) {
  return (
    <span className="flex flex-wrap gap-1">
      <Badge tone={status === "closed" ? "green" : status === "in_progress" ? "blue" : "grey"}>{IMPROVEMENT_STATUS_LABELS[status]}</Badge>
      {overdue ? <Badge tone="red">Overdue</Badge> : null}
    </span>
  );
}
