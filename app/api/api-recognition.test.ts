import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import * as registerApi from "~/routes/api+/recognition";
import * as itemApi from "~/routes/api+/recognition.$id";
import * as authenticateApi from "~/routes/api+/recognition.$id.authenticate";
import * as assessorApi from "~/routes/api+/recognition.$id.assessor";
import * as decisionApi from "~/routes/api+/recognition.$id.decision";
import * as evidenceApi from "~/routes/api+/recognition.$id.evidence";
import * as courseApi from "~/routes/api+/admin.courses.$id";
import * as coursesApi from "~/routes/api+/courses";
import { organisation } from "~/env.server";
import { recognitionAssessorChoices, recognitionChoices } from "~/models/recognition/recognition.server";
import { RECOGNITION_MESSAGES } from "~/schemas/recognition-text";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { conformsTo } from "../../tests/support/json-schema";
import { pngImage } from "../../tests/support/evidence-files";
import { makeCourse, makeEnrollment } from "../../tests/support/factories";
import { call, caller, type Caller, type RouteModule } from "../../tests/support/api-calls";
import { openApiDocument } from "./openapi";

/**
 * Credit transfer and RPL over /api: the pages' models and schemas, each answer checked against
 * the OpenAPI document, each role's view of the register, and the refusals.
 */

const doc = openApiDocument() as unknown as Parameters<typeof conformsTo>[0];
const conforms = (response: Response, path: string, method: string) => conformsTo(doc, response, path, method);
const mod = (m: unknown) => m as RouteModule;

let db: DB;
let cleanup: () => Promise<void>;
let admin: Caller;
let assessor: Caller;
let otherTrainer: Caller;
let learner: Caller;
let stranger: Caller;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  admin = await caller(db, "admin");
  assessor = await caller(db, "trainer", { full_name: "Assessor Api" });
  otherTrainer = await caller(db, "trainer", { credentialed: false });
  learner = await caller(db, "student");
  stranger = await caller(db, "student");
});
afterAll(async () => cleanup());

let seq = 0;
async function learnerEnrollment(options: { licence?: string; rplFee?: number } = {}) {
  const unit_code = `APIR${String(++seq).padStart(4, "0")}`;
  const course = { ...(await makeCourse(db, { unit_code })), unit_code };
  await db
    .updateTable("courses")
    .set({ licence_class: options.licence ?? null, rpl_fee_cents: options.rplFee ?? 0 })
    .where("id", "=", course.id)
    .execute();
  return { course, enrollment: await makeEnrollment(db, learner.id, course.id) };
}

const ONE = "/api/recognition/{id}";

