import { e2eDb } from "./e2e-db";

/** The dates the portal prints (12 Dec 2026, 1 Jul 2026: always three-letter months), for a YYYY-MM-DD date. */
export function shown(date: string): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return `${d} ${["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][m - 1]} ${y}`;
}

export function plusDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * The state rules refuse a booking, a notice or a result out of its time, and a browser cannot
 * wait for the assessment day: once booked and notified ahead, an assessment, its notices and its
 * candidate's checks are moved back by the same number of days, as if the days had gone by.
 */
export async function daysGoBy(assessmentId: string, days: number): Promise<void> {
  const db = e2eDb();
  const a = (await db.get<{ assessment_date: string; notice_due_on: string | null; created_at: string; candidate_id: string }>(
    "select assessment_date, notice_due_on, created_at, candidate_id from hrw_assessments where id = ?",
    assessmentId,
  ))!;
  const earlier = (at: string) => new Date(Date.parse(at) - days * 86_400_000).toISOString();
  // the candidate's checks (an AEN among them) were recorded that many days earlier too: a part
  // is assessed after the AEN was recorded, as NSW asks
  for (const check of await db.all<{ id: string; checked_at: string }>(
    "select id, checked_at from hrw_candidate_checks where candidate_id = ?",
    a.candidate_id,
  )) {
    await db.run("update hrw_candidate_checks set checked_at = ? where id = ?", earlier(check.checked_at), check.id);
  }
  // the booking was made that many days earlier too: no notice is dated before it
  await db.run(
    "update hrw_assessments set assessment_date = ?, notice_due_on = ?, created_at = ? where id = ?",
    plusDays(a.assessment_date, -days),
    a.notice_due_on ? plusDays(a.notice_due_on, -days) : null,
    earlier(a.created_at),
    assessmentId,
  );
  for (const n of await db.all<{ id: string; held_on: string; sent_on: string }>(
    "select id, held_on, sent_on from hrw_notices where assessment_id = ?",
    assessmentId,
  )) {
    await db.run("update hrw_notices set held_on = ?, sent_on = ? where id = ?", plusDays(n.held_on, -days), plusDays(n.sent_on, -days), n.id);
  }
}
