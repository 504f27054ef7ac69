import { formatCents, formatDate } from "~/utils/format";

interface ClassOption {
  id: string;
  course: string;
  start_date: string;
  seats_left: number;
  price_cents: number;
  gst_treatment: string;
}

/**
 * The classes an employer may book, as radio cards: the date and the seats left come first, in
 * short words, so a phone at 360 px shows them whole (a closed select cut them off).
 */
export function ClassCards({ classes, value, onChange, error }: { classes: ClassOption[]; value: string; onChange: (id: string) => void; error?: string }) {
  return (
    <fieldset id="class_id" aria-describedby={error ? "class_id-error" : undefined} className="space-y-2">
      <legend className="font-semibold">Class</legend>
      {error ? (
        <p id="class_id-error" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {classes.length === 0 ? <p className="text-sm">No class has free seats just now.</p> : null}
      {classes.map((c) => (
        <label key={c.id} className="flex min-h-11 cursor-pointer items-start gap-3 rounded border border-steel-200 p-3 has-[:checked]:border-hivis-600">
          <input type="radio" name="class_id" value={c.id} checked={value === c.id} onChange={() => onChange(c.id)} className="mt-1 h-5 w-5" />
          <span className="min-w-0">
            <span className="block font-semibold">
              {formatDate(c.start_date)} · {c.seats_left} {c.seats_left === 1 ? "seat" : "seats"} left
            </span>
            <span className="block break-words text-sm">{c.course}</span>
            <span className="block text-sm text-steel-700">
              {formatCents(c.price_cents)} a seat, {c.gst_treatment === "gst_free" ? "GST-free" : "GST included"}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
