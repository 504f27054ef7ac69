import { describe, expect, it } from "vitest";
import { parseWith } from "~/utils/validation";
import { webhookEndpointSchema } from "./webhooks";

/** The endpoint form's free text is text a person typed, and its events a set. */
describe("webhookEndpointSchema", () => {
  const endpoint = { url: "https://hooks.example/summit", events: ["enrolment.created"] };

  it("refuses a control character in the description or the URL, at the field", () => {
    for (const description of ["a\u0007b", "x\u0001y", "two\nlines", "del\u007f"]) {
      const parsed = parseWith(webhookEndpointSchema, { ...endpoint, description });
      expect(parsed.success).toBe(false);
      expect(parsed.success ? null : parsed.fieldErrors).toEqual({ description: "Description must be a single line without control characters" });
    }
    // a URL reader drops a tab or a line break inside a host: the address checked would not be the one typed
    const url = parseWith(webhookEndpointSchema, { ...endpoint, url: "https://hooks.exa\tmple/summit" });
    expect(url.success ? null : url.fieldErrors).toEqual({ url: "URL must be a single line without control characters" });
  });

  it("keeps a plain description, trimmed and NFC, and none as blank", () => {
    expect(webhookEndpointSchema.parse({ ...endpoint, description: "  Cafe\u0301 bookings " }).description).toBe("Caf\u00e9 bookings");
    expect(webhookEndpointSchema.parse(endpoint).description).toBe("");
  });

  it("keeps each event once, in the order first named", () => {
    expect(webhookEndpointSchema.parse({ ...endpoint, events: ["invoice.paid", "enrolment.created", "invoice.paid", "enrolment.created"] }).events).toEqual([
      "invoice.paid",
      "enrolment.created",
    ]);
  });
});
