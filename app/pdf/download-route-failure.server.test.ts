import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { issueApiToken } from "~/api/auth.server";
import { loader } from "~/routes/api+/certificates.$id.download";
import { browserStats, closeBrowser } from "./browser.server";
import { makeCertifiedStudent } from "../../tests/support/pdf-fixtures";

/**
 * When Chromium cannot run, a download answers the JSON error the UI shows as 'Failed to
 * download certificate', stores nothing, and the process carries on serving.
 */

let db: DB;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  // read by env() on first use, which comes after this
  process.env.CHROMIUM_PATH = "/nonexistent/chromium";
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});

afterAll(async () => {
  await closeBrowser();
  await cleanup();
});

describe("a failed render", () => {
  it("answers 503 with the download error, every time, and leaves nothing stored", async () => {
    const { student, certificate } = await makeCertifiedStudent(db);
    const token = await issueApiToken(db, student.id);
    for (let attempt = 0; attempt < 2; attempt++) {
      const request = new Request(`http://localhost/api/certificates/${certificate.id}/download`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const response = (await loader({ request, params: { id: certificate.id } })) as Response;
      expect(response.status).toBe(503);
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      expect(await response.json()).toEqual({ detail: "Failed to download certificate" });
    }
    expect(await db.selectFrom("certificate_documents").selectAll().execute()).toEqual([]);
    expect(browserStats()).toMatchObject({ running: false, active: 0, waiting: 0 });
  }, 60_000);
});
