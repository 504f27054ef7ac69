/**
 * How much a certificate PDF costs: the cold render (browser launch included), a warm render
 * (browser already up), and a stored download, which should cost about what a static file
 * does. Runs on a throwaway copy of the demo data; prints the figures.
 *
 *   npm run measure:certificates
 *   npm run measure:certificates -- --base-url http://localhost:3000 --database file:./data/app.db
 *
 * With --base-url (a running server) and --database (that server's database, read only to
 * find the demo student's certificate ids), it also times real HTTP downloads as the demo
 * student, next to a static file from the same server.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

process.env.FAST_PASSWORD_HASH ??= "true";
process.env.LOG_LEVEL ??= "silent";

const { values: args } = parseArgs({
  options: {
    "base-url": { type: "string" },
    database: { type: "string" },
    runs: { type: "string", default: "500" },
    "static-path": { type: "string", default: "/favicon.svg" },
  },
});
const RUNS = Math.max(10, Number(args.runs) || 500);

const { openDatabase } = await import("../db/connection");
const { migrateToLatest } = await import("../db/migrate");
const { seedDemoData } = await import("../app/demo/seed.server");
const { issueApiToken } = await import("../app/api/auth.server");
const { closeBrowser, browserStats } = await import("../app/pdf/browser.server");
const { ensureCertificatePdf, certificateRenderCount } = await import("../app/pdf/certificate-pdf.server");
const { loader } = await import("../app/routes/api+/certificates.$id.download");

const ms = (n: number) => `${n.toFixed(n < 10 ? 3 : 0)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB (${bytes} bytes)`;

async function time<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await fn();
  return [result, performance.now() - start];
}

type Stats = { mean: number; p50: number; p95: number };

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return { mean, p50: sorted[Math.floor(sorted.length * 0.5)]!, p95: sorted[Math.floor(sorted.length * 0.95)]! };
}

/**
 * Times several operations `runs` times each, interleaved (a, b, c, a, b, c, ...) after a
 * short warm-up, so a busy machine slows them all alike and the comparison stays fair.
 */
async function compare(runs: number, operations: Record<string, () => Promise<unknown>>): Promise<void> {
  const entries = Object.entries(operations);
  for (let i = 0; i < Math.min(20, runs); i++) for (const [, fn] of entries) await fn();
  const samples = entries.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    for (const [k, [, fn]] of entries.entries()) samples[k]!.push((await time(fn))[1]);
  }
  entries.forEach(([label], k) => line(label, stats(samples[k]!)));
}

const line = (label: string, s: Stats) =>
  console.log(`  ${label.padEnd(44)} mean ${ms(s.mean).padStart(10)}   p50 ${ms(s.p50).padStart(10)}   p95 ${ms(s.p95).padStart(10)}`);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "measure-certificates-"));
