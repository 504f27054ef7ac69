import crypto from "node:crypto";
import fs from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import { DEMO, expect, expectMessage, organisationToday, registerStudent, signIn, signInAt, test, NO_FORM } from "./fixtures";
import { addDays } from "../../app/utils/organisation-calendar";
import { e2eDb, insertCourse } from "./e2e-db";

/**
 * The AVETMISS journey: a learner gives their enrolment details, an administrator keeps the
 * delivery locations, reads the readiness list and the charts, and downloads the year's
 * files, with and without JavaScript.
 */

/** This year on the organisation's calendar, the reports page's default. */
const YEAR = Number(organisationToday().slice(0, 4));
const tag = () => crypto.randomUUID().slice(0, 6).toUpperCase();

async function studentRow(email: string) {
  return (await e2eDb().get<{ id: string; student_number: string }>("select id, student_number from users where email = ?", email))!;
}

/**
 * An enrolment this year for a student, straight into the database (no screen makes one for
 * someone else); `notStarted` makes it one not yet started (outcome 85) with that planned start.
 */
async function enrolThisYear(studentId: string, courseId: string, notStarted?: { plannedStart: string }) {
  const now = new Date().toISOString();
  const values = [crypto.randomUUID(), studentId, courseId, now, now];
  if (!notStarted) {
    await e2eDb().run(
      `insert into enrollments (id, student_id, course_id, status, progress_percentage, enrollment_date, completion_date, updated_at)
       values (?, ?, ?, 'in_progress', 40, ?, null, ?)`,
      ...values,
    );
    return;
  }
  const start = notStarted.plannedStart;
  await e2eDb().run(
    `insert into enrollments (id, student_id, course_id, status, progress_percentage, enrollment_date, completion_date, updated_at, planned_start_date, planned_end_date)
     values (?, ?, ?, 'enrolled', 0, ?, null, ?, ?, ?)`,
    ...values,
    start,
    addDays(start, 4),
  );
}

