/**
 * Broken uploads against the production server, as a hostile or unlucky client sends them: on
 * every route that reads a multipart body, 20 at once of each of
 *
 * - a form cut short (a chunked body that ends cleanly in the middle of a file),
 * - a connection dropped mid-upload (a declared length never reached, then the socket destroyed),
 * - a form without its closing boundary (every byte of its declared length sent),
 * - `Content-Type: multipart/form-data` with no boundary;
 *
 * the ones whose client stays must be answered 400 with the message, and afterwards the server
 * still answers, no worker has died (the same worker processes serve), and its temporary folder
 * holds nothing. Before it starts, an upload directory left by a process that is gone and one of
 * a live process are put in that folder: the first must be swept at start, the second kept.
 *
 * The server is the cluster of scripts/serve.mjs (two workers) on a fresh SQLite database with
 * the demo data, its TMPDIR a folder of this test's own. Every request is made with node:http
 * (fetch refuses some ports, and cannot send a body that breaks off).
 *
 * npm run test:uploads     (UPLOADS_PORT, default 3236; BUILD_DIR as for npm start)
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import SQLite from "../db/sqlite-driver";
import { builtScript, ensureBuild } from "./build.mjs";

const port = Number(process.env.UPLOADS_PORT ?? 3236);
const buildDir = process.env.BUILD_DIR ?? "build";
const dbFile = path.resolve(`tests/.tmp/uploads-${port}.db`);
const tmpDir = path.resolve(`tests/.tmp/uploads-tmp-${port}`);
const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production",
  PORT: String(port),
  BUILD_DIR: buildDir,
  DATABASE_URL: `file:${dbFile}`,
  SESSION_SECRET: "uploads-secret-uploads-secret-uploads-0001",
  FAST_PASSWORD_HASH: "true",
  TRUST_PROXY: "true",
  LOG_LEVEL: "silent",
  WEB_CONCURRENCY: "2",
  TMPDIR: tmpDir,
  TWO_STEP_KEY: "5e".repeat(32),
  OUTBOX_DIR: path.resolve(`tests/.tmp/uploads-outbox-${port}`),
};
delete env.SMTP_URL;

/** The message every upload route answers a body it cannot read with (app/files/upload.server.ts). */
const MESSAGE = "The upload could not be read";
const TIMES = 20;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const failures: string[] = [];
let passed = 0;
function check(ok: boolean, what: string) {
  if (ok) passed++;
  else failures.push(what);
  console.log(`${ok ? "✓" : "✘"} ${what}`);
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(method: string, urlPath: string, options: { body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: urlPath, method, agent: false, headers: { Connection: "close", ...options.headers } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${urlPath}: no answer in 30 s`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

/**
 * Sends raw bytes on a connection of its own and reads what comes back until the server closes
 * it; `drop` destroys the socket once the bytes are written (a client gone mid-upload).
 */
function raw(bytes: string, drop = false): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    const timer = setTimeout(() => socket.destroy(), 30_000);
    socket.on("data", (d) => (text += d.toString()));
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(text);
    });
    socket.on("error", () => {});
    socket.write(bytes, () => {
      if (drop) setTimeout(() => socket.destroy(), 50);
    });
  });
}

const BOUNDARY = "----torture7MA4YWxkTrZu0gW";

/** A form with one field and a ~200 KB PDF part, written out; the caller cuts it. */
function form(fileField: string): { head: string; file: string; tail: string } {
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="description"\r\n\r\nWhite Card\r\n`;
  const file = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${fileField}"; filename="torture.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n${"0123456789abcdef".repeat(12_800)}\r\n`;
  const tail = `--${BOUNDARY}--\r\n`;
  return { head, file, tail };
}

interface Route {
  name: string;
  path: string;
  fileField: string;
  auth: Record<string, string>;
}

type Kind = "cut short" | "dropped" | "no closing boundary" | "no boundary";
const KINDS: Kind[] = ["cut short", "dropped", "no closing boundary", "no boundary"];

/** One broken request of a kind to a route: the answer's first line and body ("" when the connection was dropped). */
function broken(route: Route, kind: Kind, i: number): Promise<string> {
  const { head, file, tail } = form(route.fileField);
  const headers = Object.entries({ ...route.auth, Host: `127.0.0.1:${port}`, "X-Forwarded-For": `10.66.${KINDS.indexOf(kind)}.${i + 1}`, Connection: "close" })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  const start = `POST ${route.path} HTTP/1.1\r\n${headers}`;
  const multipart = `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n`;
  switch (kind) {
    case "cut short": {
      // a whole HTTP message (chunked) whose form stops in the middle of the file
      const body = head + file.slice(0, file.length / 2);
      return raw(`${start}${multipart}Transfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`);
    }
    case "dropped": {
      const body = head + file;
      return raw(`${start}${multipart}Content-Length: ${body.length + tail.length + 100_000}\r\n\r\n${body}`, true);
    }
    case "no closing boundary": {
      const body = head + file;
      return raw(`${start}${multipart}Content-Length: ${body.length}\r\n\r\n${body}`);
    }
    case "no boundary": {
      const body = head + file + tail;
      return raw(`${start}Content-Type: multipart/form-data\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    }
  }
}

