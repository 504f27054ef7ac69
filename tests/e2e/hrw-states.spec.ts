import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { DEMO, expect, expectAccessible, expectMessage, organisationToday, registerStudent, signIn, signInAt, signOut, test } from "./fixtures";
import { e2eDb } from "./e2e-db";
import { daysGoBy, plusDays, shown } from "./hrw-days";

async function checkCandidate(page: Page, js: boolean, candidateId: string) {
  await page.goto(`/trainer/hrw/candidates/${candidateId}`);
  await page.getByLabel("Date of birth as sighted").fill("1993-06-14");
  await page.getByRole("button", { name: "Record age check" }).click();
  await expectMessage(page, js, "Check recorded");
  await page.getByLabel("Australian passport (70)").check();
  await page.getByLabel("Australian driver licence (photo) (40)").check();
  await page.getByRole("button", { name: "Record identity check" }).click();
  await expectMessage(page, js, "Check recorded");
}

async function book(page: Page, js: boolean, b: { candidateId: string; date: string; location?: RegExp; state?: string }) {
  await page.goto(`/trainer/hrw/book?candidate=${b.candidateId}`);
  await page.getByLabel("Course").selectOption({ label: "CN \u2014 Licence to operate a non-slewing mobile crane (greater than 3 tonnes) (CN)" });
  if (b.state) await page.getByLabel("State or territory").selectOption(b.state);
  if (b.location) {
    const option = page.getByLabel("Delivery location").getByRole("option", { name: b.location });
    await page.getByLabel("Delivery location").selectOption((await option.getAttribute("value"))!);
  }
  await page.getByLabel("Assessment date").fill(b.date);
  await page.getByLabel("Start time").fill("07:30");
  await page.getByLabel("Assessor").selectOption({ label: DEMO.trainer.name });
  await page.getByLabel("Plant", { exact: true }).fill("Franna AT-20 pick-and-carry");
  await page.getByLabel("Plant registration or serial number").fill("E2E-STATES-1");
  await page.getByRole("button", { name: "Book assessment" }).click();
  await expectMessage(page, js, "Assessment booked");
  return page.url().split("/").pop()!;
}

async function recordNotice(page: Page, js: boolean, reference: string, heldOn: string) {
  await page.getByLabel("Notice reference").fill(reference);
  await page.getByLabel("Day the notice is for").fill(heldOn);
  await page.getByRole("button", { name: "Record notice" }).click();
  await expectMessage(page, js, "Regulator notice recorded");
}

async function recordResult(page: Page, part: string, on: string) {
  await page.getByLabel("Part", { exact: true }).selectOption(part);
  await page.getByLabel("Result", { exact: true }).selectOption("satisfactory");
  await page.getByLabel("Date assessed").fill(on);
  await page.getByRole("button", { name: "Record result" }).click();
}

test.describe("high-risk work by state", () => {
  test("NSW: the candidate's checks with the AEN, a booking a week ahead, the notice, the results and the NSA", async ({ page, js }) => {
    test.setTimeout(120_000);
    const today = organisationToday();
    const candidate = await registerStudent(page, `NSW Candidate ${crypto.randomUUID().slice(0, 6)}`);
    const { id: candidateId } = (await e2eDb().get<{ id: string }>("select id from users where email = ?", candidate.email))!;
    await signIn(page, DEMO.trainer.email);
    await checkCandidate(page, js, candidateId);
    const aen = `AEN${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
    await page.getByLabel("Assessment enrolment number").fill(aen.toLowerCase());
    await page.getByRole("button", { name: "Record AEN" }).click();
    await expectMessage(page, js, "Check recorded");
    // kept as the regulator's app shows it: capitals
    await expect(page.getByText(`NSW: ${aen} (recorded by ${DEMO.trainer.name})`)).toBeVisible();
    await expectAccessible(page);

    const day = plusDays(today, 7);
    const id = await book(page, js, { candidateId, date: day, state: "NSW" });
    await expect(page.getByText(aen, { exact: true })).toBeVisible();
    await recordNotice(page, js, "SWN-STATES-1", day);
    await expect(page.getByText(`${shown(day)}: SWN-STATES-1 (given ${shown(today)})`)).toBeVisible();
    await expectAccessible(page);

    await daysGoBy(id, 8);
    const held = plusDays(day, -8);
    await page.reload();
    for (const part of ["knowledge", "calculations", "practical"]) {
      await recordResult(page, part, held);
      await expectMessage(page, js, "Result recorded");
    }
    const nsa = `NSA-NSW-E2E-${crypto.randomUUID().slice(0, 6)}`;
    await page.getByLabel("NSA number").fill(nsa);
    await page.getByRole("button", { name: "Record NSA" }).click();
    await expectMessage(page, js, "NSA recorded");
    await expect(page.getByText(`${nsa}, ${shown(today)} (apply by ${shown(plusDays(today, 60))})`)).toBeVisible();
    await expectAccessible(page);
    await signOut(page);

    await signInAt(page, candidate.email, "/student/overview");
    await expect(page.getByText(`Apply for your CN licence by ${shown(plusDays(today, 60))}`)).toBeVisible();
    await expect(page.getByText("through Service NSW").first()).toBeVisible();
  });

  test("QLD: a two-day assessment at the Brisbane yard needs a notice for each day", async ({ page, js }) => {
    test.setTimeout(120_000);
    const today = organisationToday();
    const candidate = await registerStudent(page, `QLD Candidate ${crypto.randomUUID().slice(0, 6)}`);
    const { id: candidateId } = (await e2eDb().get<{ id: string }>("select id from users where email = ?", candidate.email))!;
    await signIn(page, DEMO.trainer.email);
    await checkCandidate(page, js, candidateId);

    // no state chosen: the delivery location's (QLD)
    const first = plusDays(today, 14);
    const second = plusDays(today, 17);
    const id = await book(page, js, { candidateId, date: first, location: /Pinkenba/ });
    await expect(page.getByText("QLD", { exact: true })).toBeVisible();
    await expect(page.getByText("Each part held on a non-consecutive day, and each reassessment, needs its own notice.")).toBeVisible();
    await recordNotice(page, js, "QLD-E2E-1", first);
    await recordNotice(page, js, "QLD-E2E-2", second);
    await expect(page.getByText(`${shown(first)}: QLD-E2E-1 (given ${shown(today)}); ${shown(second)}: QLD-E2E-2 (given ${shown(today)})`)).toBeVisible();
    await expectAccessible(page);

    await daysGoBy(id, 24);
    const [day1, day2] = [plusDays(first, -24), plusDays(second, -24)];
    await page.reload();
    await recordResult(page, "knowledge", day1);
    await expectMessage(page, js, "Result recorded");
    await recordResult(page, "calculations", day1);
    await expectMessage(page, js, "Result recorded");
    // a day with no notice of its own, not the day after the first: refused
    const unnotified = plusDays(day1, 5);
    await recordResult(page, "practical", unnotified);
    await expect(
      page.getByText(`Record the regulator's notice for ${shown(unnotified)} first: each part held on a non-consecutive day needs its own`).first(),
    ).toBeVisible();
    await expectAccessible(page);
    await recordResult(page, "practical", day2);
    await expectMessage(page, js, "Result recorded");
    await expect(page.getByRole("table", { name: "Every result, reassessments included" }).getByRole("row")).toHaveCount(4);
    await expect(page.getByRole("button", { name: "Record NSA" })).toBeVisible();
  });
});
