import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import sharp from "sharp";
import { FORM_TOKEN_FIELD } from "../../app/utils/form-token";
import { organisationToday, organisationYear } from "../../app/utils/organisation-calendar";
import { e2eDb } from "./e2e-db";
import { formTokenOn } from "./form-token";
import { DEMO, expect, newClientHeaders, requestsAloneRunOnce, test } from "./fixtures";
import { routeModuleFiles, routeSource } from "../support/route-files";

/**
 * Every route that answers a file (PDF, CSV, zip, iCalendar, stored uploads), requested over HTTP
 * from the running production server on the demo data, as the role that may fetch it, with the
 * demo's own ids: no 5xx, no HTML page, its own content type, and `Content-Disposition:
 * attachment` (the calendar feed, which calendar apps subscribe to, excepted).
 *
 * The list is checked against app/routes: every resource route outside the /api, and every /api
 * route that answers a file (its source, or a module it imports, names a file's header or type),
 * must be here or among the routes said not to answer one; a page route (.tsx) that builds a
 * file answer itself fails outright. A new file route cannot go untested unnoticed.
 */

type Role = "admin" | "trainer" | "student" | "employer";

/** The demo's ids the requests name, and files a test arranges where the demo keeps none. */
interface Ids {
  year: number;
  today: string;
  invoice: string;
  studentInvoice: string;
  employerInvoice: string;
  creditNote: string;
  studentCreditNote: string;
  employerCreditNote: string;
  certificate: string;
  learnerDocument: string;
  evidence: string;
  activity: string;
  calendarPath: string;
}

interface FileRoute {
  as: Role;
  path: (ids: Ids) => string;
  type: RegExp;
  /** false for the calendar feed, which calendar apps read in place */
  attachment?: false;
}

const CSV = /^text\/csv; charset=utf-8$/;
const PDF = /^application\/pdf$/;
const ZIP = /^application\/zip$/;

const FILE_ROUTES: Record<string, FileRoute> = {
  "admin+/audit[.]csv.ts": { as: "admin", path: () => "/admin/audit.csv", type: CSV },
  "admin+/complaints[.]csv.ts": { as: "admin", path: () => "/admin/complaints.csv", type: CSV },
  "admin+/export[.]csv.ts": { as: "admin", path: () => "/admin/export.csv", type: CSV },
  "admin+/finance_.$id.pdf.ts": { as: "admin", path: (i) => `/admin/finance/${i.invoice}/pdf`, type: PDF },
  "admin+/finance_.credit-notes.$id.pdf.ts": { as: "admin", path: (i) => `/admin/finance/credit-notes/${i.creditNote}/pdf`, type: PDF },
  "admin+/finance_.xero[.]csv.ts": { as: "admin", path: (i) => `/admin/finance/xero.csv?from=${i.year - 1}-01-01&to=${i.today}`, type: CSV },
  "admin+/improvements[.]csv.ts": { as: "admin", path: () => "/admin/improvements.csv", type: CSV },
  "admin+/questionnaires.annual[.]csv.ts": { as: "admin", path: (i) => `/admin/questionnaires/annual.csv?audience=learner&year=${i.year}`, type: CSV },
  "admin+/reports.avetmiss.$file.ts": {
    as: "admin",
    path: (i) => `/admin/reports/avetmiss/NAT00120.txt?year=${i.year}`,
    type: /^text\/plain; charset=us-ascii$/,
  },
  "admin+/reports.avetmiss[.]zip.ts": { as: "admin", path: (i) => `/admin/reports/avetmiss.zip?year=${i.year}`, type: ZIP },
  "admin+/reports_.hrw[.]csv.ts": { as: "admin", path: () => "/admin/reports/hrw.csv", type: CSV },
  "admin+/reports_.hrw[.]zip.ts": { as: "admin", path: (i) => `/admin/reports/hrw.zip?state=VIC&year=${i.year}`, type: ZIP },
  "api+/admin.avetmiss.ts": { as: "admin", path: (i) => `/api/admin/avetmiss?year=${i.year}`, type: ZIP },
  "api+/certificates.$id.download.ts": { as: "student", path: (i) => `/api/certificates/${i.certificate}/download`, type: PDF },
  "api+/evidence.$id.download.ts": { as: "student", path: (i) => `/api/evidence/${i.evidence}/download`, type: /^image\/jpeg$/ },
  "api+/learner-documents.$id.ts": {
    as: "student",
    path: (i) => `/api/learner-documents/${i.learnerDocument}`,
    type: /^(application\/pdf|image\/(jpeg|png))$/,
  },
  "api+/trainer-activities.$id.evidence.ts": { as: "trainer", path: (i) => `/api/trainer-activities/${i.activity}/evidence`, type: PDF },
  "certificates.$id.download.ts": { as: "student", path: (i) => `/certificates/${i.certificate}/download`, type: PDF },
  "calendar.$token.ts": { as: "student", path: (i) => i.calendarPath, type: /^text\/calendar; charset=utf-8$/, attachment: false },
  "employer+/workers[.]csv.ts": { as: "employer", path: () => "/employer/workers.csv", type: CSV },
  "employer+/invoices_.$id.pdf.ts": { as: "employer", path: (i) => `/employer/invoices/${i.employerInvoice}/pdf`, type: PDF },
  "employer+/credit-notes.$id.pdf.ts": { as: "employer", path: (i) => `/employer/credit-notes/${i.employerCreditNote}/pdf`, type: PDF },
  "evidence.$id.download.ts": { as: "student", path: (i) => `/evidence/${i.evidence}/download`, type: /^image\/jpeg$/ },
  // each role's own view of the register of recognitions (the learner's here)
  "recognition[.]csv.ts": { as: "student", path: () => "/recognition.csv", type: CSV },
  "student+/invoices_.$id.pdf.ts": { as: "student", path: (i) => `/student/invoices/${i.studentInvoice}/pdf`, type: PDF },
  "student+/credit-notes.$id.pdf.ts": { as: "student", path: (i) => `/student/credit-notes/${i.studentCreditNote}/pdf`, type: PDF },
  "trainer-activities.$id.evidence.ts": { as: "trainer", path: (i) => `/trainer-activities/${i.activity}/evidence`, type: PDF },
};