function workerPids(primary: number): number[] {
  const out = spawnSync("pgrep", ["-P", String(primary)], { encoding: "utf8" }).stdout;
  return out.split(/\s+/).filter(Boolean).map(Number).sort();
}

async function startCluster(): Promise<ChildProcess> {
  const cluster = spawn(process.execPath, ["scripts/serve.mjs", path.join(buildDir, "index.js")], { env, stdio: ["ignore", "ignore", "pipe"] });
  cluster.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    process.stderr.write(chunk);
  });
  for (let i = 0; i < 600; i++) {
    const up = await request("GET", "/login").then(
      (r) => r.status === 200,
      () => false,
    );
    if (up && workerPids(cluster.pid!).length === 2) return cluster;
    await sleep(100);
  }
  cluster.kill("SIGKILL");
  throw new Error("the cluster did not start two workers");
}
let stderr = "";

async function cookieFor(email: string): Promise<string> {
  const r = await request("POST", "/login", {
    body: new URLSearchParams({ email, password: "password123" }).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": "10.65.0.1" },
  });
  const cookie = ([] as string[])
    .concat(r.headers["set-cookie"] ?? [])
    .find((c) => c.startsWith("__session="))
    ?.split(";")[0];
  if (r.status !== 302 || !cookie || String(r.headers.location).startsWith("/login")) throw new Error(`signing in as ${email} was answered ${r.status}`);
  return cookie;
}

async function tokenFor(email: string): Promise<string> {
  const r = await request("POST", "/api/auth/login", {
    body: JSON.stringify({ email, password: "password123" }),
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-Forwarded-For": "10.65.0.2" },
  });
  return (JSON.parse(r.body) as { access_token: string }).access_token;
}

/** What is in the temporary folder (nothing, when every upload cleaned up after itself). */
const leftovers = () => fs.readdirSync(tmpDir);

