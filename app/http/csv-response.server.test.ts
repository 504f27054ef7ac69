import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { writeReadableStreamToWritable } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KyselyPlugin } from "kysely";
import type { DB } from "#db/connection";
import { createTestDb } from "../../tests/support/test-db";
import { makeCourse, makeEnrollment } from "../../tests/support/factories";
import { BATCH_ROWS, keysetRows } from "~/models/batches.server";
import { EXPORT_COLUMNS, studentExportRows } from "~/models/report.server";
import { auditRows, recordAudit } from "~/models/audit.server";
import { writeTransaction } from "#db/connection";
import { CONTEXT_HEADER, enterRequest } from "~/http/request-context.server";
import { csvResponse, mapRows } from "./csv-response.server";

/** the compression step remix-serve puts in front of Remix (the package ships no types) */
const compression = createRequire(import.meta.url)("compression") as () => (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;

const STUDENTS = 2_500;
/** wide enough that a batch of entries fills more than one chunk of the body */
const PADDING = "x".repeat(80);

/** The same database with each statement counted as Kysely runs it. */
function counted(db: DB) {
  const tally = { queries: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      tally.queries++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin) as DB, tally };
}

describe("CSV downloads stream from the database a batch at a time", () => {
  let db: DB;
  let cleanup: () => Promise<void>;
  const expected: string[] = [];
  beforeAll(async () => {
    ({ db, cleanup } = await createTestDb());
    // 2,500 learners: seven at a time share a joining instant (so ties straddle the batches'
    // edges), the last 40 have none (undated accounts come last)
    const base = Date.parse("2026-01-01T00:00:00.000Z");
    const rows = Array.from({ length: STUDENTS }, (_, i) => ({
      id: crypto.randomUUID(),
      email: `stream-${i}@test.example`,
      full_name: `Stream Learner ${i}`,
      password_hash: "not-a-hash",
      role: "student" as const,
      is_active: 1,
      approval_status: "approved" as const,
      created_at: i >= STUDENTS - 40 ? null : new Date(base + Math.floor(i / 7) * 60_000).toISOString(),
      updated_at: "2026-01-01T00:00:00.000Z",
    }));
    for (let i = 0; i < rows.length; i += 250)
      await db
        .insertInto("users")
        .values(rows.slice(i, i + 250))
        .execute();
    const course = await makeCourse(db, { name: "Streamed course", unit_code: "STRM001" });
    // two enrolments on a learner at a batch's edge: one student, two rows
    await makeEnrollment(db, rows[STUDENTS - 1 - 40 - 999]!.id, course.id, { status: "enrolled" });
    const dated = rows.filter((r) => r.created_at).sort((a, b) => b.created_at!.localeCompare(a.created_at!) || a.id.localeCompare(b.id));
    const undated = rows.filter((r) => !r.created_at).sort((a, b) => a.id.localeCompare(b.id));
    for (const r of [...dated, ...undated]) expected.push(r.id);
  }, 120_000);
  afterAll(() => cleanup());

  it("the students export: its first rows leave after one batch's queries, every learner once in order, two queries a batch and one where the dated learners end", async () => {
    const { db: countedDb, tally } = counted(db);
    const response = csvResponse({
      request: new Request("http://test/"),
      columns: EXPORT_COLUMNS,
      rows: studentExportRows(countedDb),
      filename: "students.csv",
    });
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="students.csv"');
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    let text = "";
    const header = await reader.read();
    text += decoder.decode(header.value, { stream: true });
    expect(text).toBe(`\uFEFF${EXPORT_COLUMNS.join(",")}\r\n`);
    // the header leaves before any row is read (taking it starts the first batch's read)
    expect(tally.queries).toBeLessThanOrEqual(1);
    const firstRows = await reader.read();
    text += decoder.decode(firstRows.value, { stream: true });
    // one batch of learners and their enrolments read, the rest not yet
    expect(tally.queries).toBe(2);
    expect(text.split("\r\n").length).toBeGreaterThan(100);
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      text += decoder.decode(next.value, { stream: true });
    }
    // and one more for the undated learners, read after the dated ones run out
    expect(tally.queries).toBe(2 * Math.ceil(STUDENTS / BATCH_ROWS) + 1);
    const lines = text.trimEnd().split("\r\n").slice(1);
    const ids = lines.map((l) => l.split(",")[0]!);
    // each learner in the export's order; the enrolled one's row carries the course
    expect([...new Set(ids)]).toEqual(expected);
    expect(lines).toHaveLength(STUDENTS);
    expect(lines.filter((l) => l.includes("Streamed course"))).toHaveLength(1);
  }, 60_000);

  it("a download the client abandons stops reading the database", async () => {
    const { db: countedDb, tally } = counted(db);
    const response = csvResponse({
      request: new Request("http://test/"),
      columns: EXPORT_COLUMNS,
      rows: studentExportRows(countedDb),
      filename: "students.csv",
    });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    expect(tally.queries).toBe(2);
  });

  it("the audit trail: 2,500 entries by id, a query per batch, the first rows before the last query", async () => {
    for (let i = 0; i < STUDENTS; i += 500)
      await writeTransaction(db, async (trx) => {
        for (let k = i; k < i + 500; k++)
          await recordAudit(trx, {
            action: "students.exported",
            actor: { id: null, client: null },
            subject: { type: "students", id: null },
            detail: `entry ${k} ${PADDING}`,
          });
      });
    const { db: countedDb, tally } = counted(db);
    const seen: string[] = [];
    const response = csvResponse({
      request: new Request("http://test/"),
      columns: ["detail"] as const,
      rows: mapRows(auditRows(countedDb, {}), (e) => ({ detail: e.detail })),
      filename: "audit.csv",
    });
    const reader = response.body!.getReader();
    await reader.read();
    const first = await reader.read();
    expect(tally.queries).toBe(1);
    seen.push(new TextDecoder().decode(first.value));
    const rest = await new Response(
      new ReadableStream({
        pull: async (c) => {
          const n = await reader.read();
          if (n.done) c.close();
          else c.enqueue(n.value);
        },
      }),
    ).text();
    const all = `${seen.join("")}${rest}`.trimEnd().split("\r\n");
    expect(all).toEqual(Array.from({ length: STUDENTS }, (_, k) => `entry ${k} ${PADDING}`));
    expect(tally.queries).toBe(Math.ceil(STUDENTS / BATCH_ROWS));
  }, 120_000);

  it("keysetRows reads a further batch only when the one before was full, and an empty table in one query", async () => {
    const asked: Array<number | null> = [];
    const numbers = Array.from({ length: 25 }, (_, i) => i);
    const fetch = async (after: number | null, limit: number) => {
      asked.push(after);
      return numbers.filter((n) => after === null || n > after).slice(0, limit);
    };
    const read: number[] = [];
    for await (const n of keysetRows(fetch, 10)) read.push(n);
    expect(read).toEqual(numbers);
    expect(asked).toEqual([null, 9, 19]);
    asked.length = 0;
    for await (const n of keysetRows(async (after: number | null) => (asked.push(after), [] as number[]), 10)) read.push(n);
    expect(asked).toEqual([null]);
  });
});

