import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/**
 * A webhook receiver on this machine, as another system would run one: it checks every
 * delivery's signature with the standardwebhooks package (a verifier the portal did not write)
 * against each secret it is given, answers 503 while told to fail, and acts on each
 * `webhook-id` once, as a receiver that dedupes does. The browser journey (tests/e2e/webhooks.spec.ts)
 * and the crash loop (scripts/crash-test.ts) listen with it.
 */
export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** the answer it gave */
  status: number;
  /** when the request began to arrive (its sender was alive then), and when its body was whole */
  startedAt: number;
  at: number;
  /** the secrets (by position in `secrets` when it arrived) whose signature verified */
  verifiedBy: number[];
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** the secrets each delivery is checked against; every one must verify it */
  secrets: string[];
  /** answer 503 to this many deliveries, then 200 (Infinity: fail until told otherwise) */
  failNext: number;
  /** ids answered 200, with how many times: a receiver that dedupes acts on each key once */
  actedOn: Map<string, number>;
  /** deliveries a secret did not verify, as lines */
  problems: string[];
  /** the first delivery that matches, waiting up to `timeoutMs` */
  waitFor(match: (r: ReceivedWebhook) => boolean, timeoutMs?: number): Promise<ReceivedWebhook>;
  stop(): Promise<void>;
}

/** `delayMs`: how long it takes to answer each delivery (the crash loop widens the window in which a sender dies). */
export async function startWebhookReceiver(options: { port?: number; path?: string; delayMs?: number } = {}): Promise<WebhookReceiver> {
  const path = options.path ?? "/hooks";
  const receiver: WebhookReceiver = {
    url: "",
    received: [],
    secrets: [],
    failNext: 0,
    actedOn: new Map(),
    problems: [],
    async waitFor(match, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = receiver.received.find(match);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no matching webhook within ${timeoutMs} ms (${receiver.received.length} received)`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const startedAt = Date.now();
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const headers = {
        "webhook-id": String(req.headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
      };
      const verifiedBy: number[] = [];
      receiver.secrets.forEach((secret, i) => {
        try {
          new Webhook(secret).verify(body, headers);
          verifiedBy.push(i);
        } catch (error) {
          receiver.problems.push(`${headers["webhook-id"]}: secret ${i} does not verify it (${String(error)})`);
        }
      });
      const failing = req.url !== path || receiver.failNext > 0;
      if (receiver.failNext > 0) receiver.failNext -= 1;
      const status = failing ? 503 : 200;
      receiver.received.push({
        id: headers["webhook-id"],
        timestamp: headers["webhook-timestamp"],
        signature: headers["webhook-signature"],
        body,
        status,
        verifiedBy,
        startedAt,
        at: Date.now(),
      });
      if (status === 200) receiver.actedOn.set(headers["webhook-id"], (receiver.actedOn.get(headers["webhook-id"]) ?? 0) + 1);
      const answer = () => res.writeHead(status, { "content-type": "text/plain" }).end(failing ? "busy, try later" : "ok thanks");
      if (options.delayMs) setTimeout(answer, options.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}
