import { describe, expect, it } from "vitest";
import { seatsTaken, seatsWording } from "~/schemas/class-text";
import { clockTime, formatDateTime, locationLabel, plural, sessionWhen } from "./format";

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
});
