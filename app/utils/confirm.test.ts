import { describe, expect, it } from "vitest";
import { requestConfirmed } from "./confirm";

const post = (body: BodyInit, type?: string) =>
  new Request("http://localhost/admin/courses", { method: "POST", body, headers: type ? { "Content-Type": type } : undefined });

describe("requestConfirmed", () => {
  it("is true only for a form carrying confirm=yes, and leaves the form for the action to read", async () => {
    const confirmed = post(new URLSearchParams({ intent: "archive", confirm: "yes" }));
    expect(await requestConfirmed(confirmed)).toBe(true);
    expect((await confirmed.formData()).get("intent")).toBe("archive");
    expect(await requestConfirmed(post(new URLSearchParams({ intent: "archive" })))).toBe(false);
    expect(await requestConfirmed(post(new URLSearchParams({ confirm: "YES" })))).toBe(false);
  });

  it("is false for a body that is not a form", async () => {
    expect(await requestConfirmed(post('{"confirm":"yes"}', "application/json"))).toBe(false);
    expect(await requestConfirmed(post("confirm=yes", "text/plain"))).toBe(false);
  });
});
