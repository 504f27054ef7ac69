import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import * as refereesApi from "~/routes/api+/recognition.$id.referee-requests";
import * as sessionsApi from "~/routes/api+/recognition.$id.sessions";
import * as rescheduleApi from "~/routes/api+/recognition.$id.sessions.reschedule";
import * as cancelApi from "~/routes/api+/recognition.$id.sessions.cancel";
import { applyForRecognition, assignRecognitionAssessor } from "~/models/recognition/recognition.server";
import { submitRefereeReport } from "~/models/recognition/recognition-referee.server";
import { refereeReportInput } from "~/schemas/recognition-rpl";
import { addDays, organisationToday } from "~/utils/organisation-calendar";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { conformsTo } from "../../tests/support/json-schema";
import { makeCourse, makeEnrollment } from "../../tests/support/factories";
import { call, caller, type Caller, type RouteModule } from "../../tests/support/api-calls";
import { openApiDocument } from "./openapi";

/**
 * An RPL's third-party reports and competency sessions over /api: the pages' models and schemas,
 * each answer checked against the OpenAPI document, each role's view and the refusals.
 */

const doc = openApiDocument() as unknown as Parameters<typeof conformsTo>[0];
const conforms = (response: Response, path: string, method: string) => conformsTo(doc, response, path, method);
const mod = (m: unknown) => m as RouteModule;
const REFEREES = "/api/recognition/{id}/referee-requests";
const SESSIONS = "/api/recognition/{id}/sessions";
const RESCHEDULE = "/api/recognition/{id}/sessions/reschedule";
const CANCEL = "/api/recognition/{id}/sessions/cancel";

let db: DB;
let cleanup: () => Promise<void>;
let admin: Caller;
let assessor: Caller;
let otherTrainer: Caller;
let learner: Caller;
let stranger: Caller;
let location: string;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  admin = await caller(db, "admin");
  assessor = await caller(db, "trainer", { full_name: "Assessor Rpl" });
  otherTrainer = await caller(db, "trainer");
  learner = await caller(db, "student");
  stranger = await caller(db, "student");
  location = crypto.randomUUID();
  const at = new Date().toISOString();
  await db
    .insertInto("delivery_locations")
    .values({
      id: location,
      identifier: "APIYARD",
      name: "Yard",
      suburb: "Eagle Farm",
      postcode: "4009",
      state: "QLD",
      country: "1101",
      created_at: at,
      updated_at: at,
    })
    .execute();
});
afterAll(async () => cleanup());

async function rplWithAssessor() {
  const course = await makeCourse(db, { unit_code: `APIS${crypto.randomUUID().slice(0, 4).toUpperCase()}` });
  const enrollment = await makeEnrollment(db, learner.id, course.id);
  const r = await applyForRecognition(
    db,
    { id: learner.id, role: "student" },
    { enrollment_id: enrollment.id, kind: "rpl", statement: "Years of rigging" },
    learner.id,
  );
  await assignRecognitionAssessor(db, { id: admin.id, role: "admin" }, r.id, { assessor_id: assessor.id }, admin.id);
  return r.id;
}

