import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeCourse } from "../../tests/support/factories";
import { bodyOf, call, caller, type Caller, type RouteModule } from "../../tests/support/api-calls";
import { recordCandidateCheck } from "~/models/hrw/hrw-candidate.server";
import { addAccreditation } from "~/models/hrw/hrw-register.server";
import { businessDaysBefore } from "~/models/hrw/hrw-calendar.server";
import { HRW_MESSAGES } from "~/schemas/hrw-codes";
import { addDays, organisationToday } from "~/utils/organisation-calendar";
import * as audit from "~/routes/api+/admin.hrw-assessments";
import * as book from "~/routes/api+/hrw.assessments";
import * as notice from "~/routes/api+/hrw.assessments.$id.notice";
import * as results from "~/routes/api+/hrw.assessments.$id.results";
import * as nsa from "~/routes/api+/hrw.assessments.$id.nsa";
import * as mine from "~/routes/api+/hrw.assessments.my";
import * as courseRoute from "~/routes/api+/admin.courses.$id";
import * as aenRoute from "~/routes/api+/hrw.candidates.$id.aen";
import * as rulesRoute from "~/routes/api+/admin.hrw.rules";
import * as currencyRoute from "~/routes/api+/hrw.currency";
import { bookAssessment } from "~/models/hrw/hrw-assessment.server";

let db: DB;
let cleanup: () => Promise<void>;
let admin: Caller;
let assessor: Caller;
let otherTrainer: Caller;
let candidate: Caller;
let otherStudent: Caller;
let courseId: string;
let locationId: string;
const today = organisationToday();
const m = (mod: unknown) => mod as RouteModule;
type Listed = { assessments: Array<{ candidate: { id: string }; application_deadline: string | null }> };

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  admin = await caller(db, "admin");
  assessor = await caller(db, "trainer");
  otherTrainer = await caller(db, "trainer");
  candidate = await caller(db, "student");
  otherStudent = await caller(db, "student");
  courseId = (await makeCourse(db, { name: "Non-slewing mobile crane" })).id;
  locationId = crypto.randomUUID();
  const at = new Date().toISOString();
  await db
    .insertInto("delivery_locations")
    .values({
      id: locationId,
      identifier: "APIYARD",
      name: "API yard",
      suburb: null,
      postcode: null,
      state: null,
      country: "1101",
      created_at: at,
      updated_at: at,
    })
    .execute();
  for (const who of [candidate, otherStudent]) {
    await recordCandidateCheck(db, who.id, { kind: "age", date_of_birth: "1990-01-01" }, admin.id);
    await recordCandidateCheck(db, who.id, { kind: "identity", documents: ["passport", "driver_licence"] }, admin.id);
  }
  // the assessor's CN accreditation; the other trainer is accredited for C2 only
  await addAccreditation(
    db,
    assessor.id,
    { regulator: "QLD", number: `QA-${at}`, classes: ["CN"], starts_on: "2020-01-01", expires_on: "2099-12-31" },
    admin.id,
  );
  await addAccreditation(
    db,
    otherTrainer.id,
    { regulator: "QLD", number: `QB-${at}`, classes: ["C2"], starts_on: "2020-01-01", expires_on: "2099-12-31" },
    admin.id,
  );
});
afterAll(() => cleanup());

/** A QLD booking over /api, a fortnight ahead: QLD's notice is due 3 business days before. */
const bookFor = (who: Caller, assessorId: string, token = assessor.token) =>
  call(m(book), "POST", "/api/hrw/assessments", {
    token,
    json: {
      candidate_id: who.id,
      course_id: courseId,
      state: "QLD",
      assessment_date: addDays(today, 14),
      start_time: "07:30",
      location_id: locationId,
      assessor_id: assessorId,
      plant_description: "Franna AT-22",
      plant_registration: "FR22-001",
    },
  });
/**
 * The booking as if made a fortnight ago for today, so its parts can be recorded today: a
 * booking is taken only ahead of its notice deadline, and no result is for a day to come.
 */
async function heldToday(id: string): Promise<void> {
  await db
    .updateTable("hrw_assessments")
    .set({ assessment_date: today, notice_due_on: businessDaysBefore(today, 3, "QLD"), created_at: new Date(Date.now() - 14 * 86_400_000).toISOString() })
    .where("id", "=", id)
    .execute();
}

const step = (mod: unknown, path: string, id: string, json: unknown, token = assessor.token) =>
  call(m(mod), "POST", `/api/hrw/assessments/${id}/${path}`, { token, json, params: { id } });

