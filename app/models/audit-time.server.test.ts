import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTransaction, type DB } from "#db/connection";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeUser } from "../../tests/support/factories";
import { bodyOf, call, caller, sessionCookie, type RouteModule } from "../../tests/support/api-calls";
import * as auditRoute from "~/routes/api+/admin.audit";
import * as auditCsvRoute from "~/routes/admin+/audit[.]csv";
import { organisationToday } from "~/utils/organisation-calendar";
import { listAudit, recordAudit } from "./audit.server";

/**
 * The audit trail's days and times are the RTO's (Australia/Sydney): an entry made at 01:23 on
 * 28 November there (14:23 UTC on the 27th) belongs to the 28th in every filter and file.
 */
let db: DB;
let cleanup: () => Promise<void>;
const AT = "2026-11-27T14:23:52.481Z";
const mod = (m: unknown) => m as RouteModule;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  await writeTransaction(db, (trx) => recordAudit(trx, { action: "sign_out", actor: { id: null }, subject: { type: "user", id: "night-owl" }, now: AT }));
  // either side of the 28th's local midnights
  await writeTransaction(db, (trx) =>
    recordAudit(trx, { action: "sign_out", actor: { id: null }, subject: { type: "user", id: "night-owl" }, now: "2026-11-27T12:59:59.999Z" }),
  );
  await writeTransaction(db, (trx) =>
    recordAudit(trx, { action: "sign_out", actor: { id: null }, subject: { type: "user", id: "night-owl" }, now: "2026-11-28T13:00:00.000Z" }),
  );
});
afterAll(() => cleanup());

const ids = async (filters: { from?: string; to?: string }) => (await listAudit(db, { subject: "night-owl", ...filters })).entries.map((e) => e.at).sort();

describe("audit days on the RTO's calendar", () => {
  it("an entry at 01:23 Sydney time on 28 Nov is found from and to 28 Nov, and not to 27 Nov", async () => {
    expect(await ids({ from: "2026-11-28" })).toEqual([AT, "2026-11-28T13:00:00.000Z"]);
    expect(await ids({ to: "2026-11-28" })).toEqual(["2026-11-27T12:59:59.999Z", AT]);
    expect(await ids({ from: "2026-11-28", to: "2026-11-28" })).toEqual([AT]);
    expect(await ids({ to: "2026-11-27" })).toEqual(["2026-11-27T12:59:59.999Z"]);
    expect(await ids({ from: "2026-11-29" })).toEqual(["2026-11-28T13:00:00.000Z"]);
  });

  it("GET /api/admin/audit reads the same days", async () => {
    const admin = await caller(db, "admin");
    const body = await bodyOf<{ total: number; entries: Array<{ at: string }> }>(
      await call(mod(auditRoute), "GET", "/api/admin/audit?subject=night-owl&from=2026-11-28&to=2026-11-28", { token: admin.token }),
    );
    expect(body.entries.map((e) => e.at)).toEqual([AT]);
  });

  it("the CSV shows each time as local time with its UTC offset, and is named by the local date", async () => {
    const admin = await makeUser(db, { role: "admin" });
    const csv = await call(mod(auditCsvRoute), "GET", "/admin/audit.csv?subject=night-owl&to=2026-11-28", { cookie: await sessionCookie(db, admin.id) });
    expect(csv.headers.get("Content-Disposition")).toBe(`attachment; filename="audit-${organisationToday()}.csv"`);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    // oldest entry first, in the order they were written
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(["2026-11-28T01:23:52+11:00", "2026-11-27T23:59:59+11:00"]);
  });
});
