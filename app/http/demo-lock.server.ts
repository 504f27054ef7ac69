import cluster from "node:cluster";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { DB } from "#db/connection";
import { accountsWithDemoPassword, demoListenRefusal, summariseDemoAccounts, type DemoAccounts } from "~/demo/accounts.server";
import { demoMode, isLoopbackHost, setDemoAccounts } from "~/env.server";
import { logLine } from "~/utils/log.server";
import { applySecurityHeaders } from "./headers.server";

/**
 * Fail closed: the demo password is printed in the README, so while any account still has it
 * the portal serves this machine alone, whatever NODE_ENV or APP_URL say. At start the server
 * looks for such accounts; if there are any it listens on loopback (a HOST naming another
 * interface stops it), and each request must come from a loopback socket and be addressed to a
 * loopback host name. The Host header and the socket decide, never X-Forwarded-For: a proxy in
 * front would make every request look local.
 *
 * The check runs once per process, before remix-serve listens (npm start's prepare step has
 * just made it and passes its finding in DEMO_ACCOUNTS); changing the demo passwords takes a
 * restart to open the portal up.
 */
export async function lockDemoToLoopback(db: DB): Promise<void> {
  const accounts = reportedDemoAccounts() ?? summariseDemoAccounts(await accountsWithDemoPassword(db));
  setDemoAccounts(accounts.sample);
  if (!accounts.count) return;
  const refusal = demoListenRefusal(accounts, process.env.HOST, isLoopbackHost);
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

