import { describe, expect, it } from "vitest";
import { jsonResponse } from "./http.server";

describe("jsonResponse", () => {
  it("answers with the bytes, status, headers and Content-Type (with its charset) the /api has always sent", async () => {
    const response = jsonResponse({ detail: "Course not found", errors: { name: "Required" } }, { status: 404, headers: { "Retry-After": "5" } });
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("Retry-After")).toBe("5");
    expect(await response.text()).toBe('{"detail":"Course not found","errors":{"name":"Required"}}');
  });

  it("keeps a Content-Type the caller names, and answers null as JSON's null", async () => {
    const response = jsonResponse(null, { status: 404, headers: { "Content-Type": "application/problem+json" } });
    expect(response.headers.get("Content-Type")).toBe("application/problem+json");
    expect(await response.text()).toBe("null");
  });
});
