import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sweepUploadLeftovers } from "./intake.server";
import { BadUpload, readUpload } from "./upload.server";

/**
 * A multipart body that breaks: readUpload must answer BadUpload (the routes' 400) and leave
 * nothing in the temporary folder, and nothing may be thrown later where no one catches it
 * (vitest fails the run on an unhandled rejection or error). Over HTTP against the running
 * server, every upload route: scripts/upload-torture.ts.
 */

const BOUNDARY = "----uploadtest";
const part = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="description"\r\n\r\nWhite Card\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="card.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n${"x".repeat(200_000)}`;

/** A request whose body yields `chunks`, then ends, or errors with `fail` (a client gone). */
function request(chunks: string[], { fail, contentType = `multipart/form-data; boundary=${BOUNDARY}` }: { fail?: Error; contentType?: string } = {}): Request {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((r) => setTimeout(r, 5));
      if (i < chunks.length) controller.enqueue(new TextEncoder().encode(chunks[i++]));
      else if (fail) controller.error(fail);
      else controller.close();
    },
  });
  return new Request("http://localhost/admin/students/x", { method: "POST", body, headers: { "Content-Type": contentType }, duplex: "half" } as RequestInit);
}

let tmp: string;
let before: string | undefined;
beforeEach(() => {
  before = process.env.TMPDIR;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "upload-test-"));
  process.env.TMPDIR = tmp;
});
afterEach(() => {
  if (before === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = before;
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Lets any stray stream event or write run before the folder is looked at. */
const settle = () => new Promise((r) => setTimeout(r, 100));

describe("a broken multipart body", () => {
  it("without its closing boundary is a BadUpload, and its partial file is removed", async () => {
    await expect(readUpload(request([part.slice(0, 100_000), part.slice(100_000)]))).rejects.toBeInstanceOf(BadUpload);
    await settle();
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it("whose client goes away mid-file is a BadUpload, and its partial file is removed", async () => {
    await expect(readUpload(request([part.slice(0, 100_000)], { fail: new Error("aborted") }))).rejects.toBeInstanceOf(BadUpload);
    await settle();
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it("with no boundary in its Content-Type is a BadUpload (not an error of ours)", async () => {
    await expect(readUpload(request([part, `\r\n--${BOUNDARY}--\r\n`], { contentType: "multipart/form-data" }))).rejects.toBeInstanceOf(BadUpload);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it("past the file limit, cut short in a dropped part, is a BadUpload too", async () => {
    const files = Array.from(
      { length: 13 },
      (_, i) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="p${i}.pdf"\r\n\r\n%PDF-1.4 ${"y".repeat(1000)}\r\n`,
    ).join("");
    await expect(
      readUpload(request([files, `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="p13.pdf"\r\n\r\nhalf`])),
    ).rejects.toBeInstanceOf(BadUpload);
    await settle();
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it("a whole one is read, and disposing of it empties the folder", async () => {
    const read = await readUpload(request([part, `\r\n--${BOUNDARY}--\r\n`]));
    expect(read.form.get("description")).toBe("White Card");
    expect(read.files).toHaveLength(1);
    expect(fs.statSync(read.files[0]!.path).size).toBeGreaterThan(200_000);
    read.dispose();
    expect(fs.readdirSync(tmp)).toEqual([]);
  });
});

describe("leftovers at start", () => {
  it("are the upload directories of processes that are gone; a live process's stay", () => {
    const dead = path.join(tmp, "portal-upload-999999999-abc123");
    const old = path.join(tmp, "portal-upload-Xy12Zq");
    const live = path.join(tmp, `portal-upload-${process.pid}-def456`);
    const other = path.join(tmp, "someone-elses");
    for (const dir of [dead, old, live, other]) {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, "partial"), "half a photo");
    }
    expect(sweepUploadLeftovers()).toBe(2);
    expect(fs.readdirSync(tmp).sort()).toEqual([path.basename(live), "someone-elses"].sort());
  });
});
