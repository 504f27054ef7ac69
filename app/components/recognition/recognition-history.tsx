import { TitledCard } from "~/components/ui";
import { DECISION_LABELS } from "~/schemas/recognition-text";
import { formatDate } from "~/utils/format";

export interface DecisionEntry {
  id: string;
  status: keyof typeof DECISION_LABELS;
  outcome_code: string | null;
  reasons: string;
  decided_on: string;
  decided_by: string | null;
  assessor: string | null;
  overturned_by_appeal: string | null;
}

/**
 * An application's decisions once an appeal has overturned one (docs/decisions/037): each kept,
 * oldest first, the overturned ones saying which appeal set them aside. Nothing while the
 * application has only its one decision, which the details already show.
 */
export function RecognitionHistory({ decisions, waiting }: { decisions: DecisionEntry[]; waiting: boolean }) {
  const overturned = decisions.filter((d) => d.overturned_by_appeal);
  if (overturned.length === 0) return null;
  return (
    <TitledCard title="Decisions">
      {waiting ? (
        <p className="mb-3 text-sm">Appeal {overturned.at(-1)!.overturned_by_appeal} was upheld: the application is being assessed again for a new decision.</p>
      ) : null}
      <ol className="space-y-3 text-sm" aria-label="Outcomes, oldest first">
        {decisions.map((d) => (
          <li key={d.id} className="break-words">
            <p className="font-semibold">
              {`${formatDate(d.decided_on)}: ${DECISION_LABELS[d.status]}${d.outcome_code ? ` (${d.outcome_code})` : ""}`}
              {d.decided_by ? ` by ${d.decided_by}` : ""}
              {d.overturned_by_appeal ? `, overturned on appeal ${d.overturned_by_appeal}` : ""}
            </p>
            <p className="whitespace-pre-line text-steel-700">{d.reasons}</p>
          </li>
        ))}
      </ol>
    </TitledCard>
  );
}
