import { Badge, type BadgeTone } from "~/components/ui";
import { INVOICE_STATUS_LABELS, type INVOICE_STATUSES } from "~/schemas/invoice-text";

const TONES: Record<(typeof INVOICE_STATUSES)[number], BadgeTone> = { owed: "blue", part_paid: "amber", overdue: "red", paid: "green", credited: "grey" };

/** Where an invoice stands, as a badge (the office's list, its page, the learner's invoices). */
export function InvoiceStatusBadge({ status }: { status: (typeof INVOICE_STATUSES)[number] }) {
  return <Badge tone={TONES[status]}>{INVOICE_STATUS_LABELS[status]}</Badge>;
}
