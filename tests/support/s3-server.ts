import fs from "node:fs";
import os from "node:os";
import path from "node:path";
// @ts-expect-error s3rver ships no types
import S3rver from "s3rver";
import { s3FileStore, type FileStore } from "../../app/files/store.server";

/** The ports the suite may give its S3 servers (each test file that needs one takes the first free). */
const PORTS = [4780, 4781, 4782, 4783, 4784, 4785, 4786, 4787, 4788, 4789];

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
  for (const port of PORTS) {
    const server = new S3rver({ port, address: "127.0.0.1", directory, silent: true, configureBuckets: [{ name: bucket }] });
    try {
      await server.run();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") continue;
      throw error;
    }
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
  throw new Error(`No free port for the test S3 server in ${PORTS[0]}-${PORTS.at(-1)}`);
}
