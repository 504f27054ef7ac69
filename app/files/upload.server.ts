import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import busboy from "busboy";
import { removeUploadDirectory, spool, uploadDirectory, type SpooledFile } from "./intake.server";
import { MAX_EVIDENCE_FILES, MAX_UPLOAD_BODY_BYTES } from "./types";

/** A multipart form read with its files spooled to disk; `dispose` removes them. */
export interface ReadUpload {
  form: FormData;
  files: SpooledFile[];
  /** where the files (and whatever is made from them) are kept until `dispose` */
  dir: string;
  tooMany: boolean;
  dispose(): void;
}

/** The multipart body was not one (a broken or truncated request, or a client that went away). */
export class BadUpload extends Error {}

/** What a client is told when its multipart body cannot be read (each upload route's 400). */
export const BAD_UPLOAD_MESSAGE = "The upload could not be read (it was cut short or is not a complete multipart form); please send it again";

/**
 * Reads a multipart request as it streams (busboy): each file part goes to a temporary file
 * (at most 25 MB, counted as it arrives), the other fields into a small FormData. Nothing holds
 * a whole file in memory. Files past MAX_EVIDENCE_FILES are read and dropped.
 *
 * Any body that is not a whole multipart form (no boundary, cut short, no closing boundary, a
 * client gone mid-upload) is a BadUpload, and nothing of it stays on disk: every stream
 * involved has its errors caught here, and the directory is removed only once every file being
 * written to it has finished, so no write lands after it (an error emitted on a stream nobody
 * listens to, or a rejection nobody awaits, would end the whole process).
 */
export async function readUpload(request: Request): Promise<ReadUpload> {
  if (!request.body) throw new BadUpload("No body");
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("Content-Type") ?? "" },
      limits: { fieldSize: 64 * 1024, fields: 50, parts: MAX_EVIDENCE_FILES + 60 },
    });
  } catch (error) {
    // no boundary, or not multipart at all: busboy refuses it as it is made. The body is read
    // and dropped before the 400 goes out: a connection closed while its client is still
    // sending is reset under it, and a reset loses the part of our answer not yet read (a
    // page of the size of a student's record, cut mid-way)
    await discard(request.body);
    throw new BadUpload(String(error));
  }
  const dir = uploadDirectory();
  const files: SpooledFile[] = [];
  const form = new FormData();
  let tooMany = false;
  const dispose = () => removeUploadDirectory(dir);
  const pending: Promise<unknown>[] = [];
  let count = 0;
  const closed = new Promise<void>((resolve, reject) => {
    parser.on("field", (name, value) => form.append(name, value));
    parser.on("file", (name, stream, info) => {
      if (!info.filename || count >= MAX_EVIDENCE_FILES) {
        // an empty file input still sends its part; parts past the limit are dropped (a body
        // cut short destroys the part's stream with an error, which must have a listener)
        if (info.filename) tooMany = true;
        stream.on("error", () => {});
        stream.resume();
        return;
      }
      const index = count++;
      pending.push(spool(stream, name, info.filename, dir).then((file) => (files[index] = file)));
    });
    parser.on("close", resolve);
    parser.on("error", reject);
  });
  try {
    // pipeline, not pipe: an error on either side (the client gone, the form cut short) destroys
    // both and reaches here instead of being thrown from an event
    await Promise.all([pipeline(Readable.fromWeb(request.body as unknown as NodeWebStream<Uint8Array>), parser), closed]);
  } catch (error) {
    await Promise.allSettled(pending);
    dispose();
    throw new BadUpload(String(error));
  }
  const spooled = await Promise.allSettled(pending);
  const failed = spooled.find((s) => s.status === "rejected");
  if (failed) {
    dispose();
    throw failed.reason;
  }
  return { form, files, dir, tooMany, dispose };
}

/** Reads a body to its end and drops it; past the largest upload the rest is not worth reading. */
async function discard(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  let read = 0;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      read += chunk.value.byteLength;
      if (read > MAX_UPLOAD_BODY_BYTES) return void (await reader.cancel());
    }
  } catch {
    // the client went away: nothing is left to drop
  }
}

/** Whether a request carries a multipart body (the evidence form, or its script's upload). */
export function isMultipart(request: Request): boolean {
  return (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");
}
