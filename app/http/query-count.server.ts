import type http from "node:http";
import { countQueries } from "#db/query-count";

/** The response header that carries a request's statement count (QUERY_COUNT=1 only). */
export const QUERY_COUNT_HEADER = "X-Query-Count";

/**
 * The N+1 guard at the front door (QUERY_COUNT=1 only, never in production): the whole request
 * runs inside a query tally, and its head carries how many statements had run when it was sent.
 * A document is rendered whole before its head goes, so that is every statement of the page; a
 * streamed CSV's head counts those before its first byte. A number only, no data.
 */
export function countRequestQueries(_req: http.IncomingMessage, res: http.ServerResponse, go: () => void): void {
  countQueries((tally) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
      if (!this.headersSent) this.setHeader(QUERY_COUNT_HEADER, String(tally.queries));
      return writeHead.apply(this, args);
    } as typeof writeHead;
    go();
  });
}