async function main() {
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  for (const s of ["", "-wal", "-shm"]) fs.rmSync(dbFile + s, { force: true });
  fs.rmSync(tmpDir, { recursive: true, force: true });
  fs.mkdirSync(tmpDir, { recursive: true });
  ensureBuild(buildDir, env);
  // prepare runs under tsx, which keeps its cache in the temporary folder: not the server's
  if (
    spawnSync(process.execPath, [builtScript(buildDir, "prepare")], { stdio: ["ignore", "ignore", "inherit"], env: { ...env, TMPDIR: process.env.TMPDIR } })
      .status !== 0
  )
    throw new Error("prepare failed");

  // what a worker killed mid-upload leaves (its process gone), and a live process's upload
  const dead = path.join(tmpDir, "portal-upload-999999999-dead00");
  const live = path.join(tmpDir, `portal-upload-${process.pid}-live00`);
  for (const dir of [dead, live]) {
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "partial"), "half a photo");
  }

  const db = new SQLite(dbFile);
  const one = <T>(sql: string) => db.prepare(sql).get() as T;
  const trainer = one<{ id: string }>("select id from users where email = 'trainer@example.com'");
  const assessment = one<{ id: string }>(`select id from assessments where assessed_by = '${trainer.id}' limit 1`);
  const activity = one<{ id: string }>(`select id from trainer_activities where trainer_id = '${trainer.id}' limit 1`);
  const student = one<{ id: string }>("select id from users where email = 'student@example.com'");
  db.close();

  const cluster = await startCluster();
  try {
    check(!fs.existsSync(dead), "an upload directory of a process that is gone is swept at start");
    check(fs.existsSync(live), "an upload directory of a live process is left alone");
    fs.rmSync(live, { recursive: true, force: true });

    const trainerCookie = { Cookie: await cookieFor("trainer@example.com") };
    const adminCookie = { Cookie: await cookieFor("admin@example.com") };
    const trainerToken = { Authorization: `Bearer ${await tokenFor("trainer@example.com")}`, Accept: "application/json" };
    const adminToken = { Authorization: `Bearer ${await tokenFor("admin@example.com")}`, Accept: "application/json" };
    // every route that reads a multipart body (isUploadPath in app/files/types.ts)
    const routes: Route[] = [
      { name: "evidence page", path: `/trainer/evidence/unit/${assessment.id}`, fileField: "files", auth: trainerCookie },
      { name: "evidence page's script upload", path: `/trainer/evidence/unit/${assessment.id}/upload`, fileField: "files", auth: trainerCookie },
      { name: "/api evidence", path: `/api/assessments/unit/${assessment.id}/evidence`, fileField: "files", auth: trainerToken },
      { name: "trainer's credentials page", path: "/trainer/credentials", fileField: "evidence_file", auth: trainerCookie },
      { name: "a trainer's credentials (office)", path: `/admin/credentials/${trainer.id}`, fileField: "evidence_file", auth: adminCookie },
      { name: "/api activity evidence", path: `/api/trainer-activities/${activity.id}/evidence`, fileField: "evidence_file", auth: adminToken },
      { name: "learner's documents", path: `/admin/students/${student.id}`, fileField: "file", auth: adminCookie },
    ];

    const pidsBefore = workerPids(cluster.pid!);
    const started = Date.now();
    for (const route of routes) {
      const answers = await Promise.all(
        KINDS.flatMap((kind) => Array.from({ length: TIMES }, (_, i) => broken(route, kind, i).then((text) => ({ kind, text })))),
      );
      for (const kind of KINDS) {
        const texts = answers.filter((a) => a.kind === kind).map((a) => a.text);
        const statuses = texts.map((t) => t.split("\r\n")[0]!.replace(/^HTTP\/1\.1 /, "") || "closed");
        const summary = [...new Set(statuses)].map((s) => `${statuses.filter((x) => x === s).length}× ${s}`).join(", ");
        // a dropped client is gone: there is no one to answer, only a process to keep alive
        const ok = kind === "dropped" || texts.every((t) => t.startsWith("HTTP/1.1 400") && t.includes(MESSAGE));
        // a failure shows two of the answers that missed, their start and their end
        if (!ok)
          console.log(
            texts
              .filter((t) => !t.includes(MESSAGE))
              .map((t) => t.slice(0, 300) + " … " + t.slice(-400))
              .slice(0, 2)
              .join("\n---\n"),
          );
        check(ok, `${route.name}, ${TIMES} at once ${kind}: ${kind === "dropped" ? "sent" : "400 with the message"} (${summary})`);
      }
    }
    console.log(`${routes.length * KINDS.length * TIMES} broken uploads in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const after = await request("GET", "/login").then(
      (r) => r.status,
      () => 0,
    );
    check(after === 200, `the server still answers (${after})`);
    const pidsAfter = workerPids(cluster.pid!);
    check(JSON.stringify(pidsAfter) === JSON.stringify(pidsBefore), `no worker died (workers ${pidsBefore.join(", ")} before, ${pidsAfter.join(", ")} after)`);
    check(!/Unexpected end of form|uncaught|unhandled/i.test(stderr), "nothing was thrown where no one catches it (the workers' error output)");
    // a dropped upload's request may still be unwinding: give the workers a moment
    for (let i = 0; i < 50 && leftovers().length > 0; i++) await sleep(100);
    check(leftovers().length === 0, `the temporary folder is empty (${leftovers().length ? leftovers().join(", ") : "nothing"})`);

    // the routes still take a whole upload: a good one through the /api
    const good = form("files");
    const pdf = await request("POST", `/api/assessments/unit/${assessment.id}/evidence`, {
      body: good.head + good.file + good.tail,
      headers: { ...trainerToken, "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
    });
    check(pdf.status < 300, `a whole upload afterwards is taken (${pdf.status})`);
    for (let i = 0; i < 20 && leftovers().length > 0; i++) await sleep(100);
    check(leftovers().length === 0, "and leaves nothing in the temporary folder either");
  } finally {
    cluster.kill("SIGTERM");
    await new Promise((r) => (cluster.exitCode !== null ? r(null) : cluster.once("exit", r)));
    for (const pid of workerPids(cluster.pid!)) process.kill(pid, "SIGKILL");
  }
  console.log(`uploads: ${passed} passed, ${failures.length} failed`);
  if (failures.length) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
