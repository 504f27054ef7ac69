import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileTypeFromBuffer } from "file-type";
import type Sharp from "sharp";
import { stripHeifMetadata } from "./heif-metadata.server";
import { stripMp4Metadata } from "./mp4-metadata.server";
import type { FileStore } from "./store.server";
import { invalid } from "~/utils/errors";
import { EVIDENCE_MESSAGES, isEvidenceMediaType, MAX_EVIDENCE_FILE_BYTES, type EvidenceMediaType } from "./types";

/**
 * sharp (libvips), loaded at the first image rather than at every worker's start, and set up
 * once: libvips keeps decoded images in a cache by default, and an upload is read once, so
 * keeping it would only hold memory.
 */
let vips: Promise<typeof Sharp> | undefined;
export function loadSharp(): Promise<typeof Sharp> {
  return (vips ??= import("sharp").then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  }));
}

/** One uploaded file, spooled to a temporary file on disk as it streamed in. */
export interface SpooledFile {
  /** the field it came in on */
  field: string;
  /** the name the client gave, cleaned for display; never used as a path */
  name: string;
  path: string;
  size: number;
  /** set when the file was refused while streaming (too large): its bytes were not kept */
  refused?: string;
}

/** A file ready to record: its bytes (and thumbnail's) in the store under their hashes. */
export interface StoredFile {
  name: string;
  sha256: string;
  size: number;
  mediaType: EvidenceMediaType;
  thumbnailSha256: string | null;
  /** the upload's copy of the bytes kept (and of the thumbnail), on disk until the upload is disposed */
  path: string;
  thumbnailPath: string | null;
}

/** A file that cannot be accepted, with the message for its field. */
export class FileRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FileRefused";
  }
}

/** A client's file name as we show it: the last path segment, no control characters, at most 200 characters. */
export function displayName(name: string | undefined | null): string {
  const last = (name ?? "").split(/[\\/]/).pop()!;
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const base = last.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return (base || "file").slice(0, 200);
}

/**
 * Upload directories are named for the process that made them (`portal-upload-<pid>-…`), so a
 * process starting can tell which ones are left over: their process is gone (killed mid-upload,
 * or crashed), while a directory of another live worker or server is in use.
 */
const UPLOAD_PREFIX = "portal-upload-";

/** A private temporary directory for one upload's files; remove it with removeUploadDirectory. */
export function uploadDirectory(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `${UPLOAD_PREFIX}${process.pid}-`));
}

export function removeUploadDirectory(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, and belongs to someone else
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the upload directories whose process is gone, at start (app/http/index.ts): what a
 * worker killed mid-upload left in the temporary folder. Another process's directory is left
 * alone while that process lives. Answers how many were removed.
 */
export function sweepUploadLeftovers(tmp = os.tmpdir()): number {
  let removed = 0;
  let names: string[];
  try {
    names = fs.readdirSync(tmp);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!name.startsWith(UPLOAD_PREFIX)) continue;
    const pid = Number(/^portal-upload-(\d+)-/.exec(name)?.[1]);
    // a directory named before the pid was part of its name belongs to no process that runs now
    if (pid && processAlive(pid)) continue;
    try {
      fs.rmSync(path.join(tmp, name), { recursive: true, force: true });
      removed++;
    } catch {
      /* another process swept it first, or it is not ours to remove */
    }
  }
  return removed;
}

/**
 * Waits until a file stream takes writes again (or is closed). Whichever comes first removes
 * the other's listener: a large file waits hundreds of times, and listeners left behind pile
 * up on the stream.
 */
function drained(out: fs.WriteStream): Promise<void> {
  if (!out.writableNeedDrain || out.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      out.off("drain", done);
      out.off("close", done);
      resolve();
    };
    out.on("drain", done);
    out.on("close", done);
  });
}

/**
 * Writes a file's bytes to `dir` as they arrive, counting them. Past the limit the bytes
 * already written are deleted and the rest of the part is read and dropped (so the client's
 * request completes and gets the answer), the file marked refused: memory holds one chunk at a
 * time, whatever the size. When the bytes stop coming (the body cut short, the client gone) the
 * partial file is deleted and the error passed on; the file's own write errors are caught too,
 * since an error event nobody listens to ends the process.
 */
export async function spool(
  data: AsyncIterable<Uint8Array>,
  field: string,
  name: string | undefined,
  dir: string,
  limit = MAX_EVIDENCE_FILE_BYTES,
): Promise<SpooledFile> {
  const target = path.join(dir, crypto.randomUUID());
  const out = fs.createWriteStream(target, { mode: 0o600 });
  let writeError: Error | null = null;
  out.on("error", (error) => (writeError ??= error));
  let size = 0;
  let over = false;
  const display = displayName(name);
  try {
    for await (const chunk of data) {
      size += chunk.byteLength;
      if (over) continue;
      if (size > limit) {
        over = true;
        out.destroy();
        continue;
      }
      if (writeError) throw writeError;
      if (!out.write(chunk)) await drained(out);
    }
    if (!over)
      await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => ((error ?? writeError) ? reject(error ?? writeError) : resolve())));
  } catch (error) {
    await new Promise<void>((resolve) => (out.closed ? resolve() : out.once("close", () => resolve()).destroy()));
    fs.rmSync(target, { force: true });
    throw error;
  }
  if (over) {
    fs.rmSync(target, { force: true });
    return { field, name: display, path: target, size, refused: EVIDENCE_MESSAGES.tooLarge(display) };
  }
  return { field, name: display, path: target, size };
}

