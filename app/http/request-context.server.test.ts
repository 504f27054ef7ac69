import { afterEach, describe, expect, it } from "vitest";
import { clientAddress, clientKey, forwardedAddress, runWithRequestContext } from "./request-context.server";

const saved = process.env.TRUST_PROXY;
afterEach(() => {
  if (saved === undefined) delete process.env.TRUST_PROXY;
  else process.env.TRUST_PROXY = saved;
});

const asked = (socket: string, xff?: string) =>
  runWithRequestContext({ address: socket }, () =>
    clientAddress(new Request("http://localhost/login", { headers: xff ? { "X-Forwarded-For": xff } : {} })),
  );

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
