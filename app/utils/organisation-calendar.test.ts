import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultPlannedDates } from "~/rules/enrollment-rules";
import { assessmentSchema } from "~/schemas/assessment";
import { isCalendarDate, organisationDate, organisationToday, organisationWallClock, organisationYear, weekdayOf } from "./organisation-calendar";

/** The calendar every recorded and reported date is on, at the two moments a UTC date gets wrong. */

afterEach(() => {
  vi.useRealTimers();
});
const clockAt = (iso: string) => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(iso));
};

describe("the organisation's calendar", () => {
  it("at 14:15 UTC on 27 November it is the 28th in Sydney: today, an instant's date and a new enrolment's planned start", () => {
    clockAt("2026-11-27T14:15:00.000Z");
    expect(organisationToday()).toBe("2026-11-28");
    expect(organisationDate(new Date().toISOString())).toBe("2026-11-28");
    expect(defaultPlannedDates(new Date().toISOString(), 40)).toEqual({ start: "2026-11-28", end: "2026-12-03" });
    expect(organisationWallClock()).toEqual([2026, 11, 28, 1, 15, 0]);
  });

  it("at 23:30 UTC on 31 December it is New Year's Day: the year is the new one, and a result dated today is not in the future", () => {
    clockAt("2026-12-31T23:30:00.000Z");
    expect(organisationYear()).toBe(2027);
    expect(organisationToday()).toBe("2027-01-01");
    const form = {
      enrollment_id: crypto.randomUUID(),
      assessment_type: "Practical",
      status: "passed",
      score: "9",
      max_score: "10",
      assessment_date: "2027-01-01",
      feedback: "",
    };
    expect(assessmentSchema.safeParse(form).success).toBe(true);
  });

  it("a calendar date stays itself, whatever the clock; real dates and weekdays need no zone", () => {
    expect(organisationDate("2026-11-28")).toBe("2026-11-28");
    expect([isCalendarDate("2026-02-28"), isCalendarDate("2026-02-30"), isCalendarDate("2026-2-28")]).toEqual([true, false, false]);
    expect(weekdayOf("2026-11-28")).toBe(6);
  });
});