test.describe("AVETMISS", () => {
  test("a student fills in My enrolment details; blank answers stay 'Not stated'", async ({ page, js }) => {
    const student = await registerStudent(page, `Zoë Åström ${tag()}`);
    await signInAt(page, student.email, "/student/profile");
    await expect(page.getByRole("heading", { name: "My enrolment details" })).toBeVisible();
    await expect(page.getByText("Student no.", { exact: true }).locator("xpath=following-sibling::dd[1]")).toHaveText(
      (await studentRow(student.email)).student_number,
    );
    await page.getByRole("link", { name: "Edit enrolment details" }).click();
    const modal = page.getByRole("dialog", { name: "My enrolment details" });
    await expect(modal.getByLabel("Sex")).toHaveValue("");

    await modal.getByLabel("Sex").selectOption({ label: "Female" });
    await modal.getByLabel("Date of birth").fill("1994-07-08");
    await modal.getByLabel("Street number").fill("22");
    await modal.getByLabel("Street name").fill("Station Road");
    await modal.getByLabel("Suburb, locality or town").fill("Parramatta");
    await modal.getByLabel("Postcode").fill("21x0");
    await modal.getByLabel("State or territory").selectOption({ label: "New South Wales" });
    await modal.getByLabel("Country of birth").selectOption({ label: "Australia" });
    await modal.getByLabel("Disability, impairment or long-term condition").selectOption({ label: "Yes" });
    await modal.getByLabel("Vision").check();
    await modal.getByRole("button", { name: "Save enrolment details" }).click();
    // a bad postcode is refused beside its field, and what was typed stays
    await expect(modal.getByText("Enter a 4-digit postcode (OSPC for an address overseas)").first()).toBeVisible();
    await expect(modal.getByLabel("Street name")).toHaveValue("Station Road");
    await expect(modal.getByLabel("Vision")).toBeChecked();

    await modal.getByLabel("Postcode").fill("2150");
    await modal.getByRole("button", { name: "Save enrolment details" }).click();
    await expectMessage(page, js, "Enrolment details saved");
    await expect(page).toHaveURL(/\/student\/profile$/);
    const field = (label: string) => page.getByText(label, { exact: true }).locator("xpath=following-sibling::dd[1]");
    await expect(field("Sex")).toHaveText("Female");
    await expect(field("Residential address")).toHaveText("22 Station Road, Parramatta New South Wales 2150");
    await expect(field("Disability")).toHaveText("Yes: Vision");
    await expect(field("Main language at home")).toHaveText("Not stated");
    const row = await e2eDb().get("select sex, postcode, state, disability_types, date_of_birth from users where email = ?", student.email);
    expect(row).toEqual({ sex: "F", postcode: "2150", state: "01", disability_types: '["17"]', date_of_birth: "1994-07-08" });
  });

  test("an admin adds and edits a delivery location", async ({ page, js }) => {
    await signIn(page, DEMO.admin.email);
    await page.getByRole("link", { name: "Locations", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Delivery Locations" })).toBeVisible();
    await expect(page.getByRole("rowheader", { name: /NEWYARD/ })).toBeVisible();

    const identifier = `L${tag()}`;
    await page.getByLabel("Identifier").fill("newyard");
    await page.getByLabel("Name", { exact: true }).fill("A second yard");
    await page.getByRole("button", { name: "Add location" }).click();
    await expect(page.getByText("Another location already uses this identifier").first()).toBeVisible();
    await expect(page.getByLabel("Identifier")).toHaveAttribute("aria-invalid", "true");

    await page.getByLabel("Identifier").fill(identifier.toLowerCase());
    await page.getByLabel("Name", { exact: true }).fill(`Port yard ${identifier}`);
    await page.getByLabel("Suburb, locality or town").fill("Port Kembla");
    await page.getByRole("button", { name: "Add location" }).click();
    await expectMessage(page, js, `Location ${identifier} added`);
    const row = page.getByRole("row").filter({ hasText: identifier });
    await expect(row.getByRole("cell", { name: "Missing" })).toBeVisible();

    await row.getByRole("link", { name: `Edit ${identifier}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Edit location ${identifier}` })).toBeVisible();
    await page.getByLabel("Postcode").fill("2505");
    await page.getByLabel("State or territory").selectOption({ label: "New South Wales" });
    await page.getByRole("button", { name: "Save location" }).click();
    await expectMessage(page, js, `Location ${identifier} updated`);
    await expect(page.getByRole("row").filter({ hasText: identifier }).getByRole("cell", { name: "2505" })).toBeVisible();
  });

  test("the reports page lists what to fix, charts the year with its figures, and downloads the zip and a single file", async ({ page }) => {
    const student = await registerStudent(page, `Readiness ${tag()} Check`);
    const { id, student_number } = await studentRow(student.email);
    const course = await insertCourse();
    await enrolThisYear(id, course.id);
    // not started (85): only a planned start already past is a problem, one still ahead is not
    const startsSoon = await insertCourse();
    const shouldHaveStarted = await insertCourse();
    await enrolThisYear(id, startsSoon.id, { plannedStart: addDays(organisationToday(), 1) });
    await enrolThisYear(id, shouldHaveStarted.id, { plannedStart: addDays(organisationToday(), -3) });

    await signInAt(page, DEMO.admin.email, "/admin/students");
    await expect(page.getByRole("columnheader", { name: "Student no." })).toBeVisible();

    await page.goto(`/admin/reports?year=${YEAR}`);
    await expect(page.getByRole("heading", { name: `AVETMISS ${YEAR}` })).toBeVisible();
    // a summary by kind of problem, then the records a page at a time, found by name or number
    const kinds = page.getByRole("table", { name: `Problems to fix by kind, ${YEAR}` });
    await expect(kinds.getByRole("rowheader", { name: "No date of birth" })).toBeVisible();
    await expect(kinds.getByRole("rowheader", { name: "No field of education code" })).toBeVisible();
    const readiness = page.getByRole("list", { name: /Readiness/ });
    const findRecord = async (text: string) => {
      await page.getByLabel("Find a record").fill(text);
      await page.getByRole("button", { name: "Find", exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`find=${encodeURIComponent(text)}`));
    };
    await findRecord("nobody-by-this-name");
    await expect(page.getByText("No record to fix matches “nobody-by-this-name”.")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Records to fix pages" })).toHaveCount(0);
    await findRecord(course.unit_code);
    await expect(
      readiness
        .getByRole("listitem")
        .filter({ hasText: `Unit ${course.unit_code}` })
        .filter({ hasText: "No field of education code" }),
    ).toBeVisible();
    await findRecord(student_number);
    const mine = readiness.getByRole("listitem").filter({ hasText: `${student.name} (${student_number})` });
    await expect(mine.filter({ hasText: "No date of birth" })).toBeVisible();
    await expect(mine.filter({ hasText: "No postcode" })).toBeVisible();
    await expect(page.getByText(/Showing 1–\d of \d records to fix/)).toBeVisible();
    const notStarted = mine.filter({ hasText: "Not started, but its planned start has passed" });
    await expect(notStarted).toHaveCount(1);
    await expect(notStarted).toContainText(shouldHaveStarted.unit_code);
    await expect(mine.filter({ hasText: startsSoon.unit_code })).toHaveCount(0);

    // the charts read without JavaScript: an SVG with a title, and the figures as a table
    await expect(page.getByRole("img", { name: new RegExp(`Enrolments and completions per month, ${YEAR}`) })).toBeVisible();
    const monthly = page.getByRole("table", { name: `Enrolments and completions per month, ${YEAR}` });
    await expect(monthly.getByRole("rowheader", { name: "Enrolments" })).toBeVisible();
    const thisMonth = new Date().toLocaleString("en-AU", { month: "short", timeZone: "Australia/Sydney" }).slice(0, 3);
    await expect(monthly.getByRole("columnheader", { name: thisMonth })).toBeVisible();
    await expect(
      page.getByRole("table", { name: `Completions per tier, ${YEAR}` }).getByRole("rowheader", { name: "Tier 1 - Basic Operations" }),
    ).toBeVisible();

    const zipDownload = page.waitForEvent("download");
    await page.getByRole("button", { name: `Export AVETMISS ${YEAR} (zip)` }).click();
    const zip = await zipDownload;
    expect(zip.suggestedFilename()).toBe(`avetmiss-${YEAR}.zip`);
    const entries = unzipSync(new Uint8Array(fs.readFileSync((await zip.path())!)));
    expect(Object.keys(entries).sort()).toEqual(
      ["NAT00010", "NAT00020", "NAT00030", "NAT00060", "NAT00080", "NAT00085", "NAT00090", "NAT00100", "NAT00120", "NAT00130"].map((f) => `${f}.txt`),
    );
    const activity = strFromU8(entries["NAT00120.txt"]!);
    const lines = activity.split("\r\n");
    expect(lines.pop()).toBe("");
    for (const line of lines) expect(line).toHaveLength(158);
    expect(lines.some((l) => l.slice(20, 30).trim() === student_number && l.slice(30, 42).trim() === course.unit_code && l.slice(71, 73) === "70")).toBe(true);
    expect(strFromU8(entries["NAT00080.txt"]!)).toContain(`${student_number}   Check, Readiness`);

    const fileDownload = page.waitForEvent("download");
    await page.getByRole("link", { name: "NAT00060 unit of competency" }).click();
    const single = await fileDownload;
    expect(single.suggestedFilename()).toBe("NAT00060.txt");
    const units = fs.readFileSync((await single.path())!, "latin1");
    expect(units.endsWith("\r\n")).toBe(true);
    for (const line of units.split("\r\n").slice(0, -1)) expect(line).toHaveLength(123);
    expect(units).toContain(course.unit_code.padEnd(12, " "));

    // the readiness link leads to the record to fix
    await mine.filter({ hasText: "No date of birth" }).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/admin/students/${id}/edit$`));
    await expect(page.getByRole("dialog", { name: "Edit Student" })).toBeVisible();
  });

  test("a year that is not four digits gets a clear message, never an error page", NO_FORM, async ({ page }) => {
    await signIn(page, DEMO.admin.email);
    const response = await page.goto("/admin/reports?year=20x6");
    expect(response?.status()).toBe(400);
    await expect(page.getByText("Enter the year as four digits, e.g. 2025")).toBeVisible();
    const zip = await page.request.get("/admin/reports/avetmiss.zip?year=99999");
    expect(zip.status()).toBe(400);
    expect(await zip.text()).toContain("Enter the year as four digits");
    const api = await page.request.get("/api/admin/avetmiss?year=abc");
    expect(api.status()).toBe(422);
    expect(await api.json()).toEqual(expect.objectContaining({ detail: "Enter the year as four digits, e.g. 2025" }));
    // outside 1980-2099: a 4xx with its message on the page, the zip and the /api
    const far = await page.goto("/admin/reports?year=2150");
    expect(far?.status()).toBe(400);
    await expect(page.getByText("Choose a collection year from 1980 to 2099")).toBeVisible();
    expect((await page.request.get("/api/admin/avetmiss?year=1979")).status()).toBe(422);
    // a year still to come is refused with its message on the page and the /api
    const ahead = await page.goto(`/admin/reports?year=${YEAR + 1}`);
    expect(ahead?.status()).toBe(400);
    await expect(page.getByText(`${YEAR + 1} has not begun`)).toBeVisible();
    const aheadApi = await page.request.get(`/api/admin/avetmiss?year=${YEAR + 1}`);
    expect(aheadApi.status()).toBe(422);
    expect((await aheadApi.json()).detail).toContain(`${YEAR + 1} has not begun`);
    // a year long past with no activity says so, rather than a zip holding NAT00010 alone
    const empty = await page.request.get("/api/admin/avetmiss?year=1999");
    expect(empty.status()).toBe(404);
    expect((await empty.json()).detail).toContain("No training activity in 1999");
    await page.goto("/admin/reports?year=1999");
    await expect(page.getByText("No training activity in 1999")).toBeVisible();
    await expect(page.getByRole("button", { name: /Export AVETMISS 1999/ })).toHaveCount(0);
  });
});