/** Resource routes that answer no file, and why. */
const NOT_FILE_ROUTES: Record<string, string> = {
  "trainer+/evidence.$kind.$id_.upload.ts": "takes an upload by POST and redirects; GET is a 405",
  "_auth+/login_.sso.ts": "starts single sign-on: redirects to the identity provider",
  "_auth+/login_.sso_.callback.ts": "the identity provider's return: signs in and redirects",
  "api+/openapi[.]json.ts": "the /api's OpenAPI document, JSON",
};

/** What a module that answers a file names: its header, or a file's type. */
const FILE_ANSWER = /Content-Disposition|application\/(pdf|zip)|text\/(csv|calendar)/;

const read = (file: string) => fs.readFileSync(file, "utf8");

/** The app modules a route imports by `~/` (one level: the helpers that build the answer). */
function imported(source: string): string[] {
  return [...source.matchAll(/from "~\/([^"]+)"/g)]
    .map((m) => [".ts", ".tsx", "/index.ts"].map((ext) => path.resolve("app", m[1]! + ext)).find((f) => fs.existsSync(f)))
    .filter((f): f is string => Boolean(f));
}

/** The route modules that answer files, as app/routes holds them; and page modules that do (a fault). */
function fileRoutesOnDisk(): { resources: string[]; pages: string[] } {
  const resources: string[] = [];
  const pages: string[] = [];
  for (const name of routeModuleFiles()) {
    const source = routeSource(name);
    const answersFile = FILE_ANSWER.test(source) || imported(source).some((f) => FILE_ANSWER.test(read(f)));
    if (name.endsWith(".tsx")) {
      // a page's own source building a file answer: the fault that broke the HRW audit pack
      if (FILE_ANSWER.test(source)) pages.push(name);
    } else if (!name.startsWith("api+/") || answersFile) {
      resources.push(name);
    }
  }
  return { resources: resources.sort(), pages };
}

