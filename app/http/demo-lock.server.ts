import cluster from "node:cluster";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sql } from "kysely";
import type { DB } from "#db/connection";
import { MAX_CONCURRENT_HASHES, verifyPassword } from "~/security/password.server";
import { DEMO_PASSWORD } from "~/demo/data";
import { isLoopbackHost } from "~/env.server";
import { logLine } from "~/utils/log.server";
import { applySecurityHeaders } from "./headers.server";

/**
 * The demo lock, whole: the demo password is printed in the README, so the accounts that still
 * have it are anyone's. While any account has it:
 *
 * - a public deployment (APP_URL naming a host other than this machine) refuses to start
 *   (`npm start`'s prepare step: demoLockAtStart);
 * - the server listens on loopback only, a HOST naming another interface stops it
 *   (listenRefusal, at prepare and again in each server: lockDemoToLoopback);
 * - each request must come from a loopback socket and be addressed to a loopback host name
 *   (refuseOffLoopback, the front door's first step);
 * - the portal runs the demo organisation (demoMode): two-step sign-in is offered to
 *   administrators, never required, so the printed logins work.
 *
 * "This machine" is env.server's isLoopbackHost everywhere, the one loopback rule. Fail closed:
 * NODE_ENV and X-Forwarded-For change nothing (a proxy in front would make every request look
 * local). The accounts are looked for once per process at start; changing the demo passwords
 * takes a restart to open the portal up.
 */

/**
 * The accounts that still sign in with the demo password, as a message needs them (see
 * DemoAccounts). Checking every account would take a strong hash each, so this checks the ones
 * that can carry it: the demo organisation's (example.com is reserved, no real person has it),
 * every trainer and administrator, and any hash that several accounts share (the large demo
 * seed gives everyone one hash). The database groups them by hash, each hash is checked once,
 * and the count and the first emails come from the database: a national demo set has 500,000
 * accounts on one hash, which no worker should hold in memory at start.
 */
export async function accountsWithDemoPassword(db: DB): Promise<DemoAccounts> {
  const candidates = () =>
    db
      .selectFrom("users")
      .where((eb) =>
        eb.or([
          eb("email", "like", "%@example.com"),
          eb("role", "in", ["admin", "trainer"]),
          eb("password_hash", "in", sql<string>`(select password_hash from users group by password_hash having count(*) > 1)`),
        ]),
      );
  const groups = await candidates()
    .select((eb) => ["password_hash", eb.fn.countAll<number | string>().as("n")])
    .groupBy("password_hash")
    .execute();
  const matching: string[] = [];
  let count = 0;
  for (let i = 0; i < groups.length; i += MAX_CONCURRENT_HASHES) {
    const batch = groups.slice(i, i + MAX_CONCURRENT_HASHES);
    const matches = await Promise.all(batch.map((g) => verifyPassword(DEMO_PASSWORD, g.password_hash)));
    batch.forEach((g, j) => {
      if (!matches[j]) return;
      matching.push(g.password_hash);
      count += Number(g.n);
    });
  }
  if (!matching.length) return { count: 0, sample: [] };
  const sample = await candidates().select("email").where("password_hash", "in", matching).orderBy("email").limit(DEMO_SAMPLE).execute();
  return { count, sample: sample.map((r) => r.email) };
}

/**
 * Who still has the demo password, as a message needs it: how many, and the first 20 emails (a
 * large demo database has tens of thousands, more than an environment variable may carry).
 */
export interface DemoAccounts {
  count: number;
  sample: string[];
}

/** How many emails a summary names. */
const DEMO_SAMPLE = 20;

export const summariseDemoAccounts = (emails: readonly string[]): DemoAccounts => ({ count: emails.length, sample: emails.slice(0, DEMO_SAMPLE) });

/** The accounts a refusal to start names: the first 20, and how many more. */
export function namedAccounts(accounts: DemoAccounts): string[] {
  const more = accounts.count - accounts.sample.length;
  return [...accounts.sample.map((email) => `  ${email}`), ...(more > 0 ? [`  … and ${more} more`] : [])];
}

/**
 * A deployment is public when APP_URL names a host other than this machine (127.0.0.2 is this
 * machine here as everywhere). A public deployment never gets demo data, and refuses to start
 * while any account has the demo password.
 */
export function isPublicDeployment(settings: { APP_URL?: string }): boolean {
  return settings.APP_URL !== undefined && !isLoopbackHost(new URL(settings.APP_URL).hostname);
}

