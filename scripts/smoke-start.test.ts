import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { certificateLinks, cookieHeader, SmokeFailure, waitForPortal } from "./smoke-start";

/** A stand-in for `npm start`: a node process running `code`, its output collected. */
function fakeStart(code: string) {
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  started.push(child);
  return { child, output: () => output };
}
const started: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

describe("the start-and-sign-in smoke test", () => {
  it("sends back the name=value of each Set-Cookie and nothing else", () => {
    expect(cookieHeader(["__session=abc.def; Path=/; HttpOnly; SameSite=Lax", "flash=; Max-Age=0; Path=/"])).toBe("__session=abc.def; flash=");
    expect(cookieHeader([])).toBe("");
    expect(cookieHeader(["garbage"])).toBe("");
  });

  it("finds each certificate download link once, in page order", () => {
    const a = "/certificates/3f1c2a8e-0000-4000-8000-000000000001/download";
    const b = "/api/certificates/3f1c2a8e-0000-4000-8000-000000000002/download";
    const html = `<a href="${a}">Download PDF</a><a href="/verify/X">Verify</a><a href="${b}">Download PDF</a><a href="${a}">again</a>`;
    expect(certificateLinks(html)).toEqual([a, b]);
    expect(certificateLinks("<p>No certificates yet</p>")).toEqual([]);
  });

  it("fails at once, with the server's last words, when npm start exits before serving", async () => {
    const { child, output } = fakeStart(`console.log("Applied migrations"); console.error("  #  Assertion failed: (env) != nullptr"); process.exit(134)`);
    const waited = waitForPortal(child, "http://127.0.0.1:9", output, 30_000);
    await expect(waited).rejects.toBeInstanceOf(SmokeFailure);
    await expect(waited).rejects.toThrow(/Assertion failed: \(env\) != nullptr/);
  });

  it("fails when a process dies while the server keeps running (a worker replaced by the cluster)", async () => {
    const { child, output } = fakeStart(`console.error(JSON.stringify({ event: "worker-exit", code: null, signal: "SIGABRT" })); setInterval(() => {}, 1000)`);
    await expect(waitForPortal(child, "http://127.0.0.1:9", output, 30_000)).rejects.toThrow(/died while starting/);
  });

  it("waits until /login answers 200", async () => {
    let asked = 0;
    const server = http.createServer((req, res) => {
      asked++;
      res.statusCode = req.url === "/login" && asked > 2 ? 200 : 503;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { child, output } = fakeStart("setInterval(() => {}, 1000)");
      await waitForPortal(child, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, output, 30_000);
      expect(asked).toBe(3);
    } finally {
      server.close();
    }
  });
});
