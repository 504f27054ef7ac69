import type { ReactElement } from "react";
// The web-streams build of React's renderer, not the Node one that "react-dom/server" resolves to
// on the server: React 18's Node build copies text into a fixed buffer and, when a multi-byte
// character does not fit at the buffer's end, sends the whole buffer, unused zero bytes included,
// so a page read "28 Dec \0\0– 30 Dec". The web-streams build encodes each string whole before it
// splits bytes between buffers, so what it sends concatenates to the UTF-8 of the page.
// render-document.server.test.tsx reproduces the fault on the Node build.
import { renderToReadableStream } from "react-dom/server.browser";

/**
 * Renders the whole document, to be compressed once (compression.server.ts says why documents
 * are not streamed). Remix sends a page's loader data as a stream of inline scripts that React
 * renders inside a Suspense boundary, so a one-pass renderToString would leave them out: the
 * streaming renderer runs, and its output is collected when everything is ready. A shell that
 * fails rejects, and Remix answers with the route's error boundary. `timeoutMs` cuts off a render
 * still waiting on data. React writes the doctype itself when the root element is <html>.
 */
export async function renderDocument(element: ReactElement, timeoutMs: number): Promise<string> {
  // An abort of its own, cancelled once the page is read: React closes its stream when the
  // signal fires, and a signal firing after the stream has closed throws in a timer, outside any
  // request (AbortSignal.timeout cannot be cancelled).
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error(`the page was not ready within ${timeoutMs} ms`)), timeoutMs);
  try {
    const stream = await renderToReadableStream(element, { signal: deadline.signal });
    await stream.allReady;
    return await new Response(stream).text();
  } finally {
    clearTimeout(timer);
  }
}
