import { formatCents, plural } from "~/utils/format";

/** A booking's price as its invoice bills it: per seat, the seats, the GST included and the total. */
export function PriceSummary({ quote, id }: { quote: { seat_cents: number; seats: number; gst_cents: number; total_cents: number }; id?: string }) {
  return (
    <dl id={id} className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" aria-live="polite">
      <dt className="text-steel-600">Price per seat</dt>
      <dd>{formatCents(quote.seat_cents)}</dd>
      <dt className="text-steel-600">Seats</dt>
      <dd>{plural(quote.seats, "seat")}</dd>
      <dt className="text-steel-600">GST included</dt>
      <dd>{quote.gst_cents === 0 ? "None (GST-free)" : formatCents(quote.gst_cents)}</dd>
      <dt className="font-semibold">Total</dt>
      <dd className="font-semibold">{formatCents(quote.total_cents)}</dd>
    </dl>
  );
}
