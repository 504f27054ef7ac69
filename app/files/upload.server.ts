import fs from "node:fs";
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import busboy from "busboy";
import { spool, uploadDirectory, type SpooledFile } from "./intake.server";
import { MAX_EVIDENCE_FILES } from "./types";

/** A multipart form read with its files spooled to disk; `dispose` removes them. */
export interface ReadUpload {
  form: FormData;
  files: SpooledFile[];
  /** where the files (and whatever is made from them) are kept until `dispose` */
  dir: string;
  tooMany: boolean;
  dispose(): void;
}

/** The multipart body was not one (a broken or truncated request). */
export class BadUpload extends Error {}

/**
 * Reads a multipart request as it streams (busboy): each file part goes to a temporary file
 * (at most 25 MB, counted as it arrives), the other fields into a small FormData. Nothing holds
 * a whole file in memory. Files past MAX_EVIDENCE_FILES are read and dropped.
 */
export async function readUpload(request: Request): Promise<ReadUpload> {
  const dir = uploadDirectory();
  const files: SpooledFile[] = [];
  const form = new FormData();
  let tooMany = false;
  const dispose = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    if (!request.body) throw new BadUpload("No body");
    const parser = busboy({
      headers: { "content-type": request.headers.get("Content-Type") ?? "" },
      limits: { fieldSize: 64 * 1024, fields: 50, parts: MAX_EVIDENCE_FILES + 60 },
    });
    const pending: Promise<unknown>[] = [];
    let count = 0;
    const done = new Promise<void>((resolve, reject) => {
      parser.on("field", (name, value) => form.append(name, value));
      parser.on("file", (name, stream, info) => {
        if (!info.filename || count >= MAX_EVIDENCE_FILES) {
          // an empty file input still sends its part; parts past the limit are dropped
          if (info.filename) tooMany = true;
          stream.resume();
          return;
        }
        const index = count++;
        pending.push(spool(stream, name, info.filename, dir).then((file) => (files[index] = file)));
      });
      parser.on("close", resolve);
      parser.on("error", (error) => reject(new BadUpload(String(error))));
    });
    Readable.fromWeb(request.body as unknown as NodeWebStream<Uint8Array>).pipe(parser);
    await done;
    await Promise.all(pending);
    return { form, files, dir, tooMany, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

/** Whether a request carries a multipart body (the evidence form, or its script's upload). */
export function isMultipart(request: Request): boolean {
  return (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");
}
