/**
 * The first five minutes of a new user, on whichever Node.js runs this script: `npm start` on a
 * fresh database (build if there is none, migrate, seed the demo, serve), sign in over HTTP as
 * the demo student with the README's password, open My Certificates and download a certificate
 * PDF, then stop the server with SIGTERM. Any abort of the start or of a worker fails it.
 * `.ci/run` runs it under Node 24 beside the main run.
 *
 *   npm run test:smoke        (SMOKE_PORT, default 3219; BUILD_DIR as for npm start)
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { DEMO_PASSWORD } from "../app/demo/data";

/** The demo student the README names. */
export const DEMO_STUDENT = { email: "student@example.com", name: "Jordan Mitchell" };

/** What in a server's output means a process died rather than answered. */
const DIED = /Assertion failed|Segmentation fault|"event":"worker-exit"|FATAL ERROR/;

/** The `name=value` pairs of Set-Cookie headers, as one Cookie header. */
export function cookieHeader(setCookies: string[]): string {
  return setCookies
    .map((c) => c.split(";")[0]!.trim())
    .filter((pair) => /^[^=]+=/.test(pair))
    .join("; ");
}

/**
 * The certificate download links on a page, in page order, each once: the page's own
 * /certificates/{id}/download, which a learner follows (the /api twin serves API clients).
 */
export function certificateLinks(html: string): string[] {
  const links = [...html.matchAll(/href="((?:\/api)?\/certificates\/[0-9a-f-]{36}\/download)"/g)].map((m) => m[1]!);
  return [...new Set(links)];
}

/** Where a step failed, and the server's last words. */
export class SmokeFailure extends Error {}

/**
 * Waits until GET /login answers 200, or fails as soon as the server process exits (a crash
 * while building, migrating or seeding) or the time runs out, with the tail of its output.
 */
export async function waitForPortal(server: ChildProcess, base: string, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const exit: { how?: string } = {};
  server.once("exit", (code, signal) => (exit.how = signal ? `signal ${signal}` : `code ${code}`));
  while (Date.now() < deadline) {
    if (exit.how) throw new SmokeFailure(`npm start exited (${exit.how}) before serving:\n${tail(output())}`);
    if (DIED.test(output())) throw new SmokeFailure(`a process died while starting:\n${tail(output())}`);
    const up = await fetch(`${base}/login`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new SmokeFailure(`nothing answered ${base}/login within ${Math.round(timeoutMs / 1000)} s:\n${tail(output())}`);
}

const tail = (text: string) => text.split("\n").slice(-30).join("\n");

function pdfText(bytes: Buffer): string | null {
  try {
    return execFileSync("pdftotext", ["-enc", "UTF-8", "-", "-"], { input: bytes, encoding: "utf8" }).replace(/\s+/g, " ");
  } catch {
    return null; // no poppler-utils here: the %PDF- header has to do
  }
}

async function main() {
  const port = Number(process.env.SMOKE_PORT ?? 3219);
  const base = `http://127.0.0.1:${port}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smoke-start-"));
  const started = Date.now();
  const seconds = (from: number) => ((Date.now() - from) / 1000).toFixed(1);
  let output = "";
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATABASE_URL: `file:${path.join(dir, "app.db")}`,
    SESSION_SECRET: crypto.randomBytes(32).toString("hex"),
    OUTBOX_DIR: path.join(dir, "outbox"),
    WEB_CONCURRENCY: process.env.WEB_CONCURRENCY ?? "1",
    SEED_DEMO: "true",
  };
  // this machine, as a new user runs it: not a public deployment
  delete env.APP_URL;
  delete env.SMTP_URL;
  // a process group of its own, so a failed run takes the migration step and the workers with it
  const server = spawn(process.execPath, ["scripts/start.mjs"], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  server.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  server.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const step = (what: string) => console.log(`✓ ${what}`);

  try {
    await waitForPortal(server, base, () => output, 300_000);
    step(`npm start on a fresh database serves ${base} (${seconds(started)} s: build if needed, migrations, demo data)`);

    const login = await fetch(`${base}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
      body: new URLSearchParams({ email: DEMO_STUDENT.email, password: DEMO_PASSWORD }),
    });
    const cookie = cookieHeader(login.headers.getSetCookie());
    if (login.status !== 302 || !cookie) throw new SmokeFailure(`signing in answered ${login.status}${cookie ? "" : " without a session cookie"}`);
    step(`${DEMO_STUDENT.email} signs in with the README's password (302 to ${login.headers.get("location")})`);

    const page = await fetch(`${base}/student/certificates`, { headers: { Cookie: cookie }, redirect: "manual" });
    const links = page.status === 200 ? certificateLinks(await page.text()) : [];
    if (links.length === 0) throw new SmokeFailure(`My Certificates answered ${page.status} with no certificate to download`);
    step(`My Certificates lists ${links.length} certificate(s)`);

    const downloadStarted = Date.now();
    const pdf = await fetch(`${base}${links[0]}`, { headers: { Cookie: cookie } });
    const bytes = Buffer.from(await pdf.arrayBuffer());
    if (pdf.status !== 200 || pdf.headers.get("content-type") !== "application/pdf" || bytes.subarray(0, 5).toString("latin1") !== "%PDF-") {
      throw new SmokeFailure(`the certificate download answered ${pdf.status} ${pdf.headers.get("content-type")}: ${bytes.subarray(0, 200).toString()}`);
    }
    const text = pdfText(bytes);
    if (text !== null && !text.includes(DEMO_STUDENT.name)) throw new SmokeFailure(`the certificate PDF does not name ${DEMO_STUDENT.name}`);
    step(`the certificate downloads as a PDF (${bytes.length} bytes in ${seconds(downloadStarted)} s${text === null ? "" : `, naming ${DEMO_STUDENT.name}`})`);

    if (DIED.test(output)) throw new SmokeFailure(`a server process died while answering:\n${tail(output)}`);
    server.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => server.once("exit", (c) => resolve(c)));
    if (code !== 0) throw new SmokeFailure(`npm start exited with ${code} on SIGTERM:\n${tail(output)}`);
    step("SIGTERM stops the server with exit code 0");
    console.log(`smoke: passed on Node ${process.versions.node} in ${seconds(started)} s`);
  } catch (error) {
    if (error instanceof SmokeFailure && !error.message.includes("\n")) error.message += `\nthe server said:\n${tail(output)}`;
    throw error;
  } finally {
    try {
      process.kill(-server.pid!, "SIGKILL");
    } catch {
      // the group is gone: everything exited
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error) => {
    console.error(`✘ ${error instanceof SmokeFailure ? error.message : error instanceof Error ? error.stack : error}`);
    console.error(`smoke: FAILED on Node ${process.versions.node}`);
    process.exit(1);
  });
}
