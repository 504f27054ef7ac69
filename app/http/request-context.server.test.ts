import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  CONTEXT_HEADER,
  clientAddress,
  clientKey,
  enterRequest,
  forwardedAddress,
  frontDoorContext,
  openContexts,
  requestContext,
  withRequestContext,
} from "./request-context.server";

const saved = process.env.TRUST_PROXY;
afterEach(() => {
  if (saved === undefined) delete process.env.TRUST_PROXY;
  else process.env.TRUST_PROXY = saved;
});

const asked = (socket: string, xff?: string) =>
  withRequestContext(new Request("http://localhost/login", { headers: xff ? { "X-Forwarded-For": xff } : {} }), { address: socket }, clientAddress);

describe("client identity", () => {
  it("is the socket's address when no proxy is trusted, whatever X-Forwarded-For says", () => {
    delete process.env.TRUST_PROXY;
    expect(asked("203.0.113.9", "198.51.100.1")).toBe("203.0.113.9");
    process.env.TRUST_PROXY = "0";
    expect(asked("203.0.113.9", "198.51.100.1")).toBe("203.0.113.9");
  });

  it("is the entry N hops from the right with TRUST_PROXY=N, never one the client wrote further left", () => {
    process.env.TRUST_PROXY = "1";
    expect(asked("10.0.0.2", "6.6.6.6, 198.51.100.7")).toBe("198.51.100.7");
    process.env.TRUST_PROXY = "true";
    expect(asked("10.0.0.2", "6.6.6.6, 198.51.100.7")).toBe("198.51.100.7");
    process.env.TRUST_PROXY = "2";
    expect(asked("10.0.0.2", "6.6.6.6, 198.51.100.7, 10.0.0.1")).toBe("198.51.100.7");
    expect(forwardedAddress("10.0.0.2", "198.51.100.7", 2)).toBe("198.51.100.7");
    expect(forwardedAddress("10.0.0.2", "not-an-ip", 1)).toBe("10.0.0.2");
    expect(forwardedAddress("10.0.0.2", null, 1)).toBe("10.0.0.2");
  });

  it("counts IPv6 clients per /64 and IPv4-mapped addresses as IPv4", () => {
    expect(clientKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:3::1")).not.toBe(clientKey("2001:db8:1:2::1"));
    expect(clientKey("::ffff:192.0.2.5")).toBe("192.0.2.5");
    expect(asked("2001:db8:9:9:1::1")).toBe("2001:db8:9:9::/64");
  });

  it("refuses a TRUST_PROXY that is not a number of hops", async () => {
    const { parseEnv } = await import("~/env.server");
    expect(parseEnv({ TRUST_PROXY: "3", SESSION_SECRET: "x".repeat(32) }).TRUST_PROXY).toBe(3);
    expect(parseEnv({ TRUST_PROXY: "false", SESSION_SECRET: "x".repeat(32) }).TRUST_PROXY).toBe(0);
    expect(() => parseEnv({ TRUST_PROXY: "10.0.0.1", SESSION_SECRET: "x".repeat(32) })).toThrow(/TRUST_PROXY/);
  });
});

describe("the request context", () => {
  /** A server that opens each request's context as the front door does and reports what a loader would see. */
  async function withServer(run: (base: string, seen: Array<{ key: string; address?: string; same: boolean }>) => Promise<void>) {
    const seen: Array<{ key: string; address?: string; same: boolean }> = [];
    const server = http.createServer((req, res) => {
      enterRequest(req, res);
      // the Fetch Request remix-serve makes copies the request's headers
      const request = new Request(`http://localhost${req.url}`, { headers: req.headers as Record<string, string> });
      const context = requestContext(request);
      seen.push({ key: request.headers.get(CONTEXT_HEADER)!, address: context?.address, same: context === frontDoorContext(req) });
      if (req.url === "/hang") return; // answered never: the client gives up
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  it("is found from the request's own header, whatever a client wrote under that name", async () => {
    await withServer(async (base, seen) => {
      await fetch(`${base}/one`);
      await fetch(`${base}/two`, { headers: { [CONTEXT_HEADER]: seen[0]!.key } });
      await fetch(`${base}/three`, { headers: { [CONTEXT_HEADER]: "1" } });
      expect(seen).toHaveLength(3);
      expect(new Set(seen.map((s) => s.key)).size).toBe(3);
      expect(seen.every((s) => s.same && s.address === "127.0.0.1")).toBe(true);
      expect(seen[2]!.key).not.toBe("1");
    });
  });

  it("is forgotten when its response closes, answered or abandoned", async () => {
    const before = openContexts();
    await withServer(async (base, seen) => {
      for (let i = 0; i < 5; i++) await (await fetch(`${base}/page`)).text();
      const abandoned = new AbortController();
      const hanging = fetch(`${base}/hang`, { signal: abandoned.signal }).catch(() => "aborted");
      await expect.poll(() => seen.length).toBe(6);
      expect(openContexts()).toBe(before + 1);
      abandoned.abort();
      expect(await hanging).toBe("aborted");
      await expect.poll(() => openContexts()).toBe(before);
    });
    // a request made in-process has none, and a forged header names none
    expect(requestContext(new Request("http://localhost/"))).toBeUndefined();
    expect(requestContext(new Request("http://localhost/", { headers: { [CONTEXT_HEADER]: "1" } }))).toBeUndefined();
  });

  it("lasts as long as an in-process caller's work, thrown or returned", async () => {
    const before = openContexts();
    const address = await withRequestContext(new Request("http://localhost/"), { address: "192.0.2.1" }, async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(openContexts()).toBe(before + 1);
      return requestContext(request)?.address;
    });
    expect(address).toBe("192.0.2.1");
    expect(() =>
      withRequestContext(new Request("http://localhost/"), { address: "192.0.2.1" }, () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    await expect(withRequestContext(new Request("http://localhost/"), { address: "192.0.2.1" }, async () => Promise.reject(new Error("late")))).rejects.toThrow(
      "late",
    );
    expect(openContexts()).toBe(before);
  });
});
