import crypto from "node:crypto";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb, useAsAppDb } from "../../../tests/support/test-db";
import { makeCourse, makeUser } from "../../../tests/support/factories";
import { call, sessionCookie, type RouteModule } from "../../../tests/support/api-calls";
import { closeBrowser } from "~/pdf/browser.server";
import { auditSummaryHtml } from "~/pdf/hrw-audit-pack.server";
import * as packRoute from "~/routes/admin+/reports_.hrw[.]zip";
import { hrwAuditPack } from "./hrw-audit-pack.server";
import { bookAssessment, recordNotice, recordNsa, recordPartResult } from "./hrw-assessment.server";
import { recordCandidateCheck } from "./hrw-candidate.server";
import { addAccreditation } from "./hrw-register.server";

let db: DB;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterAll(async () => {
  await closeBrowser();
  await cleanup();
});

const at = (date: string, time = "02:00") => new Date(`${date}T${time}:00Z`);

/** Parses one of the pack's CSVs (no field holds a comma or quote here) into rows by header. */
function rows(text: string): Array<Record<string, string>> {
  const [header, ...lines] = text
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  const names = header!.split(",");
  return lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [names[i]!, v])));
}

describe("the VIC audit pack", () => {
  it("downloads as one zip whose CSVs hold the year's records of that state only, and a one-page PDF summary", async () => {
    const admin = await makeUser(db, { role: "admin" });
    const assessor = await makeUser(db, { role: "trainer", full_name: "Vic Assessor" });
    const candidate = await makeUser(db, { role: "student", full_name: "Pack Candidate" });
    const locationId = crypto.randomUUID();
    const now = new Date().toISOString();
    await db
      .insertInto("delivery_locations")
      .values({
        id: locationId,
        identifier: "VICYARD",
        name: "Dandenong yard",
        suburb: "Dandenong",
        postcode: "3175",
        state: "02",
        country: "1101",
        created_at: now,
        updated_at: now,
      })
      .execute();
    const course = await makeCourse(db, { name: "CN pack course" });
    await db.updateTable("courses").set({ licence_class: "CN", licence_prerequisites: "[]" }).where("id", "=", course.id).execute();
    await recordCandidateCheck(db, candidate.id, { kind: "age", date_of_birth: "1990-05-01" }, admin.id);
    await recordCandidateCheck(db, candidate.id, { kind: "identity", documents: ["passport", "driver_licence"] }, admin.id);
    await addAccreditation(
      db,
      assessor.id,
      { regulator: "VIC", number: "VIC-PACK-1", classes: ["CN"], starts_on: "2024-01-01", expires_on: "2027-12-31" },
      admin.id,
      at("2024-01-01"),
    );
    await addAccreditation(
      db,
      assessor.id,
      { regulator: "QLD", number: "QLD-PACK-1", classes: ["CN"], starts_on: "2024-01-01", expires_on: "2027-12-31" },
      admin.id,
      at("2024-01-01"),
    );
    const book = (date: string, state: "VIC" | "QLD") =>
      bookAssessment(
        db,
        {
          candidate_id: candidate.id,
          course_id: course.id,
          assessor_id: assessor.id,
          state,
          assessment_date: date,
          start_time: "08:00",
          location_id: locationId,
          plant_description: "Franna",
          plant_registration: "PK-1",
        },
        admin.id,
        at("2025-01-02"),
      );
    const vic = await book("2025-03-10", "VIC");
    await recordNotice(db, vic.id, { notice_reference: "WSV-77", sent_on: "2025-03-01" }, assessor.id, at("2025-03-01"));
    for (const p of ["knowledge", "calculations", "practical"] as const)
      await recordPartResult(db, vic.id, { part: p, result: "satisfactory", assessed_on: "2025-03-10" }, assessor.id, at("2025-03-10", "06:00"));
    await recordNsa(db, vic.id, { nsa_number: "NSA-VIC-PACK", nsa_date: "2025-03-11" }, assessor.id, at("2025-03-11"));
    await book("2026-03-10", "VIC"); // another year
    await book("2025-04-10", "QLD"); // another state

    const cookie = await sessionCookie(db, admin.id);
    const answer = await call(packRoute as unknown as RouteModule, "GET", "/admin/reports/hrw.zip?state=VIC&year=2025", { cookie });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("application/zip");
    expect(answer.headers.get("Content-Disposition")).toBe('attachment; filename="hrw-audit-pack-VIC-2025.zip"');
    const files = unzipSync(new Uint8Array(await answer.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual([
      "assessments.csv",
      "assessors.csv",
      "candidate-checks.csv",
      "evidence.csv",
      "notices.csv",
      "nsas.csv",
      "summary.pdf",
    ]);
    const read = (name: string) => rows(strFromU8(files[name]!));
    expect(read("assessments.csv")).toMatchObject([
      {
        assessment_date: "2025-03-10",
        candidate: "Pack Candidate",
        licence_class: "CN",
        state: "VIC",
        assessor: "Vic Assessor",
        accreditation_number: "VIC-PACK-1",
        notice_reference: "WSV-77",
        nsa_number: "NSA-VIC-PACK",
      },
    ]);
    expect(read("assessors.csv")).toMatchObject([
      { assessor: "Vic Assessor", accreditation_number: "VIC-PACK-1", classes: "CN", starts_on: "2024-01-01", expires_on: "2027-12-31" },
    ]);
    expect(read("notices.csv")).toMatchObject([{ day_covered: "2025-03-10", reference: "WSV-77", given_on: "2025-03-01" }]);
    expect(read("nsas.csv")).toMatchObject([{ nsa_number: "NSA-VIC-PACK", nsa_date: "2025-03-11", apply_by: "2025-05-10" }]);
    const checks = read("candidate-checks.csv");
    expect(checks.map((c) => [c.check, c.outcome])).toEqual([
      ["age", "18 or older on 2025-03-10"],
      ["identity", "110 of 100 points sighted"],
    ]);
    // never the date of birth, nor which documents were sighted
    expect(strFromU8(files["candidate-checks.csv"]!)).not.toMatch(/1990-05-01|passport|driver/);
    // the three parts were recorded in the same instant: their order is not the point
    expect(
      read("evidence.csv")
        .map((e) => `${e.record}: ${e.result}`)
        .sort(),
    ).toEqual(["NAI calculations result: Satisfactory", "NAI knowledge result: Satisfactory", "NAI practical result: Satisfactory"]);
    expect(strFromU8(files["summary.pdf"]!.slice(0, 5))).toBe("%PDF-");
    // VIC's yearly audit falls due on 31 Oct: a year of records to 31 Dec 2025 is audited by the
    // next one, and the summary says which period that date is for
    const summary = auditSummaryHtml(await hrwAuditPack(db, "VIC", 2025), "Pack RTO", "2026-01-05").replace(/<[^>]+>/g, " ");
    expect(summary).toContain("The annual independent audit of the period 1 Jan 2025 to 31 Dec 2025 is due by 31 Oct 2026.");
    expect(summary).not.toContain("31 Oct 2025");

    // a state that does not read goes back to the page it was chosen on, which shows why at the field
    const bad = await call(packRoute as unknown as RouteModule, "GET", "/admin/reports/hrw.zip?state=XX&year=2025", { cookie });
    expect(bad.status).toBe(302);
    expect(bad.headers.get("Location")).toBe("/admin/reports/hrw?state=XX&year=2025");
  });

  it("reads the state's code in any case, and a year with no assessments says so in the pack", async () => {
    const cookie = await sessionCookie(db, (await makeUser(db, { role: "admin" })).id);
    const lower = await call(packRoute as unknown as RouteModule, "GET", "/admin/reports/hrw.zip?state=vic&year=2025", { cookie });
    expect(lower.status).toBe(200);
    expect(lower.headers.get("Content-Disposition")).toBe('attachment; filename="hrw-audit-pack-VIC-2025.zip"');
    expect(Object.keys(unzipSync(new Uint8Array(await lower.arrayBuffer())))).not.toContain("README.txt");
    const empty = await call(packRoute as unknown as RouteModule, "GET", "/admin/reports/hrw.zip?state=Vic&year=2023", { cookie });
    expect(empty.status).toBe(200);
    const files = unzipSync(new Uint8Array(await empty.arrayBuffer()));
    expect(strFromU8(files["README.txt"]!)).toBe("No HRW assessments for VIC in 2023: each CSV holds its column headings only.\r\n");
    expect(rows(strFromU8(files["assessments.csv"]!))).toEqual([]);
    const summary = auditSummaryHtml(await hrwAuditPack(db, "VIC", 2023), "Pack RTO", "2026-01-05").replace(/<[^>]+>/g, " ");
    expect(summary).toContain("No HRW assessments for VIC in 2023.");
  });
});
