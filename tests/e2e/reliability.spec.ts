import crypto from "node:crypto";
import nodeHttp from "node:http";
import os from "node:os";
import { DEMO, expect, REGISTRATION_PASSWORD, requestsAloneRunOnce, test, uniqueEmail, useTestPassword } from "./fixtures";
import { e2eDb, e2eServer, insertCourse } from "./e2e-db";
import { routeModuleFiles, routeSource, routeUrlPattern } from "../support/route-files";

/**
 * Sessions, requests and concurrency against the running production server: a cross-site post
 * to every action is refused and changes nothing, security headers on every kind of answer, a new session id at sign-in, deactivation ends
 * cookie and token at once, stored text is shown escaped, and parallel writes neither
 * duplicate, lose nor 500.
 *
 * Requests go through Node's fetch (no cookie jar, redirects not followed), so each call
 * carries exactly the credentials the test gives it.
 */

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  cookies: string[];
  json<T = unknown>(): T;
}

/** One HTTP call as one client (a random X-Forwarded-For the e2e server trusts, for the rate limits). */
async function http(
  method: string,
  url: string,
  options: { headers?: Record<string, string>; json?: unknown; form?: Record<string, string>; raw?: string; token?: string; cookie?: string } = {},
): Promise<Answer> {
  const headers = new Headers(options.headers);
  const b = crypto.randomBytes(3);
  headers.set("X-Forwarded-For", `10.${b[0]}.${b[1]}.${b[2]}`);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.cookie) headers.set("Cookie", options.cookie);
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set("Content-Type", "application/json");
  } else if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers.set("Content-Type", "application/x-www-form-urlencoded");
  } else if (options.raw !== undefined) body = options.raw;
  const response = await fetch(`http://localhost:${e2eServer().port}${url}`, { method, headers, body, redirect: "manual" });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, cookies: response.headers.getSetCookie(), json: <T>() => JSON.parse(text) as T };
}

interface Account {
  id: string;
  email: string;
  token: string;
  cookie: string;
}

/** A fresh account of a role (trainers and admins approved straight in the database). */
async function account(role: "student" | "trainer" | "admin", fullName = "Reliability Tester"): Promise<Account> {
  const email = uniqueEmail(role);
  const registered = await http("POST", "/api/auth/register", { json: { full_name: fullName, email, password: REGISTRATION_PASSWORD, role } });
  expect(registered.status, registered.text).toBe(201);
  await useTestPassword(email);
  const row = (await e2eDb().get("select id from users where email = ?", email)) as { id: string };
  if (role !== "student") await e2eDb().run("update users set approval_status = 'approved' where id = ?", row.id);
  const login = await http("POST", "/api/auth/login", { json: { email, password: "password123" } });
  expect(login.status).toBe(200);
  const token = login.json<{ access_token: string }>().access_token;
  const form = await http("POST", "/login", { form: { email, password: "password123" } });
  expect(form.status).toBe(302);
  return { id: row.id, email, token, cookie: sessionCookieOf(form)! };
}

function sessionCookieOf(response: Answer): string | null {
  const header = response.cookies.find((c) => c.startsWith("__session="));
  return header ? header.split(";")[0]! : null;
}

function expectSecurityHeaders(response: Answer, what: string) {
  const h = response.headers;
  expect(h.get("content-security-policy"), `${what}: CSP`).toContain("default-src 'self'");
  expect(h.get("content-security-policy"), `${what}: frame-ancestors`).toContain("frame-ancestors 'none'");
  expect(h.get("x-content-type-options"), `${what}: nosniff`).toBe("nosniff");
  expect(h.get("x-frame-options"), `${what}: X-Frame-Options`).toBe("DENY");
  expect(h.get("referrer-policy"), `${what}: Referrer-Policy`).toBeTruthy();
}

/** Every route file that exports an action, as a URL with real ids. */
function actionUrls(ids: { course: string; student: string; enrollment: string }): Array<{ file: string; url: string }> {
  return routeModuleFiles()
    .filter((f) => /export (async function|const) action\b/.test(routeSource(f)))
    .map((file) => {
      const segments = routeUrlPattern(file)
        .split("/")
        .slice(1)
        .map((s) => {
          if (s === "$") return "anything";
          if (s === "$courseId") return ids.course;
          if (s === "$token") return "not-a-token";
          if (s === "$id") return file.includes("courses") ? ids.course : file.includes("enrollments") ? ids.enrollment : ids.student;
          return s;
        });
      return { file, url: `/${segments.join("/")}` };
    });
}

