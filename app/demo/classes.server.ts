import { markAttendance } from "~/models/attendance.server";
import { createClass } from "~/models/class.server";
import { joinWaitlist } from "~/models/waitlist.server";
import { classSchema } from "~/schemas/class";
import { addDays, organisationToday, weekdayOf as weekday } from "~/utils/organisation-calendar";
import type { DB } from "#db/connection";

/**
 * The demo's classes (docs/decisions/013-classes.md): past, running and upcoming, one full with a
 * waitlist, and the demo student's attendance. Built around the enrolments the seed already
 * made, taking each class's dates from the enrolment's planned dates (so nothing the other
 * demo records say changes); new upcoming classes for the catalogue hold no one yet.
 */

/** Every day from start to end that `keep` accepts (weekdays by default). */
function days(start: string, end: string, keep = (d: string) => weekday(d) !== 0 && weekday(d) !== 6): string[] {
  const out: string[] = [];
  for (let d = start; d <= end && out.length < 200; d = addDays(d, 1)) if (keep(d)) out.push(d);
  return out.length ? out : [start];
}

export async function seedDemoClasses(
  trx: DB,
  input: { now: Date; adminId: string; trainerId: string; courseIds: Map<string, string>; locationIds: string[]; demoStudentId: string; waitingStudentIds: string[] },
): Promise<void> {
  const { now, trainerId, courseIds, locationIds } = input;
  const today = organisationToday(now);

  // added as the office adds one (createClass: the trainer credentialed for the unit throughout, its
  // sessions within its dates), a month before it starts (today for one starting within the month)
  const addClass = async (courseKey: string, start: string, end: string, seats: number, sessionDays: string[], times: [string, string], location = 0) => {
    const fields = classSchema.parse({ start_date: start, end_date: end, seats, trainer_id: trainerId, location_id: locationIds[location], sessions: sessionDays.map((date) => ({ date, starts_at: times[0], ends_at: times[1] })) });
    const added = new Date(Math.min(now.getTime(), Date.parse(`${start}T00:00:00Z`) - 30 * 86_400_000));
    const made = await createClass(trx, courseIds.get(courseKey)!, fields, { id: input.adminId }, added);
    return { id: made.id, sessions: made.sessions.map((s) => ({ id: s.id, date: s.date })) };
  };
  const trainer = { id: trainerId, role: "trainer" as const };
  const enrollmentOf = (studentId: string, courseKey: string) =>
    trx
      .selectFrom("enrollments")
      .select(["id", "planned_start_date", "planned_end_date"])
      .where("student_id", "=", studentId)
      .where("course_id", "=", courseIds.get(courseKey)!)
      .executeTakeFirstOrThrow();

  // Each class is tied to the demo student's enrolment directly: the seed's enrolments are written
  // before their classes (seed.server.ts says why), and createEnrollment seats a learner only in a
  // class not yet started.
  // Past: the demo student's dogging course ran as a daytime class, attended throughout.
  const dogging = await enrollmentOf(input.demoStudentId, "dogging");
  const past = await addClass("dogging", dogging.planned_start_date!, dogging.planned_end_date!, 6, days(dogging.planned_start_date!, dogging.planned_end_date!), ["07:30", "15:30"]);
  await trx.updateTable("enrollments").set({ class_id: past.id }).where("id", "=", dogging.id).execute();
  for (const s of past.sessions) {
    await markAttendance(trx, { session_id: s.id, enrollment_id: dogging.id, status: "present", user: trainer, now: new Date(`${s.date}T06:00:00.000Z`) });
  }

  // Running: rigging intermediate, a part-time evening class on Tuesdays and Thursdays; the
  // demo student came to most sessions so far, once late and once absent.
  const ri = await enrollmentOf(input.demoStudentId, "rigging-intermediate");
  const running = await addClass("rigging-intermediate", ri.planned_start_date!, ri.planned_end_date!, 8, days(ri.planned_start_date!, ri.planned_end_date!, (d) => weekday(d) === 2 || weekday(d) === 4), ["18:00", "21:00"], 1);
  await trx.updateTable("enrollments").set({ class_id: running.id }).where("id", "=", ri.id).execute();
  const held = running.sessions.filter((s) => s.date < today);
  for (const [i, s] of held.entries()) {
    const status = i === 3 ? "late" : i === held.length - 3 ? "absent" : "present";
    await markAttendance(trx, { session_id: s.id, enrollment_id: ri.id, status, user: trainer, now: new Date(`${s.date}T10:00:00.000Z`) });
  }

  // Upcoming and full: the tower crane class the demo student booked takes one learner at a
  // time on the crane, and two learners wait for its seat; a later class has room.
  const tower = await enrollmentOf(input.demoStudentId, "tower-crane");
  const full = await addClass("tower-crane", tower.planned_start_date!, tower.planned_end_date!, 1, days(tower.planned_start_date!, tower.planned_end_date!), ["07:00", "15:00"]);
  await trx.updateTable("enrollments").set({ class_id: full.id }).where("id", "=", tower.id).execute();
  const enrolledInTower = new Set(
    (await trx.selectFrom("enrollments").select("student_id").where("course_id", "=", courseIds.get("tower-crane")!).execute()).map((e) => e.student_id),
  );
  for (const [i, studentId] of input.waitingStudentIds.filter((s) => !enrolledInTower.has(s)).entries()) {
    await joinWaitlist(trx, { classId: full.id, studentId, now: new Date(now.getTime() - (3 - i) * 86_400_000) });
  }
  const laterTower = addDays(tower.planned_end_date!, 14);
  await addClass("tower-crane", laterTower, addDays(laterTower, 4), 4, days(laterTower, addDays(laterTower, 4)), ["07:00", "15:00"]);

  // Upcoming classes with seats for the catalogue.
  const mondayAfter = (from: string) => {
    let d = addDays(from, 1);
    while (weekday(d) !== 1) d = addDays(d, 1);
    return d;
  };
  const week1 = mondayAfter(addDays(today, 6));
  const week3 = addDays(week1, 14);
  for (const [key, length, seats] of [
    ["dogging", 2, 8],
    ["rigging-basic", 4, 10],
    ["slewing-20t", 4, 6],
    ["non-slewing", 3, 6],
  ] as const) {
    for (const [n, start] of [week1, week3].entries()) {
      const end = addDays(start, length - 1);
      await addClass(key, start, end, seats, days(start, end), ["07:30", "15:30"], n % 2);
    }
  }
}
