import crypto from "node:crypto";
import ical from "ical-generator";
import { writeTransaction, type DB } from "#db/connection";
import type { Role } from "#db/schema";
import { FEED_EXISTS } from "~/schemas/class-text";
import { organisationInstant } from "~/utils/class-time";
import { DomainError } from "~/utils/errors";
import { SESSION_KIND_LABELS } from "~/schemas/recognition-rpl-text";
import { recognitionFeedSessions } from "./recognition/recognition-session.server";

/**
 * Private iCalendar feeds (RFC 5545, written by ical-generator): one per learner (the sessions of
 * the classes they hold a seat in) and per trainer (the sessions they teach); each also carries
 * the RPL competency sessions booked for the learner, or with the trainer as assessor. The URL carries a
 * random token stored hashed, as API tokens are; renewing replaces it, so the old URL stops.
 */

const hash = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/** The path of a feed: the token is the only credential, so it is long and random. */
export const calendarFeedPath = (token: string) => `/calendar/${token}.ics`;

/**
 * Makes a person's feed token and returns it (shown once) with whether it replaced one, whose
 * address then stops working. Replacing is asked for (`replace`), never implied: a second "make"
 * (a form sent twice, another tab) is 409 FEED_EXISTS and leaves the address just made working.
 */
export async function makeCalendarFeed(db: DB, userId: string, input: { replace: boolean }, now = new Date()): Promise<{ token: string; replaced: boolean }> {
  const token = crypto.randomBytes(32).toString("base64url");
  const values = { token_hash: hash(token), created_at: now.toISOString() };
  return writeTransaction(db, async (trx) => {
    const existing = await trx.selectFrom("calendar_feeds").select("user_id").where("user_id", "=", userId).executeTakeFirst();
    if (existing && !input.replace) throw new DomainError(409, FEED_EXISTS);
    if (existing) await trx.updateTable("calendar_feeds").set(values).where("user_id", "=", userId).execute();
    else
      await trx
        .insertInto("calendar_feeds")
        .values({ user_id: userId, ...values })
        .execute();
    return { token, replaced: existing !== undefined };
  });
}

/** When the person's current feed address was made, or null when they have none. */
export async function calendarFeedCreatedAt(db: DB, userId: string): Promise<string | null> {
  return (await db.selectFrom("calendar_feeds").select("created_at").where("user_id", "=", userId).executeTakeFirst())?.created_at ?? null;
}

/** The iCalendar text of the feed a token opens, or null for an unknown token or an inactive account. */
export async function calendarFeed(db: DB, token: string, rtoName: string): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const owner = await db
    .selectFrom("calendar_feeds")
    .innerJoin("users", "users.id", "calendar_feeds.user_id")
    .select(["users.id", "users.role"])
    .where("calendar_feeds.token_hash", "=", hash(token))
    .where("users.is_active", "=", 1)
    .executeTakeFirst();
  if (!owner) return null;
  const sessions = await feedSessions(db, owner);
  const calendar = ical({ name: `${rtoName} classes`, prodId: { company: rtoName, product: "portal", language: "EN" } });
  for (const s of sessions) {
    calendar.createEvent({
      id: `${s.id}@classes`,
      start: organisationInstant(s.session_date, s.starts_at),
      end: organisationInstant(s.session_date, s.ends_at),
      summary: `${s.unit_code} ${s.course_name}`,
      location: s.location ?? undefined,
      description: s.trainer_name ? `Trainer: ${s.trainer_name}` : undefined,
    });
  }
  for (const s of await recognitionFeedSessions(db, owner)) {
    calendar.createEvent({
      id: `${s.id}@recognition`,
      start: organisationInstant(s.session_date, s.starts_at),
      end: organisationInstant(s.session_date, s.ends_at),
      summary: `${s.unit_code} RPL: ${SESSION_KIND_LABELS[s.kind].toLowerCase()}`,
      location: s.location,
      description: `Assessor: ${s.assessor_name}`,
    });
  }
  // ical-generator folds and joins the lines with CRLF but leaves the last one, END:VCALENDAR,
  // without its own; every content line ends with one, the last included, or strict readers
  // refuse the feed
  const text = calendar.toString();
  return text.endsWith("\r\n") ? text : `${text}\r\n`;
}

function feedSessions(db: DB, owner: { id: string; role: Role }) {
  let q = db
    .selectFrom("class_sessions as s")
    .innerJoin("classes as c", "c.id", "s.class_id")
    .innerJoin("courses", "courses.id", "c.course_id")
    .leftJoin("delivery_locations as l", "l.id", "c.location_id")
    .leftJoin("users as t", "t.id", "c.trainer_id")
    .select([
      "s.id",
      "s.session_date",
      "s.starts_at",
      "s.ends_at",
      "courses.name as course_name",
      "courses.unit_code",
      "l.name as location",
      "t.full_name as trainer_name",
    ])
    .where("c.cancelled_at", "is", null);
  q =
    owner.role === "student"
      ? q.where((eb) =>
          eb.exists(
            eb
              .selectFrom("enrollments as e")
              .select("e.id")
              .whereRef("e.class_id", "=", "c.id")
              .where("e.student_id", "=", owner.id)
              .where("e.status", "<>", "withdrawn"),
          ),
        )
      : q.where((eb) =>
          eb.or([
            eb("c.trainer_id", "=", owner.id),
            eb.exists(
              eb
                .selectFrom("enrollments as e")
                .select("e.id")
                .whereRef("e.class_id", "=", "c.id")
                .where("e.student_id", "=", owner.id)
                .where("e.status", "<>", "withdrawn"),
            ),
          ]),
        );
  return q.orderBy("s.session_date").orderBy("s.starts_at").limit(1000).execute();
}
