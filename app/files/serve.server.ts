import { Readable } from "node:stream";
import type { DB } from "#db/connection";
import { evidenceFileFor, recordEvidenceDownload, type EvidenceViewer } from "~/models/evidence.server";
import { EVIDENCE_MEDIA_TYPES, isEvidenceMediaType } from "./types";
import type { FileStore } from "./store.server";

/** A file name safe in a Content-Disposition header, with the UTF-8 name beside it. */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * One evidence file (or its thumbnail) for someone who may see it, streamed from the store:
 * always an attachment, with nosniff, so a browser never renders an upload as a page. A
 * thumbnail is shown inline (it is a JPEG the portal drew). Staff downloads of the file are
 * audited. null: not found (or not theirs to see).
 */
export async function evidenceResponse(db: DB, store: FileStore, viewer: EvidenceViewer & { client?: string | null }, id: string, thumbnail = false): Promise<Response | null> {
  const found = await evidenceFileFor(db, viewer, id);
  if (!found) return null;
  const { file } = found;
  const hash = thumbnail ? file.thumbnail_sha256 : file.sha256;
  if (!hash) return null;
  const stream = await store.open(hash);
  if (!stream) return null;
  if (!thumbnail) await recordEvidenceDownload(db, viewer, file);
  const type = thumbnail ? "image/jpeg" : isEvidenceMediaType(file.media_type) ? file.media_type : "application/octet-stream";
  const name = thumbnail || !isEvidenceMediaType(file.media_type) ? file.original_name : file.original_name.replace(/\.[^.]*$/, "") + "." + EVIDENCE_MEDIA_TYPES[file.media_type].extension;
  return new Response(Readable.toWeb(stream) as ReadableStream, {
    headers: {
      "Content-Type": type,
      "Content-Disposition": thumbnail ? "inline" : disposition(name),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
      ...(thumbnail ? {} : { "Content-Length": String(file.size_bytes) }),
    },
  });
}
