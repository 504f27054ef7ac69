import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeUser } from "../../tests/support/factories";
import { issueApiToken, requireApiUser } from "~/auth/api.server";
import { withRequestContext } from "~/http/request-context.server";
import { signIn } from "~/auth/sign-in.server";
import { gateRoutes } from "~/http/gate.server";
import { handleDataRequest } from "~/entry.server";

let db: DB;
let cleanup: () => Promise<void>;
let lines: string[] = [];
const savedLevel = process.env.LOG_LEVEL;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterAll(() => cleanup());

function capture() {
  lines = [];
  process.env.LOG_LEVEL = "info";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
}
afterEach(() => {
  vi.restoreAllMocks();
  process.env.LOG_LEVEL = savedLevel;
});

const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

describe("logs", () => {
  it("write one line per resource-route request with method, path, status, duration and user", async () => {
    const routes = gateRoutes({
      "routes/api.thing": {
        id: "routes/api.thing",
        path: "api/thing",
        module: { loader: async () => Response.json({ ok: true }) },
      },
    } as never);
    capture();
    const loader = routes["routes/api.thing"]!.module.loader!;
    await withRequestContext(new Request("http://localhost/api/thing?secret=1"), { address: "10.0.0.1", started: Date.now() - 5, userId: "user-123" }, (request) =>
      loader({ request, params: {}, context: {} }),
    );
    expect(parsed()).toEqual([expect.objectContaining({ method: "GET", path: "/api/thing", status: 200, user: "user-123", ms: expect.any(Number) })]);
    expect(lines.join("")).not.toContain("secret=1");
  });

  it("write a line per data request through entry.server", async () => {
    capture();
    await withRequestContext(new Request("http://localhost/student/overview?_data=root"), { address: "10.0.0.1", started: Date.now() }, async (request) =>
      handleDataRequest(new Response("{}", { status: 200 }), { request, params: {}, context: {} }),
    );
    expect(parsed()).toEqual([expect.objectContaining({ method: "GET", path: "/student/overview", status: 200, user: null })]);
  });

  it("write a line per failed sign-in, never the password or the email", async () => {
    const { email } = await makeUser(db);
    capture();
    await signIn(db, { email, password: "hunter2-wrong", client: "10.4.4.4" }).catch(() => {});
    const text = lines.join("");
    expect(parsed()).toEqual([expect.objectContaining({ event: "sign-in-failed", client: "10.4.4.4" })]);
    expect(text).not.toContain("hunter2-wrong");
    expect(text).not.toContain(email);
  });

  it("write a line per refused access, never the token or cookie", async () => {
    const { id } = await makeUser(db, { role: "student" });
    const token = await issueApiToken(db, id);
    capture();
    await requireApiUser(
      new Request("http://localhost/api/dashboard/stats", { headers: { Authorization: `Bearer ${token}`, Cookie: "__session=abc" } }),
      "admin",
    ).catch(() => {});
    await requireApiUser(new Request("http://localhost/api/auth/me", { headers: { Authorization: "Bearer forged-token-value" } })).catch(() => {});
    const events = parsed();
    expect(events).toEqual([
      expect.objectContaining({ event: "refused", reason: "role", path: "/api/dashboard/stats", user: id }),
      expect.objectContaining({ event: "refused", reason: "token", path: "/api/auth/me" }),
    ]);
    const text = lines.join("");
    expect(text).not.toContain(token);
    expect(text).not.toContain("forged-token-value");
    expect(text).not.toContain("__session");
  });
});

describe("redaction", () => {
  it("replaces a reset token in any line, in a path or a full access-log line", async () => {
    const { redactSecrets } = await import("~/utils/log.server");
    expect(redactSecrets("GET /reset-password/abcDEF123_-xyz 200 - 3 ms")).toBe("GET /reset-password/[redacted] 200 - 3 ms");
    expect(redactSecrets('{"path":"/reset-password/tok.en%20"}')).toBe('{"path":"/reset-password/[redacted]"}');
    expect(redactSecrets("POST /reset-password/tok?x=1&token=abc&password=p")).toBe("POST /reset-password/[redacted]?[redacted]");
    capture();
    const { logLine } = await import("~/utils/log.server");
    logLine({ path: "/reset-password/live-token-value" });
    expect(lines.join("")).not.toContain("live-token-value");
  });
});
