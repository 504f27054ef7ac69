import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeUser } from "../../tests/support/factories";
import { routeModuleFiles, routeUrlPattern } from "../../tests/support/route-files";
import { issueApiToken, requireApiUser } from "~/api/auth.server";
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
      "routes/api+/thing": {
        id: "routes/api+/thing",
        path: "api/thing",
        module: { loader: async () => Response.json({ ok: true }) },
      },
    } as never);
    capture();
    const loader = routes["routes/api+/thing"]!.module.loader!;
    await withRequestContext(
      new Request("http://localhost/api/thing?secret=1"),
      { address: "10.0.0.1", started: Date.now() - 5, userId: "user-123" },
      (request) => loader({ request, params: {}, context: {} }),
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

describe("tokens and addresses never reach a log", () => {
  const TOKEN = "Zq9-Live_Token_Value_0123456789abcdefXYZ";

  it("every route whose path carries a token or code has it replaced, in the request log and in an access-log line", async () => {
    const { redactSecrets } = await import("~/utils/log.server");
    const { redactOutput } = await import("~/http/redacted-output.server");
    // the route files whose URL holds a credential: $token and $code segments
    const carrying = routeModuleFiles().filter((f) => /\$(token|code)/.test(f));
    expect(carrying.length).toBeGreaterThanOrEqual(4);
    for (const file of carrying) {
      const path = routeUrlPattern(file).replace(/\/\$\w+/g, `/${TOKEN}.ics`);
      expect(redactSecrets(`GET ${path} 200 - 3 ms`), file).not.toContain(TOKEN.slice(0, 12));
      expect(redactSecrets(JSON.stringify({ path })), file).not.toContain(TOKEN.slice(0, 12));
    }
    // remix-serve's access log, through the wrapped stream
    const written: string[] = [];
    const stream = { write: (chunk: unknown) => (written.push(String(chunk)), true) };
    redactOutput(stream as never);
    stream.write(`GET /calendar/${TOKEN}.ics 200 1024 - 4.2 ms\n`);
    stream.write(Buffer.from(`GET /api/verify/${TOKEN} 404 - - 1 ms\n`));
    expect(written.join("")).not.toContain(TOKEN.slice(0, 12));
    expect(written.join("")).toContain("/calendar/[redacted]");
  });

  it("a calendar feed request is logged with its token replaced", async () => {
    const calendar = await import("~/routes/calendar.$token");
    const routes = gateRoutes({ "routes/calendar.$token": { id: "routes/calendar.$token", path: "calendar/:token", module: calendar } } as never);
    capture();
    await withRequestContext(new Request(`http://localhost/calendar/${TOKEN}.ics`), { address: "10.0.0.1", started: Date.now() }, (request) =>
      routes["routes/calendar.$token"]!.module.loader!({ request, params: { token: `${TOKEN}.ics` }, context: {} }),
    );
    expect(parsed()).toEqual([expect.objectContaining({ path: "/calendar/[redacted]", status: 404 })]);
    expect(lines.join("")).not.toContain(TOKEN.slice(0, 12));
  });

  it("no email address appears in any line: not a recipient of the outbox, not inside an error", async () => {
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const { createOutboxMailer } = await import("~/mail/transport.server");
    const { logLine } = await import("~/utils/log.server");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outbox-"));
    capture();
    await createOutboxMailer(dir, "Summit <no-reply@summit.example>").send({
      to: "jordan.lee+crane@mail.example.com.au",
      subject: "Your class",
      text: "Hello",
    });
    logLine({ event: "mail-error", error: "550 5.1.1 <O'Brien.Kim@test.example>: Recipient address rejected" });
    const text = lines.join("");
    expect(parsed()[0]).toMatchObject({ event: "mail-written" });
    expect(text).not.toMatch(/jordan\.lee|O'Brien\.Kim|no-reply@/);
    expect(text).not.toMatch(/@[a-z]/i);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
