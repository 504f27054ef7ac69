import { describe, expect, it } from "vitest";
import { factorChangeEmail } from "~/mail/factor-change.server";
import { classDates } from "./class-text";

// dates in the one format everywhere (8 Nov 2026, 7:30 am): the class words and the mail use the shared formatters
describe("class dates and factor-change mail in the shared format", () => {
  it("writes a class's dates with three-letter months", () => {
    expect(classDates("2026-06-17", "2026-06-17")).toBe("17 Jun 2026");
    expect(classDates("2026-06-29", "2026-07-02")).toBe("29 Jun – 2 Jul 2026");
    expect(classDates("2026-12-30", "2027-01-02")).toBe("30 Dec 2026 – 2 Jan 2027");
  });

  it("dates the factor-change notice as the portal does", () => {
    const mail = factorChangeEmail({
      to: "a@example.com",
      fullName: "Ann Lee",
      change: "two-step set up",
      at: new Date("2026-07-18T21:30:00Z"),
      rto: { name: "Summit", code: "1234" },
    });
    expect(mail.text).toContain("19 Jul 2026, 7:30 am (Sydney time)");
    expect(mail.text).not.toMatch(/July|Sunday/);
  });
});