describe("HRW assessments over /api", () => {
  it("the licence class is set with PUT /api/admin/courses/{id}; its prerequisites default by class", async () => {
    const put = (json: unknown) => call(m(courseRoute), "PUT", "/x", { token: admin.token, params: { id: courseId }, json });
    expect(await bodyOf(await put({ licence_class: "RB" }))).toMatchObject({ licence_class: "RB", licence_prerequisites: ["DG"] });
    expect(await bodyOf(await put({ licence_prerequisites: ["DG", "CN"] }))).toMatchObject({ licence_class: "RB", licence_prerequisites: ["DG", "CN"] });
    expect((await put({ licence_class: "XX" })).status).toBe(422);
    expect(await bodyOf(await put({ licence_class: "CN" }))).toMatchObject({ licence_class: "CN", licence_prerequisites: [] });
  });

  it("an assessor books, gives notice, records the parts and the NSA, as themselves only", async () => {
    const booked = await bookFor(candidate, assessor.id);
    expect(booked.status).toBe(201);
    const { id, notice_due_on } = (await bodyOf(booked)) as { id: string; notice_due_on: string };
    expect(notice_due_on).toBe(businessDaysBefore(addDays(today, 14), 3, "QLD"));
    await heldToday(id);
    const part = (p: string, token?: string) => step(results, "results", id, { part: p, result: "satisfactory", assessed_on: today }, token);

    const early = await part("knowledge");
    expect(early.status).toBe(409);
    expect((await bodyOf(early)).detail).toMatch(/^Record the regulator's notice for /);
    expect((await step(notice, "notice", id, { notice_reference: "Q-1" }, otherTrainer.token)).status).toBe(403);
    expect((await step(notice, "notice", id, { notice_reference: "Q-1" }, admin.token)).status).toBe(403);
    expect((await step(notice, "notice", id, { notice_reference: "Q-1", sent_on: addDays(today, -7) })).status).toBe(201);
    expect((await part("knowledge", otherTrainer.token)).status).toBe(403);
    expect((await part("knowledge", candidate.token)).status).toBe(403);
    expect((await part("knowledge")).status).toBe(201);
    expect((await step(nsa, "nsa", id, { nsa_number: `NSA-${id}`, nsa_date: today })).status).toBe(409);
    expect((await part("calculations")).status).toBe(201);
    expect((await part("practical")).status).toBe(201);
    expect((await step(results, "results", id, { part: "practical", result: "maybe", assessed_on: today })).status).toBe(422);
    const issued = await step(nsa, "nsa", id, { nsa_number: `NSA-${id}`, nsa_date: today });
    expect(issued.status).toBe(201);
    expect(await bodyOf(issued)).toMatchObject({ stage: "nsa_issued", nsa_number: `NSA-${id}`, accreditation_number: expect.stringMatching(/^QA-/) });
  });

  it("a result for a class the assessor's accreditation does not cover is a 409 naming the class and date", async () => {
    const { id } = (await bodyOf(await bookFor(otherStudent, otherTrainer.id))) as { id: string };
    await heldToday(id);
    expect((await step(notice, "notice", id, { notice_reference: "Q-2", sent_on: addDays(today, -7) }, otherTrainer.token)).status).toBe(201);
    const refused = await step(results, "results", id, { part: "knowledge", result: "satisfactory", assessed_on: today }, otherTrainer.token);
    expect(refused.status).toBe(409);
    const [y, mo, d] = today.split("-").map(Number) as [number, number, number];
    const shown = new Intl.DateTimeFormat("en-AU", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(Date.UTC(y, mo - 1, d));
    expect((await bodyOf(refused)).detail).toBe(`Your accreditation does not cover CN on ${shown}`);
  });

  it("a student sees only their own assessments; the audit is the administrators'", async () => {
    const own = await bodyOf<Listed>(await call(m(mine), "GET", "/api/hrw/assessments/my", { token: candidate.token }));
    expect(own.assessments.map((a) => a.candidate.id)).toEqual([candidate.id]);
    expect(own.assessments[0]!.application_deadline).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const other = await bodyOf<Listed>(await call(m(mine), "GET", "/api/hrw/assessments/my", { token: otherStudent.token }));
    expect(other.assessments.map((a) => a.candidate.id)).toEqual([otherStudent.id]);
    expect((await call(m(mine), "GET", "/api/hrw/assessments/my", { token: assessor.token })).status).toBe(403);
    expect((await call(m(mine), "GET", "/api/hrw/assessments/my")).status).toBe(401);
    expect((await call(m(book), "POST", "/api/hrw/assessments", { token: candidate.token, json: {} })).status).toBe(403);

    const list = await bodyOf<Listed>(await call(m(audit), "GET", `/api/admin/hrw-assessments?from=${today}&to=${today}`, { token: admin.token }));
    expect(list.assessments).toHaveLength(2);
    expect(
      ((await call(m(audit), "GET", "/api/admin/hrw-assessments?from=2099-01-01", { token: admin.token }).then(bodyOf)) as { assessments: unknown[] })
        .assessments,
    ).toEqual([]);
    expect((await call(m(audit), "GET", "/api/admin/hrw-assessments?from=yesterday", { token: admin.token })).status).toBe(422);
    // the end before the start is refused, naming the field, rather than answering an empty list
    const backwards = await call(m(audit), "GET", "/api/admin/hrw-assessments?from=2026-12-31&to=2026-01-01", { token: admin.token });
    expect(backwards.status).toBe(422);
    expect(await bodyOf(backwards)).toMatchObject({ errors: { to: HRW_MESSAGES.periodBackwards } });
    // one state's assessments, its code in any case; a code that is no state is refused
    const ofState = (state: string) => call(m(audit), "GET", `/api/admin/hrw-assessments?from=${today}&to=${today}&state=${state}`, { token: admin.token });
    expect((await bodyOf<Listed>(await ofState("QLD"))).assessments).toHaveLength(2);
    expect((await bodyOf<Listed>(await ofState("qld"))).assessments).toHaveLength(2);
    expect((await bodyOf<Listed>(await ofState("WA"))).assessments).toEqual([]);
    const unknown = await ofState("XX");
    expect(unknown.status).toBe(422);
    expect(await bodyOf(unknown)).toMatchObject({ errors: { state: "Choose a state or territory from the list" } });
    expect((await call(m(audit), "GET", "/api/admin/hrw-assessments", { token: assessor.token })).status).toBe(403);
  });

  it("a candidate whose checks are incomplete cannot be booked; the answer names what is missing", async () => {
    const fresh = await caller(db, "student");
    await recordCandidateCheck(db, fresh.id, { kind: "age", date_of_birth: "1990-01-01" }, admin.id);
    const refused = await bookFor(fresh, assessor.id);
    expect(refused.status).toBe(409);
    expect((await bodyOf(refused)).detail).toBe("The candidate's checks are incomplete: evidence of identity not sighted");
  });

  it("NSW: a result without the candidate's AEN is a 409 with the reason; the AEN over /api in the state's format lets it through", async () => {
    const nswCandidate = await caller(db, "student");
    await recordCandidateCheck(db, nswCandidate.id, { kind: "age", date_of_birth: "1990-01-01" }, admin.id);
    await recordCandidateCheck(db, nswCandidate.id, { kind: "identity", documents: ["passport", "driver_licence"] }, admin.id);
    await addAccreditation(
      db,
      assessor.id,
      { regulator: "NSW", number: `NA-${nswCandidate.id}`, classes: ["CN"], starts_on: "2020-01-01", expires_on: "2099-12-31" },
      admin.id,
    );
    // booked 10 days ago, for today: NSW schedules at least 7 days ahead
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000);
    const { id } = await bookAssessment(
      db,
      {
        candidate_id: nswCandidate.id,
        course_id: courseId,
        state: "NSW",
        assessment_date: today,
        start_time: "07:30",
        location_id: locationId,
        assessor_id: assessor.id,
        plant_description: "Franna",
        plant_registration: "F1",
      },
      assessor.id,
      tenDaysAgo,
    );
    expect((await step(notice, "notice", id, { notice_reference: "SNSW-API-1", sent_on: addDays(today, -8) })).status).toBe(201);
    const refused = await step(results, "results", id, { part: "knowledge", result: "satisfactory", assessed_on: today });
    expect(refused.status).toBe(409);
    expect((await bodyOf(refused)).detail).toBe(
      "Record the candidate's assessment enrolment number (AEN) on their checks first: this state's regulator needs it before a result",
    );
    const aen = (json: unknown, token = assessor.token) =>
      call(m(aenRoute), "POST", `/api/hrw/candidates/${nswCandidate.id}/aen`, { token, json, params: { id: nswCandidate.id } });
    expect((await aen({ state: "NSW", aen: "no!" })).status).toBe(422);
    expect((await aen({ state: "NSW", aen: "AEN7777777" }, nswCandidate.token)).status).toBe(403);
    const recorded = await aen({ state: "NSW", aen: "aen7777777" });
    expect(recorded.status).toBe(201);
    expect(await bodyOf(recorded)).toMatchObject({ aens: [{ state: "NSW", aen: "AEN7777777" }] });
    expect((await step(results, "results", id, { part: "knowledge", result: "satisfactory", assessed_on: today })).status).toBe(201);
  });

  it("the rules are read by administrators; an assessor reads their own currency", async () => {
    const rules = await call(m(rulesRoute), "GET", "/api/admin/hrw/rules", { token: admin.token });
    expect(rules.status).toBe(200);
    const body = await bodyOf<{ rules: Array<{ state: string; rule: string; current: { value: string; source: string } | null }> }>(rules);
    expect(body.rules.find((r) => r.state === "QLD" && r.rule === "notice_business_days")!.current).toMatchObject({
      value: "3",
      source: expect.stringContaining("ABLIS"),
    });
    expect((await call(m(rulesRoute), "GET", "/api/admin/hrw/rules", { token: assessor.token })).status).toBe(403);
    const currency = await bodyOf<{ currency: Array<{ state: string; licence_class: string; assessments: number }> }>(
      await call(m(currencyRoute), "GET", "/api/hrw/currency", { token: assessor.token }),
    );
    expect(currency.currency).toEqual(expect.arrayContaining([expect.objectContaining({ state: "QLD", licence_class: "CN", assessments: 1 })]));
    expect((await call(m(currencyRoute), "GET", "/api/hrw/currency", { token: candidate.token })).status).toBe(403);
  });
});