test.describe("file routes over HTTP", () => {
  requestsAloneRunOnce();

  test("every route that answers a file is listed here, and no page answers one", () => {
    const { resources, pages } = fileRoutesOnDisk();
    expect(pages, "page routes building a file answer (move each to a resource route)").toEqual([]);
    const unlisted = resources.filter((r) => !(r in FILE_ROUTES) && !(r in NOT_FILE_ROUTES));
    expect(unlisted, "resource routes this test does not request").toEqual([]);
    const gone = [...Object.keys(FILE_ROUTES), ...Object.keys(NOT_FILE_ROUTES)].filter((r) => !resources.includes(r));
    expect(gone, "listed routes app/routes no longer holds as resource routes").toEqual([]);
  });

  test("each answers its file to the role that may fetch it", async ({ baseURL }) => {
    test.setTimeout(180_000);
    const clients = new Map<Role, APIRequestContext>();
    const client = async (role: Role) => {
      let c = clients.get(role);
      if (!c) {
        c = await signedIn(baseURL!, role);
        clients.set(role, c);
      }
      return c;
    };
    try {
      const ids = await demoIds(await client("trainer"), await client("admin"));
      const failures: string[] = [];
      for (const [file, route] of Object.entries(FILE_ROUTES)) {
        const url = route.path(ids);
        const answer = await (await client(route.as)).get(url, { maxRedirects: 0 });
        const headers = answer.headers();
        const type = headers["content-type"] ?? "";
        const body = await answer.body();
        const problems = [
          answer.status() >= 500 ? `answered ${answer.status()}` : null,
          answer.status() !== 200 ? `answered ${answer.status()}${headers.location ? ` (to ${headers.location})` : ""}` : null,
          /text\/html/.test(type) || /^\s*<!doctype html/i.test(body.subarray(0, 64).toString("latin1")) ? "answered an HTML page" : null,
          route.type.test(type) ? null : `answered Content-Type ${type || "(none)"}`,
          route.attachment === false || /^attachment;\s*filename=/.test(headers["content-disposition"] ?? "")
            ? null
            : `answered Content-Disposition ${headers["content-disposition"] ?? "(none)"}`,
          body.length > 0 ? null : "answered no bytes",
        ].filter(Boolean);
        if (problems.length) failures.push(`${file} GET ${url} as ${route.as}: ${problems.join("; ")}`);
        if (file === "calendar.$token.ts") {
          // RFC 5545 3.1: every content line ends with CRLF, the last one too
          expect(body.toString("utf8").endsWith("END:VCALENDAR\r\n"), "the calendar feed ends with CRLF").toBe(true);
        }
      }
      // the pack's old address, on the audit page, sends to the resource route
      const old = await (await client("admin")).get(`/admin/reports/hrw?state=VIC&year=${ids.year}`);
      if (old.status() !== 200 || old.headers()["content-type"] !== "application/zip")
        failures.push(`/admin/reports/hrw?state=VIC answered ${old.status()} ${old.headers()["content-type"]}`);
      expect(failures).toEqual([]);
    } finally {
      for (const c of clients.values()) await c.dispose();
    }
  });
});

const EMAILS: Record<Role, string> = {
  admin: DEMO.admin.email,
  trainer: DEMO.trainer.email,
  student: DEMO.student.email,
  employer: "employer@example.com",
};

/** A client of its own (its own address, for the sign-in limits) holding the role's session. */
async function signedIn(baseURL: string, role: Role): Promise<APIRequestContext> {
  const c = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: newClientHeaders() });
  const answer = await c.post("/login", { form: { email: EMAILS[role], password: "password123" }, maxRedirects: 0, headers: { Connection: "close" } });
  expect(answer.status(), `signing in as the demo ${role}`).toBe(302);
  return c;
}

/**
 * The demo's records each route names. The demo keeps no assessment evidence file, no activity
 * evidence file and no calendar address, so the demo trainer adds them the way a trainer does:
 * a photo on an assessment of the demo student's, a certificate on a new activity of their own,
 * and a calendar address of their own (the demo student's is left to the journeys that make it).
 */
