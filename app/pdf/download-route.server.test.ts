import { ACCOUNT_INACTIVE } from "~/auth/sign-in.server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeUser } from "../../tests/support/factories";
import { issueApiToken } from "~/api/auth.server";
import { createSession } from "~/auth/session.server";
import { loader } from "~/routes/api+/certificates.$id.download";
import { closeBrowser } from "./browser.server";
import { certificateRenderCount } from "./certificate-pdf.server";
import { makeCertifiedStudent, pdfText } from "../../tests/support/pdf-fixtures";

/**
 * GET /api/certificates/{id}/download through its loader, with real sessions and tokens on a
 * real database and real rendering: who may download, and what they receive.
 */

const SLOW = 120_000;
let db: DB;
let cleanup: () => Promise<void>;
let owner: { id: string; cookie: string; token: string };
let otherStudent: { cookie: string; token: string };
let trainer: { cookie: string; token: string };
let admin: { cookie: string; token: string };
let certificate: { id: string; number: string };

async function credentials(userId: string) {
  const cookie = (await createSession(db, userId)).split(";")[0]!;
  return { cookie, token: await issueApiToken(db, userId) };
}

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  const made = await makeCertifiedStudent(db, { fullName: "Jordan Mitchell", courseName: "Licence to perform dogging (DG)" });
  certificate = made.certificate;
  owner = { id: made.student.id, ...(await credentials(made.student.id)) };
  otherStudent = await credentials((await makeUser(db, { role: "student", full_name: "Other Student" })).id);
  trainer = await credentials((await makeUser(db, { role: "trainer", full_name: "Sam Trainer" })).id);
  admin = await credentials((await makeUser(db, { role: "admin", full_name: "Alex Admin" })).id);
}, 60_000);

afterAll(async () => {
  await closeBrowser();
  await cleanup();
});

type Auth = { cookie?: string; token?: string; headers?: Record<string, string> };

/** Calls the loader as Remix would; a thrown Response (the guards) is returned like any other. */
async function download(id: string, auth: Auth = {}): Promise<Response> {
  const headers = new Headers(auth.headers);
  if (auth.cookie) headers.set("Cookie", auth.cookie);
  if (auth.token) headers.set("Authorization", `Bearer ${auth.token}`);
  const request = new Request(`http://localhost/api/certificates/${encodeURIComponent(id)}/download`, { headers });
  try {
    return (await loader({ request, params: { id } })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function expectPdf(response: Response) {
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("application/pdf");
  // the /api contract's name, exactly: certificate_{id}.pdf
  expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="certificate_${certificate.id}.pdf"`);
  expect(response.headers.get("Cache-Control")).toBe("private, max-age=0, must-revalidate");
  expect(response.headers.get("ETag")).toMatch(/^"[\w-]+"$/);
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(response.headers.get("Content-Length")).toBe(String(bytes.length));
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  return bytes;
}

async function expectDetail(response: Response, status: number, detail: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  expect(await response.json()).toEqual({ detail });
}

describe("who may download a certificate", () => {
  it(
    "the owner, with the session cookie (a plain link) or a bearer token",
    async () => {
      const bytes = await expectPdf(await download(certificate.id, { cookie: owner.cookie }));
      const text = await pdfText(bytes);
      expect(text).toContain("Jordan Mitchell");
      expect(text).toContain(certificate.number);
      expect(text).toContain("Licence to perform dogging (DG)");
      await expectPdf(await download(certificate.id, { token: owner.token }));
    },
    SLOW,
  );

  it(
    "any trainer and any admin",
    async () => {
      await expectPdf(await download(certificate.id, { cookie: trainer.cookie }));
      await expectPdf(await download(certificate.id, { token: trainer.token }));
      await expectPdf(await download(certificate.id, { cookie: admin.cookie }));
      await expectPdf(await download(certificate.id, { token: admin.token }));
    },
    SLOW,
  );

  it("not another student: 404, exactly as for an unknown id", async () => {
    await expectDetail(await download(certificate.id, { cookie: otherStudent.cookie }), 404, "Certificate not found");
    await expectDetail(await download(certificate.id, { token: otherStudent.token }), 404, "Certificate not found");
    await expectDetail(await download(crypto.randomUUID(), { cookie: otherStudent.cookie }), 404, "Certificate not found");
  });

  it("not anyone without credentials, or with a bad token: 401", async () => {
    await expectDetail(await download(certificate.id), 401, "Not authenticated");
    await expectDetail(await download(certificate.id, { token: "not-a-real-token" }), 401, "Invalid or expired token");
    await expectDetail(await download(certificate.id, { cookie: "__session=forged" }), 401, "Not authenticated");
  });

  it("not a deactivated owner: their session stops working at once", async () => {
    const made = await makeCertifiedStudent(db, { fullName: "Gone Away" });
    const auth = await credentials(made.student.id);
    await db.updateTable("users").set({ is_active: 0 }).where("id", "=", made.student.id).execute();
    await expectDetail(await download(made.certificate.id, { cookie: auth.cookie }), 401, "Not authenticated");
    // an inactive account's token is a 403, as on every /api route
    await expectDetail(await download(made.certificate.id, { token: auth.token }), 403, ACCOUNT_INACTIVE);
  });

  it("unknown and malformed ids are 404 for everyone", async () => {
    for (const id of [crypto.randomUUID(), "not-a-uuid", "../../etc/passwd", "' OR 1=1 --", "x".repeat(5000), ""]) {
      await expectDetail(await download(id, { token: admin.token }), 404, "Certificate not found");
    }
  });
});

describe("the printed address", () => {
  it(
    "never comes from the request: another Host neither renders again nor changes the document",
    async () => {
      const first = await expectPdf(await download(certificate.id, { token: owner.token }));
      const renders = certificateRenderCount();
      for (const origin of ["http://127.0.0.1:3000", "http://[::1]:3000", "http://evil.example"]) {
        const request = new Request(`${origin}/api/certificates/${certificate.id}/download`, { headers: { Authorization: `Bearer ${owner.token}` } });
        const again = await expectPdf((await loader({ request, params: { id: certificate.id } })) as Response);
        expect(again.equals(first), origin).toBe(true);
      }
      expect(certificateRenderCount()).toBe(renders);
      expect(await pdfText(first)).not.toContain("evil.example");
    },
    SLOW,
  );
});

describe("a stored certificate", () => {
  it(
    "is served again without rendering, and a repeat download with its ETag is a 304",
    async () => {
      const first = await download(certificate.id, { token: owner.token });
      const firstBytes = await expectPdf(first);
      const renders = certificateRenderCount();
      const again = await download(certificate.id, { cookie: admin.cookie });
      expect(Buffer.from(await again.arrayBuffer()).equals(firstBytes)).toBe(true);
      expect(certificateRenderCount()).toBe(renders);

      const etag = first.headers.get("ETag")!;
      const notModified = await download(certificate.id, { token: owner.token, headers: { "If-None-Match": etag } });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.get("ETag")).toBe(etag);
      expect(await notModified.text()).toBe("");
      const weak = await download(certificate.id, { token: owner.token, headers: { "If-None-Match": `"other", W/${etag}` } });
      expect(weak.status).toBe(304);
      const stale = await download(certificate.id, { token: owner.token, headers: { "If-None-Match": '"stale"' } });
      expect(stale.status).toBe(200);
      // the ETag never lets someone else learn anything: access is checked first
      await expectDetail(await download(certificate.id, { cookie: otherStudent.cookie, headers: { "If-None-Match": etag } }), 404, "Certificate not found");
    },
    SLOW,
  );
});