/** The type of a file from its first bytes, or null when it is none of the accepted ones. */
export async function sniffType(file: string): Promise<EvidenceMediaType | null> {
  const handle = await fs.promises.open(file, "r");
  try {
    const head = Buffer.alloc(4100);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const found = await fileTypeFromBuffer(head.subarray(0, bytesRead));
    // file-type names HEIC stills image/heic and their sequences image/heic-sequence
    const mime = found?.mime === "image/heic-sequence" ? "image/heic" : found?.mime;
    return isEvidenceMediaType(mime) ? mime : null;
  } finally {
    await handle.close();
  }
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

/**
 * A photo without its metadata: turned upright by its orientation tag, then written again with
 * no EXIF, XMP or IPTC (sharp keeps none unless asked), so the place it was taken is gone. HEIC,
 * which this build of libvips cannot decode, has its metadata items blanked in place instead.
 * libvips reads the image in strips from the file (mapped, not copied): the memory it takes
 * follows the image's width, not its size. Huffman tables are not optimised, since that holds
 * every coefficient of the image until the end.
 */
async function cleanPhoto(source: string, type: EvidenceMediaType, dir: string, name: string): Promise<string> {
  const target = path.join(dir, crypto.randomUUID());
  if (type === "image/heic") {
    await fs.promises.copyFile(source, target);
    await stripHeifMetadata(target);
    return target;
  }
  const sharp = await loadSharp();
  try {
    const image = sharp(source, { sequentialRead: true, limitInputPixels: 200_000_000 }).rotate();
    await (type === "image/png" ? image.png() : image.jpeg({ quality: 90, optimiseCoding: false })).toFile(target);
  } catch {
    throw new FileRefused(EVIDENCE_MESSAGES.unreadable(name));
  }
  return target;
}

/** A small JPEG of an image for lists (null for what libvips cannot draw). */
async function thumbnail(source: string, type: EvidenceMediaType, dir: string): Promise<string | null> {
  if (type !== "image/jpeg" && type !== "image/png") return null;
  const target = path.join(dir, crypto.randomUUID());
  const sharp = await loadSharp();
  await sharp(source, { sequentialRead: true })
    .resize(320, 320, { fit: "inside", withoutEnlargement: true })
    .jpeg({ quality: 70, optimiseCoding: false })
    .toFile(target);
  return target;
}

/**
 * Takes a spooled upload into the store: its type judged from its bytes, a photo or a video
 * cleaned of its metadata, its thumbnail drawn, each stored once under its SHA-256. Throws FileRefused with
 * the message for the form when the file cannot be accepted.
 */
export async function storeSpooled(store: FileStore, file: SpooledFile, dir: string): Promise<StoredFile> {
  if (file.refused) throw new FileRefused(file.refused);
  const type = await sniffType(file.path);
  if (!type) throw new FileRefused(EVIDENCE_MESSAGES.wrongType(file.name));
  const kept = type.startsWith("image/") ? await cleanPhoto(file.path, type, dir, file.name) : file.path;
  // a video keeps its pictures; where it was filmed is blanked in the spooled copy itself
  if (type === "video/mp4") await stripMp4Metadata(kept);
  const thumb = await thumbnail(kept, type, dir);
  const sha256 = await sha256OfFile(kept);
  const size = (await fs.promises.stat(kept)).size;
  await store.put(sha256, kept);
  let thumbnailSha256: string | null = null;
  if (thumb) {
    thumbnailSha256 = await sha256OfFile(thumb);
    await store.put(thumbnailSha256, thumb);
  }
  return { name: file.name, sha256, size, mediaType: type, thumbnailSha256, path: kept, thumbnailPath: thumb ?? null };
}

/** An upload read from a form: its spooled files and their directory (app/files/upload.server.ts). */
export interface FormUpload {
  store: FileStore;
  files: SpooledFile[];
  dir: string;
  tooMany?: boolean;
}

/**
 * A form's one file taken into the store (typed from its bytes, a photo cleaned), or null when
 * none was chosen. More than one is refused with `oneFile`, a file that cannot be accepted with
 * its own message, each on `field`.
 */
export async function storeOneUpload(upload: FormUpload | null, field: string, oneFile: string): Promise<StoredFile | null> {
  if (!upload || upload.files.length === 0) return null;
  if (upload.tooMany || upload.files.length > 1) throw invalid(oneFile, { [field]: oneFile });
  try {
    return await storeSpooled(upload.store, upload.files[0]!, upload.dir);
  } catch (error) {
    if (!(error instanceof FileRefused)) throw error;
    throw invalid(error.message, { [field]: error.message });
  }
}
