import dns from "node:dns";
import net from "node:net";
import { env, isLoopbackHost } from "~/env.server";
import { DomainError } from "~/utils/errors";

/**
 * Where a webhook may go: the one rule, asked when an endpoint is registered and again before
 * each delivery, after its name is resolved (a name that pointed at a public address when it
 * was registered may point inward later). Redirects are never followed.
 *
 * - https to a public address.
 * - Loopback (http or https) only while developing (NODE_ENV other than production), and only
 *   when the URL names loopback itself (localhost, 127.0.0.1, [::1]): a name that *resolves*
 *   to loopback is refused, as it is the shape of a rebinding attack.
 * - Private, link-local (the cloud metadata address 169.254.169.254 among them), unique-local,
 *   shared (CGNAT), reserved and multicast addresses refused, unless WEBHOOKS_ALLOW_PRIVATE=true,
 *   which allows them and loopback, by name or by address (a test rig, an internal CRM).
 */

const BLOCKED = new net.BlockList();
for (const [address, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  BLOCKED.addSubnet(address, prefix, "ipv4");
for (const [address, prefix] of [
  // the unspecified and loopback addresses, and the old IPv4-compatible ones (::a.b.c.d)
  ["::", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  // 6to4 and Teredo carry an IPv4 address inside (2002:a9fe:a9fe:: is 169.254.169.254 by a relay)
  ["2001::", 32],
  ["2002::", 16],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  BLOCKED.addSubnet(address, prefix, "ipv6");

export interface AddressPolicy {
  allowPrivate: boolean;
  /** loopback named literally in the URL (development) */
  allowLoopbackByName: boolean;
}

export function webhookAddressPolicy(): AddressPolicy {
  const e = env();
  return { allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE === "true", allowLoopbackByName: e.NODE_ENV !== "production" };
}

/**
 * An IPv4 address mapped into IPv6 (::ffff:a.b.c.d, or ::ffff:a9fe:a9fe as a URL writes it), or
 * the address as given.
 */
function unmapped(address: string): string {
  const dotted = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return address;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** Whether an address (no name) is anything but a public unicast one. */
export function isNonPublicAddress(address: string): boolean {
  const a = unmapped(address);
  const family = net.isIP(a);
  if (family === 0) return true;
  return BLOCKED.check(a, family === 4 ? "ipv4" : "ipv6");
}

export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** The system resolver, every address of a name. */
export const systemLookup: Lookup = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

const refused = (message: string) => new DomainError(422, message, { url: message }, "url");

/** The URL parsed and checked before any name is resolved: scheme, credentials, loopback rule. */
export function checkWebhookUrl(raw: string, policy: AddressPolicy = webhookAddressPolicy()): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused("Enter a full URL, such as https://crm.example.com/hooks");
  }
  if (url.username || url.password) throw refused("The URL may not carry a user name or password");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const loopbackName = isLoopbackHost(host) || isLoopbackHost(url.hostname);
  const loopbackAllowed = loopbackName && (policy.allowLoopbackByName || policy.allowPrivate);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopbackAllowed)) {
    throw refused(loopbackName ? "Loopback endpoints are for development only; use https to a public address" : "The URL must start with https://");
  }
  if (loopbackName && !loopbackAllowed) throw refused("Loopback endpoints are for development only");
  if (!loopbackName && net.isIP(unmapped(host)) && isNonPublicAddress(host) && !policy.allowPrivate) {
    throw refused("That address is private, link-local or reserved; webhooks go to public addresses");
  }
  return url;
}

/**
 * The addresses a delivery may connect to: the URL checked, its name resolved, and every
 * address public (or allowed). One forbidden address refuses the whole name: the connection
 * must go to an address that was checked, never to whichever the resolver picks next.
 */
export async function resolveWebhookTarget(
  raw: string,
  options: { policy?: AddressPolicy; lookup?: Lookup } = {},
): Promise<{ url: URL; address: string; family: number }> {
  const policy = options.policy ?? webhookAddressPolicy();
  const url = checkWebhookUrl(raw, policy);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host)) return { url, address: host, family: net.isIP(host) };
  const loopbackName = isLoopbackHost(host);
  let addresses: { address: string; family: number }[];
  try {
    addresses = await (options.lookup ?? systemLookup)(host);
  } catch {
    throw refused(`The name ${host} could not be resolved`);
  }
  if (addresses.length === 0) throw refused(`The name ${host} could not be resolved`);
  for (const a of addresses) {
    const inward = isNonPublicAddress(a.address);
    // "localhost" resolving to loopback is the loopback the URL named; anything else inward is refused
    if (inward && !policy.allowPrivate && !(loopbackName && isLoopbackHost(unmapped(a.address)))) {
      throw refused(`${host} resolves to a private, loopback or link-local address; webhooks go to public addresses`);
    }
  }
  return { url, ...addresses[0]! };
}