async function demoIds(trainer: APIRequestContext, admin: APIRequestContext): Promise<Ids> {
  const db = e2eDb();
  const one = async (statement: string, ...params: unknown[]) => {
    const row = await db.get<{ id: string }>(statement, ...params);
    if (!row) throw new Error(`the demo has no row for: ${statement}`);
    return row.id;
  };
  const student = await one("select id from users where email = ?", DEMO.student.email);
  const trainerId = await one("select id from users where email = ?", DEMO.trainer.email);
  // the /api's writes take a bearer token, as its clients send one
  const login = await trainer.post("/api/auth/login", { data: { email: DEMO.trainer.email, password: "password123" } });
  expect(login.status(), "the trainer's /api sign-in").toBe(200);
  const bearer = { Authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };

  const assessment = await one("select id from assessments where student_id = ? and assessed_by = ? order by assessment_date desc", student, trainerId);
  const photo = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 200, g: 120, b: 30 } } })
    .jpeg()
    .toBuffer();
  const uploaded = await trainer.post(`/api/assessments/unit/${assessment}/evidence`, {
    headers: bearer,
    multipart: { files: { name: "file-routes.jpg", mimeType: "image/jpeg", buffer: photo } },
  });
  expect(uploaded.status(), `evidence upload: ${await uploaded.text()}`).toBeLessThan(300);
  const evidence = await one("select id from evidence_files where student_id = ? and original_name = ? order by uploaded_at desc", student, "file-routes.jpg");

  const description = `File routes check ${crypto.randomUUID().slice(0, 8)}`;
  const made = await trainer.post("/api/credentials/my/activities", {
    headers: bearer,
    data: { kind: "development", activity_date: organisationToday(), hours: 1, description, evidence: null },
  });
  expect(made.status(), `activity: ${await made.text()}`).toBeLessThan(300);
  const activity = await one("select id from trainer_activities where trainer_id = ? and description = ?", trainerId, description);
  const pdf = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
  const attached = await trainer.post(`/api/trainer-activities/${activity}/evidence`, {
    headers: bearer,
    multipart: { evidence_file: { name: "file-routes.pdf", mimeType: "application/pdf", buffer: pdf } },
  });
  expect(attached.status(), `activity evidence: ${await attached.text()}`).toBeLessThan(300);

  const page = await trainer.post("/trainer/calendar", { form: { intent: "replace" } });
  const calendarPath = /\/calendar\/[A-Za-z0-9_-]{20,}\.ics/.exec(await page.text())?.[0];
  if (!calendarPath) throw new Error("the trainer's calendar page showed no address");

  const studentInvoices = "select id from invoices where buyer_kind = 'learner' and buyer_id = ?";
  const employerInvoices =
    "select i.id from invoices i join users u on u.employer_id = i.buyer_id where i.buyer_kind = 'employer' and u.email = 'employer@example.com'";
  return {
    year: organisationYear(),
    today: organisationToday(),
    invoice: await one("select id from invoices order by issue_date desc"),
    studentInvoice: await one("select id from invoices where buyer_id = ? order by issue_date desc", student),
    employerInvoice: await one(
      "select i.id from invoices i join users u on u.employer_id = i.buyer_id where i.buyer_kind = 'employer' and u.email = ? order by i.issue_date desc",
      "employer@example.com",
    ),
    creditNote: await one("select id from credit_notes"),
    studentCreditNote: await creditNoteAgainst(admin, studentInvoices, student),
    employerCreditNote: await creditNoteAgainst(admin, employerInvoices),
    certificate: await one("select id from certificates where student_id = ?", student),
    learnerDocument: await one("select id from files where student_id = ? and sha256 is not null", student),
    evidence,
    activity,
    calendarPath,
  };
}

/**
 * A credit note against one of a buyer's invoices (`invoices`: a statement listing their ids):
 * the first there is, or one the office issues now on the newest invoice's page, as an
 * administrator does: the amount owed paid first, then $1.00 of it credited. The demo keeps a
 * credit note against one learner's invoice only.
 */
async function creditNoteAgainst(admin: APIRequestContext, invoices: string, ...params: unknown[]): Promise<string> {
  const db = e2eDb();
  const existing = async () => (await db.get<{ id: string }>(`select id from credit_notes where invoice_id in (${invoices}) order by number`, ...params))?.id;
  const found = await existing();
  if (found) return found;
  const invoice = await db.get<{ id: string; total_cents: number; paid_cents: number }>(
    `select id, total_cents, paid_cents from invoices where id in (${invoices}) order by issue_date desc`,
    ...params,
  );
  if (!invoice) throw new Error(`the demo has no invoice for: ${invoices}`);
  const owed = Number(invoice.total_cents) - Number(invoice.paid_cents);
  const post = async (form: Record<string, string>) => {
    const invoicePage = `/admin/finance/${invoice.id}`;
    const answer = await admin.post(invoicePage, { form: { ...form, [FORM_TOKEN_FIELD]: await formTokenOn(admin, invoicePage) } });
    expect(answer.status(), `${form.intent} on the invoice's page`).toBeLessThan(400);
  };
  if (owed > 0)
    await post({ intent: "payment", method: "bank_transfer", reference: "File routes", received_on: organisationToday(), amount: (owed / 100).toFixed(2) });
  await post({ intent: "credit", amount: "1.00", reason: "File routes check", confirm: "yes" });
  const made = await existing();
  if (!made) throw new Error(`the office's credit note against ${invoice.id} was not issued`);
  return made;
}
