import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/**
 * The shared Chromium never outlives the server: a SIGTERM that the server handles (as
 * remix-serve does) closes the browser so the process can end, and a server killed outright
 * takes Chromium with it.
 */

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

const started: ChildProcess[] = [];
afterEach(() => {
  // a failed test leaves nothing running
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

async function startChild(): Promise<{ child: ChildProcess; chromium: number; exited: Promise<unknown> }> {
  // node itself with tsx's loader (the tsx binary would stand between, and survive a SIGKILL)
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("tests/support/pdf-browser-child.ts")], {
    env: { ...process.env, LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  started.push(child);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const chromium = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const m = /chromium (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once("exit", (code) => reject(new Error(`child exited early (${code}): ${out}`)));
  });
  return { child, chromium, exited };
}

describe("the shared browser's lifetime", () => {
  it("closes on a handled SIGTERM, so the server process ends", async () => {
    const { child, chromium, exited } = await startChild();
    expect(alive(chromium)).toBe(true);
    child.kill("SIGTERM");
    await exited;
    expect(await until(() => !alive(chromium), 10_000)).toBe(true);
  }, 90_000);

  it("dies with a server that is killed outright", async () => {
    const { child, chromium, exited } = await startChild();
    child.kill("SIGKILL");
    await exited;
    expect(await until(() => !alive(chromium), 10_000)).toBe(true);
  }, 90_000);
});
