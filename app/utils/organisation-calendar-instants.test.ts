import { describe, expect, it } from "vitest";
import { organisationDayStart, organisationTimestamp } from "./organisation-calendar";

describe("instants on the organisation's calendar (Australia/Sydney)", () => {
  it("a day starts at its local midnight, whatever daylight saving says that day", () => {
    expect(organisationDayStart("2026-11-28")).toBe("2026-11-27T13:00:00.000Z"); // summer, +11:00
    expect(organisationDayStart("2026-07-01")).toBe("2026-06-30T14:00:00.000Z"); // winter, +10:00
    // daylight saving ends at 03:00 on 5 April 2026 and starts at 02:00 on 4 October 2026
    expect(organisationDayStart("2026-04-05")).toBe("2026-04-04T13:00:00.000Z");
    expect(organisationDayStart("2026-04-06")).toBe("2026-04-05T14:00:00.000Z");
    expect(organisationDayStart("2026-10-04")).toBe("2026-10-03T14:00:00.000Z");
    expect(organisationDayStart("2026-10-05")).toBe("2026-10-04T13:00:00.000Z");
  });

  it("an instant reads as local time with its UTC offset, the repeated hour told apart", () => {
    expect(organisationTimestamp("2026-11-27T14:23:52.481Z")).toBe("2026-11-28T01:23:52+11:00");
    expect(organisationTimestamp("2026-07-01T00:00:00.000Z")).toBe("2026-07-01T10:00:00+10:00");
    expect(organisationTimestamp("2026-04-04T15:30:00.000Z")).toBe("2026-04-05T02:30:00+11:00");
    expect(organisationTimestamp("2026-04-04T16:30:00.000Z")).toBe("2026-04-05T02:30:00+10:00");
    expect(organisationTimestamp("not a time")).toBe("not a time");
  });
});