describe("RPL steps over /api", () => {
  it("referee requests: the assessor asks, the learner sees who and whether, the assessor reads the report", async () => {
    const id = await rplWithAssessor();
    const asked = await conforms(
      await call(mod(refereesApi), "POST", "/x", {
        token: assessor.token,
        params: { id },
        json: { referee_name: "Pat Leading-Hand", referee_email: "pat@site.example", relationship: "Leading hand" },
      }),
      REFEREES,
      "post",
    );
    expect(asked).toMatchObject({ state: "waiting", referee_email: "pat@site.example", report: null });
    // the learner asks nobody; a stranger, another trainer and a bad body are refused
    expect(
      (await call(mod(refereesApi), "POST", "/x", { token: learner.token, params: { id }, json: { referee_name: "Me", referee_email: "me@site.example" } }))
        .status,
    ).toBe(403);
    expect(
      (await call(mod(refereesApi), "POST", "/x", { token: otherTrainer.token, params: { id }, json: { referee_name: "X", referee_email: "x@site.example" } }))
        .status,
    ).toBe(404);
    await conforms(
      await call(mod(refereesApi), "POST", "/x", {
        token: admin.token,
        params: { id },
        json: { referee_name: "X", referee_email: "not an address", extra: 1 },
      }),
      REFEREES,
      "post",
    );
    expect((await call(mod(refereesApi), "GET", "/x", { token: stranger.token, params: { id } })).status).toBe(404);

    // the referee answers through the page's model (the link's token is only in the mail)
    const token = await db.selectFrom("outbox_messages").select("data").where("key", "=", `recognition-referee-request:${asked.id}`).executeTakeFirstOrThrow();
    const link = JSON.parse(token.data as string).link as string;
    await submitRefereeReport(
      db,
      link.split("/").pop()!,
      refereeReportInput.parse({
        reporter_name: "Pat",
        reporter_role: "Leading hand",
        reporter_organisation: "Site Co",
        reporter_phone: "0400 000 000",
        known_how: "Worked together",
        work_witnessed: "Rigging daily",
        worked_from: "2022-01-01",
        worked_to: "2023-01-01",
        declaration: "on",
      }),
    );
    const staff = await conforms(await call(mod(refereesApi), "GET", "/x", { token: assessor.token, params: { id } }), REFEREES, "get");
    expect(staff[0]).toMatchObject({ state: "received", report: { organisation: "Site Co", work_witnessed: "Rigging daily" } });
    const own = await conforms(await call(mod(refereesApi), "GET", "/x", { token: learner.token, params: { id } }), REFEREES, "get");
    expect(own[0]).toMatchObject({ state: "received", referee_email: null, report: null });
  });

  it("sessions: booked by the assessor, listed for the learner; a clash and a past time are refused", async () => {
    const id = await rplWithAssessor();
    const day = addDays(organisationToday(), 21);
    const body = { kind: "practical", session_date: day, starts_at: "08:00", duration_minutes: 120, location_id: location, notes: "Steel caps" };
    const booked = await conforms(await call(mod(sessionsApi), "POST", "/x", { token: assessor.token, params: { id }, json: body }), SESSIONS, "post");
    expect(booked).toMatchObject({ kind: "practical", starts_at: "08:00", ends_at: "10:00", location: { id: location } });
    const clash = await call(mod(sessionsApi), "POST", "/x", { token: admin.token, params: { id }, json: { ...body, starts_at: "09:00" } });
    expect(clash.status).toBe(409);
    expect((await conforms(clash, SESSIONS, "post")).detail).toContain("already booked");
    const past = await call(mod(sessionsApi), "POST", "/x", {
      token: admin.token,
      params: { id },
      json: { ...body, session_date: addDays(organisationToday(), -2) },
    });
    expect(past.status).toBe(422);
    await conforms(past, SESSIONS, "post");
    expect((await call(mod(sessionsApi), "POST", "/x", { token: learner.token, params: { id }, json: body })).status).toBe(403);
    const listed = await conforms(await call(mod(sessionsApi), "GET", "/x", { token: learner.token, params: { id } }), SESSIONS, "get");
    expect(listed.map((s: { id: string }) => s.id)).toEqual([booked.id]);
    expect((await call(mod(sessionsApi), "GET", "/x", { token: stranger.token, params: { id } })).status).toBe(404);
  });

  it("sessions: moved and cancelled by the assessor; the learner, another trainer and a cancelled session are refused", async () => {
    const id = await rplWithAssessor();
    const day = addDays(organisationToday(), 28);
    const body = { kind: "conversation", session_date: day, starts_at: "08:00", duration_minutes: 60, location_id: location };
    const booked = await conforms(await call(mod(sessionsApi), "POST", "/x", { token: assessor.token, params: { id }, json: body }), SESSIONS, "post");
    const move = {
      session_id: booked.id,
      session_date: addDays(day, 1),
      starts_at: "13:30",
      duration_minutes: 90,
      location_id: location,
      notes: "Bring the log book",
    };
    const moved = await conforms(await call(mod(rescheduleApi), "POST", "/x", { token: assessor.token, params: { id }, json: move }), RESCHEDULE, "post");
    expect(moved).toMatchObject({ id: booked.id, session_date: addDays(day, 1), starts_at: "13:30", ends_at: "15:00", notes: "Bring the log book" });
    // refusals change nothing: the learner (403), another trainer (404), a past day (422), an unknown field (422)
    expect((await call(mod(rescheduleApi), "POST", "/x", { token: learner.token, params: { id }, json: move })).status).toBe(403);
    expect((await call(mod(rescheduleApi), "POST", "/x", { token: otherTrainer.token, params: { id }, json: move })).status).toBe(404);
    const past = await call(mod(rescheduleApi), "POST", "/x", {
      token: admin.token,
      params: { id },
      json: { ...move, session_date: addDays(organisationToday(), -1) },
    });
    expect(past.status).toBe(422);
    await conforms(past, RESCHEDULE, "post");
    expect((await call(mod(rescheduleApi), "POST", "/x", { token: admin.token, params: { id }, json: { ...move, extra: 1 } })).status).toBe(422);
    const unknown = await call(mod(rescheduleApi), "POST", "/x", { token: admin.token, params: { id }, json: { ...move, session_id: crypto.randomUUID() } });
    expect(unknown.status).toBe(404);
    const still = await conforms(await call(mod(sessionsApi), "GET", "/x", { token: learner.token, params: { id } }), SESSIONS, "get");
    expect(still[0]).toMatchObject({ session_date: addDays(day, 1), starts_at: "13:30", cancelled_at: null });

    expect(
      (await call(mod(cancelApi), "POST", "/x", { token: learner.token, params: { id }, json: { session_id: booked.id, cancel_reason: "No" } })).status,
    ).toBe(403);
    expect((await call(mod(cancelApi), "POST", "/x", { token: assessor.token, params: { id }, json: { session_id: booked.id } })).status).toBe(422);
    const cancelled = await call(mod(cancelApi), "POST", "/x", {
      token: assessor.token,
      params: { id },
      json: { session_id: booked.id, cancel_reason: "Crane out of service" },
    });
    expect(cancelled.status).toBe(204);
    const again = await call(mod(cancelApi), "POST", "/x", { token: admin.token, params: { id }, json: { session_id: booked.id, cancel_reason: "Twice" } });
    expect(again.status).toBe(409);
    await conforms(again, CANCEL, "post");
    expect((await call(mod(rescheduleApi), "POST", "/x", { token: assessor.token, params: { id }, json: move })).status).toBe(409);
    const listed = await conforms(await call(mod(sessionsApi), "GET", "/x", { token: learner.token, params: { id } }), SESSIONS, "get");
    expect(listed[0]).toMatchObject({ id: booked.id, cancel_reason: "Crane out of service" });
    expect(listed[0].cancelled_at).not.toBeNull();
  });
});
