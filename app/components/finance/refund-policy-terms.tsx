import { REFUND_POLICY } from "~/schemas/refund-policy";

/** The refund policy's terms as a list: the course page shows them to a learner, the booking form to an employer. */
export function RefundPolicyTerms({ className }: { className?: string }) {
  return (
    <ul className={className ?? "list-disc space-y-2 pl-5 text-sm leading-relaxed text-steel-800"}>
      {REFUND_POLICY.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
