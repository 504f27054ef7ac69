/**
 * Run by app/files/intake.server.test.ts as `node --expose-gc --import tsx THIS SETTINGS_JSON`:
 * uploads files through the same path as the routes (readUpload, storeSpooled) and prints the
 * peak growth of memory held while each went in. Garbage is collected at every sample, so
 * what is counted is memory still held, not chunks already dropped and waiting for the collector
 * (Node collects Buffers' memory only after tens of megabytes of them).
 */
import fs from "node:fs";
import { FileRefused, storeSpooled } from "../../app/files/intake.server";
import { fileStoreFrom, s3FileStore, type FileStore } from "../../app/files/store.server";
import { readUpload } from "../../app/files/upload.server";
import { multipartRequest } from "./evidence-files";

interface Settings {
  store: { file: string } | { bucket: string; endpoint: string };
  warmUp: string;
  files: { path: string; name: string }[];
}

const settings = JSON.parse(process.argv[2]!) as Settings;
const store: FileStore =
  "file" in settings.store
    ? fileStoreFrom(`file:${settings.store.file}`)
    : s3FileStore({
        bucket: settings.store.bucket,
        prefix: "files",
        endpoint: settings.store.endpoint,
        region: "us-east-1",
        credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
      });
const gc = (globalThis as { gc?: () => void }).gc!;

function held(): number {
  const status = fs.readFileSync("/proc/self/status", "utf8");
  return Number(/RssAnon:\s+(\d+)/.exec(status)![1]) * 1024;
}

async function upload(file: { path: string; name: string }): Promise<string> {
  const read = await readUpload(multipartRequest("http://localhost/upload", {}, [{ field: "files", ...file }]));
  try {
    return (await storeSpooled(store, read.files[0]!, read.dir)).mediaType;
  } catch (error) {
    if (error instanceof FileRefused) return error.message;
    throw error;
  } finally {
    read.dispose();
  }
}

await upload({ path: settings.warmUp, name: "warm.jpg" });
const results = [];
for (const file of settings.files) {
  gc();
  const base = held();
  let peak = 0;
  const timer = setInterval(() => {
    gc();
    peak = Math.max(peak, held() - base);
  }, 10);
  const outcome = await upload(file);
  clearInterval(timer);
  gc();
  peak = Math.max(peak, held() - base);
  results.push({ name: file.name, size: fs.statSync(file.path).size, outcome, peak });
}
console.log(JSON.stringify(results));
