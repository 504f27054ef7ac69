import { markAttendance } from "~/models/attendance.server";
import { markNotificationsRead } from "~/models/notification.server";
import { createClass } from "~/models/class.server";
import { publicHolidays } from "~/models/hrw/hrw-calendar.server";
import { joinWaitlist } from "~/models/waitlist.server";
import { classSchema } from "~/schemas/class";
import { addDays, organisationToday, weekdayOf as weekday } from "~/utils/organisation-calendar";
import type { DB } from "#db/connection";

/**
 * The demo's classes (docs/decisions/013-classes.md): past, running and upcoming, one full with a
 * waitlist, and the demo student's attendance. The demo student's classes take the dates their
 * enrolments are planned with (so nothing the other demo records say changes) and are made before
 * those enrolments (seedDemoStudentClasses); new upcoming classes for the catalogue hold no one yet.
 */

/** The state of the demo's yards: no class meets on its public holidays. */
const YARDS_STATE = "NSW";

/** Every day from start to end that `keep` accepts (weekdays by default), public holidays left out. */
function days(start: string, end: string, keep = (d: string) => weekday(d) !== 0 && weekday(d) !== 6): string[] {
  const out: string[] = [];
  for (let d = start; d <= end && out.length < 200; d = addDays(d, 1)) if (keep(d) && !publicHolidays(YARDS_STATE, Number(d.slice(0, 4))).has(d)) out.push(d);
  return out.length ? out : [start];
}

/** What the demo's classes are made with. */
interface DemoClassContext {
  now: Date;
  adminId: string;
  trainerId: string;
  courseIds: Map<string, string>;
  locationIds: string[];
}

/** A demo class as the seed uses it: its id and its sessions' days. */
export interface DemoClass {
  id: string;
  sessions: Array<{ id: string; date: string }>;
}

/** A demo student's enrolment to be: when they enrol (days ago) and the dates planned for it. */
interface PlannedEnrollment {
  daysAgo: number;
  start: string;
  end: string;
}

// added as the office adds one (createClass: the trainer credentialed for the unit throughout, its
// sessions within its dates), a month before it starts (today for one starting within the month),
// and before the day `openBy` when a learner enrols in it then
function classMaker(trx: DB, input: DemoClassContext) {
  return async (
    courseKey: string,
    start: string,
    end: string,
    seats: number,
    sessionDays: string[],
    times: [string, string],
    location = 0,
    openBy?: Date,
  ): Promise<DemoClass> => {
    const fields = classSchema.parse({
      start_date: start,
      end_date: end,
      seats,
      trainer_id: input.trainerId,
      location_id: input.locationIds[location],
      sessions: sessionDays.map((date) => ({ date, starts_at: times[0], ends_at: times[1] })),
    });
    const added = new Date(Math.min(input.now.getTime(), Date.parse(`${start}T00:00:00Z`) - 30 * 86_400_000, (openBy?.getTime() ?? Infinity) - 86_400_000));
    const made = await createClass(trx, input.courseIds.get(courseKey)!, fields, { id: input.adminId }, added);
    return { id: made.id, sessions: made.sessions.map((s) => ({ id: s.id, date: s.date })) };
  };
}

/**
 * The demo student's three classes, made before their enrolments so that enrolling seats them
 * (createEnrollment takes a learner into a class not yet started on the day they enrol, and the
 * class gives the enrolment its dates and its yard): a past dogging class, a running evening
 * class at the second yard and a full upcoming tower crane class.
 */
export async function seedDemoStudentClasses(
  trx: DB,
  input: DemoClassContext & { dogging: PlannedEnrollment; ri: PlannedEnrollment; tower: PlannedEnrollment },
): Promise<{ dogging: DemoClass; ri: DemoClass; tower: DemoClass }> {
  const addClass = classMaker(trx, input);
  const openBy = (p: PlannedEnrollment) => new Date(input.now.getTime() - p.daysAgo * 86_400_000);
  const { dogging, ri, tower } = input;
  return {
    // past: a daytime class
    dogging: await addClass("dogging", dogging.start, dogging.end, 6, days(dogging.start, dogging.end), ["07:30", "15:30"], 0, openBy(dogging)),
    // running: a part-time evening class on Tuesdays and Thursdays, at the second yard
    ri: await addClass(
      "rigging-intermediate",
      ri.start,
      ri.end,
      8,
      days(ri.start, ri.end, (d) => weekday(d) === 2 || weekday(d) === 4),
      ["18:00", "21:00"],
      1,
      openBy(ri),
    ),
    // upcoming: the tower crane takes one learner at a time
    tower: await addClass("tower-crane", tower.start, tower.end, 1, days(tower.start, tower.end), ["07:00", "15:00"], 0, openBy(tower)),
  };
}

export async function seedDemoClasses(
  trx: DB,
  input: DemoClassContext & { demoStudentId: string; waitingStudentIds: string[]; studentClasses: { dogging: DemoClass; ri: DemoClass; tower: DemoClass } },
): Promise<void> {
  const { now, courseIds } = input;
  const today = organisationToday(now);
  const addClass = classMaker(trx, input);
  const trainer = { id: input.trainerId, role: "trainer" as const };
  const enrollmentOf = (studentId: string, courseKey: string) =>
    trx
      .selectFrom("enrollments")
      .select(["id", "planned_start_date", "planned_end_date"])
      .where("student_id", "=", studentId)
      .where("course_id", "=", courseIds.get(courseKey)!)
      .executeTakeFirstOrThrow();

  // Past: the demo student's dogging class, attended throughout.
  const dogging = await enrollmentOf(input.demoStudentId, "dogging");
  for (const s of input.studentClasses.dogging.sessions) {
    await markAttendance(trx, { session_id: s.id, enrollment_id: dogging.id, status: "present", user: trainer, now: new Date(`${s.date}T06:00:00.000Z`) });
  }

  // Running: rigging intermediate; the demo student came to most sessions so far, once late and once absent.
  const ri = await enrollmentOf(input.demoStudentId, "rigging-intermediate");
  const held = input.studentClasses.ri.sessions.filter((s) => s.date < today);
  for (const [i, s] of held.entries()) {
    const status = i === 3 ? "late" : i === held.length - 3 ? "absent" : "present";
    await markAttendance(trx, { session_id: s.id, enrollment_id: ri.id, status, user: trainer, now: new Date(`${s.date}T10:00:00.000Z`) });
  }
  // The demo student has kept up with their notifications: those before the last class day are
  // read, so the list opens on a few new ones (that day's roll among them), not on weeks of them.
  const lastDay = held.at(-1)?.date;
  if (lastDay) await markNotificationsRead(trx, input.demoStudentId, new Date(`${lastDay}T00:00:00.000Z`));

  // Upcoming and full: the tower crane class the demo student booked takes one learner at a
  // time on the crane, and two learners wait for its seat; a later class has room.
  const tower = await enrollmentOf(input.demoStudentId, "tower-crane");
  const full = input.studentClasses.tower;
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
