import crypto from "node:crypto";
import fs from "node:fs";
import { DEMO, expect, expectAccessible, expectMessage, organisationToday, registerStudent, signIn, signInAt, signOut, test } from "./fixtures";
import { e2eDb, insertCourse } from "./e2e-db";
import { daysGoBy, plusDays, shown } from "./hrw-days";

test.describe("high-risk work licence assessments", () => {
  test("an assessor checks a candidate, books a week ahead, records the AEN, the three parts and the NSA; the candidate sees the deadline; an admin finds the row in the audit CSV", async ({
    page,
    js,
  }) => {
    test.setTimeout(120_000);
    const today = organisationToday();
    const booked = plusDays(today, 14);
    const held = plusDays(today, -2);
    const candidate = await registerStudent(page, `Candidate ${crypto.randomUUID().slice(0, 6)}`);
    const { id: candidateId } = (await e2eDb().get<{ id: string }>("select id from users where email = ?", candidate.email))!;
    const nsa = `NSA-E2E-${crypto.randomUUID().slice(0, 8)}`;

    await signIn(page, DEMO.trainer.email);
    await page.getByRole("link", { name: "HRW licences" }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "HRW licence assessments" })).toBeVisible();
    await expect(page.getByText("NSW accreditation NSW-HRWA-10452: DG, RB, RI, CN, C2")).toBeVisible();

    // incomplete checks: the booking is refused and says which
    await page.goto(`/trainer/hrw/book?candidate=${candidateId}`);
    await expect(page.getByRole("heading", { name: `Candidate: ${candidate.name}` })).toBeVisible();
    await expectAccessible(page);
    const bookingForm = async (date: string) => {
      await page.getByLabel("Course").selectOption({ label: "CN \u2014 Licence to operate a non-slewing mobile crane (greater than 3 tonnes) (CN)" });
      await page.getByLabel("State or territory").selectOption("NSW");
      await page.getByLabel("Assessment date").fill(date);
      await page.getByLabel("Start time").fill("08:30");
      await page.getByLabel("Assessor").selectOption({ label: DEMO.trainer.name });
      await page.getByLabel("Plant", { exact: true }).fill("Franna AT-20 pick-and-carry");
      await page.getByLabel("Plant registration or serial number").fill("E2E-PLANT-1");
      await page.getByRole("button", { name: "Book assessment" }).click();
    };
    await bookingForm(booked);
    await expect(
      page
        .getByRole("alert")
        .filter({ hasText: "The candidate's checks are incomplete: age (date of birth) not checked; evidence of identity not sighted" })
        .first(),
    ).toBeVisible();

    // the checks, each recorded with who and when
    await page.getByRole("link", { name: "Record the candidate's checks" }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Checks: ${candidate.name}` })).toBeVisible();
    await page.getByLabel("Date of birth as sighted").fill("1995-03-04");
    await page.getByRole("button", { name: "Record age check" }).click();
    await expectMessage(page, js, "Check recorded");
    await expect(page.getByText(`Date of birth checked by ${DEMO.trainer.name}`)).toBeVisible();
    await page.getByLabel("Medicare card (25)").check();
    await page.getByRole("button", { name: "Record identity check" }).click();
    await expect(page.getByText("The documents sighted add up to 25 points; 100 are needed").first()).toBeVisible();
    await page.getByLabel("Medicare card (25)").uncheck();
    await page.getByLabel("Australian passport (70)").check();
    await page.getByLabel("Australian driver licence (photo) (40)").check();
    await page.getByRole("button", { name: "Record identity check" }).click();
    await expectMessage(page, js, "Check recorded");
    await expect(page.getByText(/^110 points \(Australian passport, Australian driver licence \(photo\)\), sighted by/)).toBeVisible();

    // NSW schedules a week ahead: today is refused with the earliest day, a fortnight out is booked
    await page.getByRole("link", { name: `Book an assessment for ${candidate.name}` }).click();
    await bookingForm(today);
    await expect(page.getByText(`the earliest date is ${shown(plusDays(today, 7))}`).first()).toBeVisible();
    await bookingForm(booked);
    await expectMessage(page, js, "Assessment booked");
    await expect(page.getByRole("heading", { level: 1, name: `CN assessment: ${candidate.name}` })).toBeVisible();
    const assessmentUrl = page.url();
    const assessmentId = assessmentUrl.split("/").pop()!;
    // no result can be recorded before the assessment day
    await expect(page.getByText(`Results can be recorded from ${shown(booked)}, the day of the assessment.`)).toBeVisible();
    await expect(page.getByRole("button", { name: "Record result" })).toHaveCount(0);
    await expectAccessible(page);

    // the assessor's dashboard says when to notify the regulator, until the reference is in
    await page.goto("/trainer/overview");
    const notice = page.getByRole("list", { name: "Regulator notices due" }).getByRole("listitem").filter({ hasText: candidate.name });
    await expect(notice).toContainText("Notify the regulator by");
    await page.goto(assessmentUrl);
    await page.getByLabel("Notice reference").fill("SWN-E2E-1");
    await page.getByRole("button", { name: "Record notice" }).click();
    await expectMessage(page, js, "Regulator notice recorded");
    await expect(page.getByText(`${shown(booked)}: SWN-E2E-1 (given ${shown(today)})`)).toBeVisible();
    await page.goto("/trainer/overview");
    await expect(page.getByRole("listitem").filter({ hasText: candidate.name })).toHaveCount(0);

    // the assessment is held, a fortnight later
    await daysGoBy(assessmentId, 16);
    await page.goto(assessmentUrl);
    await page.getByLabel("Part", { exact: true }).selectOption("knowledge");
    await page.getByLabel("Result", { exact: true }).selectOption("satisfactory");
    await page.getByLabel("Date assessed").fill(held);
    await page.getByRole("button", { name: "Record result" }).click();
    await expect(page.getByText(/^Record the candidate's assessment enrolment number \(AEN\) on their checks first/).first()).toBeVisible();

    // the AEN, format checked, on the candidate's checks
    await page.getByRole("link", { name: "Not recorded: record it on the candidate's checks" }).click();
    await page.getByLabel("Assessment enrolment number").fill("no!");
    await page.getByRole("button", { name: "Record AEN" }).click();
    await expect(page.getByText("The assessment enrolment number (AEN) is not in the regulator's format").first()).toBeVisible();
    const aen = `AEN${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
    await page.getByLabel("Assessment enrolment number").fill(aen);
    await page.getByRole("button", { name: "Record AEN" }).click();
    await expectMessage(page, js, "Check recorded");
    await expect(page.getByText(`NSW: ${aen} (recorded by ${DEMO.trainer.name})`)).toBeVisible();
    await page.goto(assessmentUrl);
    // NSW needs the AEN before the assessment: the parts held two days ago cannot be recorded now
    const tryPart = async (date: string) => {
      await page.getByLabel("Part", { exact: true }).selectOption("knowledge");
      await page.getByLabel("Result", { exact: true }).selectOption("satisfactory");
      await page.getByLabel("Date assessed").fill(date);
      await page.getByRole("button", { name: "Record result" }).click();
    };
    await tryPart(held);
    await expect(page.getByText(`The candidate's assessment enrolment number (AEN) was recorded on ${shown(today)}`).first()).toBeVisible();
    // the parts are held again today, a day the regulator's scheduling of the booked day does not cover
    await tryPart(today);
    await expect(page.getByText(`Record the regulator's scheduling for ${shown(today)} first`).first()).toBeVisible();
    await page.getByLabel("Notice reference").fill("SWN-E2E-2");
    await page.getByLabel("Day the notice is for").fill(today);
    await page.getByLabel("Day the notice was given").fill(plusDays(today, -9));
    await page.getByRole("button", { name: "Record notice" }).click();
    await expectMessage(page, js, "Regulator notice recorded");

    const results = [
      ["knowledge", "satisfactory"],
      ["calculations", "satisfactory"],
      ["practical", "not_yet_satisfactory"],
      ["practical", "satisfactory"],
    ] as const;
    for (const [i, [part, result]] of results.entries()) {
      await page.getByLabel("Part", { exact: true }).selectOption(part);
      await page.getByLabel("Result", { exact: true }).selectOption(result);
      await page.getByLabel("Date assessed").fill(today);
      await page.getByRole("button", { name: "Record result" }).click();
      await expectMessage(page, js, "Result recorded");
      // every result stays, the reassessment of the practical part included (plus the header row)
      await expect(page.getByRole("table", { name: "Every result, reassessments included" }).getByRole("row")).toHaveCount(i + 2);
    }
    await page.getByLabel("NSA number").fill(nsa);
    await page.getByLabel("NSA date").fill(today);
    await page.getByRole("button", { name: "Record NSA" }).click();
    await expectMessage(page, js, "NSA recorded");
    await expect(page.getByText(`${nsa}, ${shown(today)} (apply by ${shown(plusDays(today, 60))})`)).toBeVisible();
    await signOut(page);

    // the candidate's dashboard: apply for the licence within 60 days of the NSA
    await signInAt(page, candidate.email, "/student/overview");
    await expect(page.getByText(`Apply for your CN licence by ${shown(plusDays(today, 60))}`)).toBeVisible();
    await expectAccessible(page);
    await signOut(page);

    // the regulator's audit: the page and its CSV
    await signInAt(page, DEMO.admin.email, `/admin/reports/hrw?from=${held}&to=${today}`);
    await expect(page.getByRole("heading", { level: 1, name: "HRW assessment audit" })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: candidate.name });
    await expect(row).toContainText(nsa);
    await expect(row).toContainText("NSW-HRWA-10452");
    await expect(row).toContainText("E2E-PLANT-1");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toBe(`hrw-assessments-from-${held}-to-${today}.csv`);
    const csv = fs.readFileSync((await download.path())!, "utf8");
    const line = csv.split("\r\n").find((l) => l.includes(nsa));
    expect(line).toBeDefined();
    expect(line).toContain(candidate.name);
    expect(line).toContain("NSW-HRWA-10452");
    expect(line).toContain("Practical: Satisfactory");
    expect(line).toContain("Practical: NSW-HRWA-10452");
  });

  test("an administrator sets a course's licence class and its prerequisite licences on the course form", async ({ page, js }) => {
    const course = await insertCourse();
    await signInAt(page, DEMO.admin.email, `/admin/courses/${course.id}/edit`);
    const modal = page.getByRole("dialog");
    await modal.getByLabel("High-risk work licence class").selectOption("RB");
    await modal.getByRole("button", { name: "Save Changes" }).click();
    await expectMessage(page, js, "Course updated successfully");
    const stored = () =>
      e2eDb().get<{ licence_class: string | null; licence_prerequisites: string | null }>(
        "select licence_class, licence_prerequisites from courses where id = ?",
        course.id,
      );
    // nothing ticked: the class's defaults (RB needs DG), shown ticked when the form opens again
    expect(await stored()).toEqual({ licence_class: "RB", licence_prerequisites: null });
    await page.goto(`/admin/courses/${course.id}/edit`);
    await expect(modal.getByRole("group", { name: "Licences a candidate must hold first" }).getByRole("checkbox", { name: "DG" })).toBeChecked();
    await modal.getByRole("group", { name: "Licences a candidate must hold first" }).getByRole("checkbox", { name: "CN" }).check();
    await modal.getByRole("button", { name: "Save Changes" }).click();
    await expectMessage(page, js, "Course updated successfully");
    expect(await stored()).toEqual({ licence_class: "RB", licence_prerequisites: JSON.stringify(["DG", "CN"]) });
  });

  test("an administrator keeps the assessor register and the states' notice lead times; the dashboard warns of expiries", async ({ page, js }) => {
    await signInAt(page, DEMO.admin.email, "/admin/overview");
    await expect(page.getByRole("list", { name: "Assessor expiry warnings" })).toContainText(
      `${DEMO.trainer.name}: NSW accreditation NSW-HRWA-10452 expires on`,
    );
    await page.goto("/admin/staff");
    await page.getByRole("link", { name: "Assessor register of Priya Shah" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Assessor register: Priya Shah" })).toBeVisible();
    await expect(page.getByText(/NSW-HRWA-18840: DG, RB — from .*, expired/)).toBeVisible();
    const number = `QLD-E2E-${crypto.randomUUID().slice(0, 6)}`;
    await page.getByLabel("Regulator (state)").selectOption("QLD");
    await page.getByLabel("Accreditation number").fill(number);
    await page.getByLabel("Accreditation start").fill("2029-07-01");
    await page.getByLabel("Accreditation expiry").fill("2029-06-30");
    await page.getByRole("button", { name: "Add accreditation" }).click();
    await expect(page.getByText("Choose the classes the accreditation covers").first()).toBeVisible();
    await expect(page.getByText("The expiry date cannot be before the start date").first()).toBeVisible();
    await page.getByLabel("Accreditation start").fill("2026-07-01");
    await page.getByRole("checkbox", { name: "CN" }).check();
    await page.getByRole("checkbox", { name: "C2" }).check();
    await page.getByRole("button", { name: "Add accreditation" }).click();
    await expectMessage(page, js, "Assessor register updated");
    await expect(page.getByText(`QLD ${number}: CN, C2 — from ${shown("2026-07-01")}, expires ${shown("2029-06-30")}`)).toBeVisible();
    // a renewal is the same number with the new period: the earlier period stays beside it
    await page.getByLabel("Regulator (state)").selectOption("QLD");
    await page.getByLabel("Accreditation number").fill(number);
    await page.getByLabel("Accreditation start").fill("2029-07-01");
    await page.getByLabel("Accreditation expiry").fill("2032-06-30");
    await page.getByRole("checkbox", { name: "CN" }).setChecked(true);
    await page.getByRole("checkbox", { name: "C2" }).setChecked(false);
    await page.getByRole("button", { name: "Add accreditation" }).click();
    await expectMessage(page, js, "Assessor register updated");
    await expect(page.getByText(`QLD ${number}: CN — from ${shown("2029-07-01")}, expires ${shown("2032-06-30")}`)).toBeVisible();
    await expect(page.getByText(`QLD ${number}: CN, C2 — from ${shown("2026-07-01")}`)).toBeVisible();
    for (const start of ["2029-07-01", "2026-07-01"]) {
      await page.getByRole("button", { name: `Remove accreditation ${number} from ${shown(start)}` }).click();
      await expectMessage(page, js, "Assessor register updated");
    }
    await expect(page.getByText(number)).toHaveCount(0);

    // the old address of the notice lead times answers with the state rules page
    await page.goto("/admin/hrw-states");
    await expect(page).toHaveURL(/\/admin\/hrw\/rules$/);
    await expect(page.getByRole("heading", { level: 1, name: "High-risk work rules by state" })).toBeVisible();
    await page.getByText("Change QLD notice to the regulator before each assessment").click();
    const qld = page.locator("#rule-QLD-notice_business_days");
    await expect(qld.getByLabel("New value (business days)")).toHaveValue("3");
    await qld.getByLabel("New value (business days)").fill("many");
    await qld.getByRole("button", { name: "Save QLD rule" }).click();
    await expect(page.getByText("Enter a whole number, or leave it blank when the state does not set this rule").first()).toBeVisible();
  });

  test("the audit page's Yearly audit pack form saves the state's zip, with or without JavaScript", async ({ page }) => {
    const year = Number(organisationToday().slice(0, 4)) - 1;
    await signInAt(page, DEMO.admin.email, "/admin/reports/hrw");
    const pack = page.locator("form").filter({ has: page.getByRole("button", { name: "Download audit pack" }) });
    await pack.getByLabel("State").selectOption("VIC");
    await pack.getByLabel("Year").selectOption(String(year));
    const [download] = await Promise.all([page.waitForEvent("download"), pack.getByRole("button", { name: "Download audit pack" }).click()]);
    expect(download.suggestedFilename()).toBe(`hrw-audit-pack-VIC-${year}.zip`);
    expect(
      fs
        .readFileSync((await download.path())!)
        .subarray(0, 2)
        .toString("latin1"),
    ).toBe("PK");
    // the page stays, in working order
    await expect(page.getByRole("heading", { level: 1, name: "HRW assessment audit" })).toBeVisible();
    // a state code in lower case is the same state's pack
    const lower = await page.request.get(`/admin/reports/hrw.zip?state=vic&year=${year}`, { maxRedirects: 0 });
    expect(lower.status()).toBe(200);
    expect(lower.headers()["content-disposition"]).toBe(`attachment; filename="hrw-audit-pack-VIC-${year}.zip"`);
    // a state that is no state comes back to the page, the reason at the State field
    const bad = await page.goto(`/admin/reports/hrw.zip?state=XX&year=${year}`);
    expect(bad!.status()).toBe(400);
    await expect(page.getByLabel("State", { exact: true })).toHaveAccessibleDescription(/Choose a state or territory from the list/);
  });

  test("an audit period whose end is before its start is refused at the To field", async ({ page }) => {
    await signInAt(page, DEMO.admin.email, "/admin/reports/hrw");
    const answer = await page.goto("/admin/reports/hrw?from=2026-12-31&to=2026-01-01");
    expect(answer!.status()).toBe(400);
    await expect(page.getByLabel("To", { exact: true })).toHaveAccessibleDescription(/The end is before the start/);
    await expect(page.getByText("No HRW assessments in this period")).toHaveCount(0);
    await expectAccessible(page);
  });
});
