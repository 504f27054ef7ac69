import fs from "node:fs";
import { boxes, type Box } from "./heif-metadata.server";

/**
 * A phone's MP4 video says where it was filmed: QuickTime's `©xyz` entry in a `udta` box, the
 * `com.apple.quicktime.location.ISO6709` key of a `meta` box (in the movie or a track), and
 * sometimes an XMP packet in a top-level `uuid` box. None of those is needed to play the video,
 * so each is turned into a `free` box of the same size with its bytes zeroed: the sample data
 * and every offset that points into it stay as they were, and a reader finds no location (nor
 * the camera's other notes). Only the `moov` box is read into memory, never the media data.
 */

/** Boxes of user metadata, in the movie and in each track. */
const METADATA = new Set(["udta", "meta"]);
/** The uuid Adobe gives an XMP packet. */
const XMP_UUID = "be7acfcb97a942e89c71999491e3afac";

/** Makes `box` (inside `buf`) a zeroed `free` box; answers the bytes blanked. */
function blank(buf: Buffer, box: Box): number {
  buf.fill(0, box.start, box.end);
  buf.write("free", box.at + 4, "latin1");
  return box.end - box.start;
}

/** Blanks the metadata boxes inside a movie box held in `moov` (its own header included). */
function blankMovie(moov: Buffer, from: number): number {
  let blanked = 0;
  for (const box of boxes(moov, from, moov.length)) {
    if (METADATA.has(box.type)) blanked += blank(moov, box);
    else if (box.type === "trak") blanked += blankMovie(moov.subarray(0, box.end), box.start);
  }
  return blanked;
}

/** Strips the location and other metadata of the MP4 file at `file` in place; answers the bytes blanked. */
export async function stripMp4Metadata(file: string): Promise<number> {
  const handle = await fs.promises.open(file, "r+");
  try {
    const { size } = await handle.stat();
    const header = Buffer.alloc(32);
    let blanked = 0;
    let at = 0;
    // the top-level boxes' headers, read one at a time
    while (at + 8 <= size) {
      const { bytesRead } = await handle.read(header, 0, 32, at);
      let boxSize = header.readUInt32BE(0);
      let headerSize = 8;
      if (boxSize === 1) {
        if (bytesRead < 16) break;
        boxSize = Number(header.readBigUInt64BE(8));
        headerSize = 16;
      } else if (boxSize === 0) boxSize = size - at;
      if (boxSize < headerSize || at + boxSize > size) break;
      const type = header.toString("latin1", 4, 8);
      const xmp = type === "uuid" && header.toString("hex", headerSize, headerSize + 16) === XMP_UUID;
      if (type === "moov" || type === "meta" || xmp) {
        const box = Buffer.alloc(boxSize);
        await handle.read(box, 0, boxSize, at);
        const own: Box = { type, at: 0, start: headerSize, end: boxSize };
        const count = type === "moov" ? blankMovie(box, headerSize) : blank(box, own);
        if (count > 0) await handle.write(box, 0, boxSize, at);
        blanked += count;
      }
      at += boxSize;
    }
    return blanked;
  } finally {
    await handle.close();
  }
}
