/**
 * How the crash tests judge a message that arrived more than once at the mail sink.
 *
 * The one duplicate the outbox allows: a worker sent the whole message, the mail server accepted
 * it, and the worker died before recording it as sent; its claim lapses and another worker sends
 * it again, with the same Message-ID. Every worker dies at each kill, so a second copy is that
 * duplicate exactly when a kill falls between the moment the first copy's sender began its DATA
 * (the sink's reply to DATA comes after `dataAt`, and no body leaves a worker before that reply)
 * and the moment the next copy's sender began its own.
 *
 * The moment the sink accepted the first copy (`at`) is no bound: a sink that takes a while to
 * accept (as the crash tests' does) may accept a message whose sender was killed just after its
 * last byte left, so the acceptance comes after the kill. Judging by `at` counted that as a
 * message sent twice by live workers.
 */
export interface ArrivedCopy {
  /** the Message-ID the copy carried */
  messageId: string | undefined;
  /** when its sender's DATA began (the sink's clock) */
  dataAt: number;
  /** when the sink accepted it */
  at: number;
}

export type CopiesVerdict = "once" | "crash-window" | "doubled";

export function judgeCopies(copies: ArrivedCopy[], kills: number[]): CopiesVerdict {
  if (copies.length <= 1) return "once";
  // two Message-IDs are two messages for one cause: the outbox queued it twice
  if (new Set(copies.map((c) => c.messageId)).size !== 1) return "doubled";
  const sorted = [...copies].sort((a, b) => a.dataAt - b.dataAt);
  const eachAcrossAKill = sorted.slice(1).every((next, i) => kills.some((k) => k > sorted[i]!.dataAt && k < next.dataAt));
  return eachAcrossAKill ? "crash-window" : "doubled";
}
