import { z } from "zod";
import { attendanceSchema, classPatchSchema, classSchema } from "~/schemas/class";
import { requests, responses } from "./schemas";

/** The /api shapes of classes (docs/decisions/013-classes.md), in the registries the OpenAPI document reads. */

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe("YYYY-MM-DD");
const time = z
  .string()
  .regex(/^\d{2}:\d{2}$/)
  .describe("HH:MM in the RTO's time zone");

export const classRequest = classSchema.register(requests, { id: "ClassCreate" });
export const classUpdateRequest = classPatchSchema.register(requests, { id: "ClassUpdate" });
export const attendanceRequest = attendanceSchema.register(requests, { id: "AttendanceMark" });

export const classResponse = z
  .strictObject({
    id: z.string(),
    course_id: z.string(),
    start_date: date,
    end_date: date,
    location: z.string().nullable(),
    trainer_name: z.string().nullable(),
    seats: z.number().int().min(1).max(100),
    seats_left: z.number().int().min(0),
    sessions: z.array(z.strictObject({ date, starts_at: time, ends_at: time })),
  })
  .register(responses, { id: "Class" });
export type ClassResponse = z.infer<typeof classResponse>;

export const waitlistResponse = z
  .strictObject({
    class_id: z.string(),
    status: z.enum(["waiting", "offered", "accepted", "expired", "left"]),
    place: z.number().int().min(1).nullable().describe("Place among those waiting (1 = next); null once offered"),
    offer_expires_at: z.string().nullable(),
  })
  .register(responses, { id: "WaitlistEntry" });

export const rosterResponse = z
  .strictObject({
    id: z.string(),
    course_name: z.string(),
    start_date: date,
    end_date: date,
    location: z.string().nullable(),
    sessions: z.array(z.strictObject({ id: z.string(), date, starts_at: time, ends_at: time })),
    learners: z.array(
      z.strictObject({
        enrollment_id: z.string(),
        full_name: z.string(),
        marks: z.record(z.string(), z.enum(["present", "absent", "late"])).describe("Mark per session id"),
      }),
    ),
    today: date,
  })
  .register(responses, { id: "ClassRoster" });

/** A class as the /api shows it. */
export function classForApi(c: {
  id: string;
  course_id: string;
  start_date: string;
  end_date: string;
  location: string | null;
  trainer_name: string | null;
  seats: number;
  seats_left: number;
  sessions: { date: string; starts_at: string; ends_at: string }[];
}): ClassResponse {
  return {
    id: c.id,
    course_id: c.course_id,
    start_date: c.start_date,
    end_date: c.end_date,
    location: c.location,
    trainer_name: c.trainer_name,
    seats: c.seats,
    seats_left: c.seats_left,
    sessions: c.sessions.map((s) => ({ date: s.date, starts_at: s.starts_at, ends_at: s.ends_at })),
  };
}