describe("recognition over /api", () => {
  it("an RPL: applied and invoiced, assigned, decided 52 by its assessor; each role's register; evidence", async () => {
    const { course, enrollment } = await learnerEnrollment();
    // the administrator sets the course's RPL fee; the course's answers carry it
    const fee = await conforms(
      await call(mod(courseApi), "PUT", "/x", { token: admin.token, params: { id: course.id }, json: { rpl_fee: 300 } }),
      "/api/admin/courses/{id}",
      "put",
    );
    expect(fee.rpl_fee).toBe(300);
    const detail = await conforms(await call(mod(courseApi), "GET", "/x", { token: admin.token, params: { id: course.id } }), "/api/admin/courses/{id}", "get");
    expect(detail.course.rpl_fee).toBe(300);
    const listed = await conforms(await call(mod(coursesApi), "GET", "/api/courses", {}), "/api/courses", "get");
    expect(listed.find((c: { id: string }) => c.id === course.id)?.rpl_fee).toBe(300);
    expect((await recognitionChoices(db, learner.id)).map((c) => c.enrollment_id)).toContain(enrollment.id);
    const applied = await conforms(
      await call(mod(registerApi), "POST", "/api/recognition", {
        token: learner.token,
        json: { enrollment_id: enrollment.id, kind: "rpl", statement: "Five years of dogging on civil jobs" },
      }),
      "/api/recognition",
      "post",
    );
    expect(applied).toMatchObject({ status: "applied", kind: "rpl", fee_invoice_id: expect.any(String) });
    const invoice = await db.selectFrom("invoices").select(["total_cents", "source_kind"]).where("id", "=", applied.fee_invoice_id).executeTakeFirstOrThrow();
    expect(invoice).toEqual({ total_cents: 30000, source_kind: "recognition" });
    expect((await recognitionChoices(db, learner.id)).map((c) => c.enrollment_id)).not.toContain(enrollment.id);
    // again while it waits: 409; another's enrolment: 404; unknown fields: 422
    await conforms(
      await call(mod(registerApi), "POST", "/api/recognition", {
        token: learner.token,
        json: { enrollment_id: enrollment.id, kind: "rpl", statement: "again" },
      }),
      "/api/recognition",
      "post",
    );
    expect(
      (
        await call(mod(registerApi), "POST", "/api/recognition", {
          token: stranger.token,
          json: { enrollment_id: enrollment.id, kind: "rpl", statement: "mine" },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(mod(registerApi), "POST", "/api/recognition", {
          token: learner.token,
          json: { enrollment_id: enrollment.id, kind: "rpl", statement: "x", colour: "red" },
        })
      ).status,
    ).toBe(422);
    expect(
      (await call(mod(registerApi), "POST", "/api/recognition", { token: assessor.token, json: { enrollment_id: enrollment.id, kind: "rpl", statement: "x" } }))
        .status,
    ).toBe(403);

    // the register: the learner their own, a stranger and an unassigned trainer nothing
    const list = (c: Caller, q = "") => call(mod(registerApi), "GET", `/api/recognition${q}`, { token: c.token });
    expect((await conforms(await list(learner), "/api/recognition", "get")).map((r: { id: string }) => r.id)).toEqual([applied.id]);
    expect(await conforms(await list(stranger), "/api/recognition", "get")).toEqual([]);
    expect(await conforms(await list(assessor), "/api/recognition", "get")).toEqual([]);
    await conforms(await list(admin, "?status=nope"), "/api/recognition", "get");
    expect((await call(mod(itemApi), "GET", "/x", { token: stranger.token, params: { id: applied.id } })).status).toBe(404);

    // the assessor: only one credentialed for the unit
    const choices = await recognitionAssessorChoices(db, course.unit_code);
    expect(choices.map((c) => c.id)).toContain(assessor.id);
    expect(choices.map((c) => c.id)).not.toContain(otherTrainer.id);
    await conforms(
      await call(mod(assessorApi), "POST", "/x", { token: admin.token, params: { id: applied.id }, json: { assessor_id: otherTrainer.id } }),
      "/api/recognition/{id}/assessor",
      "post",
    );
    const assigned = await conforms(
      await call(mod(assessorApi), "POST", "/x", { token: admin.token, params: { id: applied.id }, json: { assessor_id: assessor.id } }),
      "/api/recognition/{id}/assessor",
      "post",
    );
    expect(assigned.assessor).toEqual({ id: assessor.id, full_name: "Assessor Api" });
    // a learner is no choice of assessor (and is not named); nothing chosen asks for the choice
    const notTrainer = await conforms(
      await call(mod(assessorApi), "POST", "/x", { token: admin.token, params: { id: applied.id }, json: { assessor_id: stranger.id } }),
      "/api/recognition/{id}/assessor",
      "post",
    );
    expect(notTrainer).toEqual({ detail: RECOGNITION_MESSAGES.chooseTrainer, errors: { assessor_id: RECOGNITION_MESSAGES.chooseTrainer } });
    const nobody = await conforms(
      await call(mod(assessorApi), "POST", "/x", { token: admin.token, params: { id: applied.id }, json: {} }),
      "/api/recognition/{id}/assessor",
      "post",
    );
    expect(nobody.errors).toEqual({ assessor_id: RECOGNITION_MESSAGES.chooseAssessor });
    expect((await call(mod(assessorApi), "POST", "/x", { token: assessor.token, params: { id: applied.id }, json: { assessor_id: assessor.id } })).status).toBe(
      403,
    );
    await conforms(
      await call(mod(authenticateApi), "POST", "/x", {
        token: admin.token,
        params: { id: applied.id },
        json: { issuing_rto_code: "90001", document_number: "D1", checked_how: "Phone", checked_on: "2026-12-01", equivalence: "same" },
      }),
      "/api/recognition/{id}/authenticate",
      "post",
    );
    expect((await list(assessor)).status).toBe(200);
    expect(await bodyIds(await list(assessor))).toEqual([applied.id]);

    // evidence: the learner adds while it waits, every party reads it
    const upload = await conforms(
      await call(mod(evidenceApi), "POST", "/x", {
        token: learner.token,
        params: { id: applied.id },
        multipart: { files: [{ field: "files", name: "site.png", bytes: await pngImage(), type: "image/png" }] },
      }),
      "/api/recognition/{id}/evidence",
      "post",
    );
    expect(upload.files).toHaveLength(1);
    const files = await conforms(
      await call(mod(evidenceApi), "GET", "/x", { token: assessor.token, params: { id: applied.id } }),
      "/api/recognition/{id}/evidence",
      "get",
    );
    expect(files.files.map((f: { original_name: string }) => f.original_name)).toEqual(["site.png"]);
    expect((await call(mod(evidenceApi), "GET", "/x", { token: stranger.token, params: { id: applied.id } })).status).toBe(404);

    // the decision: an admin may not judge an RPL; its assessor decides 52 with reasons
    const adminJudges = await call(mod(decisionApi), "POST", "/x", {
      token: admin.token,
      params: { id: applied.id },
      json: { decision: "not_granted", reasons: "No" },
    });
    expect(adminJudges.status).toBe(409);
    expect(((await adminJudges.json()) as { detail: string }).detail).toBe(RECOGNITION_MESSAGES.notAssessor);
    const assessorRefuses = await conforms(
      await call(mod(decisionApi), "POST", "/x", { token: assessor.token, params: { id: applied.id }, json: { decision: "refused", reasons: "Wrong unit" } }),
      "/api/recognition/{id}/decision",
      "post",
    );
    expect(assessorRefuses.detail).toBe(RECOGNITION_MESSAGES.onlyAdminRefuses);
    // no checklist marked on the application: no grant
    const unmarked = await call(mod(decisionApi), "POST", "/x", {
      token: assessor.token,
      params: { id: applied.id },
      json: { decision: "granted", reasons: "Evidence covers the unit" },
    });
    expect(unmarked.status).toBe(409);
    expect(((await unmarked.json()) as { detail: string }).detail).toMatch(/^Mark every item of the unit's checklist before granting/);
    await conforms(
      await call(mod(decisionApi), "POST", "/x", { token: assessor.token, params: { id: applied.id }, json: { decision: "maybe" } }),
      "/api/recognition/{id}/decision",
      "post",
    );
    const decided = await conforms(
      await call(mod(decisionApi), "POST", "/x", {
        token: assessor.token,
        params: { id: applied.id },
        json: { decision: "not_granted", reasons: "The evidence misses the risk assessment" },
      }),
      "/api/recognition/{id}/decision",
      "post",
    );
    expect(decided).toMatchObject({ status: "not_granted", outcome_code: "52", reasons: "The evidence misses the risk assessment" });
    const seen = await conforms(await call(mod(itemApi), "GET", "/x", { token: learner.token, params: { id: applied.id } }), ONE, "get");
    // the decision history: the one decision, not set aside
    expect(seen.decisions).toHaveLength(1);
    expect(seen.decisions[0]).toMatchObject({
      status: "not_granted",
      outcome_code: "52",
      reasons: "The evidence misses the risk assessment",
      assessor: expect.any(String),
      overturned_at: null,
    });
    // decided: the learner adds nothing more
    const late = await call(mod(evidenceApi), "POST", "/x", {
      token: learner.token,
      params: { id: applied.id },
      multipart: { files: [{ field: "files", name: "late.png", bytes: await pngImage(), type: "image/png" }] },
    });
    expect(late.status).toBe(409);
  });

  it("a credit transfer: granted (60) only once authenticated; a licence unit is refused with the reason", async () => {
    const { enrollment } = await learnerEnrollment();
    const applied = await conforms(
      await call(mod(registerApi), "POST", "/api/recognition", {
        token: admin.token,
        json: { enrollment_id: enrollment.id, kind: "credit_transfer", statement: "SOA from RTO 90001" },
      }),
      "/api/recognition",
      "post",
    );
    const early = await conforms(
      await call(mod(decisionApi), "POST", "/x", { token: admin.token, params: { id: applied.id }, json: { decision: "granted", reasons: "Same unit" } }),
      "/api/recognition/{id}/decision",
      "post",
    );
    expect(early.detail).toBe(RECOGNITION_MESSAGES.noAuthentication);
    await conforms(
      await call(mod(authenticateApi), "POST", "/x", {
        token: admin.token,
        params: { id: applied.id },
        json: { issuing_rto_code: "9", equivalence: "equivalent" },
      }),
      "/api/recognition/{id}/authenticate",
      "post",
    );
    // a check dated in the future, or a document from this RTO itself: refused at the field, nothing stored
    const good = { issuing_rto_code: "90001", document_number: "SOA-1", checked_how: "Register", checked_on: "2026-12-01", equivalence: "same" };
    for (const [json, field] of [
      [{ ...good, checked_on: "2027-12-01" }, "checked_on"],
      [{ ...good, issuing_rto_code: organisation().code }, "issuing_rto_code"],
    ] as const) {
      const refused = await call(mod(authenticateApi), "POST", "/x", { token: admin.token, params: { id: applied.id }, json });
      expect(refused.status).toBe(422);
      expect(Object.keys(((await conforms(refused, "/api/recognition/{id}/authenticate", "post")) as { errors: object }).errors)).toEqual([field]);
    }
    expect((await conforms(await call(mod(itemApi), "GET", "/x", { token: admin.token, params: { id: applied.id } }), ONE, "get")).authentication).toBeNull();
    const authenticated = await conforms(
      await call(mod(authenticateApi), "POST", "/x", {
        token: admin.token,
        params: { id: applied.id },
        json: {
          issuing_rto_code: "90001",
          document_number: "SOA-1",
          checked_how: "Checked against the issuing RTO's register",
          checked_on: "2026-12-01",
          equivalence: "superseding",
          held_unit_code: "OLD0001",
          mapping: "Superseded, equivalent outcomes",
        },
      }),
      "/api/recognition/{id}/authenticate",
      "post",
    );
    expect(authenticated.authentication?.checked_on).toBe("2026-12-01");
    expect(authenticated.equivalence).toEqual({ kind: "superseding", held_unit_code: "OLD0001", mapping: "Superseded, equivalent outcomes" });
    const granted = await conforms(
      await call(mod(decisionApi), "POST", "/x", {
        token: admin.token,
        params: { id: applied.id },
        json: { decision: "granted", reasons: "Superseded unit held" },
      }),
      "/api/recognition/{id}/decision",
      "post",
    );
    expect(granted).toMatchObject({ status: "granted", outcome_code: "60" });

    const licence = await learnerEnrollment({ licence: "DG" });
    // refused, which no client may read as success: 409 with the reason, naming the application kept on the register
    const refusal = await call(mod(registerApi), "POST", "/api/recognition", {
      token: learner.token,
      json: { enrollment_id: licence.enrollment.id, kind: "credit_transfer", statement: "I hold it" },
    });
    expect(refusal.status).toBe(409);
    const refused = await conforms(refusal, "/api/recognition", "post");
    expect(refused).toEqual({ detail: RECOGNITION_MESSAGES.licenceUnit("DG"), id: expect.any(String) });
    const kept = await conforms(await call(mod(itemApi), "GET", "/x", { token: learner.token, params: { id: refused.id } }), ONE, "get");
    expect(kept).toMatchObject({ status: "refused", reasons: RECOGNITION_MESSAGES.licenceUnit("DG"), enrollment_id: licence.enrollment.id });
  });
});

async function bodyIds(response: Response): Promise<string[]> {
  return ((await response.json()) as { id: string }[]).map((r) => r.id);
}
