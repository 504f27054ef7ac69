import http from "node:http";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { DISCARD_LIMIT_BYTES, isCrossSite, MAX_BODY_BYTES, refuseAtTheGate } from "./gate.server";

// Remix's own check of a write's Origin, which throws (an empty 500) on a mismatch
const { throwIfPotentialCSRFAttack } = createRequire(import.meta.url)("@remix-run/server-runtime/dist/actions.js") as {
  throwIfPotentialCSRFAttack: (headers: Headers) => void;
};

const headers = (h: Record<string, string>) => (name: string) => h[name.toLowerCase()];

describe("cross-site detection", () => {
  it("accepts same-origin writes and clients that send no browser headers", () => {
    expect(isCrossSite(headers({ host: "portal.example", origin: "https://portal.example" }))).toBe(false);
    expect(isCrossSite(headers({ host: "portal.example", "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(isCrossSite(headers({ host: "portal.example" }))).toBe(false);
    expect(isCrossSite(headers({ host: "portal.example", referer: "https://portal.example/admin/students" }))).toBe(false);
  });

  it("refuses another site by Origin or Sec-Fetch-Site, and the opaque null origin", () => {
    expect(isCrossSite(headers({ host: "portal.example", origin: "https://evil.example" }))).toBe(true);
    expect(isCrossSite(headers({ host: "portal.example", "sec-fetch-site": "cross-site" }))).toBe(true);
    expect(isCrossSite(headers({ host: "portal.example", "sec-fetch-site": "same-site" }))).toBe(true);
    expect(isCrossSite(headers({ host: "portal.example", origin: "null" }))).toBe(true);
    expect(isCrossSite(headers({ host: "portal.example", origin: "::garbage::" }))).toBe(true);
  });

  it("refuses another site named by the Referer alone: an older browser sends no Origin and no Sec-Fetch-Site", () => {
    expect(isCrossSite(headers({ host: "portal.example", referer: "http://evil.example/x" }))).toBe(true);
    expect(isCrossSite(headers({ host: "portal.example", referer: "not a url" }))).toBe(true);
    // an Origin, where there is one, is what counts
    expect(isCrossSite(headers({ host: "portal.example", origin: "https://portal.example", referer: "http://evil.example/x" }))).toBe(false);
  });

  it("honours a forwarded host only behind a proxy it was told of (TRUST_PROXY)", () => {
    const forged = headers({ host: "portal.example", "x-forwarded-host": "evil.example", origin: "https://evil.example" });
    const saved = process.env.TRUST_PROXY;
    try {
      delete process.env.TRUST_PROXY;
      expect(isCrossSite(forged)).toBe(true);
      process.env.TRUST_PROXY = "1";
      expect(isCrossSite(headers({ host: "10.0.0.5:3000", "x-forwarded-host": "portal.example", origin: "https://portal.example" }))).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.TRUST_PROXY;
      else process.env.TRUST_PROXY = saved;
    }
  });
});

describe("a forwarded host that is not the Origin", () => {
  const withTrustProxy = async (value: string | undefined, fn: () => Promise<void>) => {
    const saved = process.env.TRUST_PROXY;
    if (value === undefined) delete process.env.TRUST_PROXY;
    else process.env.TRUST_PROXY = value;
    try {
      await fn();
    } finally {
      if (saved === undefined) delete process.env.TRUST_PROXY;
      else process.env.TRUST_PROXY = saved;
    }
  };

  it("a form post with a forged X-Forwarded-Host and an Origin matching the Host gets 403 and a page that says why; an /api write gets JSON {detail}", async () => {
    for (const trust of ["1", undefined]) {
      await withTrustProxy(trust, async () => {
        const { port, close } = await gatedServer();
        const origin = `http://127.0.0.1:${port}`;
        try {
          const form = await fetch(`${origin}/login`, {
            method: "POST",
            headers: { Origin: origin, "X-Forwarded-Host": "evil.example", "Content-Type": "application/x-www-form-urlencoded" },
            body: "email=a%40b.example&password=x",
          });
          expect(form.status).toBe(403);
          expect(form.headers.get("content-type")).toMatch(/^text\/html/);
          expect(await form.text()).toContain("Origin does not match the host it was sent to");
          const api = await fetch(`${origin}/api/auth/login`, {
            method: "POST",
            headers: { Origin: origin, "X-Forwarded-Host": "evil.example", "Content-Type": "application/json" },
            body: "{}",
          });
          expect(api.status).toBe(403);
          expect(await api.json()).toEqual({ detail: expect.stringContaining("Origin does not match the host it was sent to") });
          // the proxy's own forwarded host, matching the Origin, goes through
          const proxied = await fetch(`${origin}/login`, {
            method: "POST",
            headers: { Origin: "https://portal.example", "X-Forwarded-Host": "portal.example" },
            body: "x=1",
          });
          expect(proxied.status).toBe(trust ? 200 : 403);
        } finally {
          close();
        }
      });
    }
  });

  it("whatever write the gate lets through, Remix's own Origin check accepts (it would answer an empty 500)", async () => {
    const hosts = [undefined, "portal.example", "127.0.0.1:3000", "evil.example"];
    const origins = [undefined, "https://portal.example", "http://127.0.0.1:3000", "https://evil.example", "null"];
    for (const trust of ["1", "0"]) {
      await withTrustProxy(trust, async () => {
        for (const host of hosts) {
          for (const forwarded of [...hosts, "evil.example, portal.example"]) {
            for (const origin of origins) {
              const h: Record<string, string> = {};
              if (host) h.host = host;
              if (forwarded) h["x-forwarded-host"] = forwarded;
              if (origin) h.origin = origin;
              const { status } = await gateAnswer("POST", h);
              if (status === 0) expect(() => throwIfPotentialCSRFAttack(new Headers(h)), JSON.stringify({ trust, ...h })).not.toThrow();
            }
          }
        }
      });
    }
  });
});

/** What the gate answers a request with these headers (0: it lets it through), without a socket. */
async function gateAnswer(method: string, requestHeaders: Record<string, string>): Promise<{ status: number }> {
  let status = 0;
  const req = Object.assign(new (await import("node:stream")).PassThrough(), { url: "/login", method, headers: requestHeaders, socket: { destroy() {} } });
  const res = { writeHead: (s: number) => (status = s), end: () => {} };
  refuseAtTheGate(req as unknown as http.IncomingMessage, res as unknown as http.ServerResponse);
  return { status };
}

describe("the gate at the front door", () => {
  it("answers an /api URL that does not decode with JSON {detail}, and leaves other requests alone", async () => {
    const server = http.createServer((req, res) => {
      if (!refuseAtTheGate(req, res)) res.end("through");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as import("node:net").AddressInfo;
    try {
      const bad = await fetch(`http://127.0.0.1:${port}/api/courses/%E0%A4%A`);
      expect(bad.status).toBe(400);
      expect(bad.headers.get("content-type")).toBe("application/json");
      expect(await bad.json()).toEqual({ detail: expect.stringMatching(/not valid/) });
      expect(await (await fetch(`http://127.0.0.1:${port}/api/courses/%E0%A4%A4`)).text()).toBe("through");
    } finally {
      server.close();
    }
  });
});

/** A server with only the gate in front of "through", on a free port. */
async function gatedServer(): Promise<{ port: number; close: () => void }> {
  const server = http.createServer((req, res) => {
    if (!refuseAtTheGate(req, res)) req.resume().on("end", () => res.end("through"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() };
}

/** A raw connection that collects what the server sends and says when it closes. */
async function connect(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  let received = "";
  socket.on("data", (d) => (received += d.toString("latin1")));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const until = async (text: string, ms = 5_000) => {
    for (const start = Date.now(); !received.includes(text); await new Promise((r) => setTimeout(r, 10))) {
      if (Date.now() - start > ms) throw new Error(`waited for "${text}", got: ${received.slice(0, 300)}`);
    }
  };
  return { socket, closed, until, received: () => received };
}

describe("a declared body over 1 MB", () => {
  it("is answered 413 at once, and the rest of the body the client goes on sending is read, so the connection survives", async () => {
    const { port, close } = await gatedServer();
    try {
      const c = await connect(port);
      const size = 2 * MAX_BODY_BYTES;
      c.socket.write(`POST /api/enrollments HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`);
      c.socket.write(Buffer.alloc(64 * 1024, 0x61));
      await c.until("\r\n\r\n{");
      expect(c.received()).toMatch(/^HTTP\/1\.1 413 /);
      expect(c.received()).toContain('{"detail":"Request body is larger than 1 MB"}');
      // the client only now sends the rest, as a client that writes before it reads does
      await new Promise<void>((resolve, reject) => c.socket.write(Buffer.alloc(size - 64 * 1024, 0x61), (e) => (e ? reject(e) : resolve())));
      c.socket.write("GET /next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      await c.until("through");
      expect(c.received().match(/HTTP\/1\.1 200 /g)).toHaveLength(1);
    } finally {
      close();
    }
  });

  it("cuts the connection of a client that keeps sending past the discard limit", async () => {
    const { port, close } = await gatedServer();
    try {
      const c = await connect(port);
      const size = 4 * DISCARD_LIMIT_BYTES;
      c.socket.write(`POST /api/enrollments HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`);
      let sent = 0;
      const chunk = Buffer.alloc(256 * 1024, 0x61);
      const isClosed = await Promise.race([
        c.closed.then(() => true),
        (async () => {
          while (sent < size && !c.socket.destroyed) {
            sent += chunk.length;
            if (!c.socket.write(chunk)) await new Promise((r) => setTimeout(r, 1));
          }
          return false;
        })(),
      ]);
      await c.closed;
      expect(isClosed || sent < size).toBe(true);
      expect(sent).toBeLessThan(size);
      expect(c.received()).toMatch(/^HTTP\/1\.1 413 /);
    } finally {
      close();
    }
  });
});
