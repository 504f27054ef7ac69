import { describe, expect, it } from "vitest";
import { seatsTaken, seatsWording } from "~/schemas/class-text";
import { hrwDate } from "~/schemas/hrw-codes";
import { clockTime, formatDate, formatDateTime, keepingPeriod, locationLabel, plural, sessionWhen } from "./format";

describe("words for counts, places and times", () => {
  it("puts a count with the right form of its noun", () => {
    expect(plural(1, "learner")).toBe("1 learner");
    expect(plural(0, "learner")).toBe("0 learners");
    expect(plural(2, "entry", "entries")).toBe("2 entries");
    expect(plural(1200, "message")).toBe("1,200 messages");
    expect(seatsTaken(1, 0)).toBe("1 seat taken of 1");
    expect(seatsTaken(8, 5)).toBe("3 seats taken of 8");
    expect(seatsWording(1)).toBe("1 seat left");
  });

  it("names a location without repeating its suburb", () => {
    expect(locationLabel("Summit Training Yard, Mayfield West", "Mayfield West")).toBe("Summit Training Yard, Mayfield West");
    expect(locationLabel("Mayfield West", "Mayfield West")).toBe("Mayfield West");
    expect(locationLabel("Main yard", "Botany")).toBe("Main yard, Botany");
    expect(locationLabel("Main yard", null)).toBe("Main yard");
  });

  it("shows times on the organisation's 12-hour clock, as 7:30 am", () => {
    expect(formatDateTime("2026-11-27T20:30:00.000Z")).toBe("28 Nov 2026, 7:30 am");
    expect(formatDateTime("2026-11-28T03:05:00.000Z")).toBe("28 Nov 2026, 2:05 pm");
    expect(clockTime("07:30")).toBe("7:30 am");
    expect(clockTime("00:15")).toBe("12:15 am");
    expect(clockTime("12:00")).toBe("12:00 pm");
    expect(clockTime("15:30")).toBe("3:30 pm");
    expect(sessionWhen({ date: "2026-11-28", starts_at: "07:30", ends_at: "15:30" })).toBe("28 Nov 2026, 7:30 am – 3:30 pm");
  });

  it("reads a keeping period in years where it is years", () => {
    expect(keepingPeriod(360)).toBe("30 years");
    expect(keepingPeriod(12)).toBe("1 year");
    expect(keepingPeriod(6)).toBe("6 months");
    expect(keepingPeriod(18)).toBe("18 months");
    expect(keepingPeriod(null)).toBe("For ever");
  });

  it("shows an HRW date in the portal's one format", () => {
    expect(hrwDate("2024-01-24")).toBe("24 Jan 2024");
    expect(hrwDate("not a date")).toBe("not a date");
  });

  it("writes every month in three letters, instants in Sydney time", () => {
    expect(formatDate("2024-06-17")).toBe("17 Jun 2024");
    expect(formatDate("2026-07-18T02:00:00Z")).toBe("18 Jul 2026");
    expect(formatDate("2026-09-01")).toBe("1 Sep 2026");
    expect(formatDateTime("2024-01-23T20:30:00Z")).toBe("24 Jan 2024, 7:30 am");
  });
});