describe("a download read slowly is read only as fast as its client takes it", () => {
  const ROWS = 400_000;
  // hex of random bytes: compresses about 2:1, so a compressed answer still fills the connection
  const POOL = crypto.randomBytes(64 * 1024).toString("hex");

  /**
   * remix-serve's way of answering, in small: its compression step, the front
   * door's context for the request, and Remix's own writer, which ignores a full buffer.
   */
  async function serve(made: { rows: number }) {
    const compress = compression();
    const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
      enterRequest(req, res);
      const request = new Request("http://test/", { headers: { [CONTEXT_HEADER]: String(req.headers[CONTEXT_HEADER]) } });
      async function* rows() {
        for (let i = 0; i < ROWS; i++) {
          made.rows++;
          yield [i, POOL.slice((i * 90) % (POOL.length - 90), ((i * 90) % (POOL.length - 90)) + 90)];
        }
      }
      res.statusCode = 200;
      res.setHeader("Content-Type", "text/csv");
      void writeReadableStreamToWritable(csvResponse({ request, columns: ["n", "w"] as const, rows: rows(), filename: "slow.csv" }).body!, res);
    };
    const server = http.createServer((req, res) => compress(req, res, () => answer(req, res)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { server, port: (server.address() as AddressInfo).port };
  }

  for (const coding of ["identity", "gzip"]) {
    it(`${coding}: a client that stops reading stops the rows being made, and gets every row once it reads on`, async () => {
      const made = { rows: 0 };
      const { server, port } = await serve(made);
      try {
        const response = await new Promise<http.IncomingMessage>((resolve) =>
          http.get({ port, host: "127.0.0.1", path: "/", headers: { "accept-encoding": coding } }, resolve),
        );
        response.pause();
        // long enough for the whole file (about 40 MB) to be made and buffered were nothing to wait for
        let before = -1;
        for (let i = 0; i < 40 && made.rows !== before; i++) {
          before = made.rows;
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(made.rows).toBeLessThan(ROWS / 2);
        const { createGunzip } = await import("node:zlib");
        const body = coding === "gzip" ? response.pipe(createGunzip()) : response;
        let lines = 0;
        let tail = "";
        for await (const chunk of body) {
          const text = tail + String(chunk);
          const parts = text.split("\r\n");
          tail = parts.pop()!;
          lines += parts.length;
        }
        expect(lines).toBe(ROWS + 1);
        expect(made.rows).toBe(ROWS);
      } finally {
        server.closeAllConnections();
        server.close();
      }
    }, 60_000);
  }
});
