import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import crypto from "node:crypto";
import { env } from "~/env.server";

/**
 * Where uploaded files live, addressed by the SHA-256 of their bytes: a file is stored once
 * however often it is uploaded, and a name can never point at other bytes. Two stores behind one
 * interface, chosen by FILE_STORE:
 *
 * - `file:DIRECTORY` (default `file:./data/files`): this machine's disk, for a single server;
 *   `npm run db:backup` copies it beside the database.
 * - `s3://bucket/prefix`: any S3-compatible object store (AWS, MinIO, R2), for several servers;
 *   S3_ENDPOINT and S3_REGION say where, the AWS SDK's usual variables (AWS_ACCESS_KEY_ID,
 *   AWS_SECRET_ACCESS_KEY) carry the credentials.
 *
 * Bytes go in from a file on local disk (the upload's spooled copy) and come out as a stream:
 * neither side holds a whole file in memory.
 */
export interface FileStore {
  /** "file:…" or "s3://…", for messages and the backup script */
  readonly location: string;
  /** Stores the file at `source` under `hash` unless that hash is stored already; true when written. */
  put(hash: string, source: string): Promise<boolean>;
  has(hash: string): Promise<boolean>;
  /** The stored bytes, or null when the hash is not stored. */
  open(hash: string): Promise<Readable | null>;
  /** Removes the stored bytes (nothing when they are gone already). */
  remove(hash: string): Promise<void>;
}

const HASH = /^[0-9a-f]{64}$/;

function checkedHash(hash: string): string {
  if (!HASH.test(hash)) throw new Error("Not a SHA-256 hash");
  return hash;
}

/** Two levels of directories (or key prefixes) from the hash, so no directory grows to millions. */
function relativeKey(hash: string): string {
  const h = checkedHash(hash);
  return `${h.slice(0, 2)}/${h.slice(2, 4)}/${h}`;
}

export function localFileStore(directory: string): FileStore {
  const root = path.resolve(directory);
  const full = (hash: string) => path.join(root, relativeKey(hash));
  return {
    location: `file:${root}`,
    async put(hash, source) {
      const target = full(hash);
      if (fs.existsSync(target)) return false;
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      // written beside its place and renamed, so a reader never sees half a file
      const partial = `${target}.${crypto.randomBytes(6).toString("hex")}.partial`;
      await fs.promises.copyFile(source, partial);
      await fs.promises.rename(partial, target);
      return true;
    },
    async has(hash) {
      return fs.existsSync(full(hash));
    },
    async open(hash) {
      const target = full(hash);
      try {
        const handle = await fs.promises.open(target, "r");
        return handle.createReadStream();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async remove(hash) {
      await fs.promises.rm(full(hash), { force: true });
    },
  };
}

export interface S3Settings {
  bucket: string;
  prefix: string;
  endpoint?: string;
  region: string;
  /** only for tests: the SDK otherwise reads the environment's credentials */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/**
 * The S3 SDK, loaded when an S3 store is first used: a portal that keeps its files on disk never
 * loads it, and a worker starts without it (it was a sixth of what a worker's start loads).
 */
let sdk: Promise<[typeof import("@aws-sdk/client-s3"), typeof import("@aws-sdk/lib-storage")]> | undefined;
const loadSdk = () => (sdk ??= Promise.all([import("@aws-sdk/client-s3"), import("@aws-sdk/lib-storage")]));

export function s3FileStore(settings: S3Settings): FileStore {
  let connected: Promise<{
    client: import("@aws-sdk/client-s3").S3Client;
    s3: typeof import("@aws-sdk/client-s3");
    Upload: typeof import("@aws-sdk/lib-storage").Upload;
  }>;
  const connect = () =>
    (connected ??= loadSdk().then(([s3, storage]) => ({
      s3,
      Upload: storage.Upload,
      client: new s3.S3Client({
        region: settings.region,
        endpoint: settings.endpoint,
        // MinIO and most S3-compatible servers address buckets by path, not by host name
        forcePathStyle: settings.endpoint !== undefined,
        credentials: settings.credentials,
      }),
    })));
  const prefix = settings.prefix.replace(/^\/+|\/+$/g, "");
  const key = (hash: string) => (prefix ? `${prefix}/` : "") + relativeKey(hash);
  const Bucket = settings.bucket;
  const notFound = (error: unknown) => {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    return e.name === "NotFound" || e.name === "NoSuchKey" || e.$metadata?.httpStatusCode === 404;
  };
  const has = async (hash: string) => {
    const { client, s3 } = await connect();
    try {
      await client.send(new s3.HeadObjectCommand({ Bucket, Key: key(hash) }));
      return true;
    } catch (error) {
      if (notFound(error)) return false;
      throw error;
    }
  };
  return {
    location: `s3://${Bucket}/${prefix}`,
    has,
    async put(hash, source) {
      if (await has(hash)) return false;
      // lib-storage sends a large file in parts from the stream, a few parts in memory at a time
      const { client, Upload } = await connect();
      const upload = new Upload({
        client,
        params: { Bucket, Key: key(hash), Body: fs.createReadStream(source), ContentType: "application/octet-stream" },
        queueSize: 2,
        partSize: 5 * 1024 * 1024,
      });
      await upload.done();
      return true;
    },
    async open(hash) {
      const { client, s3 } = await connect();
      try {
        const out = await client.send(new s3.GetObjectCommand({ Bucket, Key: key(hash) }));
        return out.Body instanceof Readable ? out.Body : Readable.fromWeb(out.Body!.transformToWebStream() as never);
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    async remove(hash) {
      const { client, s3 } = await connect();
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: key(hash) }));
    },
  };
}

/** The store a FILE_STORE value names. */
export function fileStoreFrom(url: string, s3: { endpoint?: string; region: string } = { region: "us-east-1" }): FileStore {
  if (url.startsWith("file:")) return localFileStore(url.slice("file:".length));
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
  if (!match) throw new Error("FILE_STORE must be file:DIRECTORY or s3://bucket/prefix");
  return s3FileStore({ bucket: match[1]!, prefix: match[2] ?? "", endpoint: s3.endpoint, region: s3.region });
}

let current: { url: string; store: FileStore } | undefined;

/** This process's store, from FILE_STORE (made once per value). */
export function getFileStore(): FileStore {
  const e = env();
  if (current?.url !== e.FILE_STORE) current = { url: e.FILE_STORE, store: fileStoreFrom(e.FILE_STORE, { endpoint: e.S3_ENDPOINT, region: e.S3_REGION }) };
  return current.store;
}

/** Streams a stored file to a local path (the backup's copy, tests). */
export async function copyOut(store: FileStore, hash: string, target: string): Promise<void> {
  const stream = await store.open(hash);
  if (!stream) throw new Error(`No stored file ${hash}`);
  await pipeline(stream, fs.createWriteStream(target));
}
