import { execFileSync } from "node:child_process";
import fs from "node:fs";
import sharp from "sharp";

/** EXIF with a place in it (Sydney), as a phone camera writes it. */
export const GPS_EXIF = {
  IFD0: { Make: "TestCam", Model: "Yard 1" },
  IFD3: { GPSLatitudeRef: "S", GPSLatitude: "33/1 51/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "151/1 12/1 0/1" },
};

/** A small JPEG photo with GPS tags. `shade` makes different photos differ. */
export async function gpsPhoto(shade = 120, size = 96): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: { r: shade, g: 80, b: 40 } } })
    .jpeg()
    .withExif(GPS_EXIF)
    .toBuffer();
}

export async function pngImage(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: "green" } })
    .png()
    .toBuffer();
}

/**
 * A JPEG of noise of at least `bytes` bytes with GPS tags, written to `file` by a child process
 * so the memory libvips takes to make it is not counted against the upload being measured.
 */
export function writeLargePhoto(file: string, bytes: number, below = bytes + 1024 * 1024): void {
  // noise compresses to a near-constant number of bytes a pixel: size the side from a first try
  const script = `
    const sharp = require("sharp");
    const fs = require("fs");
    const make = (side) => sharp({ create: { width: side, height: side, channels: 3, noise: { type: "gaussian", mean: 128, sigma: 90 } } })
      .jpeg({ quality: 100, chromaSubsampling: "4:4:4" })
      .withExif(${JSON.stringify(GPS_EXIF)})
      .toFile(${JSON.stringify(file)});
    (async () => {
      let side = 1000;
      for (let i = 0; i < 4; i++) {
        await make(side);
        const size = fs.statSync(${JSON.stringify(file)}).size;
        if (size >= ${bytes} && size < ${below}) return;
        side = Math.round(side * Math.sqrt(${(bytes + below) / 2} / size));
      }
      process.exit(1);
    })().catch((e) => { console.error(e); process.exit(1); });`;
  execFileSync(process.execPath, ["-e", script], { stdio: "inherit" });
}

/**
 * A multipart/form-data request whose body streams from files on disk (never whole in memory),
 * with any text fields first.
 */
export function multipartRequest(
  url: string,
  fields: Record<string, string>,
  files: { field: string; name: string; path?: string; bytes?: Buffer; type?: string }[],
  headers: Record<string, string> = {},
): Request {
  const boundary = `----evidence${Math.random().toString(16).slice(2)}`;
  const encoder = new TextEncoder();
  async function* body() {
    for (const [name, value] of Object.entries(fields)) {
      yield encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    }
    for (const f of files) {
      yield encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type ?? "application/octet-stream"}\r\n\r\n`,
      );
      if (f.path) for await (const chunk of fs.createReadStream(f.path, { highWaterMark: 256 * 1024 })) yield new Uint8Array(chunk as Buffer);
      else yield new Uint8Array(f.bytes!);
      yield encoder.encode("\r\n");
    }
    yield encoder.encode(`--${boundary}--\r\n`);
  }
  const iterator = body();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
  });
  return new Request(url, {
    method: "POST",
    body: stream,
    headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, ...headers },
    // Node's fetch needs duplex for a streamed body
    duplex: "half",
  } as RequestInit);
}

/** Where locatedVideo says it was filmed (ISO 6709, as a phone writes it). */
export const VIDEO_LOCATION = "+27.4698+153.0251+012.000/";

/** An ISO base media box: its size, its type and its content. */
function mp4Box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, "latin1");
  return Buffer.concat([head, body]);
}

/**
 * A small MP4 that says where it was filmed in each place phones and editors put it: QuickTime's
 * `©xyz` in the movie's and a track's `udta`, the location key of a `meta` box, and an XMP packet
 * in a top-level `uuid` box. Its media data is `mdat` (answered apart, to check it is untouched).
 */
export function locatedVideo(): { bytes: Buffer; mdat: Buffer } {
  const text = (s: string) => Buffer.from(s, "latin1");
  const xyz = () => {
    const value = text(VIDEO_LOCATION);
    const head = Buffer.alloc(4);
    head.writeUInt16BE(value.length, 0);
    head.writeUInt16BE(0x15c7, 2); // language
    return mp4Box("\u00a9xyz", head, value);
  };
  const fullBox = Buffer.alloc(4); // version and flags
  const key = text("com.apple.quicktime.location.ISO6709");
  const keyEntry = Buffer.concat([Buffer.from([0, 0, 0, 8 + key.length]), text("mdta"), key]);
  const meta = mp4Box(
    "meta",
    fullBox,
    mp4Box("hdlr", Buffer.alloc(8), text("mdta"), Buffer.alloc(13)),
    mp4Box("keys", fullBox, Buffer.from([0, 0, 0, 1]), keyEntry),
    mp4Box("ilst", mp4Box("\u0000\u0000\u0000\u0001", mp4Box("data", Buffer.from([0, 0, 0, 1, 0, 0, 0, 0]), text(VIDEO_LOCATION)))),
  );
  const xmpUuid = Buffer.from("be7acfcb97a942e89c71999491e3afac", "hex");
  const xmp = mp4Box("uuid", xmpUuid, text(`<x:xmpmeta><rdf:Description exif:GPSLatitude="27,28.188S" exif:GPSLongitude="153,1.506E"/></x:xmpmeta>`));
  const mdat = mp4Box("mdat", Buffer.alloc(4096, 0x42));
  const moov = mp4Box(
    "moov",
    mp4Box("mvhd", Buffer.alloc(100)),
    mp4Box("trak", mp4Box("tkhd", Buffer.alloc(84)), mp4Box("udta", xyz())),
    mp4Box("udta", xyz()),
    meta,
  );
  const ftyp = mp4Box("ftyp", text("isom"), Buffer.from([0, 0, 2, 0]), text("isomiso2mp41"));
  return { bytes: Buffer.concat([ftyp, xmp, moov, mdat]), mdat };
}
