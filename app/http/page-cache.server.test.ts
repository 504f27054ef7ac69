import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dataVersion, openDatabase, type DB } from "#db/connection";
import { getOptionalUser } from "~/auth/guards.server";
import { createSession } from "~/auth/session.server";
import { lookUpVerification } from "~/models/certificates/certificate-verification.server";
import { flashHeader } from "~/utils/flash.server";
import { makeCourse, makeUser } from "../../tests/support/factories";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { refuseAtTheGate } from "./gate.server";
import { answerFromPageCache, clearPageCache, documentCacheControl, mayStoreDocument, pageKey, storeDocument } from "./page-cache.server";
import { enterRequest, frontDoorContext, requestContext, withRequestContext, type RequestContext } from "./request-context.server";

const CSP = "script-src 'self' 'sha256-AAA='";
const page = (n: number) => Buffer.from(`<!DOCTYPE html><html><body><h1>Courses ${n}</h1><script>window.x=1</script></body></html>`);

let db: DB;
let url: string;
let cleanup: () => Promise<void>;
let server: http.Server;
let base = "";
/** requests that reached the "app" (Remix, in the real server), and what it renders next */
let rendered = 0;
let signedInRender = false;
let setCookieRender = false;
const controls: string[] = [];
/** the session lookup the "app" found in the request's context when it rendered */
let lookupAtRender: RequestContext["session"];

