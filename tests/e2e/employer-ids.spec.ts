import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { e2eDb } from "./e2e-db";
import { expect, signIn, test, NO_FORM } from "./fixtures";

/**
 * An employer's pages by id, as a browser and the single-fetch client meet them: an unknown id,
 * a malformed one, or another organisation's booking or worker answers 404 (the page, its
 * `.data` request and the /api), never a server error, and the demo employer's own answer 200.
 */
const DEMO_EMPLOYER = "employer@example.com";

/** The demo employer's first booking and worker, read from the server's database. */
async function demoRecords(): Promise<{ booking: string; worker: string }> {
  const row = await e2eDb().get<{ booking: string; worker: string }>(
    `select b.id as booking, w.id as worker from group_bookings b join booking_workers w on w.booking_id = b.id
     join users u on u.employer_id = b.employer_id where u.email = ? order by w.full_name limit 1`,
    DEMO_EMPLOYER,
  );
  if (!row) throw new Error("the demo employer has no booking with a worker");
  return row;
}

/** An organisation of its own with one employer user holding the demo password; returns the user's email. */
async function otherEmployerUser(): Promise<string> {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const email = `other-employer-${id.slice(0, 8)}@test.example`;
  await e2eDb().run(
    "insert into employers (id, name, abn, contact_name, contact_email, contact_phone, address, created_at, updated_at) values (?, ?, ?, 'Pat Lee', ?, '02 4900 0000', '1 Pier St', ?, ?)",
    id,
    `Other Crew ${id.slice(0, 8)}`,
    // unique per run; the page under test never checks it
    String(10_000_000_000 + (crypto.randomInt(0, 2 ** 47) % 89_999_999_999)),
    email,
    now,
    now,
  );
  await e2eDb().run(
    `insert into users (id, email, full_name, password_hash, role, employer_id, is_active, approval_status, created_at, updated_at)
     select ?, ?, 'Pat Lee', password_hash, 'employer', ?, 1, 'approved', ?, ? from users where email = 'trainer@example.com'`,
    crypto.randomUUID(),
    email,
    id,
    now,
    now,
  );
  return email;
}

async function statusOf(page: Page, path: string): Promise<number> {
  return (await page.request.get(path, { maxRedirects: 0 })).status();
}

/** The page (in the browser), its single-fetch data and its /api twin, each with `status`. */
async function expectEach(page: Page, paths: { page: string; api: string }, status: number) {
  const response = await page.goto(paths.page);
  expect(response?.status(), paths.page).toBe(status);
  expect(await statusOf(page, `${paths.page}.data`), `${paths.page}.data`).toBe(status);
  expect(await statusOf(page, paths.api), paths.api).toBe(status);
}

test("an employer's own booking and worker open; unknown, malformed and another organisation's ids are 404", NO_FORM, async ({ page }) => {
  const own = await demoRecords();
  const unknown = crypto.randomUUID();

  await signIn(page, DEMO_EMPLOYER);
  await expectEach(page, { page: `/employer/bookings/${own.booking}`, api: `/api/employer/bookings/${own.booking}` }, 200);
  await expectEach(page, { page: `/employer/workers/${own.worker}`, api: `/api/employer/workers/${own.worker}` }, 200);
  for (const id of [unknown, "not-an-id"]) {
    await expectEach(page, { page: `/employer/bookings/${id}`, api: `/api/employer/bookings/${id}` }, 404);
    await expectEach(page, { page: `/employer/workers/${id}`, api: `/api/employer/workers/${id}` }, 404);
  }
  await page.goto(`/employer/bookings/${unknown}`);
  await expect(page.getByText(/not found/i).first()).toBeVisible();
  await page.context().clearCookies();

  await signIn(page, await otherEmployerUser());
  await expectEach(page, { page: `/employer/bookings/${own.booking}`, api: `/api/employer/bookings/${own.booking}` }, 404);
  await expectEach(page, { page: `/employer/workers/${own.worker}`, api: `/api/employer/workers/${own.worker}` }, 404);
  // naming workers on another organisation's booking is refused the same way, and names nobody
  const form = await page.request.post(`/employer/bookings/${own.booking}`, {
    form: { worker_name_0: "Quinn Hart", worker_email_0: `quinn-${unknown.slice(0, 8)}@test.example` },
    maxRedirects: 0,
  });
  expect(form.status()).toBe(404);
  const api = await page.request.post(`/api/employer/bookings/${own.booking}/workers`, {
    data: { workers: [{ full_name: "Quinn Hart", email: `quinn-${unknown.slice(0, 8)}@test.example` }] },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(api.status()).toBe(404);
  expect(await e2eDb().get("select id from booking_workers where email = ?", `quinn-${unknown.slice(0, 8)}@test.example`)).toBeUndefined();
});
