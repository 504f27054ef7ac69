import { Readable } from "node:stream";
import type { DB } from "#db/connection";
import { evidenceFileFor, recordEvidenceDownload, type EvidenceViewer } from "~/models/evidence.server";
import { activityEvidenceFor, recordActivityEvidenceDownload } from "~/models/standards/trainer-credential.server";
import { learnerDocumentFor, recordLearnerDocumentDownload } from "~/models/learner-document.server";
import { EVIDENCE_MEDIA_TYPES, isEvidenceMediaType } from "~/files/types";
import type { FileStore } from "~/files/store.server";

/** A file name safe in a Content-Disposition header, with the UTF-8 name beside it. */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * One evidence file (or its thumbnail) for someone who may see it, streamed from the store:
 * always an attachment, with nosniff, so a browser never renders an upload as a page. A
 * thumbnail is shown inline (it is a JPEG the portal drew). Staff downloads of the file and of
 * its thumbnail are audited. null: not found (or not theirs to see).
 */
export async function evidenceResponse(
  db: DB,
  store: FileStore,
  viewer: EvidenceViewer & { client?: string | null },
  id: string,
  thumbnail = false,
): Promise<Response | null> {
  const found = await evidenceFileFor(db, viewer, id);
  if (!found) return null;
  const { file } = found;
  const hash = thumbnail ? file.thumbnail_sha256 : file.sha256;
  if (!hash) return null;
  const stream = await store.open(hash);
  if (!stream) return null;
  await recordEvidenceDownload(db, viewer, file, thumbnail);
  if (thumbnail)
    return new Response(Readable.toWeb(stream) as ReadableStream, { headers: { "Content-Type": "image/jpeg", "Content-Disposition": "inline", ...UNSNIFFED } });
  return attachment(stream, file);
}

const UNSNIFFED = { "X-Content-Type-Options": "nosniff", "Cache-Control": "private, no-store" };

/** A stored file as an attachment under its name, with the extension of the type judged from its bytes. */
function attachment(stream: Readable, file: { media_type: string; original_name: string; size_bytes: number }): Response {
  const type = isEvidenceMediaType(file.media_type) ? file.media_type : null;
  const name = type ? file.original_name.replace(/\.[^.]*$/, "") + "." + EVIDENCE_MEDIA_TYPES[type].extension : file.original_name;
  return new Response(Readable.toWeb(stream) as ReadableStream, {
    headers: {
      "Content-Type": type ?? "application/octet-stream",
      "Content-Disposition": disposition(name),
      "Content-Length": String(file.size_bytes),
      ...UNSNIFFED,
    },
  });
}

/**
 * A trainer's currency or development evidence file, for that trainer or an administrator, from
 * the same store and as the same attachment as assessment evidence; each download is audited.
 * null: not found (or not theirs to see).
 */
export async function activityEvidenceResponse(
  db: DB,
  store: FileStore,
  viewer: EvidenceViewer & { client?: string | null },
  activityId: string,
): Promise<Response | null> {
  const file = await activityEvidenceFor(db, viewer, activityId);
  const stream = file ? await store.open(file.sha256) : null;
  if (!file || !stream) return null;
  await recordActivityEvidenceDownload(db, viewer, file);
  return attachment(stream, file);
}

/**
 * A learner's document, for that learner or an administrator, from the same store and as the
 * same attachment as assessment evidence; each administrator's download is audited. null: not
 * found (or not theirs to see).
 */
export async function learnerDocumentResponse(
  db: DB,
  store: FileStore,
  viewer: EvidenceViewer & { client?: string | null },
  id: string,
): Promise<Response | null> {
  const document = await learnerDocumentFor(db, viewer, id);
  const stream = document?.sha256 ? await store.open(document.sha256) : null;
  if (!document?.sha256 || !stream) return null;
  await recordLearnerDocumentDownload(db, viewer, { ...document, sha256: document.sha256 });
  return attachment(stream, { media_type: document.file_type, original_name: document.filename, size_bytes: document.size_bytes ?? 0 });
}
