import crypto from "node:crypto";
import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * A learner's attendance notifications become one per day: every roll mark used to add its own
 * event ("attendance.marked", filed under the enrolment, dozens unread for a learner in a long
 * class). The old events go, and each day the learner has marks on gets one event
 * ("attendance.day", entity "attendance", its id the day) in the words the app now writes, dated
 * at the day's latest mark, so what the learner had already read stays read. The words are a
 * frozen copy of app/models/attendance-notice.ts (a migration never imports the app).
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const day = (iso: string) => `${Number(iso.slice(8, 10))} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;
const clock = (hhmm: string) => {
  const hour = Number(hhmm.slice(0, 2));
  return `${hour % 12 === 0 ? 12 : hour % 12}:${hhmm.slice(3, 5)} ${hour < 12 ? "am" : "pm"}`;
};

export async function up(db: Kysely<any>): Promise<void> {
  const marks: Array<{ student_id: string; session_date: string; starts_at: string; course: string; status: string; marked_by: string | null; marked_at: string }> = await db
    .selectFrom("attendance as a")
    .innerJoin("class_sessions as s", "s.id", "a.session_id")
    .innerJoin("enrollments as e", "e.id", "a.enrollment_id")
    .innerJoin("courses as c", "c.id", "e.course_id")
    .select(["e.student_id", "s.session_date", "s.starts_at", "c.name as course", "a.status", "a.marked_by", "a.marked_at"])
    .orderBy("s.session_date")
    .orderBy("s.starts_at")
    .orderBy("c.name")
    .execute();
  await db.deleteFrom("events").where("type", "=", "attendance.marked").execute();
  const days = new Map<string, typeof marks>();
  for (const m of marks) {
    const key = `${m.student_id} ${m.session_date}`;
    days.set(key, [...(days.get(key) ?? []), m]);
  }
  for (const group of days.values()) {
    const first = group[0]!;
    const latest = group.reduce((a, b) => (b.marked_at > a.marked_at ? b : a));
    const timed = group.length > 1;
    const parts = group.map((m) => `${m.course}${timed ? ` at ${clock(m.starts_at)}` : ""}, ${m.status}`);
    await db
      .insertInto("events")
      .values({
        id: crypto.randomUUID(),
        actor_id: latest.marked_by,
        subject_user_id: first.student_id,
        type: "attendance.day",
        entity_type: "attendance",
        entity_id: first.session_date,
        message: `Attendance on ${day(first.session_date)}: ${parts.join("; ")}.`,
        created_at: latest.marked_at,
      })
      .execute();
  }
}

export async function down(): Promise<void> {
  // the per-mark events are not rebuilt: the day's notification says what they said
}