const db = openDatabase(`file:${path.join(tmp, "measure.db")}`);
try {
  await migrateToLatest(db);
  await seedDemoData(db);
  globalThis.__portalDb = db; // the route's getDb()

  const student = await db.selectFrom("users").select("id").where("email", "=", "student@example.com").executeTakeFirstOrThrow();
  const certificates = await db
    .selectFrom("certificates")
    .select(["id", "certificate_number"])
    .where("student_id", "=", student.id)
    .orderBy("certificate_number")
    .execute();
  if (certificates.length < 2) throw new Error("The demo student needs at least two certificates");
  const [first, second] = certificates as [(typeof certificates)[0], (typeof certificates)[0]];

  console.log(
    `Certificate PDFs: ${os.cpus().length} CPU(s), load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}, Node ${process.version}`,
  );
  console.log("\nRendering (puppeteer + Chromium)");
  const [cold, coldMs] = await time(() => ensureCertificatePdf(db, first.id));
  console.log(`  cold render, browser launch included        ${ms(coldMs)}   (${first.certificate_number})`);
  const [, warmMs] = await time(() => ensureCertificatePdf(db, second.id));
  console.log(`  warm render, browser already up             ${ms(warmMs)}   (${second.certificate_number})`);
  console.log(`  renders: ${certificateRenderCount()}, browser launches: ${browserStats().launches}`);
  console.log(`  PDF size                                    ${kb(cold!.byteLength)}`);
  for (const c of certificates.slice(2)) await ensureCertificatePdf(db, c.id);
  const sizes = await db.selectFrom("certificate_documents").select("byte_length").execute();
  console.log(`  sizes of all ${sizes.length} demo student PDFs: ${sizes.map((s) => s.byte_length).join(", ")} bytes`);
  await closeBrowser();

  const rendersBefore = certificateRenderCount();
  const token = await issueApiToken(db, student.id);
  const callLoader = async () => {
    const request = new Request(`http://localhost/api/certificates/${first.id}/download`, { headers: { Authorization: `Bearer ${token}` } });
    const response = (await loader({ request, params: { id: first.id } })) as Response;
    if (response.status !== 200) throw new Error(`loader answered ${response.status}`);
    await response.arrayBuffer();
  };
  const staticFile = path.join(tmp, "certificate.pdf");
  fs.writeFileSync(staticFile, cold!.pdf);
  console.log(`\nStored downloads, ${RUNS} runs each, interleaved (browser closed: nothing renders)`);
  await compare(RUNS, {
    "ensureCertificatePdf (stored bytes)": () => ensureCertificatePdf(db, first.id),
    "route loader (token, access check, bytes)": callLoader,
    "static file baseline: fs.readFile": () => fs.promises.readFile(staticFile),
  });

  // The same over HTTP: a local server answering with the route's loader or with the file.
  const server = http.createServer(async (req, res) => {
    if (req.url === "/static.pdf") {
      const stat = await fs.promises.stat(staticFile);
      res.writeHead(200, { "Content-Type": "application/pdf", "Content-Length": stat.size });
      fs.createReadStream(staticFile).pipe(res);
      return;
    }
    const request = new Request(`http://localhost${req.url}`, { headers: { Authorization: req.headers.authorization ?? "" } });
    const response = (await loader({ request, params: { id: first.id } })) as Response;
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get =
    (url: string, headers: Record<string, string> = {}) =>
    async () => {
      const response = await fetch(url, { headers });
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      await response.arrayBuffer();
    };
  await compare(RUNS, {
    "HTTP (in-process): certificate download": get(`${base}/api/certificates/${first.id}/download`, { Authorization: `Bearer ${token}` }),
    "HTTP (in-process): same bytes, static file": get(`${base}/static.pdf`),
  });
  server.close();
  if (certificateRenderCount() !== rendersBefore) throw new Error("A stored download rendered again");

  if (args["base-url"] && args.database) {
    const baseUrl = args["base-url"].replace(/\/$/, "");
    const serverDb = openDatabase(args.database);
    const ids = await serverDb
      .selectFrom("certificates")
      .innerJoin("users", "users.id", "certificates.student_id")
      .select("certificates.id")
      .where("users.email", "=", "student@example.com")
      .execute();
    await serverDb.destroy();
    const login = await fetch(`${baseUrl}/login`, {
      method: "POST",
      body: new URLSearchParams({ email: "student@example.com", password: "password123" }),
      redirect: "manual",
      headers: { "X-Forwarded-For": `10.9.${crypto.randomInt(255)}.${crypto.randomInt(255)}` },
    });
    const cookie = (login.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).find((c) => c.startsWith("__session="));
    if (!cookie || !ids.length) throw new Error(`Could not sign in to ${baseUrl} as the demo student (status ${login.status})`);
    const url = `${baseUrl}/api/certificates/${ids[0]!.id}/download`;
    const [, firstHttp] = await time(get(url, { Cookie: cookie }));
    console.log(`\nHTTP against ${baseUrl} (remix-serve), as the demo student`);
    console.log(`  first download of ${ids[0]!.id} (renders unless already stored)  ${ms(firstHttp)}`);
    const operations: Record<string, () => Promise<unknown>> = {
      "certificate download (stored)": get(url, { Cookie: cookie }),
      [`static file (${args["static-path"]})`]: get(`${baseUrl}${args["static-path"]}`, { "Accept-Encoding": "identity" }),
    };
    // Remix's own cost per request: a signed-in JSON route that does almost nothing
    const me = `${baseUrl}/api/auth/me`;
    if ((await fetch(me, { headers: { Cookie: cookie } })).status === 200) operations["GET /api/auth/me (Remix route baseline)"] = get(me, { Cookie: cookie });
    await compare(Math.min(RUNS, 200), operations);
  }
} finally {
  await closeBrowser();
  await db.destroy();
  fs.rmSync(tmp, { recursive: true, force: true });
}
