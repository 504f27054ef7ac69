import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
// @ts-expect-error s3rver ships no types
import S3rver from "s3rver";
import { s3FileStore, type FileStore } from "../../app/files/store.server";

/**
 * A port no one listens on, from the system: test files run side by side, and s3rver waits for
 * ever rather than failing when two start on one port.
 */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface TestS3 {
  endpoint: string;
  bucket: string;
  store: FileStore;
  /** the directory s3rver keeps objects in: tests look there to see what is stored */
  directory: string;
  close(): Promise<void>;
}

/**
 * A local S3-compatible server (s3rver, pure JavaScript) with one bucket, for the S3 file store's
 * tests: nothing outside the suite is needed. The credentials are s3rver's fixed test pair.
 */
export async function startTestS3(bucket = "evidence"): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "s3rver-"));
  const port = await freePort();
  const server = new S3rver({ port, address: "127.0.0.1", directory, silent: true, configureBuckets: [{ name: bucket }] });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const store = s3FileStore({ bucket, prefix: "files", endpoint, region: "us-east-1", credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
  return {
    endpoint,
    bucket,
    store,
    directory,
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