/** Four ways a browser tells a write came from another site (an older one names only the page it posted from). */
const FORGED: Array<Record<string, string>> = [
  { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
  { Origin: "null" },
  { "Sec-Fetch-Site": "same-site" },
  { Referer: "https://evil.example/cheap-tickets" },
];

test.describe("sessions and requests", () => {
  requestsAloneRunOnce();
  test("a cross-site post to every action is refused with 403 and changes nothing", async () => {
    const student = await account("student");
    const trainer = await account("trainer");
    const admin = await account("admin");
    const course = await insertCourse();
    const enrolled = await http("POST", "/api/enrollments", { json: { course_id: course.id }, token: student.token });
    expect(enrolled.status).toBe(201);
    const enrollment = (await e2eDb().get("select id from enrollments where student_id = ? and course_id = ?", student.id, course.id)) as { id: string };
    const victimEmail = uniqueEmail("victim");
    const mine = [student.id, trainer.id, admin.id];
    const each = <T>(ids: string[], read: (id: string) => Promise<T>) => Promise.all(ids.map(read));
    const snapshot = async () =>
      JSON.stringify({
        users: await each(mine, (id) => e2eDb().get("select * from users where id = ?", id)),
        victim: await e2eDb().get("select count(*) as n from users where email = ?", victimEmail),
        sessions: await each(mine, (id) => e2eDb().all("select id, expires_at from sessions where user_id = ? order by id", id)),
        tokens: await each(mine, (id) => e2eDb().all("select id, expires_at from api_tokens where user_id = ? order by id", id)),
        enrollments: await e2eDb().all("select * from enrollments where student_id = ? or course_id = ? order by id", student.id, course.id),
        course: await e2eDb().get("select * from courses where id = ?", course.id),
        certificates: await e2eDb().get("select count(*) as n from certificates where student_id = ?", student.id),
        assessments: await e2eDb().get("select count(*) as n from assessments where enrollment_id = ?", enrollment.id),
        events: await each(mine, (id) => e2eDb().get("select count(*) as n from events where actor_id = ? or subject_user_id = ?", id, id)),
      });
    const targets = actionUrls({ course: course.id, student: student.id, enrollment: enrollment.id });
    expect(targets.length, "action routes found").toBeGreaterThanOrEqual(30);
    const before = await snapshot();
    const form = {
      intent: "approve",
      email: victimEmail,
      password: "password123",
      confirm_password: "password123",
      full_name: "Forged Name",
      role: "admin",
      phone: "0499 999 999",
      terms: "on",
      status: "completed",
      progress: "100",
      enrollment_id: enrollment.id,
      course_id: course.id,
      is_active: "false",
      user_id: student.id,
      price: "1",
      name: "Forged course",
    };
    let refused = 0;
    for (const { file, url } of targets) {
      const as = url.startsWith("/student") || url.startsWith("/enroll") ? student : url.startsWith("/trainer") ? trainer : admin;
      for (const method of url.startsWith("/api/admin/") && url.split("/").length > 4 ? ["POST", "PUT"] : ["POST"]) {
        for (const origin of FORGED) {
          const response = await http(method, url, {
            headers: origin,
            cookie: as.cookie,
            ...(url.startsWith("/api/") ? { json: form } : { form }),
          });
          expect(response.status, `${method} ${url} (${file}) ${JSON.stringify(origin)}`).toBe(403);
          expectSecurityHeaders(response, `${method} ${url}`);
          refused++;
        }
      }
    }
    expect(await snapshot(), "nothing changed").toBe(before);
    // and the sessions still work: the forged /logout did not sign anyone out
    const me = await http("GET", "/api/auth/me", { cookie: admin.cookie });
    expect(me.status).toBe(200);
    console.log(`cross-site: ${refused} forged posts to ${targets.length} action routes refused`);
  });

  test("security headers on pages, error pages, PDFs, /api answers and /api errors", async () => {
    const login = await http("POST", "/api/auth/login", { json: { email: DEMO.student.email, password: DEMO.student.password } });
    const token = login.json<{ access_token: string }>().access_token;
    const certificates = (await http("GET", "/api/certificates/my", { token })).json<Array<{ id: string }>>();
    expect(certificates.length).toBeGreaterThan(0);
    const cases: Array<[string, () => Promise<Answer>, number, RegExp]> = [
      ["landing page", () => http("GET", "/"), 200, /text\/html/],
      ["login page", () => http("GET", "/login"), 200, /text\/html/],
      ["404 page", () => http("GET", `/no-such-page-${crypto.randomUUID()}`), 404, /text\/html/],
      ["redirect", () => http("GET", "/admin"), 302, /.*/],
      ["PDF download", () => http("GET", `/api/certificates/${certificates[0]!.id}/download`, { token }), 200, /application\/pdf/],
      ["/api JSON", () => http("GET", "/api/courses"), 200, /application\/json/],
      ["/api 401", () => http("GET", "/api/auth/me"), 401, /application\/json/],
      ["/api 404", () => http("GET", "/api/no-such-endpoint"), 404, /application\/json/],
      [
        "/api 400",
        () => http("POST", "/api/enrollments", { token, headers: { "Content-Type": "application/json" }, raw: "{not json" }),
        400,
        /application\/json/,
      ],
      ["CSV export redirect", () => http("GET", "/admin/export.csv"), 302, /.*/],
    ];
    for (const [what, send, status, type] of cases) {
      const response = await send();
      expect(response.status, what).toBe(status);
      expect(response.headers.get("content-type") ?? "", what).toMatch(type);
      expectSecurityHeaders(response, what);
      if (status >= 400) expect(response.text, `${what}: no stack trace`).not.toMatch(/\n\s+at .+:\d+:\d+|node_modules/);
    }
  });

  test("static files are sent with nosniff too", async () => {
    const login = await http("GET", "/login");
    const asset = /\/build\/[^"]+\.js/.exec(login.text)?.[0];
    expect(asset).toBeTruthy();
    for (const url of ["/favicon.svg", asset!]) {
      const response = await http("GET", url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get("x-content-type-options"), url).toBe("nosniff");
    }
  });

  test("a script is sent in brotli with the browser's compile hint before it, cached for a year, the same code as uncompressed", async () => {
    const login = await http("GET", "/login");
    const asset = /\/build\/_shared\/[^"]+\.js/.exec(login.text)?.[0];
    expect(asset).toBeTruthy();
    const plain = await http("GET", asset!, { headers: { "Accept-Encoding": "identity" } });
    expect(plain.status).toBe(200);
    // each worker compresses a file at its best the first time it is asked for it (until then the
    // framework's own compression answers), then sends it from memory with the hint
    const hint = "//# allFunctionsCalledOnLoad\n";
    let compressed: Answer | undefined;
    await expect
      .poll(async () => {
        compressed = await http("GET", asset!, { headers: { "Accept-Encoding": "br" } });
        return `${compressed.headers.get("content-encoding")} ${compressed.text.startsWith(hint)}`;
      })
      .toBe("br true");
    expect(compressed!.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // compared whole without printing a chunk of the framework when they differ
    expect(compressed!.text.slice(hint.length) === plain.text, "the same code after the hint").toBe(true);
  });

  test("with the demo accounts, the portal answers this machine only: another Host is refused whatever X-Forwarded-For says", async () => {
    const ask = (host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = nodeHttp.request(
          { host: "127.0.0.1", port: e2eServer().port, path: "/api/courses", headers: { Host: host, "X-Forwarded-For": "127.0.0.1" } },
          (res) => {
            let body = "";
            res.on("data", (c) => (body += c));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on("error", reject);
        req.end();
      });
    const refused = await ask("portal.example.com");
    expect(refused.status).toBe(421);
    expect(JSON.parse(refused.body).detail).toMatch(/demo accounts/);
    expect((await ask(`localhost:${e2eServer().port}`)).status).toBe(200);
    // and it listens on loopback alone: this machine's other addresses do not answer
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
    if (external) {
      const reached = await fetch(`http://${external}:${e2eServer().port}/login`).then(
        () => true,
        () => false,
      );
      expect(reached, `reached on ${external}`).toBe(false);
    }
  });

  test("a page is sent whole, compressed once in the coding the client takes, with its length", async () => {
    const student = await account("student");
    for (const [accept, encoding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
      ["identity", null],
    ] as const) {
      for (const [what, url, cookie] of [
        ["sign-in page", "/login", undefined],
        ["signed-in catalogue", "/courses", student.cookie],
      ] as const) {
        const response = await http("GET", url, { headers: { "Accept-Encoding": accept }, cookie });
        expect(response.status, what).toBe(200);
        expect(response.text, what).toContain("</html>");
        expect(response.headers.get("content-encoding"), `${what}, ${accept}`).toBe(encoding);
        expect(response.headers.get("transfer-encoding"), what).toBeNull();
        const length = Number(response.headers.get("content-length"));
        if (encoding) expect(length, `${what}, ${accept}`).toBeLessThan(Buffer.byteLength(response.text) / 2);
        else expect(length, what).toBe(Buffer.byteLength(response.text));
      }
    }
  });

  test("the session id changes at sign-in, and signing out ends it at once", async () => {
    const student = await account("student");
    // a browser that still sends an earlier, properly signed session cookie (signed out since:
    // a signed-in browser is simply sent on by /login) gets a brand-new id, never the old one
    const old = student.cookie;
    expect((await http("POST", "/logout", { cookie: old })).status).toBe(302);
    const again = await http("POST", "/login", { form: { email: student.email, password: "password123" }, cookie: old });
    expect(again.status).toBe(302);
    const fresh = sessionCookieOf(again);
    expect(fresh, "a new session cookie is set").toBeTruthy();
    expect(fresh).not.toBe(old);
    expect((await http("GET", "/api/auth/me", { cookie: old })).status, "the old id stays dead").toBe(401);
    expect((await http("GET", "/api/auth/me", { cookie: fresh! })).json<{ email: string }>().email).toBe(student.email);
    // a planted (unknown) session id is never adopted either
    const planted = "__session=planted-session-id";
    const third = await http("POST", "/login", { form: { email: student.email, password: "password123" }, cookie: planted });
    expect(sessionCookieOf(third)).not.toBe(planted);
    expect((await http("GET", "/api/auth/me", { cookie: fresh! })).status).toBe(200);
    const out = await http("POST", "/logout", { cookie: fresh! });
    expect(out.status).toBe(302);
    expect((await http("GET", "/api/auth/me", { cookie: fresh! })).status).toBe(401);
    const page = await http("GET", "/student", { cookie: fresh! });
    expect(page.headers.get("location")).toMatch(/^\/login/);
    // signing out of the API ends the token at once too
    await http("POST", "/api/auth/logout", { token: student.token });
    expect((await http("GET", "/api/auth/me", { token: student.token })).status).toBe(401);
  });

  test("a deactivated user's cookie and token stop working at once", async () => {
    const student = await account("student");
    const admin = await account("admin");
    expect((await http("GET", "/api/auth/me", { token: student.token })).status).toBe(200);
    expect((await http("GET", "/student/overview", { cookie: student.cookie })).status).toBe(200);
    const off = await http("PUT", `/api/admin/students/${student.id}`, { token: admin.token, json: { is_active: false } });
    expect(off.status).toBe(200);
    // the token was revoked (401) or is refused as inactive (403): either way it is dead at once
    expect([401, 403]).toContain((await http("GET", "/api/auth/me", { token: student.token })).status);
    expect([401, 403]).toContain((await http("GET", "/api/auth/me", { cookie: student.cookie })).status);
    const page = await http("GET", "/student/overview", { cookie: student.cookie });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toMatch(/^\/login/);
    const enrol = await http("POST", "/api/enrollments", { token: student.token, json: { course_id: (await insertCourse()).id } });
    expect([401, 403]).toContain(enrol.status);
    expect(await e2eDb().get("select count(*) as n from enrollments where student_id = ?", student.id)).toEqual({ n: 0 });
  });

  test("stored text is shown escaped", async () => {
    const evil = `<script>alert("owned")</script><img src=x onerror=alert(1)>`;
    const student = await account("student", evil);
    const admin = await account("admin");
    for (const [url, cookie] of [
      ["/student/profile", student.cookie],
      [`/admin/students/${student.id}`, admin.cookie],
    ] as const) {
      const html = (await http("GET", url, { cookie })).text;
      expect(html, url).toContain("&lt;script&gt;alert(");
      expect(html, url).not.toContain(evil);
      expect(html, url).not.toContain("<img src=x");
    }
  });

  test("a refused value comes back without the control characters no page may hold", async () => {
    const forms: Array<[string, Record<string, string>, string]> = [
      [
        "/register",
        { full_name: "Test\u0007User\u0000X", email: uniqueEmail("nul"), password: "Zq8!vbnmk2-rig", confirm_password: "Zq8!vbnmk2-rig", role: "student" },
        "Full name",
      ],
      ["/login", { email: "a\u0000b@test.example", password: "wrong-password" }, ""],
      ["/complaints/new", { details: "hello\u0000there", name: "Bob\u0000", email: "bob@test.example" }, ""],
    ];
    for (const [url, form, field] of forms) {
      const answer = await http("POST", url, { form });
      expect(answer.status, url).toBe(400);
      expect(answer.text, url).not.toMatch(/(?![\t\n\r])\p{Cc}/u);
      if (field) expect(answer.text, url).toContain(`${field} must be a single line without control characters`);
    }
  });
});

test.describe("concurrency", () => {
  requestsAloneRunOnce();
  test("20 parallel enrolments of one student in one course make exactly one; the rest are 409", async () => {
    const student = await account("student");
    const course = await insertCourse();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => http("POST", "/api/enrollments", { token: student.token, json: { course_id: course.id } })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(
      statuses.filter((s) => s === 201),
      statuses.join(","),
    ).toHaveLength(1);
    expect(
      statuses.filter((s) => s === 409),
      statuses.join(","),
    ).toHaveLength(19);
    const n = (await e2eDb().get("select count(*) as n from enrollments where student_id = ? and course_id = ?", student.id, course.id)) as { n: number };
    expect(n.n).toBe(1);
    console.log(`concurrency: 20 parallel enrolments → ${statuses.filter((s) => s === 201).length}×201, ${statuses.filter((s) => s === 409).length}×409`);
  });

  test("50 students enrolling in one course at once all succeed", async () => {
    const course = await insertCourse();
    const students: Account[] = [];
    for (let i = 0; i < 50; i += 10) students.push(...(await Promise.all(Array.from({ length: 10 }, () => account("student")))));
    const responses = await Promise.all(students.map((s) => http("POST", "/api/enrollments", { token: s.token, json: { course_id: course.id } })));
    const statuses = responses.map((r) => r.status);
    expect(
      statuses.filter((s) => s !== 201),
      statuses.join(","),
    ).toEqual([]);
    const n = (await e2eDb().get("select count(*) as n from enrollments where course_id = ?", course.id)) as { n: number };
    expect(n.n).toBe(50);
    console.log(`concurrency: 50 students at once → ${statuses.filter((s) => s === 201).length}×201`);
  });

  test("20 parallel edits of one student leave exactly one of the submitted versions", async () => {
    const student = await account("student");
    const admin = await account("admin");
    const versions = Array.from({ length: 20 }, (_, i) => ({
      phone: `0400 000 ${String(100 + i)}`,
      address: `${i + 1} Crane Street, Newcastle NSW`,
      emergency_contact: `Contact number ${i + 1}`,
    }));
    const responses = await Promise.all(versions.map((json) => http("PUT", `/api/admin/students/${student.id}`, { token: admin.token, json })));
    const statuses = responses.map((r) => r.status);
    expect(
      statuses.filter((s) => s !== 200),
      statuses.join(","),
    ).toEqual([]);
    const row = (await e2eDb().get("select phone, address, emergency_contact from users where id = ?", student.id)) as (typeof versions)[number];
    expect(versions, "the stored record is one whole submitted version").toContainEqual(row);
    const shown = (await http("GET", `/api/admin/students/${student.id}`, { token: admin.token })).json<{ student: { phone: string } }>();
    expect(shown.student.phone).toBe(row.phone);
    console.log(`concurrency: 20 parallel edits → ${statuses.length}×200, stored version ${versions.findIndex((v) => v.phone === row.phone) + 1}`);
  });
});
