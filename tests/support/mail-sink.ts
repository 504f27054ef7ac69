import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * A local SMTP server for tests and scripts: it accepts every message and counts it by the
 * outbox key the portal puts on each (the X-Portal-Mail-Key header), so a test can say how many
 * times each message arrived. `refuse(n)` makes the next n messages fail (a 451 after DATA, as
 * a server out of resources answers); `delayMs` holds each acceptance back, widening the window
 * in which a worker can be killed mid-send; `held()` resolves when the next message has arrived
 * whole and waits for that acceptance (a test kills its sender then).
 */
export interface MailSink {
  port: number;
  url: string;
  /**
   * each accepted message's key, in order of arrival: when its sender began the DATA (`dataAt`;
   * no byte of the body leaves the sender before the sink answers that) and when the sink
   * accepted it (`at`), and its Message-ID
   */
  received: { key: string; to: string; dataAt: number; at: number; messageId: string | undefined; raw: string }[];
  held(): Promise<void>;
  countsByKey(): Map<string, number>;
  refuse(n: number): void;
  close(): Promise<void>;
}

export async function startMailSink(options: { delayMs?: number } = {}): Promise<MailSink> {
  const received: MailSink["received"] = [];
  let refusals = 0;
  const waiting: Array<() => void> = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    size: 1024 * 1024,
    onData(stream, session, callback) {
      // called before the sink answers DATA: the sender is alive at this moment
      const dataAt = Date.now();
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        for (const wake of waiting.splice(0)) wake();
        const finish = () => {
          if (refusals > 0) {
            refusals -= 1;
            const error = new Error("Requested action aborted: local error in processing") as Error & { responseCode: number };
            error.responseCode = 451;
            return callback(error);
          }
          // headers unfolded first: a long one continues on the next line, indented
          const head = raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, " ");
          const key = /^X-Portal-Mail-Key:\s*(.+)$/im.exec(head)?.[1]?.trim() ?? "";
          const messageId = /^Message-ID:\s*(\S+)/im.exec(head)?.[1];
          received.push({ key, to: session.envelope.rcptTo.map((r) => r.address).join(","), dataAt, at: Date.now(), messageId, raw });
          callback();
        };
        if (options.delayMs) setTimeout(finish, options.delayMs);
        else finish();
      });
    },
  });
  // a client killed mid-conversation resets its connection: that is the test, not a failure
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server as unknown as { server: { address(): AddressInfo } }).server.address().port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    countsByKey() {
      const counts = new Map<string, number>();
      for (const r of received) counts.set(r.key, (counts.get(r.key) ?? 0) + 1);
      return counts;
    },
    held: () => new Promise<void>((resolve) => waiting.push(resolve)),
    refuse(n) {
      refusals += n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
