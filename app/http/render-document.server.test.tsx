import { lazy, Suspense } from "react";
import { describe, expect, it, vi } from "vitest";
import { renderDocument } from "./render-document.server";

/** A page long enough to fill the renderer's buffers many times, with a multi-byte character in
 * every row at a shifting offset, so some row's dash falls across the end of a buffer. */
function longPage() {
  const rows = Array.from({ length: 600 }, (_, i) => `${"x".repeat(i % 17)}28 Dec – 30 Dec 2026 · Ōtautahi ${i}`);
  return (
    <html lang="en-AU">
      <head>
        <title>Classes</title>
      </head>
      <body>
        <ul>
          {rows.map((row, i) => (
            <li key={i}>{row}</li>
          ))}
        </ul>
      </body>
    </html>
  );
}

describe("renderDocument", () => {
  it("writes a long page with multi-byte characters as valid UTF-8 with no NUL and one doctype", async () => {
    const html = await renderDocument(longPage(), 5_000);
    const bytes = Buffer.from(html);
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes)).not.toThrow();
    expect(html.includes("\0")).toBe(false);
    expect(html.match(/<!DOCTYPE html>/gi)).toHaveLength(1);
    expect(html.startsWith("<!DOCTYPE html><html")).toBe(true);
    // every row arrives whole
    for (const i of [0, 299, 599]) expect(html).toContain(`28 Dec – 30 Dec 2026 · Ōtautahi ${i}<`);
  });

  it("rejects when the shell fails", async () => {
    function Broken(): never {
      throw new Error("shell");
    }
    await expect(renderDocument(<Broken />, 5_000)).rejects.toThrow("shell");
  });

  it("cuts off a render still waiting at its deadline, its fallback sent", async () => {
    // React reports the cut-off boundary
    const reported = vi.spyOn(console, "error").mockImplementation(() => {});
    const Waiting = lazy(() => new Promise<{ default: () => JSX.Element }>(() => {}));
    const started = Date.now();
    const html = await renderDocument(
      <html lang="en-AU">
        <body>
          <Suspense fallback={<p>Loading</p>}>
            <Waiting />
          </Suspense>
        </body>
      </html>,
      100,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(html).toContain("Loading");
    reported.mockRestore();
  });

  it("leaves no deadline running once a page is done", async () => {
    // a deadline firing after the page was read makes React close its stream a second time,
    // which it reports as an error
    const reported = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await renderDocument(<p>quick</p>, 50);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(reported).not.toHaveBeenCalled();
    } finally {
      reported.mockRestore();
    }
  });
});
