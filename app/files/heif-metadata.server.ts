import fs from "node:fs";

/**
 * HEIC photos (iPhones) keep their EXIF (GPS included) and XMP as items of the file's `meta`
 * box, their bytes wherever the `iloc` box says. The libvips that sharp ships cannot decode
 * HEVC, so a HEIC photo cannot be re-encoded like a JPEG; instead those items' bytes are
 * overwritten with zeros in place. The picture is untouched and the file keeps its size and
 * layout; a reader finds no EXIF header there and no location.
 */

/** One ISO base media file box (HEIF and MP4 alike). */
export interface Box {
  type: string;
  /** where the box begins (its header) */
  at: number;
  /** where its content starts (after the header) and where the box ends */
  start: number;
  end: number;
}

/** The boxes that lie one after another in `buf` between `from` and `to`. */
export function boxes(buf: Buffer, from: number, to: number): Box[] {
  const out: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = buf.readUInt32BE(at);
    const type = buf.toString("latin1", at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      size = Number(buf.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) break;
    out.push({ type, at, start: at + header, end: at + size });
    at += size;
  }
  return out;
}

function readSized(buf: Buffer, at: number, bytes: number): number {
  if (bytes === 0) return 0;
  if (bytes === 4) return buf.readUInt32BE(at);
  if (bytes === 8) return Number(buf.readBigUInt64BE(at));
  if (bytes === 2) return buf.readUInt16BE(at);
  throw new Error("unsupported iloc field size");
}

/** The ids of the items that hold metadata: EXIF, and XMP (a `mime` item of RDF/XML). */
function metadataItems(buf: Buffer, iinf: Box): Set<number> {
  const version = buf[iinf.start]!;
  const first = iinf.start + 4 + (version === 0 ? 2 : 4);
  const ids = new Set<number>();
  for (const infe of boxes(buf, first, iinf.end)) {
    if (infe.type !== "infe") continue;
    const v = buf[infe.start]!;
    if (v < 2) continue;
    let at = infe.start + 4;
    const id = v === 2 ? buf.readUInt16BE(at) : buf.readUInt32BE(at);
    at += (v === 2 ? 2 : 4) + 2;
    const itemType = buf.toString("latin1", at, at + 4);
    at += 4;
    if (itemType === "Exif") ids.add(id);
    else if (itemType === "mime") {
      const nameEnd = buf.indexOf(0, at);
      const contentType = buf.toString("latin1", nameEnd + 1, buf.indexOf(0, nameEnd + 1));
      if (/rdf\+xml|xmp/i.test(contentType)) ids.add(id);
    }
  }
  return ids;
}

/** Where in the file each of the given items' bytes lie (construction method 0: file offsets). */
function extents(buf: Buffer, iloc: Box, wanted: Set<number>): { offset: number; length: number }[] {
  const version = buf[iloc.start]!;
  let at = iloc.start + 4;
  const offsetSize = buf[at]! >> 4;
  const lengthSize = buf[at]! & 15;
  const baseOffsetSize = buf[at + 1]! >> 4;
  const indexSize = version === 1 || version === 2 ? buf[at + 1]! & 15 : 0;
  at += 2;
  const count = version < 2 ? buf.readUInt16BE(at) : buf.readUInt32BE(at);
  at += version < 2 ? 2 : 4;
  const out: { offset: number; length: number }[] = [];
  for (let i = 0; i < count; i++) {
    const id = version < 2 ? buf.readUInt16BE(at) : buf.readUInt32BE(at);
    at += version < 2 ? 2 : 4;
    let method = 0;
    if (version === 1 || version === 2) {
      method = buf.readUInt16BE(at) & 15;
      at += 2;
    }
    at += 2; // data_reference_index
    const base = readSized(buf, at, baseOffsetSize);
    at += baseOffsetSize;
    const extentCount = buf.readUInt16BE(at);
    at += 2;
    for (let e = 0; e < extentCount; e++) {
      at += indexSize;
      const offset = readSized(buf, at, offsetSize);
      at += offsetSize;
      const length = readSized(buf, at, lengthSize);
      at += lengthSize;
      if (wanted.has(id) && method === 0) out.push({ offset: base + offset, length });
    }
  }
  return out;
}

/**
 * Blanks the metadata items of the HEIF file at `file` in place. Only the `meta` box is read
 * into memory (a few kilobytes); the blanking writes zeros at the items' offsets.
 */
export async function stripHeifMetadata(file: string): Promise<number> {
  const handle = await fs.promises.open(file, "r+");
  try {
    const { size } = await handle.stat();
    // the top-level boxes' headers, read one at a time
    let at = 0;
    let meta: Buffer | null = null;
    const header = Buffer.alloc(16);
    while (at + 8 <= size) {
      await handle.read(header, 0, 16, at);
      let boxSize = header.readUInt32BE(0);
      if (boxSize === 1) boxSize = Number(header.readBigUInt64BE(8));
      else if (boxSize === 0) boxSize = size - at;
      if (boxSize < 8) break;
      if (header.toString("latin1", 4, 8) === "meta") {
        meta = Buffer.alloc(boxSize);
        await handle.read(meta, 0, boxSize, at);
        break;
      }
      at += boxSize;
    }
    if (!meta) return 0;
    const inner = boxes(meta, 8 + 4, meta.length); // meta is a full box: 4 bytes of version and flags
    const iinf = inner.find((b) => b.type === "iinf");
    const iloc = inner.find((b) => b.type === "iloc");
    if (!iinf || !iloc) return 0;
    const wanted = metadataItems(meta, iinf);
    let blanked = 0;
    for (const { offset, length } of extents(meta, iloc, wanted)) {
      if (offset + length > size) continue;
      await handle.write(Buffer.alloc(length), 0, length, offset);
      blanked += length;
    }
    return blanked;
  } finally {
    await handle.close();
  }
}
