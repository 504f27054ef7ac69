import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { makeCourse, makeEnrollment, makeUser } from "../../../tests/support/factories";
import { createTestDb } from "../../../tests/support/test-db";
import { getCertificateDocumentRecord } from "./certificate-document.server";
import { issueCertificate } from "./certificate-issue.server";
import { getIssuedCertificate, listCertificatesForStudent } from "./certificate.server";
import { verifyCertificate } from "./certificate-verification.server";

/**
 * A certificate names its unit by code and official title from the national register, not by
 * the course's display name: the document, the public verification, the learner's mail and the
 * learner's own list all read it from one place (certificateUnitTitle).
 */

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb()));
afterAll(() => cleanup());

const DISPLAY = "TLILIC0040 Licence to operate a non-slewing mobile crane (greater than 3 tonnes) (CN)";
const OFFICIAL = "Licence to operate a non-slewing mobile crane (greater than 3 tonnes capacity)";

async function issuedFor(course: { name: string; official_title: string | null }) {
  const student = await makeUser(db);
  const { id: courseId } = await makeCourse(db, { ...course, unit_code: "TLILIC0040" });
  const enrollment = await makeEnrollment(db, student.id, courseId, { status: "completed", progress: 100, completion_date: "2026-11-02T00:00:00.000Z" });
  const { certificate } = await issueCertificate(db, { enrollmentId: enrollment.id, actorId: null });
  return { student, certificate: (await getIssuedCertificate(db, certificate.id))! };
}

async function mailedUnit(certificateId: string): Promise<string> {
  const row = await db.selectFrom("outbox_messages").select("data").where("key", "=", `certificate-issued:${certificateId}`).executeTakeFirstOrThrow();
  return (JSON.parse(row.data) as { unit: string }).unit;
}

describe("how a certificate names its unit", () => {
  it("the document, the verification, the mail and the learner's list show the unit code and its official title", async () => {
    const { student, certificate } = await issuedFor({ name: DISPLAY, official_title: OFFICIAL });

    const document = await getCertificateDocumentRecord(db, certificate.id);
    expect(document).toMatchObject({ unit_code: "TLILIC0040", unit_title: OFFICIAL });

    const verification = await verifyCertificate(db, certificate.verification_code);
    expect(verification).toMatchObject({ unit_code: "TLILIC0040", unit_title: OFFICIAL });

    expect(await mailedUnit(certificate.id)).toBe(`TLILIC0040 ${OFFICIAL}`);

    const [mine] = await listCertificatesForStudent(db, student.id);
    // the display name stays for the lists of courses; the certificate's own title is beside it
    expect(mine!.course).toMatchObject({ unit_code: "TLILIC0040", unit_title: OFFICIAL, name: DISPLAY });
  });

  it("a course recorded without an official title shows its display name until one is recorded", async () => {
    const { certificate } = await issuedFor({ name: "Licence to perform dogging (DG)", official_title: null });
    expect((await verifyCertificate(db, certificate.verification_code))!.unit_title).toBe("Licence to perform dogging (DG)");
    expect((await getCertificateDocumentRecord(db, certificate.id))!.unit_title).toBe("Licence to perform dogging (DG)");
    expect(await mailedUnit(certificate.id)).toBe("TLILIC0040 Licence to perform dogging (DG)");

    await db.updateTable("courses").set({ official_title: "Licence to perform dogging" }).where("id", "=", certificate.course.id).execute();
    expect((await verifyCertificate(db, certificate.verification_code))!.unit_title).toBe("Licence to perform dogging");
  });
});