/** Why a server holding demo accounts will not listen on `host`, or null when it may. */
export function listenRefusal(accounts: DemoAccounts, host: string | undefined): string | null {
  if (!accounts.count || !host || isLoopbackHost(host.replace(/^\[(.*)\]$/, "$1"))) return null;
  return [
    `Refusing to listen on ${host}: ${accounts.count} account(s) still have the demo password, so this portal answers this machine only:`,
    ...namedAccounts(accounts),
    "Unset HOST (or set it to 127.0.0.1) to run the demo, or change these passwords first (a real deployment starts from an empty database: npm run admin:create).",
  ].join("\n");
}

/**
 * The check `npm start`'s prepare step makes once the database is migrated (and seeded): the
 * demo accounts found, which it hands to the server it starts; throws the message to print when
 * the portal must not start (a public deployment with demo accounts, or demo accounts and a
 * HOST that is not loopback).
 */
export async function demoLockAtStart(db: DB, settings: { APP_URL?: string; HOST?: string }): Promise<DemoAccounts> {
  const accounts = await accountsWithDemoPassword(db);
  if (isPublicDeployment(settings)) {
    if (!accounts.count) return accounts;
    throw new Error(
      [
        `Refusing to start: this is a public deployment (APP_URL=${settings.APP_URL}) and ${accounts.count} account(s) still have the demo password:`,
        ...namedAccounts(accounts),
        "Start from an empty database (npm run admin:create makes the first administrator), or change these passwords first.",
      ].join("\n"),
    );
  }
  const refusal = listenRefusal(accounts, settings.HOST);
  if (refusal) throw new Error(refusal);
  return accounts;
}

let demoAccounts: readonly string[] = [];

/** The accounts that still had the demo password when this server started (lockDemoToLoopback). */
export function setDemoAccounts(accounts: readonly string[]): void {
  demoAccounts = [...accounts];
}

/** Whether the portal runs the demo organisation (some account has the demo password). */
export function demoMode(): boolean {
  return demoAccounts.length > 0;
}

/**
 * The server's start, before remix-serve listens: finds the demo accounts (npm start's prepare
 * step has just done so and passes its finding in DEMO_ACCOUNTS), and while there are any holds
 * the server to loopback.
 */
export async function lockDemoToLoopback(db: DB): Promise<void> {
  const accounts = reportedDemoAccounts() ?? (await accountsWithDemoPassword(db));
  setDemoAccounts(accounts.sample);
  if (!accounts.count) return;
  const refusal = listenRefusal(accounts, process.env.HOST);
  if (refusal) {
    console.error(refusal);
    process.exit(1);
  }
  process.env.HOST = process.env.HOST || "127.0.0.1";
  if (!cluster.isWorker || cluster.worker?.id === 1) {
    console.log(
      `Demo accounts present (${accounts.count}, e.g. ${accounts.sample[0]}): listening on ${process.env.HOST} only, answering requests addressed to localhost; change their passwords and restart to serve other hosts.`,
    );
  }
}

/** What npm start's prepare step found, or null when the server was started otherwise. */
function reportedDemoAccounts(): DemoAccounts | null {
  try {
    const found = JSON.parse(process.env.DEMO_ACCOUNTS ?? "") as Partial<DemoAccounts> | null;
    const valid = Number.isInteger(found?.count) && Array.isArray(found?.sample) && found.sample.every((e) => typeof e === "string");
    // a count with no name to show would hold nothing: it is not a finding
    return valid && (found!.count === 0 || found!.sample!.length > 0) ? (found as DemoAccounts) : null;
  } catch {
    return null;
  }
}

export const OFF_LOOPBACK = "This portal holds demo accounts and answers only on the machine it runs on (http://localhost).";

function hostName(host: string | undefined): string {
  if (!host) return "";
  const bracketed = /^\[([^\]]*)\]/.exec(host);
  return bracketed ? bracketed[1]! : host.replace(/:\d*$/, "");
}

/** The front-door step: while demo accounts exist, only loopback, addressed to loopback. */
export function refuseOffLoopback(req: IncomingMessage, res: ServerResponse): boolean {
  if (!demoMode()) return false;
  if (isLoopbackHost(req.socket.remoteAddress ?? "") && isLoopbackHost(hostName(req.headers.host))) return false;
  const api = (req.url ?? "").startsWith("/api/");
  logLine({ event: "refused", status: 421, reason: "demo-off-loopback", method: req.method });
  const headers = new Headers();
  applySecurityHeaders(headers);
  headers.set("Content-Type", api ? "application/json" : "text/plain; charset=utf-8");
  const body = api ? JSON.stringify({ detail: OFF_LOOPBACK }) : OFF_LOOPBACK;
  headers.set("Content-Length", String(Buffer.byteLength(body)));
  res.writeHead(421, Object.fromEntries(headers.entries()));
  res.end(body);
  req.resume();
  return true;
}