beforeAll(async () => {
  ({ db, url, cleanup } = await createTestDb());
  useAsAppDb(db);
  // PostgreSQL's change feed connects on first use, and its version moves once it listens
  let seen = dataVersion(db);
  for (let settled = 0; settled < 3;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = dataVersion(db);
    settled = now === seen ? settled + 1 : 0;
    seen = now;
  }
  // The front door's steps in their order, then an "app" that renders like entry.server does.
  server = http.createServer(async (req, res) => {
    enterRequest(req, res);
    if (refuseAtTheGate(req, res) || (await answerFromPageCache(req, res))) return;
    rendered++;
    // the Fetch Request remix-serve would make: the request's headers, the context's among them
    const request = new Request(`http://localhost${req.url}`, { headers: req.headers as Record<string, string> });
    expect(requestContext(request)).toBe(frontDoorContext(req));
    lookupAtRender = requestContext(request)?.session;
    controls.push(documentCacheControl(request));
    const headers = new Headers({ "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": CSP });
    if (setCookieRender) headers.append("Set-Cookie", "__flash=; Max-Age=0");
    if (signedInRender) requestContext(request)!.userId = "someone";
    const html = page(rendered);
    if (mayStoreDocument(request)) storeDocument(request, 200, headers, html);
    res.writeHead(200, Object.fromEntries(headers)).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await cleanup();
});
beforeEach(() => {
  clearPageCache();
  rendered = 0;
  signedInRender = false;
  setCookieRender = false;
  controls.length = 0;
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${base}${path}`, { headers: { "Accept-Encoding": "identity", ...headers } });
  return { status: response.status, headers: response.headers, text: await response.text() };
};

/** GET without decompressing, to see the stored encodings as sent. */
const raw = (path: string, acceptEncoding: string) =>
  new Promise<{ encoding?: string; body: Buffer; csp?: string }>((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers: { "Accept-Encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks), csp: String(res.headers["content-security-policy"]) }),
        );
      })
      .on("error", reject);
  });

async function sessionCookie(spelling = "__session=") {
  const { id } = await makeUser(db);
  const setCookie = await createSession(db, id);
  return setCookie.split(";")[0]!.replace("__session=", spelling);
}

describe("the page cache", () => {
  it("answers a stored anonymous page as the same complete response, compressed once per encoding, and 304 on its ETag", async () => {
    const first = await get("/courses");
    expect(first.text).toBe(page(1).toString());
    expect(controls).toEqual(["public, no-cache"]);

    const again = await get("/courses");
    expect(again.text).toBe(page(1).toString());
    expect(again.headers.get("content-security-policy")).toBe(CSP);
    expect(again.headers.get("cache-control")).toBe("public, no-cache");
    expect(again.headers.get("vary")).toBe("Accept-Encoding, Cookie");
    const gz = await raw("/courses", "gzip, deflate");
    expect(gz.encoding).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).toString()).toBe(page(1).toString());
    const br = await raw("/courses", "gzip, deflate, br");
    expect(br.encoding).toBe("br");
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(page(1).toString());
    expect((await raw("/courses", "br;q=0, gzip;q=0")).encoding).toBeUndefined();

    const revalidated = await get("/courses", { "If-None-Match": again.headers.get("etag")! });
    expect(revalidated.status).toBe(304);
    expect(rendered).toBe(1);
  });

  it("stores only the parameters a page reads, normalised; anything else is rendered and not stored", async () => {
    expect(pageKey("/courses")).toBe("/courses?tier=all&page=1");
    expect(pageKey("/courses?page=01&tier=tier_2")).toBe(pageKey("/courses?tier=tier_2&page=1"));
    expect(pageKey("/courses?tier=bogus")).toBe(pageKey("/courses"));
    expect(pageKey("/courses?utm_source=x")).toBeNull();
    expect(pageKey("/courses?q=dog")).toBeNull();
    expect(pageKey("/courses?page=500")).toBeNull();
    expect(pageKey("/courses?_data=routes%2Fcourses")).toBeNull();
    // the router's data requests
    expect(pageKey("/courses.data")).toBeNull();
    expect(pageKey("/_root.data")).toBeNull();
    expect(pageKey("/?x=1")).toBeNull();
    expect(pageKey("/login")).toBeNull();
    // a course's public page: its path only
    expect(pageKey("/courses/3f2a9c1e-0b7d-4e55-9a61-2c4f8d0e7b13")).toBe("/courses/3f2a9c1e-0b7d-4e55-9a61-2c4f8d0e7b13?");
    expect(pageKey("/courses/3f2a9c1e?utm_source=x")).toBeNull();
    expect(pageKey("/courses/3f2a9c1e.data")).toBeNull();
    expect(pageKey("/courses/a/b")).toBeNull();

    await get("/courses?page=1");
    await get("/courses?page=01");
    expect(rendered).toBe(1);
    for (let i = 0; i < 3; i++) await get(`/courses?nonce=${i}`);
    await get("/courses?q=dog");
    await get("/courses?q=dog");
    expect(rendered).toBe(6);
    expect(controls.slice(1)).toEqual(Array(5).fill("private, no-store"));
  });

  it("never answers or stores for a visitor whose cookie resolves to a session, however the header is spelled", async () => {
    await get("/courses");
    for (const spelling of ["__session=", "__session =", " __session= "]) {
      const cookie = await sessionCookie(spelling);
      expect((await get("/courses", { Cookie: `theme=dark; ${cookie}` })).text).not.toBe(page(1).toString());
    }
    expect(rendered).toBe(4);
    // a signed-in visitor's render is never stored, even for a page the cache holds
    clearPageCache();
    const cookie = await sessionCookie("__session =");
    await get("/courses", { Cookie: cookie });
    await get("/courses", { Cookie: cookie });
    expect(rendered).toBe(6);
    expect(controls.at(-1)).toBe("private, no-store");
  });

  it("hands its session lookup to the page's loaders, so a signed-in page looks the session up once", async () => {
    const { id } = await makeUser(db);
    const cookie = (await createSession(db, id)).split(";")[0]!;
    await get("/courses", { Cookie: `theme=dark; ${cookie}` });
    expect(lookupAtRender?.cookie).toBe(`theme=dark; ${cookie}`);
    expect((await lookupAtRender!.user)?.id).toBe(id);
    // getOptionalUser answers from that entry for a GET with the same cookie
    const user = await withRequestContext(
      new Request(`${base}/courses`, { headers: { Cookie: `theme=dark; ${cookie}` } }),
      { address: "127.0.0.1", session: lookupAtRender },
      getOptionalUser,
    );
    expect(user?.id).toBe(id);
  });

  it("treats a forged or expired session cookie and unrelated cookies as anonymous, and a pending flash as not", async () => {
    await get("/courses");
    expect((await get("/courses", { Cookie: "__session=forged.value; theme=dark" })).text).toBe(page(1).toString());
    expect(rendered).toBe(1);
    const flash = (await flashHeader({ type: "success", message: "Saved" }, "/courses")).split(";")[0]!;
    await get("/courses", { Cookie: flash });
    expect(rendered).toBe(2);
    // a message waiting for another page leaves this one the same for everyone
    const elsewhere = (await flashHeader({ type: "success", message: "Saved" }, "/student/overview")).split(";")[0]!;
    expect((await get("/courses", { Cookie: elsewhere })).text).toBe(page(1).toString());
    expect(rendered).toBe(2);
  });

  it("does not store a render that set a cookie or found a signed-in user", async () => {
    setCookieRender = true;
    await get("/");
    await get("/");
    expect(rendered).toBe(2);
    setCookieRender = false;
    signedInRender = true;
    await get("/");
    await get("/");
    expect(rendered).toBe(4);
  });

  it("keeps its pages through committed writes to data they do not show, and drops them on a write to a course", async () => {
    await get("/courses");
    const before = dataVersion(db);
    // a sign-in's session and an anonymous verify lookup's count: writes to tables the pages do not read
    const { id } = await makeUser(db);
    await createSession(db, id);
    await lookUpVerification(db, { code: "AAAA", client: "203.0.113.9" });
    // the database did move (on PostgreSQL once its change notification arrives) ...
    await expect.poll(() => dataVersion(db)).not.toBe(before);
    // ... and the stored page is still served
    expect((await get("/courses")).text).toBe(page(1).toString());
    expect(rendered).toBe(1);

    const course = await makeCourse(db);
    await expect.poll(async () => (await get("/courses")).text).toBe(page(2).toString());
    await sql`update courses set price_cents = price_cents + 100 where id = ${course.id}`.execute(db);
    await expect.poll(async () => (await get("/courses")).text).toBe(page(3).toString());
  });

  it("keeps its pages through refused writes and drops them on a committed write, by this process or another", async () => {
    await get("/courses");
    const refused = await fetch(`${base}/admin/courses/new`, { method: "POST", headers: { Origin: "https://evil.example" }, body: "x=1" });
    expect(refused.status).toBe(403);
    const tooLarge = await new Promise<number | undefined>((resolve, reject) => {
      const req = http.request(`${base}/admin/courses/new`, { method: "POST", headers: { "Content-Length": String(2 * 1024 * 1024) } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on("error", reject);
      req.flushHeaders();
    });
    expect(tooLarge).toBe(413);
    expect((await get("/courses")).text).toBe(page(1).toString());

    await makeCourse(db);
    // PostgreSQL's change notification arrives a moment after the commit; SQLite's at once
    await expect.poll(async () => (await get("/courses")).text).toBe(page(2).toString());
    expect((await get("/courses")).text).toBe(page(2).toString());

    const other = openDatabase(url);
    await sql`update courses set name = name || ' (edited)'`.execute(other);
    await other.destroy();
    // PostgreSQL's change notification arrives a moment after the commit; SQLite's at once
    await expect.poll(async () => (await get("/courses")).text).toBe(page(3).toString());
  });
});
