import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestS3, type TestS3 } from "../../tests/support/s3-server";
import { sha256OfFile } from "./intake.server";
import { fileStoreFrom, localFileStore, type FileStore } from "./store.server";

let s3: TestS3;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "store-test-"));

beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function readAll(store: FileStore, hash: string): Promise<Buffer | null> {
  const stream = await store.open(hash);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

const stores: [string, () => FileStore][] = [
  ["file", () => localFileStore(path.join(dir, "files"))],
  ["s3", () => s3.store],
];

describe.each(stores)("the %s store", (_kind, make) => {
  it("stores bytes once under their SHA-256, gives them back as a stream and removes them", async () => {
    const store = make();
    const source = path.join(dir, "a.bin");
    // larger than one S3 part (5 MB), so the multipart path runs
    const bytes = Buffer.alloc(6 * 1024 * 1024 + 17, 7);
    bytes.write("evidence", 0);
    fs.writeFileSync(source, bytes);
    const hash = await sha256OfFile(source);
    expect(await store.has(hash)).toBe(false);
    expect(await store.put(hash, source)).toBe(true);
    expect(await store.put(hash, source)).toBe(false);
    expect(await store.has(hash)).toBe(true);
    expect((await readAll(store, hash))!.equals(bytes)).toBe(true);
    await store.remove(hash);
    expect(await store.has(hash)).toBe(false);
    expect(await readAll(store, hash)).toBeNull();
  });

  it("refuses a key that is not a hash (no path from outside reaches the store)", async () => {
    await expect(make().has("../../etc/passwd")).rejects.toThrow(/SHA-256/);
  });
});

describe("FILE_STORE", () => {
  it("names a directory or a bucket and prefix", () => {
    expect(fileStoreFrom("file:./data/files").location).toBe(`file:${path.resolve("data/files")}`);
    expect(fileStoreFrom("s3://bucket/some/prefix", { region: "ap-southeast-2" }).location).toBe("s3://bucket/some/prefix");
  });
});
