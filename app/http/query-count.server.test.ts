import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// before db/connection is loaded: a connection opened with the flag counts its statements
vi.hoisted(() => {
  process.env.QUERY_COUNT = "1";
});

import type { DB } from "#db/connection";
import { createTestDb } from "../../tests/support/test-db";
import { countRequestQueries, QUERY_COUNT_HEADER } from "./query-count.server";

describe("the per-request statement count (QUERY_COUNT=1)", () => {
  let db: DB;
  let cleanup: () => Promise<void>;
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    ({ db, cleanup } = await createTestDb());
    const one = () => db.selectFrom("users").select("id").limit(1).execute();
    server = http.createServer((req, res) =>
      countRequestQueries(req, res, () => {
        const work = async () => {
          if (req.url === "/three") {
            await one();
            // statements run side by side, and inside a transaction, count too
            await Promise.all([one(), db.transaction().execute(() => Promise.resolve())]);
          }
          setTimeout(() => res.end("ok"), 5);
        };
        void work();
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await cleanup();
  });

  const countOf = async (path: string) => (await fetch(`http://127.0.0.1:${port}${path}`)).headers.get(QUERY_COUNT_HEADER);

  it("answers each request's own count, requests at once kept apart", async () => {
    const [none, three, again] = await Promise.all([countOf("/none"), countOf("/three"), countOf("/three")]);
    expect(none).toBe("0");
    expect(Number(three)).toBeGreaterThanOrEqual(2);
    expect(again).toBe(three);
  });
});
